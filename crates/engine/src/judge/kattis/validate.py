#!/usr/bin/env python3
"""The input format validator of the Kattis package `beast cases --format kattis` writes.

It accepts exactly what the judge's parser (crates/engine/src/beast/parse.rs) accepts, rule
for rule, but one: a size number written with a leading zero (`040`), which the parser reads
as 40 and Kattis requires a validator to refuse. Exit 42 accepts, 43 refuses (the reason on
stderr, with line:col). Run as `validate.py --parse FILE...` it prints, for each file,
`ok` or the line and column of the first refusal (to be compared with the parser's), then
the exit code it would give.
"""
import sys

# ASCII whitespace as Rust's `split_ascii_whitespace` splits the size line on.
ASCII_SPACE = " \t\n\x0c\r"
# Unicode White_Space as Rust's `char::is_whitespace` has it: allowed between moves.
WHITE_SPACE = set(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
    "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
MAP = set("#~HO ")
MOVES = set("UDLRW")
USIZE_MAX = 2**64 - 1


class Refused(Exception):
    """A refusal at a line and column (both from 1)."""

    def __init__(self, line, col, why):
        super().__init__(f"{line}:{col}: {why}")
        self.line, self.col = line, col


def utf8_place(data):
    """The line and column of the first byte that is not UTF-8, or None."""
    try:
        data.decode("utf-8")
        return None
    except UnicodeDecodeError as e:
        before = data[: e.start]
        line = before.count(b"\n") + 1
        start = before.rfind(b"\n") + 1
        return line, len(before[start:].decode("utf-8")) + 1


def lines_of(text):
    """The lines as the parser reads them: split at `\\n`, one `\\r` before it dropped; text
    after the final newline is a last line (its `\\r` kept); nothing after it is no line."""
    parts = text.split("\n")
    lines = [p[:-1] if p.endswith("\r") else p for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def size(line):
    tokens = []
    i = 0
    while i < len(line):
        if line[i] in ASCII_SPACE:
            i += 1
            continue
        j = i
        while j < len(line) and line[j] not in ASCII_SPACE:
            j += 1
        tokens.append((i + 1, line[i:j]))
        i = j
    def number(token):
        col, tok = token
        if not all("0" <= c <= "9" for c in tok):
            raise Refused(1, col, f"{tok!r} is not a whole number")
        if int(tok) > USIZE_MAX:
            raise Refused(1, col, f"{tok} is too large")
        return int(tok)

    # In the parser's order: the first number, the second, anything after them, the size.
    if not tokens:
        raise Refused(1, 1, "expected the map size as two integers, COLS ROWS")
    numbers = [number(tokens[0])]
    if len(tokens) < 2:
        raise Refused(1, len(line) + 1, "the size line has one number")
    numbers.append(number(tokens[1]))
    if len(tokens) > 2:
        raise Refused(1, tokens[2][0], "more than two tokens on the size line")
    cols, rows = numbers
    if cols < 3 or rows < 3:
        raise Refused(1, 1, "a map must be at least 3x3")
    return cols, rows, tokens


def check(data):
    """Raises Refused at the parser's place, or returns the size tokens of valid input."""
    bad = utf8_place(data)
    if bad:
        raise Refused(bad[0], bad[1], "not UTF-8")
    text = data.decode("utf-8")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = lines_of(text)
    if not lines:
        raise Refused(1, 1, "expected the map size as two integers, COLS ROWS")
    cols, rows, tokens = size(lines[0])
    player = None
    for r in range(rows):
        n = r + 2
        if n > len(lines):
            raise Refused(n, 1, f"expected {rows} map rows, found only {r}")
        row = lines[n - 1]
        edge = r == 0 or r == rows - 1
        try:
            for j, c in enumerate(row):
                if j >= cols:
                    raise Refused(n, j + 1, "the row is longer than COLS")
                if c not in MAP:
                    raise Refused(n, j + 1, f"{c!r} is not a map character")
                if (edge or j == 0 or j == cols - 1) and c != "#":
                    raise Refused(n, j + 1, "the border is not solid '#'")
                if c == "O":
                    if player:
                        raise Refused(n, j + 1, "a second player")
                    player = (n, j + 1)
            if len(row) < cols:
                raise Refused(n, len(row) + 1 if edge else cols, "the padded border is open")
        except Refused:
            # A refused row that looks like the move string is reported at its start.
            if any(c in MOVES for c in row) and all(c in MOVES or c.isspace() for c in row):
                raise Refused(n, 1, f"expected {rows} map rows: this looks like the moves")
            raise
    if player is None:
        raise Refused(2, 1, "no player 'O' on the map")
    line, col = rows + 2, 1
    for c in "\n".join(lines[rows + 1 :]) + ("\n" if text.endswith("\n") else ""):
        if c == "\n":
            line, col = line + 1, 1
            continue
        if c not in MOVES and c not in WHITE_SPACE:
            raise Refused(line, col, f"{c!r} is not a move (U D L R W)")
        col += 1
    return tokens


def verdict(data):
    """The validator's exit code on `data` and why it refuses (or None)."""
    try:
        tokens = check(data)
    except Refused as e:
        return 43, str(e)
    for col, tok in tokens:
        if len(tok) > 1 and tok[0] == "0":
            return 43, f"1:{col}: {tok} has a leading zero"
    return 42, None


def main():
    if sys.argv[1:2] == ["--parse"]:
        for path in sys.argv[2:]:
            with open(path, "rb") as f:
                data = f.read()
            try:
                check(data)
                place = "ok"
            except Refused as e:
                place = f"{e.line}:{e.col}"
            print(place, verdict(data)[0])
        return 0
    code, why = verdict(sys.stdin.buffer.read())
    if why:
        print(why, file=sys.stderr)
    return code


sys.exit(main())

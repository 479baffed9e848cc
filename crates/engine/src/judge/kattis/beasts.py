#!/usr/bin/env python3
"""The beast puzzle under the rules of docs/RULES.md, written plainly (not golfed): the
accepted submission of the Kattis package that beast cases --format kattis writes.

READING names one of the catalogue's other readings (beast variants) to follow instead of
ours: the package's wrong-answer submissions are this file with READING set."""
import sys

READING = ""

# A beast's eight neighbours in the order that breaks ties: up-left, left, up, up-right,
# right, down-left, down-right, down.
AROUND = [(-1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1), (1, -1), (1, 1), (1, 0)]
STEP = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}


def main():
    text = sys.stdin.buffer.read().decode("utf-8")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    cols, rows = (int(t) for t in lines[0].split())
    grid = []
    for r in range(rows):
        row = lines[1 + r].rstrip("\r")
        grid.append(list(row.ljust(cols)))
    moves = [c for c in "\n".join(lines[1 + rows:]) if c in "UDLRW"]

    beasts = []  # positions in rank order: top to bottom, left to right at the start
    player = None
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] == "H":
                beasts.append((r, c))
            elif grid[r][c] == "O":
                player = (r, c)
    score = 0

    def finish(dead):
        sys.stdout.write(("aHHHH!\n" if dead else "") + f"{score}\n")

    def distance(dr, dc):
        if READING == "distance-manhattan":
            return abs(dr) + abs(dc)
        if READING == "distance-chebyshev":
            return max(abs(dr), abs(dc))
        return dr * dr + dc * dc

    def beasts_move(target):
        """Moves every beast in rank order; True if one lands on the player."""
        if READING == "order-turn":
            beasts.sort()
        for i, (r, c) in enumerate(beasts):
            best = None
            for dr, dc in AROUND[::-1] if READING == "ties-reversed" else AROUND:
                nr, nc = r + dr, c + dc
                if grid[nr][nc] in " O":
                    d = distance(nr - target[0], nc - target[1])
                    if best is None or d < best[0]:
                        best = (d, nr, nc)
            if best is None:
                continue
            _, nr, nc = best
            grid[r][c] = " "
            if grid[nr][nc] == "O":
                return True
            grid[nr][nc] = "H"
            beasts[i] = (nr, nc)
        return False

    if not beasts:
        return finish(False)
    turn = 0
    for m in moves:
        turn += 1
        start = player
        if m != "W":
            dr, dc = STEP[m]
            r, c = player[0] + dr, player[1] + dc
            here = grid[r][c]
            if here == " ":
                grid[player[0]][player[1]] = " "
                grid[r][c] = "O"
                player = (r, c)
            elif here == "H" and READING != "bump-blocked":
                return finish(True)
            elif here == "~":
                xr, xc = r, c
                while grid[xr][xc] == "~":
                    xr, xc = xr + dr, xc + dc
                x = grid[xr][xc]
                crush = x == "H" and grid[xr + dr][xc + dc] in "#~"
                if x == " " or crush:
                    if crush:
                        beasts.remove((xr, xc))
                        score += 2
                    grid[xr][xc] = "~"
                    grid[player[0]][player[1]] = " "
                    grid[r][c] = "O"
                    player = (r, c)
        if not beasts:
            return finish(False)
        beast_turn = {"beasts-odd-turns": 1, "beasts-every-turn": turn % 2}.get(READING, 0)
        target = player if READING == "target-after" else start
        if turn % 2 == beast_turn and beasts_move(target):
            return finish(True)
    if READING == "exhaust-stop":
        return finish(False)

    # The moves have run out: the player waits. The beasts move on every even turn; their
    # positions after each beast turn follow one another, so a repeat (Brent's cycle
    # finding, in bounded memory) is a stalemate.
    def beast_turn():
        return None if beasts_move(player) else tuple(beasts)

    state = beast_turn()
    if state is None:
        return finish(True)
    # Brent: `saved` is the state at the last power of two; look for it again.
    saved, power, length = state, 1, 0
    while True:
        state = beast_turn()
        if state is None:
            return finish(True)
        length += 1
        if state == saved:
            return finish(False)
        if length == power:
            saved, power, length = state, power * 2, 0


main()

#!/usr/bin/env python3
"""The beast puzzle under the rules of docs/RULES.md, written plainly (not golfed): the
accepted submission of the Kattis package `beast cases --format kattis` writes."""
import sys

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

    def beasts_move(target):
        """Moves every beast in rank order; True if one lands on the player."""
        for i, (r, c) in enumerate(beasts):
            best = None
            for dr, dc in AROUND:
                nr, nc = r + dr, c + dc
                if grid[nr][nc] in " O":
                    d = (nr - target[0]) ** 2 + (nc - target[1]) ** 2
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
            elif here == "H":
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
        if turn % 2 == 0 and beasts_move(start):
            return finish(True)

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

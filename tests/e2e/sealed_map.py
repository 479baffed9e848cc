#!/usr/bin/env python3
# Writes a beast puzzle too big to watch whole: python3 sealed_map.py COLS ROWS BEASTS MOVES.
# A SIZE x SIZE-ish map: solid border, movable walls on a lattice, BEASTS beasts spread
# evenly, the player sealed in solid wall in the middle, MOVES moves (as benches/engine.rs).
import math, sys
cols, rows, beasts, moves = map(int, sys.argv[1:5])
cells = [[' '] * cols for _ in range(rows)]
for r in range(rows):
    for c in range(cols):
        if r in (0, rows - 1) or c in (0, cols - 1): cells[r][c] = '#'
        elif (r * 7 + c * 13) % 29 == 0: cells[r][c] = '~'
mr, mc = rows // 2, cols // 2
for r in range(mr - 1, mr + 2):
    for c in range(mc - 1, mc + 2): cells[r][c] = '#'
cells[mr][mc] = 'O'
side = math.ceil(math.sqrt(beasts)); placed = 0
for i in range(1, side + 1):
    for j in range(1, side + 1):
        r, c = i * (rows - 2) // (side + 1), j * (cols - 2) // (side + 1)
        if placed < beasts and (abs(r - mr) > 2 or abs(c - mc) > 2):
            cells[r][c] = 'H'; placed += 1
print(cols, rows)
for row in cells: print(''.join(row))
print(''.join('URDLW'[i % 5] for i in range(moves)))

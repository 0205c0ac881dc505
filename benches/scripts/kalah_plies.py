#!/usr/bin/env python3
"""Distinct positions of Kalah(6,4), capture always, South first, after
exactly k moves (an extra turn is a move of its own), k = 1..7: how many
positions an opening book would have to prove to answer every round's
first k moves (docs/PERFORMANCE.md, 2026-11-28). Written apart from the
program's rules on purpose: `python3 benches/scripts/kalah_plies.py`."""

START = ((4,) * 6 + (0,) + (4,) * 6 + (0,), 0)


def play(state, pit):
    """The position after the mover sows `pit` (0..5 from their left):
    cells 0-5 South's pits, 6 its store, 7-12 North's, 13 its store."""
    cells, side = list(state[0]), state[1]
    base = 0 if side == 0 else 7
    i = base + pit
    seeds, cells[i] = cells[i], 0
    their_store, my_store = (13, 6) if side == 0 else (6, 13)
    while seeds:
        i = (i + 1) % 14
        if i == their_store:
            continue
        cells[i] += 1
        seeds -= 1
    to_move = 1 - side
    if i == my_store:
        to_move = side
    elif base <= i < base + 6 and cells[i] == 1:
        cells[my_store] += cells[12 - i] + 1
        cells[i] = cells[12 - i] = 0
    if sum(cells[0:6]) == 0 or sum(cells[7:13]) == 0:
        cells[6] += sum(cells[0:6])
        cells[13] += sum(cells[7:13])
        cells = [0 if j not in (6, 13) else c for j, c in enumerate(cells)]
        return tuple(cells), -1
    return tuple(cells), to_move


def main():
    level = {START}
    for k in range(1, 8):
        level = {
            play(s, p)
            for s in level
            if s[1] >= 0
            for p in range(6)
            if s[0][(0 if s[1] == 0 else 7) + p]
        }
        print(k, len(level))


if __name__ == "__main__":
    main()

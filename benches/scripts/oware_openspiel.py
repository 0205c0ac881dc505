#!/usr/bin/env python3
"""Checks mancala's Oware rules against OpenSpiel's `oware`, move by move.

OpenSpiel is an independent implementation of Abapa (RULES.md §7). This
script plays random rounds in OpenSpiel, replays each one through
`mancala position --game oware --moves ... --each` (one JSON line per
position) and compares, after every move: the twelve houses, both scores,
who moves, the legal moves, whether the round is over and who won.

Optional, not part of the test suite:

    pip install open-spiel==2.0.2
    cargo build --profile fast
    python3 benches/scripts/oware_openspiel.py --games 5000 --binary target/fast/mancala

Prints the number of rounds and positions compared and every mismatch;
exits 1 if there is one. `--perft N` prints OpenSpiel's perft counts from
the start up to depth N instead (the numbers in docs/PERFORMANCE.md).
"""

import argparse
import json
import random
import subprocess
import sys
from collections import Counter

import pyspiel

HOUSES = 6
LETTERS = "abcdefghijkl"


def spiel_view(state, total):
    """The position as mancala's JSON would show it."""
    tensor = state.observation_tensor(0)
    board = [round(x * total) for x in tensor[: 2 * HOUSES]]
    south, north = (round(x * total) for x in tensor[2 * HOUSES : 2 * HOUSES + 2])
    over = state.is_terminal()
    view = {
        "board": board,
        "score": {"south": south, "north": north},
        "over": over,
        "legal": "".join(
            LETTERS[a + HOUSES * state.current_player()] for a in state.legal_actions()
        )
        if not over
        else "",
    }
    if over:
        ret = state.returns()
        view["winner"] = "south" if ret[0] > 0 else "north" if ret[0] < 0 else "draw"
    else:
        view["to_move"] = ["south", "north"][state.current_player()]
        view["winner"] = None
    return view


def ours_view(line):
    view = {k: line[k] for k in ("board", "score", "over", "legal", "winner")}
    if not line["over"]:
        view["to_move"] = line["to_move"]
    return view


def play_round(game, rng, style):
    """A random round: its moves as letters and OpenSpiel's view after each."""
    state = game.new_initial_state()
    total = 2 * HOUSES * 4
    views = [spiel_view(state, total)]
    moves = []
    while not state.is_terminal():
        actions = state.legal_actions()
        if style == "small" and rng.random() < 0.8:
            # Prefer the house with the fewest seeds: long quiet endgames,
            # where repetitions and unfed opponents happen.
            obs = state.observation_tensor(0)
            base = HOUSES * state.current_player()
            action = min(actions, key=lambda a: (obs[base + a], rng.random()))
        else:
            action = rng.choice(actions)
        moves.append(LETTERS[action + HOUSES * state.current_player()])
        state.apply_action(action)
        views.append(spiel_view(state, total))
    return moves, views, state


def check(args):
    game = pyspiel.load_game("oware")
    rng = random.Random(args.seed)
    compared = 0
    mismatches = 0
    ends = Counter()
    lengths = []
    for n in range(args.games):
        style = "uniform" if n % 2 == 0 else "small"
        moves, views, _ = play_round(game, rng, style)
        out = subprocess.run(
            [args.binary, "position", "--game", "oware", "--each", "--moves", ",".join(moves)],
            capture_output=True,
            text=True,
            check=False,
        )
        if out.returncode != 0:
            mismatches += 1
            print(f"round {n}: exit {out.returncode}: {out.stderr.strip()} moves {','.join(moves)}")
            continue
        ours = [json.loads(line) for line in out.stdout.splitlines()]
        ends[ours[-1].get("end")] += 1
        lengths.append(len(moves))
        if len(ours) != len(views):
            mismatches += 1
            print(f"round {n}: {len(ours)} positions against OpenSpiel's {len(views)}")
            continue
        for i, (mine, theirs) in enumerate(zip(ours, views)):
            compared += 1
            if ours_view(mine) != theirs:
                mismatches += 1
                print(f"round {n} after {i} moves ({','.join(moves[:i])}):")
                print(f"  mancala:   {ours_view(mine)}")
                print(f"  OpenSpiel: {theirs}")
                break
    lengths.sort()
    print(
        f"{args.games} rounds, {compared} positions compared, {mismatches} mismatches; "
        f"ends {dict(ends)}; moves per round median {lengths[len(lengths) // 2] if lengths else 0}, "
        f"longest {lengths[-1] if lengths else 0}"
    )
    return 1 if mismatches else 0


def perft(state, depth):
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(perft(state.child(a), depth - 1) for a in actions)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--binary", default="target/fast/mancala")
    parser.add_argument("--perft", type=int, default=0)
    args = parser.parse_args()
    if args.perft:
        game = pyspiel.load_game("oware")
        for depth in range(1, args.perft + 1):
            print(depth, perft(game.new_initial_state(), depth), flush=True)
        return 0
    return check(args)


if __name__ == "__main__":
    sys.exit(main())

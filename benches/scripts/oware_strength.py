#!/usr/bin/env python3
"""Measures `mancala engine`'s Oware strength against OpenSpiel's bots.

Plays the engine (through the protocol it speaks to Aualé: `position
startpos moves ...`, `go nodes N` or `go movetime MS`, `bestmove`) against OpenSpiel's
MCTS bot (C++ `pyspiel.MCTSBot`, random-rollout evaluator) and against its
alpha-beta bot (`open_spiel.python.algorithms.minimax.alpha_beta_search`,
depth-limited, valued at the horizon by the captured-seed margin over 48
so that a won round, worth 1, always beats a lead). Each pair of games
starts from the same random opening of `--opening` plies, once with the
engine as South and once as North, so that deterministic players still
play different games. Every budget is counted, not timed (the engine's
positions per move, MCTS's simulations, alpha-beta's depth), so that a
loaded machine changes how long the run takes, not its games. Prints, per opponent: wins, draws and losses (the
engine's), the score rate (a draw counts half), and the Elo difference
with a 95% interval (Wilson's interval of the score rate, turned into
Elo: it stays finite on the losing side when every game is won).

Optional, not part of the test suite (figures in docs/PERFORMANCE.md):

    pip install open-spiel==2.0.2
    cargo build --profile fast
    python3 benches/scripts/oware_strength.py --games 100 --binary target/fast/mancala

The engine keeps its endgame database in the data directory (`--data-dir`,
a fresh temporary one by default) and grows it on spare time;
`--wait-db N` first waits until it holds N seeds (18: all it grows to),
so that every game is played with the same database.
"""

import argparse
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import time

import pyspiel
from open_spiel.python.algorithms import minimax

HOUSES = 6


def letter(player, action):
    """Aalina's letter of `player`'s house `action` (South A-F, North a-f)."""
    return chr((ord("A") if player == 0 else ord("a")) + action)


class Engine:
    """`mancala engine` over its standard input and output."""

    def __init__(self, binary, data_dir, hash_mb):
        env = dict(os.environ, MANCALA_DATA_DIR=data_dir)
        env.setdefault("MANCALA_CONFIG_DIR", data_dir)
        self.proc = subprocess.Popen(
            [binary, "engine"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
            env=env,
        )
        self.send("uci")
        self.read_until(lambda l: l == "uciok")
        self.send(f"setoption name Hash value {hash_mb}")
        self.ready()

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, done):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine ended: {lines[-5:]}")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith("info string error"):
                raise RuntimeError(line)
            if done(line):
                return lines

    def ready(self):
        self.send("isready")
        self.read_until(lambda l: l == "readyok")

    def database_seeds(self):
        """The seeds the engine's endgame database covers now."""
        self.send("debug on")
        self.send("position startpos")
        self.send("go depth 1")
        lines = self.read_until(lambda l: l.startswith("bestmove"))
        self.send("debug off")
        for line in lines:
            m = re.search(r"endgame database up to (\d+) seeds", line)
            if m:
                return int(m.group(1))
        return 0

    def best(self, moves, limit):
        self.send("position startpos moves " + "".join(moves))
        self.send(f"go {limit}")
        line = self.read_until(lambda l: l.startswith("bestmove"))[-1]
        return line.split()[1]

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=30)


def margin_value(player):
    """The horizon value for `player`: its captured-seed margin over 48."""

    def value(state):
        t = state.observation_tensor(0)
        south, north = t[2 * HOUSES], t[2 * HOUSES + 1]
        return (south - north) if player == 0 else (north - south)

    return value


def alpha_beta_bot(game, depth):
    def step(state):
        player = state.current_player()
        _, action = minimax.alpha_beta_search(
            game, state.clone(), margin_value(player), depth, player
        )
        return action

    return step


def mcts_bot(game, simulations, seed):
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 1000, True, seed, False)
    return bot.step


def play(game, engine, bot, engine_player, opening, limit):
    """One round from `opening`: the engine's return (1, 0, -1) and its margin."""
    state = game.new_initial_state()
    moves = []
    for action in opening:
        moves.append(letter(state.current_player(), action))
        state.apply_action(action)
    engine.send("ucinewgame")
    while not state.is_terminal():
        player = state.current_player()
        if player == engine_player:
            word = engine.best(moves, limit)
            action = ord(word) - (ord("A") if player == 0 else ord("a"))
            if action not in state.legal_actions():
                raise RuntimeError(f"illegal bestmove {word} after {''.join(moves)}")
        else:
            action = bot(state)
        moves.append(letter(player, action))
        state.apply_action(action)
    t = state.observation_tensor(0)
    south, north = round(48 * t[2 * HOUSES]), round(48 * t[2 * HOUSES + 1])
    mine = south - north if engine_player == 0 else north - south
    return round(state.returns()[engine_player]), mine, len(moves)


def random_opening(game, rng, plies):
    state = game.new_initial_state()
    actions = []
    for _ in range(plies):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        actions.append(action)
        state.apply_action(action)
    return actions


def elo(score):
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def wilson(score, n, z=1.96):
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # At a score of 0 or 1 one end is exactly 0 or 1 (rounding aside).
    lo = 0.0 if score <= 0 else max(0.0, centre - half)
    hi = 1.0 if score >= 1 else min(1.0, centre + half)
    return lo, hi


def summary(name, results):
    n = len(results)
    wins = sum(1 for r, _, _ in results if r > 0)
    draws = sum(1 for r, _, _ in results if r == 0)
    losses = n - wins - draws
    score = (wins + draws / 2) / n
    lo, hi = wilson(score, n)
    margins = sorted(m for _, m, _ in results)
    plies = sorted(p for _, _, p in results)
    return (
        f"{name}: {n} games, engine +{wins} ={draws} -{losses}, score {score:.3f} "
        f"(95% {lo:.3f}-{hi:.3f}), Elo {elo(score):+.0f} (95% {elo(lo):+.0f} to {elo(hi):+.0f}); "
        f"median margin {margins[n // 2]:+d} seeds, median length {plies[n // 2]} plies"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default="target/fast/mancala")
    parser.add_argument("--games", type=int, default=100, help="per opponent (even)")
    parser.add_argument(
        "--nodes", type=int, default=100_000, help="engine positions per move (0: --movetime)"
    )
    parser.add_argument("--movetime", type=int, default=50, help="engine ms per move")
    parser.add_argument("--hash", type=int, default=16, help="engine table MB")
    parser.add_argument("--mcts-simulations", type=int, default=3000)
    parser.add_argument("--ab-depth", type=int, default=7)
    parser.add_argument("--opening", type=int, default=4, help="random plies first")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--wait-db", type=int, default=18, help="seeds (0: do not wait)")
    parser.add_argument("--only", choices=["mcts", "alphabeta"], default=None)
    args = parser.parse_args()

    game = pyspiel.load_game("oware")
    scratch = None
    data_dir = args.data_dir
    if data_dir is None:
        scratch = tempfile.TemporaryDirectory(prefix="oware-strength-")
        data_dir = scratch.name
    engine = Engine(args.binary, data_dir, args.hash)
    started = time.time()
    if args.wait_db:
        while (seeds := engine.database_seeds()) < args.wait_db:
            if time.time() - started > 1800:
                raise RuntimeError(f"the database holds {seeds} seeds after 30 minutes")
            time.sleep(2)
        print(f"endgame database: {seeds} seeds after {time.time() - started:.0f} s", flush=True)

    limit = f"nodes {args.nodes}" if args.nodes else f"movetime {args.movetime}"
    opponents = {
        "mcts": lambda i: mcts_bot(game, args.mcts_simulations, args.seed * 100_003 + i),
        "alphabeta": lambda i: alpha_beta_bot(game, args.ab_depth),
    }
    print(
        f"engine {limit}, hash {args.hash} MB; MCTS {args.mcts_simulations} "
        f"simulations (uct_c 2, random rollouts, solver on); alpha-beta depth {args.ab_depth}; "
        f"openings of {args.opening} random plies, each played from both sides",
        flush=True,
    )
    for name, make in opponents.items():
        if args.only and name != args.only:
            continue
        rng = random.Random(args.seed)
        results = []
        t0 = time.time()
        for pair in range(args.games // 2):
            opening = random_opening(game, rng, args.opening)
            for engine_player in (0, 1):
                bot = make(2 * pair + engine_player)
                results.append(play(game, engine, bot, engine_player, opening, limit))
            if (pair + 1) % 10 == 0:
                print(f"  {summary(name, results)}", flush=True)
        print(summary(name, results) + f"; {time.time() - t0:.0f} s", flush=True)
    engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

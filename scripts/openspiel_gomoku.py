#!/usr/bin/env python3
"""Freestyle Gomoku's rules checked against an implementation no one here wrote: OpenSpiel's
`gomoku` (size 15, connect 5; an overline wins there too).

The script plays seeded random games with OpenSpiel (stones mostly next to earlier ones, so
that lines, fives, overlines and long games all occur) and writes what OpenSpiel says after
every move: whether the game is over, who won, and the set of legal moves (as an FNV-1a 64
hash of the sorted cells in evotune's record notation, with their count). The test
`tests/gomoku_openspiel.rs` replays every game with evotune's Gomoku and must agree at every
position. The fixture is in the repository, so the test runs without OpenSpiel.

    python3 -m venv /tmp/osenv && /tmp/osenv/bin/pip install open_spiel==2.0.2
    /tmp/osenv/bin/python scripts/openspiel_gomoku.py            # rewrites the fixture
    cargo test --release --test gomoku_openspiel                 # evotune against it

OpenSpiel's action a is row a // 15, column a % 15; evotune's cell is column letter a + col,
row number row + 1. Any one-to-one map would do: the rules do not depend on the orientation.
"""

import argparse
import json
import random
import sys

SIZE = 15


def cell(action):
    row, col = divmod(action, SIZE)
    return f"{chr(ord('a') + col)}{row + 1}"


def fnv1a64(text):
    h = 0xCBF29CE484222325
    for b in text.encode():
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def legal_key(state):
    cells = sorted(cell(a) for a in state.legal_actions())
    return len(cells), fnv1a64(",".join(cells))


def pick(rng, state, stones):
    """Mostly a cell next to an earlier stone (a long line forms sooner), sometimes anywhere."""
    legal = state.legal_actions()
    if stones and rng.random() < 0.85:
        near = []
        for s in stones:
            r, c = divmod(s, SIZE)
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < SIZE and 0 <= cc < SIZE:
                        near.append(rr * SIZE + cc)
        legal_set = set(legal)
        near = [a for a in near if a in legal_set]
        if near:
            return rng.choice(near)
    return rng.choice(legal)


def five_somewhere(colour):
    """Whether a colouring of the full board (dict cell -> 0/1) has five in a row."""
    for r in range(SIZE):
        for c in range(SIZE):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                line = [(r + k * dr, c + k * dc) for k in range(5)]
                if all(0 <= rr < SIZE and 0 <= cc < SIZE for rr, cc in line):
                    if len({colour[rr * SIZE + cc] for rr, cc in line}) == 1:
                        return True
    return False


def drawn_game():
    """The moves of a game that fills the board without a five: a pattern of pairs
    (`XXOO` shifted by two a row), a few cells swapped until Black has one stone more, then
    the stones of each colour in cell order, Black first, alternating."""
    colour = {r * SIZE + c: 0 if (c + 2 * r) % 4 < 2 else 1 for r in range(SIZE) for c in range(SIZE)}
    blacks = sum(1 for v in colour.values() if v == 0)
    want = (SIZE * SIZE + 1) // 2
    for a in sorted(colour):
        if blacks == want:
            break
        flip = 1 - colour[a]
        if (flip == 0) != (blacks < want):
            continue
        colour[a] = flip
        if five_somewhere(colour):
            colour[a] = 1 - flip
        else:
            blacks += 1 if flip == 0 else -1
    assert blacks == want and not five_somewhere(colour)
    black = [a for a in sorted(colour) if colour[a] == 0]
    white = [a for a in sorted(colour) if colour[a] == 1]
    order = []
    for i in range(len(black)):
        order.append(black[i])
        if i < len(white):
            order.append(white[i])
    return order


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="tests/fixtures/gomoku-openspiel.jsonl")
    args = parser.parse_args()
    try:
        import pyspiel
    except ImportError:
        sys.exit("needs OpenSpiel: pip install open_spiel==2.0.2")
    game = pyspiel.load_game("gomoku")
    params = game.get_parameters()
    assert params["size"] == SIZE and params["connect"] == 5, params
    rng = random.Random(args.seed)
    games = {"won": 0, "draw": 0}
    with open(args.out, "w") as out:
        for g in range(args.games):
            state = game.new_initial_state()
            stones, moves, positions = [], [], []
            # A few games scatter stones uniformly, which makes long games; the last fills the
            # board without a five.
            scatter = g % 10 == 9
            script = drawn_game() if g == args.games - 1 else None
            while True:
                n, h = legal_key(state)
                positions.append({"over": state.is_terminal(), "legal": n, "hash": h})
                if state.is_terminal():
                    break
                if script is not None:
                    a = script[len(stones)]
                elif scatter:
                    a = rng.choice(state.legal_actions())
                else:
                    a = pick(rng, state, stones)
                state.apply_action(a)
                stones.append(a)
                moves.append(cell(a))
            returns = state.returns()
            result = "first" if returns[0] > 0 else "second" if returns[1] > 0 else "draw"
            record = {"source": "open_spiel 2.0.2 gomoku", "seed": args.seed, "game": g, "moves": moves,
                      "result": result, "positions": positions}
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
            games["draw" if result == "draw" else "won"] += 1
    print(f"wrote {args.games} games to {args.out}: {games}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Records seeded random games of OpenSpiel's `einstein_wurfelt_nicht` in evotune's notation,
for tests/einstein_openspiel.rs: at every turn the roll, the set of legal steps and whether the
game is over, as OpenSpiel sees them.

OpenSpiel puts the first player (white) bottom-right moving up and left; evotune puts its
first player (red) top-left moving down and right. The board is turned half a circle: a square
(row, col) of OpenSpiel is (4 - row, 4 - col) of evotune, white is red, black is blue.

    pip install open_spiel==2.0.2
    python3 scripts/openspiel_einstein.py 200 > tests/fixtures/einstein-openspiel.jsonl
"""
import json
import random
import sys

import pyspiel

TRIANGLE = [[0, 1, 5, 2, 6, 10], [24, 23, 19, 22, 18, 14]]


def cells(state):
    """evotune's 25 squares: (side, cube) or None; side 0 red (OpenSpiel white), 1 blue."""
    rows = [line for line in str(state).splitlines() if line.startswith("|")][:5]
    out = [None] * 25
    for r, line in enumerate(rows):
        items = [x for x in line.split("|") if x]
        for c, item in enumerate(items):
            if item != "__":
                side = 0 if item[0] == "w" else 1
                out[(4 - r) * 5 + (4 - c)] = (side, int(item[1]))
    return out


def name(sq):
    return "abcde"[sq % 5] + str(5 - sq // 5)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    game = pyspiel.load_game("einstein_wurfelt_nicht")
    rng = random.Random(20221)
    for g in range(n):
        state = game.new_initial_state()
        # The two setups are chance events in OpenSpiel: draw them, then read them off.
        while state.is_chance_node() and "roll" not in state.action_to_string(pyspiel.PlayerId.CHANCE, state.chance_outcomes()[0][0]):
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        board = cells(state)
        setups = []
        for side in (0, 1):
            setups.append("".join(str(board[sq][1]) for sq in TRIANGLE[side]))
        turns = []
        first_player = None
        while not state.is_terminal():
            assert state.is_chance_node()
            outcomes = state.chance_outcomes()
            roll = outcomes[rng.randrange(len(outcomes))][0]
            die = int(state.action_to_string(pyspiel.PlayerId.CHANCE, roll).split()[-1])
            state.apply_action(roll)
            if first_player is None:
                first_player = state.current_player()
            before = cells(state)
            steps = {}
            for a in state.legal_actions():
                child = state.clone()
                child.apply_action(a)
                after = cells(child)
                frm = [sq for sq in range(25) if before[sq] is not None and after[sq] is None]
                to = [sq for sq in range(25) if after[sq] is not None and after[sq] != before[sq]]
                assert len(frm) == 1 and len(to) == 1, (frm, to)
                steps[f"{die}:{name(frm[0])}{name(to[0])}"] = a
            legal = sorted(steps)
            chosen = legal[rng.randrange(len(legal))]
            state.apply_action(steps[chosen])
            turns.append({"roll": die, "legal": legal, "move": chosen, "over": state.is_terminal()})
        returns = state.returns()
        winner = "first" if returns[first_player] > 0 else "second"
        print(json.dumps({"game": g, "setups": setups, "turns": turns, "winner": winner}))


if __name__ == "__main__":
    main()

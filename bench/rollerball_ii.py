"""Rollerball II engine speed: whole matches per second, and what a step costs.

Prints figures only. Matches are played by the plain simulation coach with the referee's seeded
dice (as ``tabletop sim`` does). The baseline, measured in the same run, is one ``apply``;
``legal_actions`` at a coach's decision (which lists every substitution) is given as a ratio
to it, and so is a JSON round trip of a state.

    python bench/rollerball_ii.py [matches]
"""

from __future__ import annotations

import json
import random
import sys
import time
from dataclasses import replace

from engines.core.bots import sample_chance
from engines.rollerball_ii import RollerballII
from engines.rollerball_ii.coach import Coach


def main(matches: int = 100) -> None:
    game, coach, rng = RollerballII(), Coach(), random.Random(1)
    steps, goals = [], 0
    started = time.perf_counter()
    for _ in range(matches):
        state = game.new()
        while not state.is_over:
            action = sample_chance(state, rng) if state.is_chance else coach.choose(state)
            steps.append((state, action))
            state, _ = state.apply(action)
        goals += state.goals(0) + state.goals(1)
    elapsed = time.perf_counter() - started
    print(f"matches: {matches} in {elapsed:.2f} s = {matches / elapsed:.1f} matches/s; "
          f"{len(steps) / matches:.0f} actions and {goals / matches:.1f} goals a match")

    sample = steps[:: max(1, len(steps) // 3000)]
    t0 = time.perf_counter()
    for before, action in sample:
        replace(before).apply(action)
    apply_us = (time.perf_counter() - t0) / len(sample) * 1e6
    decisions = [s for s, _ in sample if s.step == "decide"]
    t0 = time.perf_counter()
    for s in decisions:
        replace(s).legal_actions()
    legal_us = (time.perf_counter() - t0) / max(1, len(decisions)) * 1e6
    t0 = time.perf_counter()
    for s, _ in sample[:500]:
        game.from_json(json.loads(json.dumps(s.to_json())))
    json_us = (time.perf_counter() - t0) / min(500, len(sample)) * 1e6
    size = sum(len(json.dumps(s.to_json())) for s, _ in sample[:200]) / min(200, len(sample))
    print(f"apply (baseline): {apply_us:.1f} us; legal_actions at a decision: {legal_us:.1f} us "
          f"= {legal_us / apply_us:.1f}x; JSON round trip: {json_us:.0f} us = {json_us / apply_us:.1f}x "
          f"({size / 1024:.1f} KiB a state; {len(sample)} sampled positions)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)

"""A plain coach for simulated matches: keeps the lineup full, then rolls.

Used by ``tabletop sim`` and the benchmark. It only chooses among legal actions; the dice and
the FACs still come from outside (the caller's seeded RNG), as everywhere else.
"""

from __future__ import annotations

from ..core import Action
from .notation import Pick, Roll, Sub


class Coach:
    def choose(self, st) -> Action:
        if st.step == "decide":
            return self.fill(st) or Roll()
        if st.step == "pick":
            team = st.to_move
            return Pick(max(st.pick_options(), key=lambda s: st.rank(st.at(team, s))))
        raise ValueError(f"a coach does not act at a {st.step} step")

    def fill(self, st) -> Sub | None:
        """The most experienced free player for the first empty slot, if any."""
        team = st.play.team
        empty = [s for s in st.substitutions() if st.at(team, s.slot) is None]
        if not empty:
            return None
        slot = empty[0].slot
        return max((s for s in empty if s.slot == slot),
                   key=lambda s: st.rank(st.teams[team].player(s.number)))

"""Every game's notation parser under fuzzed text: a parsed action or the game's NotationError.

A player types at the table's terminal, and a record may have been edited by hand, so any text
at all reaches ``Game.parse``. The cases start from real notations of each game, mutated the way
the hostile-input run found crashes (a Unicode digit such as a superscript two or an
Arabic-Indic digit for an ASCII one, signs, spaces, very long numbers), plus arbitrary text.
Applying the parsed action is checked too: a state, or IllegalAction saying why not.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.core import IllegalAction, NotationError
from engines.core.bots import playout
from engines.core.registry import game_class, game_ids

FOREIGN_DIGITS = "²³¹٣٤۵߅०১੩૪୫௬౭೮൯๑໒༣၄០᠑０𝟙𝟚⁴₅①"
"""Characters for which str.isdigit() (and some of which int()) says yes, none an ASCII digit."""


@cache
def positions(gid: str) -> tuple:
    """The game, an opening state, one mid-game state, and the notations seen on the way."""
    cls = game_class(gid)
    n, opts = cls.sample_setups[-1]
    game = cls(opts)
    names = (list(cls.default_players) + [f"p{i}" for i in range(n)])[:n]
    start = game.new(names)
    seen: list = [start]
    playout(start, random.Random(1), 40, lambda before, action, after, events: seen.append(after))
    notations = sorted({a.notation() for s in seen[:: max(1, len(seen) // 8)] for a in s.legal_actions()})
    return game, (start, seen[len(seen) // 2]), notations


def mutated(notations: list[str]) -> st.SearchStrategy[str]:
    """A real notation with one character swapped for a foreign digit or any character, a
    sign or a long run of digits glued on, or wholly random text."""
    base = st.sampled_from(notations)
    odd = st.one_of(st.sampled_from(FOREIGN_DIGITS), st.characters(), st.sampled_from("+-_ .,/:@\t\x00"))

    @st.composite
    def swap(draw) -> str:
        text = draw(base)
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 1))
        return text[:at] + draw(odd) + text[at + cut:]

    @st.composite
    def digit_for_digit(draw) -> str:
        text = draw(base)
        return "".join(draw(st.sampled_from(FOREIGN_DIGITS)) if c.isdigit() else c for c in text)

    glued = st.builds(lambda t, d: t + d, base, st.sampled_from(["9" * 5000, "0" * 12, "-1", "²", "_1"]))
    return st.one_of(swap(), digit_for_digit(), glued, st.text(max_size=30))


@pytest.mark.parametrize("gid", game_ids())
def test_any_text_is_an_action_or_a_notation_error(gid):
    game, states, notations = positions(gid)

    @settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(mutated(notations))
    def check(text: str) -> None:
        try:
            action = game.parse(text)
        except NotationError as exc:
            assert str(exc), "a notation error says what is wrong"
            return
        assert game.parse(action.notation()) == action
        for state in states:
            try:
                state.apply(action)
            except IllegalAction as exc:
                assert str(exc)

    check()


@pytest.mark.parametrize("gid", game_ids())
def test_foreign_digits_are_refused_by_name(gid):
    """Where a notation has a number, the same text with a superscript two is refused, and the
    message quotes what was typed."""
    game, _, notations = positions(gid)
    with_digits = [n for n in notations if any(c.isdigit() for c in n)]
    assert with_digits, f"{gid} has numbers in its notation"
    for text in with_digits[:50]:
        odd = "".join("²" if c.isdigit() else c for c in text)
        with pytest.raises(NotationError) as info:
            game.parse(odd)
        assert "²" in str(info.value) or odd.strip() in str(info.value)

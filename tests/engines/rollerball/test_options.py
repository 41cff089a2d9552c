"""Options (docs/games/rollerball.md): the board size, player counts and their limits."""

from __future__ import annotations

import pytest

from engines.core import IllegalAction, OptionError
from engines.rollerball import Rollerball


@pytest.mark.parametrize("rings,side,tracks", [(2, 6, [20, 12]), (3, 8, [28, 20, 12]),
                                               (4, 10, [36, 28, 20, 12])])
def test_rings_set_the_board(rings, side, tracks):
    """Ruling: R concentric tracks round the 2x2 logo on a board 2R+2 squares a side."""
    board = Rollerball({"rings": rings}).new().board
    assert board.side == side
    assert [sum(board.track(sq) == r for sq in board.squares) for r in range(rings)] == tracks
    assert len(board.corners) == 4 * rings


@pytest.mark.parametrize("value", [1, 9, "three"])
def test_bad_ring_counts_are_refused_by_name(value):
    with pytest.raises(OptionError, match="rings"):
        Rollerball({"rings": value})


def test_too_many_players_for_the_corners_are_refused():
    """Bases need corners off the inner track: 4 on a 2-ring board."""
    with pytest.raises(IllegalAction, match="corners"):
        Rollerball({"rings": 2}).new(list("abcde"))
    with pytest.raises(IllegalAction, match="2 to 6"):
        Rollerball().new(list("abcdefg"))

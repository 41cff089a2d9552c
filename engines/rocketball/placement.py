"""Where chips may go: placing, rotating and drifting, with every restriction of the text.

These read a board (a sequence of ``Chip | None`` per square, frozen or being edited) and the
squares the rocketballs occupy, so the legal-action lists and the checks in ``apply`` are
the same code.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .board import CENTRE, DIRS, EDGE, NEAR_GOAL, RINGS, SQUARES, STEPS, Dir, name, neighbour
from .chips import DIRECTED, NEIGHBOUR_SHY, SPECIAL, Chip, Kind

Board = Sequence[Chip | None]


def placement_problem(
    board: Board, balls: Collection[int], square: int, kind: Kind, moving_from: int | None = None
) -> str | None:
    """Why a ``kind`` chip may not go on ``square`` (None: it may).

    Base rules: never the centre square, never an occupied square (a chip or a rocketball).
    Appendix A: bumpers, twisters, gusts, barricades and moguls keep off the edge squares and
    away from the goals; all of them but moguls also keep off the 8 squares around another
    special chip. ``moving_from`` is the square a drifting chip leaves (it does not count).
    """
    if square == CENTRE:
        return "no chip may be placed on the centre square"
    if (board[square] is not None and square != moving_from) or square in balls:
        return f"{name(square)} is occupied"
    if kind in SPECIAL:
        if square in EDGE:
            return f"a {kind.value} may not go next to a wall (on an edge square)"
        if square in NEAR_GOAL:
            return f"a {kind.value} may not go within two squares of a goal"
    if kind in NEIGHBOUR_SHY:
        for other in RINGS[square]:
            chip = board[other]
            if other != moving_from and chip is not None and chip.kind in SPECIAL:
                return f"a {kind.value} may not go next to another special chip ({chip.kind.value} on {name(other)})"
    return None


SPECIAL_GROUND = tuple(s for s in range(SQUARES) if s not in EDGE and s not in NEAR_GOAL)
"""Squares a special chip may stand on as far as walls and goals go."""


def free_squares(board: Board, balls: Collection[int], kind: Kind) -> list[int]:
    """Every square ``placement_problem`` accepts, computed in one sweep (the hot path of the
    legal-action list)."""
    if kind not in SPECIAL:
        return [s for s in range(SQUARES) if board[s] is None and s != CENTRE and s not in balls]
    shy = kind in NEIGHBOUR_SHY
    return [
        s
        for s in SPECIAL_GROUND
        if board[s] is None
        and s != CENTRE
        and s not in balls
        and not (shy and any(board[o] is not None and board[o].kind in SPECIAL for o in RINGS[s]))
    ]


def facings(kind: Kind) -> tuple[Dir | None, ...]:
    """The ways a chip of ``kind`` may be laid: N/E/S/W for arrow chips, no facing otherwise."""
    return DIRS if kind in DIRECTED else (None,)


def rotation_problem(
    board: Board, balls: Collection[int], square: int, forbidden: Collection[int]
) -> str | None:
    """Why the chip on ``square`` may not be rotated (None: it may)."""
    chip = board[square]
    if chip is None:
        return f"there is no chip on {name(square)} to rotate"
    if chip.kind not in DIRECTED:
        return f"a {chip.kind.value} can never be turned by a player"
    if square in balls:
        return f"the chip on {name(square)} is under the rocketball and may not be rotated"
    if square in forbidden:
        return f"the chip on {name(square)} may not be turned now: the other player just turned it, or it was laid this round"
    return None


def rotatable(board: Board, balls: Collection[int], forbidden: Collection[int]) -> list[int]:
    """Every square ``rotation_problem`` accepts."""
    return [
        s
        for s, chip in enumerate(board)
        if chip is not None and chip.kind in DIRECTED and s not in balls and s not in forbidden
    ]


def drift_problem(board: Board, balls: Collection[int], square: int, way: Dir) -> str | None:
    """Why the chip on ``square`` may not drift one square toward ``way`` (None: it may).

    Drifting Winds: the chip moves into a vacant square and must stand legally there (the
    placement limits of its kind). A chip under a rocketball stays put: nothing may touch
    the rocketball (ruling of this engine, from Appendix B's design note)."""
    chip = board[square]
    if chip is None:
        return f"there is no chip on {name(square)} to drift"
    if square in balls:
        return f"the chip on {name(square)} is under the rocketball and may not drift"
    target = neighbour(square, way)
    if target is None:
        return f"a chip on {name(square)} cannot drift {way.value}: that is off the field"
    return placement_problem(board, balls, target, chip.kind, moving_from=square)


def drifts(board: Board, balls: Collection[int]) -> list[tuple[int, Dir]]:
    """Every drift ``drift_problem`` accepts; only chips with a vacant neighbour are examined."""
    moves = []
    for s in range(SQUARES):
        chip = board[s]
        if chip is None or s in balls:
            continue
        for d, target in zip(DIRS, STEPS[s], strict=True):
            if target is not None and board[target] is None and target not in balls:
                if placement_problem(board, balls, target, chip.kind, moving_from=s) is None:
                    moves.append((s, d))
    return moves

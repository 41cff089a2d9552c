"""Which movement action a move is, and whether the rules allow it (section V).

``plan`` reads a move's start and end field against the position and either names the action
with its consequences or raises IllegalAction with the rule it breaks. The legal moves are the
candidates that ``plan`` accepts, so the list a player sees and the check of a typed move can
never disagree.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ..core import IllegalAction
from .board import (
    SIDE_NAMES,
    STEPS,
    Field,
    Step,
    add,
    in_game_zone,
    in_line,
    in_touchdown_zone,
    is_backward,
    name,
    on_board,
)
from .notation import Move
from .rams import is_protected, push_back_fields


@dataclass(frozen=True)
class Plan:
    """A move the rules allow. ``kind`` is one of: move, take, carry, chase, skip, ram,
    special ram, touchdown. ``push`` lists where a rammed piece may go (rams only)."""

    kind: str
    move: Move
    push: tuple[Field, ...] = ()


def plan(
    owner: Mapping[Field, int], ball: Field, me: int, move: Move, opponent_blocks: bool = False
) -> Plan:
    """Classify ``move`` by ``me`` in the position ``owner`` (field -> seat) with the Ball on
    ``ball``; raise IllegalAction naming the broken rule.

    V.1 forbids passing over an opponent's piece only for a skip; a chase and a ram ask only
    for the Ball or the opponent's piece two fields away In Line. ``opponent_blocks`` is the
    stricter reading: an opponent's piece between blocks a chase and a ram too."""
    src, dst = move.src, move.dst
    opp = 1 - me
    if owner.get(src) != me:
        raise IllegalAction(f"there is no {SIDE_NAMES[me]} piece on {name(src)}")
    if not in_game_zone(src):
        raise IllegalAction(f"the piece on {name(src)} is returning to play and cannot move yet")
    line = in_line(src, dst)
    if line is None or line[1] > 2:
        raise IllegalAction("a piece moves one or two fields In Line (straight or diagonal)")
    step, distance = line
    carrier = src == ball
    if not carrier and owner.get(ball) == me and is_backward(step, me):
        raise IllegalAction(
            "your side holds the Ball, so it attacks: only the piece with the Ball may move "
            "or ram backwards"
        )
    touchdown = carrier and in_touchdown_zone(dst, me)
    if not (in_game_zone(dst) or touchdown):
        raise IllegalAction(
            "a piece may not leave the Game Zone; only the piece with the Ball may move into "
            "the opponent's Touchdown Zone"
        )
    held = owner.get(dst)
    if held == me:
        raise IllegalAction(f"{name(dst)} holds your own piece")
    if distance == 1:
        if held == opp:
            if not middle_of_three(owner, src, me):
                raise IllegalAction(
                    "a piece next to an opponent's piece may ram it only as the middle of three "
                    "of your pieces in a row or column (special ram)"
                )
            return ram(owner, me, move, step, "special ram")
        if touchdown:
            return Plan("touchdown", move)
        if carrier:
            return Plan("carry", move)
        return Plan("take" if dst == ball else "move", move)
    middle = owner.get(add(src, step))
    if middle == opp:
        if held != opp and dst != ball:
            raise IllegalAction("you cannot skip an opponent's piece")
        if opponent_blocks:
            raise IllegalAction(
                "a chase or a ram never passes over an opponent's piece (option opponent_blocks)"
            )
    if held == opp:
        return ram(owner, me, move, step, "ram")
    if dst == ball:
        return Plan("chase", move)
    if middle != me:
        raise IllegalAction(
            "a two-field move needs your own piece between to skip, the Ball at its end to "
            "chase, or an opponent's piece at its end to ram"
        )
    return Plan("touchdown" if touchdown else "skip", move)


def ram(owner: Mapping[Field, int], me: int, move: Move, step: Step, kind: str) -> Plan:
    """A ram onto ``move.dst``: refused if the piece there is protected, else the fields its
    owner may put it on."""
    if is_protected(owner, move.dst, step, 1 - me):
        raise IllegalAction(f"the piece on {name(move.dst)} is protected by its own piece behind it")
    after = dict(owner)
    del after[move.src]
    after[move.dst] = me
    return Plan(kind, move, push_back_fields(after, move.dst, step, 1 - me))


def middle_of_three(owner: Mapping[Field, int], f: Field, me: int) -> bool:
    """V.2 special ram: ``f`` is the middle of three of ``me``'s pieces in a row or column."""
    for step in ((0, 1), (1, 0)):
        ends = (add(f, step), add(f, step, -1))
        if all(in_game_zone(e) and owner.get(e) == me for e in ends):
            return True
    return False


def candidates(owner: Mapping[Field, int], me: int) -> Iterator[Move]:
    """Every move one or two fields In Line from each of ``me``'s pieces in the Game Zone."""
    for src, side in sorted(owner.items()):
        if side != me or not in_game_zone(src):
            continue
        for step in STEPS:
            for distance in (1, 2):
                dst = add(src, step, distance)
                if on_board(dst):
                    yield Move(src, dst)


def legal_plans(
    owner: Mapping[Field, int], ball: Field, me: int, opponent_blocks: bool = False
) -> list[Plan]:
    plans = []
    for move in candidates(owner, me):
        try:
            plans.append(plan(owner, ball, me, move, opponent_blocks))
        except IllegalAction:
            continue
    return plans

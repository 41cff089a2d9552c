"""Where a rammed piece goes: the push-back of section V.1 and the advanced concepts of V.2.

``owner`` maps each occupied field to the seat whose piece stands there, as it is after the
rammer has moved onto the rammed piece's field. Only pieces in the Game Zone count as being
In Line: pieces returning to play stand outside it.
"""

from __future__ import annotations

from collections.abc import Mapping

from .board import X_FIELDS, Field, Step, add, in_game_zone, rotate


def is_protected(owner: Mapping[Field, int], target: Field, step: Step, rammed: int) -> bool:
    """V.1, picture 7: a piece with one of its own side right behind it, In Line with the
    ram, cannot be rammed."""
    behind = add(target, step)
    return in_game_zone(behind) and owner.get(behind) == rammed


def free_x_fields(owner: Mapping[Field, int], side: int) -> tuple[Field, ...]:
    """The X-marked gray fields of ``side``'s half that no returning piece stands on."""
    return tuple(f for f in X_FIELDS[side] if f not in owner)


def push_back_fields(
    owner: Mapping[Field, int], target: Field, step: Step, rammed: int
) -> tuple[Field, ...]:
    """The fields the rammed player may put the piece rammed on ``target`` on (one field: no
    choice). Gray X fields in the answer mean the piece leaves play.

    V.1: the piece goes one field on in the direction of the ram. V.2 (pictures 8a, 8b): if
    rammer's pieces stand there In Line, it goes on past the last of them. Past the Game Zone
    it is out of play (picture 6d). If the field past them holds a piece of the rammed side
    (pictures 9a-9c), the rammed player picks a field next to that piece, see ``around``.
    """
    rammer = 1 - rammed
    f = add(target, step)
    while in_game_zone(f) and owner.get(f) == rammer:
        f = add(f, step)
    if not in_game_zone(f):
        return free_x_fields(owner, rammed)
    if f not in owner:
        return (f,)
    return around(owner, f, step, rammed)


def around(owner: Mapping[Field, int], blocker: Field, step: Step, rammed: int) -> tuple[Field, ...]:
    """V.2, pictures 9a-9c: the fields next to the rammed side's own ``blocker``, nearest to
    where the rammed piece started first. The two fields diagonal to the line toward the start
    come first; if both are taken, the two beside the blocker across the line; if those are
    taken too, any of the other three, where one outside the Game Zone sends the piece to an X
    field. Never empty: with every neighbour in the Game Zone, filling all seven would take
    more than the ten pieces there are, and whenever a neighbour lies outside the Game Zone one
    of the last three does too (the line comes from the inside).
    """
    back = rotate(step, 4)
    for eighths in ((1, -1), (2, -2)):
        free = [
            g for e in eighths if in_game_zone(g := add(blocker, rotate(back, e))) and g not in owner
        ]
        if free:
            return tuple(sorted(free))
    rest = [add(blocker, rotate(back, e)) for e in (3, -3, 4)]
    free = [g for g in rest if in_game_zone(g) and g not in owner]
    if any(not in_game_zone(g) for g in rest):
        free += free_x_fields(owner, rammed)
    return tuple(sorted(free))

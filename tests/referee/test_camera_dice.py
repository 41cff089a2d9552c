"""The camera as the referee's dice source: settled, single, readable dice only."""

from __future__ import annotations

from referee.camera_dice import CameraDice
from vision.dice import DieReading


def die(value, status="ok", kind="d6", confidence=1.0):
    return DieReading(kind, value, status, confidence, (10.0, 10.0))


def test_a_value_is_posted_once_it_has_settled_and_only_once():
    dice = CameraDice("d6", settle=3, seat="north")
    assert dice.update([die(4)]).event is None
    assert dice.update([die(2)]).event is None, "still rolling: the value changed"
    assert dice.update([die(2)]).event is None
    event = dice.update([die(2)]).event
    assert (event.kind, event.value, event.seat, event.source) == ("dice", 2, "north", "camera")
    assert dice.update([die(2)]).event is None, "the same die lying there is not a second roll"
    dice.taken()
    assert dice.update([die(2)]).event is None


def test_cocked_unreadable_wrong_kind_and_extra_dice_ask_for_a_reroll():
    dice = CameraDice("d4", settle=1)
    assert "cocked" in dice.update([die(None, "cocked", "d4")]).message
    assert "roll again" in dice.update([die(None, "unreadable", "d4")]).message
    assert "rolls a d4" in dice.update([die(3, kind="d6")]).message
    assert "2 dice" in dice.update([die(1, kind="d4"), die(2, kind="d4")]).message
    assert dice.update([die(3, kind="d4", confidence=0.1)]).event is None
    assert dice.update([]).message == ""

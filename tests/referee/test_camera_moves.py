"""The referee follows a Rocketball game from the camera: dice in the tray, chips on the kit board."""

from __future__ import annotations

import dataclasses

import pytest

from engines.core import IllegalAction
from engines.core.registry import load
from engines.rocketball.board import Dir
from engines.rocketball.chips import Chip, Kind
from referee.camera_dice import CameraDice
from referee.camera_moves import CameraMoves, act, rocketball_cells, stoneball_cells
from referee.journal import Journal
from referee.session import Session
from vision.board import find_board
from vision.dice import read_dice
from vision.grid import read_grid
from vision.kit.geometry import ROCKETBALL, STONEBALL
from vision.tablegen import DieTruth, Hand, render, scene_of
from vision.tablegen.layout import Scene

B9 = (2, 1)
"""Row 2 from the North, column b: the square b9 of the notation."""


def tray_die(scene: Scene, value: int) -> tuple[DieTruth, ...]:
    x, y = scene.tray_origin()
    return (DieTruth("d4", value, (x + 50.0, y + 70.0), 33.0, d4_numbers="middle"),)


def look(scene: Scene):
    """One camera frame of the scene: the board reading and the dice in the tray."""
    frame = render(scene).image
    board = find_board(frame, ROCKETBALL.size_mm)
    return read_grid(frame, ROCKETBALL, board), read_dice(frame, board, d4_style="middle")


def after_two_rolls():
    game = load("rocketball")
    state = game.new()
    for text in ("roll 1", "roll 2"):
        state, _ = state.apply(game.parse(text))
    return game, state


def test_referee_plays_a_rocketball_round_from_camera_readings(tmp_path):
    """Rules "Play": the start roll, the rocketball's roll, then the windbag holder places a
    vortex; the referee takes all three from the camera and journals them."""
    journal = Journal(tmp_path / "j.sqlite")
    session = Session.open(journal, "rocketball", dice="panel", seed=3)
    dice = CameraDice("d4", settle=1)
    moves = CameraMoves(session.game)
    for seed, value in ((1, 1), (2, 2)):  # start roll 1: the ball faces North, North holds the bag
        scene = scene_of(ROCKETBALL, rocketball_cells(session.state), seed=seed)
        scene = dataclasses.replace(scene, dice=tray_die(scene, value))
        _, readings = look(scene)
        outcome = dice.update(readings)
        assert outcome.event is not None, outcome.message
        session.handle(outcome.event)
        dice.taken()
    assert session.state.to_move == 0 and session.state.hand is Kind.VORTEX
    table = rocketball_cells(session.state)
    assert table == {(3, 3): ("ball", "N")}, "rolled 2 from d6 facing North: the ball is on d8"
    table[B9] = ("vortex", "E")
    reading, _ = look(scene_of(ROCKETBALL, table, seed=4))
    inference = moves.infer(session.state, reading)
    assert inference.kind == "move" and inference.action.notation() == "place b9 E"
    assert act(session, inference)
    assert [e.notation for e in journal.actions(session.row.id)] == ["roll 1", "roll 2", "place b9 E"]
    assert session.state.board[15] == Chip(Kind.VORTEX, Dir.E)
    journal.close()


def test_an_unchanged_board_is_no_move():
    game, state = after_two_rolls()
    reading, _ = look(scene_of(ROCKETBALL, rocketball_cells(state), seed=5))
    assert CameraMoves(game).infer(state, reading).kind == "none"


def test_a_hand_over_the_board_makes_the_referee_wait():
    """Nothing is decided while a hand hides cells: no move is guessed from a half view."""
    game, state = after_two_rolls()
    cells = rocketball_cells(state) | {B9: ("vortex", "E")}
    reading, _ = look(scene_of(ROCKETBALL, cells, seed=6, hand=Hand((-60.0, 70.0), (60.0, 70.0), 70.0)))
    assert CameraMoves(game).infer(state, reading).kind == "wait"


def test_a_chip_turned_half_way_is_put_to_the_players():
    """A vortex left at 45 degrees has no clear arrow: the referee lists the placements on
    that square and asks instead of picking one."""
    game, state = after_two_rolls()
    cells = rocketball_cells(state) | {B9: ("vortex", "E")}
    scene = scene_of(ROCKETBALL, cells, seed=7)
    skewed = dataclasses.replace(scene.cells[B9], angle_deg=42.0)
    reading, _ = look(dataclasses.replace(scene, cells=scene.cells | {B9: skewed}))
    inference = CameraMoves(game).infer(state, reading)
    assert inference.kind == "ask"
    assert {a.notation() for a in inference.candidates} <= {f"place b9 {d}" for d in "NESW"}
    assert "b9" in inference.message


def test_two_chips_at_once_are_refused_with_what_differs():
    """Rules "Play": one chip per turn; two new chips match no legal move."""
    game, state = after_two_rolls()
    cells = rocketball_cells(state) | {B9: ("vortex", "E"), (8, 5): ("vortex", "S")}
    reading, _ = look(scene_of(ROCKETBALL, cells, seed=8))
    inference = CameraMoves(game).infer(state, reading)
    assert inference.kind == "illegal"
    assert "b9: empty -> vortex E" in inference.message and "f3: empty -> vortex S" in inference.message


def test_rotating_the_chip_just_rotated_by_the_other_player_gives_the_engines_reason():
    """The rules: a chip the opponent rotated last turn may not be rotated back at once."""
    game, state = after_two_rolls()
    board = list(state.board)
    board[15] = Chip(Kind.VORTEX, Dir.N)
    state = dataclasses.replace(state, board=tuple(board), last_rotated=(None, 15), hand=None,
                                bag=dataclasses.replace(state.bag, vortex=0))
    cells = rocketball_cells(state) | {B9: ("vortex", "E")}
    reading, _ = look(scene_of(ROCKETBALL, cells, seed=9))
    inference = CameraMoves(game).infer(state, reading)
    with pytest.raises(IllegalAction) as refused:
        state.apply(game.parse("rotate b9 cw"))
    assert inference.kind == "illegal"
    assert str(refused.value) in inference.message


def test_only_games_with_a_kit_reading_are_followed():
    with pytest.raises(ValueError, match="cannot follow 'rocca'"):
        CameraMoves(load("rocca"))


def test_a_stoneball_move_is_read_from_the_board():
    """Stoneball: White moves first (ruling); a piece moved one field forward reads as that
    move, and a piece lifted off the board matches no move."""
    game = load("stoneball")
    state = game.new()
    cells = stoneball_cells(state)
    cells[(6, 1)] = cells.pop((7, 1))
    frame = render(scene_of(STONEBALL, cells, seed=10)).image
    inference = CameraMoves(game).infer(state, read_grid(frame, STONEBALL))
    assert (inference.kind, inference.action.notation()) == ("move", "b2b3")
    del cells[(6, 1)]
    frame = render(scene_of(STONEBALL, cells, seed=11)).image
    inference = CameraMoves(game).infer(state, read_grid(frame, STONEBALL))
    assert inference.kind == "illegal" and "b2: white -> empty" in inference.message


def test_a_ball_left_behind_is_a_reminder_not_a_move():
    """The referee moves the rocketball by the rules; a chip placed while the ball token still
    sits on its old square is accepted, with a note saying where the ball belongs."""
    game, state = after_two_rolls()
    cells = {(5, 3): ("ball", "N"), B9: ("vortex", "E")}  # the ball token not moved to d8
    reading, _ = look(scene_of(ROCKETBALL, cells, seed=12))
    inference = CameraMoves(game).infer(state, reading)
    assert inference.kind == "move" and inference.action.notation() == "place b9 E"
    assert inference.ball_note == "put the ball N on d8"

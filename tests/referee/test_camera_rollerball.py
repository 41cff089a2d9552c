"""The referee follows Rollerball v4 from the camera: bases, workmen and cards on the kit board."""

from __future__ import annotations

import random

from engines.core.bots import sample_chance
from engines.rollerball import Rollerball
from engines.rollerball.actions import PlaceCard
from engines.rollerball.cards import SPLITTERS
from referee.camera_moves import CameraMoves, act, rollerball_cells
from referee.journal import Journal
from referee.session import Session
from tests.engines.rollerball.position import position
from vision.grid import read_grid
from vision.kit.geometry import ROLLERBALL
from vision.tablegen import render, scene_of


def look(cells, seed: int):
    """The kit board showing `cells`, as the camera reads it."""
    return read_grid(render(scene_of(ROLLERBALL, cells, seed=seed)).image, ROLLERBALL)


def camera_turn(session: Session, seed: int) -> str:
    """The player to move does the first board-changing legal action on the table; the
    referee takes it from one camera frame. Returns what was done."""
    state = session.state
    action = next(a for a in state.legal_actions()
                  if rollerball_cells(state.apply(a)[0]) != rollerball_cells(state))
    inference = CameraMoves(session.game).infer(state, look(rollerball_cells(state.apply(action)[0]), seed))
    assert inference.kind == "move", inference.message
    assert inference.action == action
    assert act(session, inference)
    return action.notation()


def test_referee_plays_the_rollerball_setup_from_camera_readings(tmp_path):
    """Rules, setup: the bid winner places a base on a corner, then each player a workman,
    then cards go down one at a time, then the ball is put on the board; the referee reads
    each from the board and journals it."""
    journal = Journal(tmp_path / "j.sqlite")
    session = Session.open(journal, "rollerball", seed=5)
    rng = random.Random(5)
    session.advance()
    while session.state.phase != "bases":  # deal and bids: hidden cards, entered on the panels
        session.accept(rng.choice(session.state.legal_actions()))
        session.advance()
    done = []
    while session.state.phase in ("bases", "workmen", "cards", "ball"):
        if session.state.phase == "cards" and "place" in [t.split()[0] for t in done]:
            session.accept(next(a for a in session.state.legal_actions() if a.notation() == "pass"))
        else:
            done.append(camera_turn(session, seed=len(done)))
        session.advance()
    kinds = [text.split()[0] for text in done]
    assert kinds[:2] == ["base", "base"] and "workman" in kinds and "place" in kinds and kinds[-1] == "ball"
    assert session.state.phase == "play"
    assert [e.notation for e in journal.actions(session.row.id) if e.notation in done] == done
    journal.close()


def test_a_card_replaced_in_play_is_read_and_a_hidden_code_is_not_guessed():
    """Rules, the workman's use: with a Replacer the card under the workman is swapped for one
    from the hand. Only the head half carries the code: laid with its head under the workman,
    the new Down Move looks exactly like the Up Move it replaced, and the referee sees no
    change rather than guessing (the players enter the move)."""
    state = position(cards=["UM c7-c8"], workmen=["d3", "c7"], hands=["", "RP DM"], balls=["a4"])
    moves = CameraMoves(Rollerball())
    after = next(state.apply(a)[0] for a in state.legal_actions() if a.notation() == "replace DM c8-c7")
    cells = rollerball_cells(after)
    assert cells[(0, 2)] == ("DM", "S") and cells[(1, 2)] == ("workman", None), "head on c8 (its entry)"
    inference = moves.infer(state, look(cells, seed=21))
    assert inference.kind == "move" and inference.action.notation() == "replace DM c8-c7"
    cells[(0, 2)] = ("card_tail", "N")  # the head lies under the workman on c7
    assert moves.infer(state, look(cells, seed=22)).kind == "none"


def test_a_card_laid_head_to_tail_is_the_same_card_unless_it_is_a_splitter():
    """Rules, cards: a Move or ball changer card works the same whichever half lies where, so
    the referee accepts it either way round; a splitter's way round (splitting or combining)
    is the player's choice and is read as laid."""
    game = Rollerball()
    state, rng = game.new(), random.Random(2)

    def plain_cards(state) -> list[PlaceCard]:
        return [a for a in state.legal_actions() if isinstance(a, PlaceCard) and a.card.code not in SPLITTERS]

    while state.phase != "cards" or not plain_cards(state):
        state, _ = state.apply(sample_chance(state, rng) if state.is_chance else rng.choice(state.legal_actions()))
    plain = plain_cards(state)[0]
    cells = rollerball_cells(state.apply(plain)[0])
    head, tail = (rc for rc, c in cells.items() if c[0] in (plain.card.code, "card_tail")
                  and rc not in rollerball_cells(state))
    back = {"N": "S", "S": "N", "E": "W", "W": "E"}[cells[head][1]]
    cells[head], cells[tail] = ("card_tail", back), (plain.card.code, back)
    inference = CameraMoves(game).infer(state, look(cells, seed=24))
    assert inference.kind == "move" and inference.action == plain


def test_a_card_on_squares_no_card_may_cover_is_refused():
    """Rules, card placement: a track changer crosses two neighbouring tracks; a card lying
    along one track is no legal placement and the board must be put back."""
    state = position(cards=[], workmen=["d3", "c7"], hands=["", "DM"], balls=["a4"])
    cells = rollerball_cells(state) | {(0, 2): ("DM", "E"), (0, 3): ("card_tail", "E")}
    inference = CameraMoves(Rollerball()).infer(state, look(cells, seed=23))
    assert inference.kind == "illegal"
    assert "c8: empty -> DM E" in inference.message

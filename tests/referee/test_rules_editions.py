"""Every engine names the edition of the rules it implements (a date or an edition) in the
records it writes; the records and journals of older builds, which named Stoneball's and
Rollerball II's rule text by its file name instead, still replay and resume."""

import random

import pytest

from engines.core.records import Record, load_record, new_record
from engines.core.registry import GAMES, game_class
from referee.journal import Journal
from referee.session import Session

from .test_commands import tabletop

# What older builds wrote as these games' label: the name of the rule text's file.
RENAMED = ("stoneball", "rollerball-ii")


def old_label(game_id: str) -> str:
    return f"{game_id}.txt"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_engine_names_an_edition_not_a_file(game_id):
    label = game_class(game_id).rules_version
    assert label and not label.endswith(".txt") and "/" not in label, label


def played(game_id: str, moves: int = 12) -> Record:
    """A record of a few random legal actions from a fixed seed."""
    game = game_class(game_id)({})
    record = new_record(game, game.default_players, seed=1)
    state, rng = game.new(list(game.default_players)), random.Random(4)
    for _ in range(moves):
        if state.is_over:
            break
        action = rng.choice(state.legal_actions())
        record.actions.append(action.notation())
        state, _ = state.apply(action)
    return record


@pytest.mark.parametrize("game_id", RENAMED)
def test_an_old_record_with_the_file_label_replays_from_the_command_line(game_id, tmp_path):
    record = played(game_id)
    record.header.rules_version = old_label(game_id)
    path = tmp_path / "old.jsonl"
    record.write(path)
    assert load_record(path).header.rules_version == old_label(game_id)
    done = tabletop("replay", str(path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"{len(record.actions)} actions replayed" in done.stdout


@pytest.mark.parametrize("game_id", RENAMED)
def test_an_old_journal_game_with_the_file_label_resumes_and_exports_its_label(game_id, tmp_path):
    record = played(game_id)
    journal = Journal(tmp_path / "j.sqlite")
    row = journal.start_game(game_id, old_label(game_id), record.header.options,
                             record.header.players, 1)
    for notation in record.actions:
        journal.append(row.id, notation, False)
    session = Session(journal, row)
    assert session.resumed_actions == len(record.actions)
    assert journal.record(row.id).header.rules_version == old_label(game_id)
    journal.close()

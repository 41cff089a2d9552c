"""Game records (docs/records.md): writing, reading, replaying, and the errors for bad lines."""

from __future__ import annotations

import json

import pytest

from engines.core.records import Record, RecordError, load_record, new_record, read_record, replay
from referee.cli import main


def race_record(game, actions):
    rec = new_record(game, ["a", "b"], seed=5)
    rec.actions = list(actions)
    return rec


def test_a_record_round_trips_through_its_text(race_registered):
    rec = race_record(race_registered, ["roll 3", "bank", "roll 1", "gift"])
    back = read_record("\n".join(rec.lines()) + "\n")
    assert back.header.to_json() == rec.header.to_json()
    assert back.actions == rec.actions


def test_replay_rebuilds_the_same_state(race_registered):
    rec = race_record(race_registered, ["roll 3", "bank", "roll 2", "gift"])
    final = replay(rec).final
    assert final.scores == (5, 0)  # a banked 3, then b gifted 2 to a
    assert final.to_move == -1  # waiting for the next roll


def test_an_illegal_line_names_its_number_and_reason(race_registered):
    rec = race_record(race_registered, ["roll 3", "roll 2"])
    with pytest.raises(RecordError) as err:
        replay(read_record("\n".join(rec.lines())))
    assert err.value.line == 3
    assert "not possible now" in str(err.value)


def test_malformed_lines_are_refused_with_their_number():
    header = json.dumps({"record": "tabletop/1", "game": "race", "players": ["a", "b"]})
    with pytest.raises(RecordError, match="line 2: not valid JSON"):
        read_record(header + "\n{oops\n")
    with pytest.raises(RecordError, match="line 3: an action line"):
        read_record(header + '\n{"action": "bank"}\n{"move": 3}\n')
    with pytest.raises(RecordError, match="line 1: not a tabletop/1 record header"):
        read_record('{"game": "race"}\n')
    with pytest.raises(RecordError, match="line 1: the record is empty"):
        read_record("")


def test_blank_lines_keep_the_numbers_of_the_file(race_registered):
    text = "\n".join(race_record(race_registered, []).lines()) + '\n\n{"action": "bank"}\n'
    with pytest.raises(RecordError) as err:
        replay(read_record(text))
    assert err.value.line == 3


def test_unknown_game_and_bad_options_are_named(race_registered):
    rec = race_record(race_registered, [])
    rec.header.game = "chess"
    with pytest.raises(RecordError, match="unknown game 'chess'"):
        replay(rec)
    rec.header.game = "race"
    rec.header.options = {"target": "ten"}
    with pytest.raises(RecordError, match="options.target: expected a whole number"):
        replay(rec)


def test_write_is_atomic_and_leaves_no_temporary_file(tmp_path, race_registered):
    path = tmp_path / "game.jsonl"
    race_record(race_registered, ["roll 1"]).write(path)
    race_record(race_registered, ["roll 1", "bank"]).write(path)
    assert load_record(path).actions == ["roll 1", "bank"]
    assert [p.name for p in tmp_path.iterdir()] == ["game.jsonl"]


def test_cli_replay_reports_the_bad_line_and_exits_1(tmp_path, capsys, race_registered):
    path = tmp_path / "bad.jsonl"
    race_record(race_registered, ["roll 2", "bank", "bank"]).write(path)
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert "line 4" in err and "'bank'" in err


def test_cli_replay_json_prints_the_final_state(tmp_path, capsys, race_registered):
    path = tmp_path / "ok.jsonl"
    race_record(race_registered, ["roll 2", "bank"]).write(path)
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == [2, 0]


def test_cli_replay_of_a_missing_file_is_one_line(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_record_type_is_plain_data():
    rec = Record(read_record('{"record": "tabletop/1", "game": "race", "players": ["a", "b"]}').header)
    assert json.loads(next(rec.lines()))["seed"] is None

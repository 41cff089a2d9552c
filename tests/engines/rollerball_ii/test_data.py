"""The editable data: the packaged files keep the rule text's constraints, and a broken file
gets a message naming the file, the card or row, and the field."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engines.core import OptionError
from engines.rollerball_ii import RollerballII
from engines.rollerball_ii.data import (
    DATA,
    DataError,
    load_deck,
    load_game_card,
    load_tables,
)
from engines.rollerball_ii.matrix import Act
from engines.rollerball_ii.teams import (
    generate_team,
    load_team,
    starting_lineup,
    team_file_data,
    team_for,
)

from .helpers import DEFAULTS, SECTIONS, deck_file


def kinds(effects):
    for e in effects:
        yield e["do"]
        if e["do"] == "if":
            yield from kinds(e.get("then", []))
            yield from kinds(e.get("else", []))


def test_packaged_deck_has_sixty_cards_with_six_sections_and_varied_effects():
    """FAST ACTION CARDS: sixty cards, each with the six sections; the effects vary."""
    deck = load_deck()
    assert len(deck) == 60
    assert all(set(c.sections) == set(SECTIONS) for c in deck)
    used = Counter(k for c in deck for s in c.sections.values() for k in kinds(s.effects))
    assert {"control", "turnover", "gutter", "biker", "catch", "penalty", "injure", "rest", "eject",
            "goal", "new_ball", "if", "keep"} <= set(used)
    flavours = {s.flavour for c in deck for s in c.sections.values()}
    assert len(flavours) > 120, "card texts are varied"


OTHER_SIDE = {"home": "visitors", "visitors": "home"}


def mirrored(value):
    """Effects with the home team and the visitors swapped."""
    if isinstance(value, dict):
        return {k: mirrored(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [mirrored(v) for v in value]
    return OTHER_SIDE.get(value, value) if isinstance(value, str) else value


def signature(effects) -> str:
    """What a section does, without its wording (the injury's name is scoresheet text) and in
    any order (a penalty for each side is the same card whichever is read first)."""
    def plain(value):
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items() if k != "injury"}
        if isinstance(value, list | tuple):
            return sorted((plain(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
        return value
    return json.dumps(plain(effects), sort_keys=True)


def sides_named(effects, kind):
    """The teams named by name ('home', 'visitors') in the section's effects of ``kind``."""
    out = set()
    for e in effects:
        if e["do"] == kind:
            for value in (e.get("who"), e.get("by"), e):
                if isinstance(value, dict) and value.get("team") in OTHER_SIDE:
                    out.add(value["team"])
        if e["do"] == "if":
            out |= sides_named(e.get("then", []) + e.get("else", []), kind)
    return out


def test_packaged_deck_hits_home_and_visitors_on_equally_many_cards():
    """FAST ACTION CARDS, ATTACK and EVENT: penalties, injuries, ejections and rests, and the
    Catchers a fired ball goes to, fall on the home team on as many cards as on the visitors
    (the text names no side to favour; a lopsided deck decides matches by the seat)."""
    counts = Counter()
    for card in load_deck():
        for name, section in card.sections.items():
            for kind in ("penalty", "injure", "eject", "rest", "catch"):
                for side in sides_named(section.effects, kind):
                    counts[name, kind, side] += 1
    assert counts["event", "injure", "home"] > 0 and counts["event", "eject", "visitors"] > 0
    assert counts["fires", "catch", "home"] > 0
    lopsided = {(name, kind): (counts[name, kind, "home"], counts[name, kind, "visitors"])
                for name, kind, _ in counts
                if counts[name, kind, "home"] != counts[name, kind, "visitors"]}
    assert not lopsided, f"cards per (section, kind): (home, visitors) {lopsided}"


def test_packaged_deck_is_its_own_mirror_image():
    """Every card that favours or hurts one side has a twin doing the same to the other side
    (conditions included: a Star-only catch for one side is a Star-only catch for the other)."""
    for name in SECTIONS:
        sections = [card.sections[name].effects for card in load_deck()]
        mine = Counter(signature(s) for s in sections)
        twins = Counter(signature(mirrored(s)) for s in sections)
        assert mine == twins, f"{name}: without a twin {sorted((mine - twins).elements())}"


def test_packaged_tables_keep_the_text_constraints_and_the_sample_card():
    """PLAYER CARD ACTIONS: the sample Star Skater's columns are a row of the Star Skater table."""
    t = load_tables()
    sample_off = {Act.GOAL: 5, Act.BKR: 2, Act.PASS: 1, Act.ATT: 1, Act.EVT: 1}
    sample_def = {Act.ATT: 4, Act.LOSE: 3, Act.BKR: 1, Act.GOAL: 1, Act.EVT: 1}
    assert sample_off in t.rows["skater", "star", "offence"]
    assert sample_def in t.rows["skater", "star", "defence"]
    assert not any(r.get(Act.BKR) or r.get(Act.PASS) for e in ("star", "veteran", "rookie")
                   for side in ("offence", "defence") for r in t.rows["biker", e, side])


def test_generated_roster_is_eleven_skaters_seven_bikers_seven_catchers():
    """GAME COMPONENTS: about 25 cards a team: 11 Skaters, 7 Bikers, 7 Catchers; each column
    is one of the table's rows, offence and defence drawn separately."""
    tables = load_tables()
    team = generate_team("Houston", tables, 6)
    assert Counter(p.position for p in team.players) == {"skater": 11, "biker": 7, "catcher": 7}
    for p in team.players:
        for side in ("offence", "defence"):
            counts = Counter(Act(p.result(side, f)) for f in range(10))
            assert dict(counts) in [dict(r) for r in tables.rows[p.position, p.experience, side]]
    assert generate_team("Houston", tables, 6) == team, "the seed fixes the roster"
    assert generate_team("Houston", tables, 7) != team


def test_lineup_is_three_bikers_four_skaters_two_catchers_and_the_extra():
    """GAME SETUP: 3 Bikers, 4 Skaters, 2 Catchers and an extra Skater or Catcher."""
    team = generate_team("Houston", load_tables(), 1)
    for extra in ("skater", "catcher"):
        lineup = starting_lineup(team, extra)
        positions = [team.player(n).position for n in lineup]
        assert positions[:9] == ["biker"] * 3 + ["skater"] * 4 + ["catcher"] * 2
        assert positions[9] == extra


def test_roster_file_round_trips_and_is_used(tmp_path):
    team = generate_team("Houston", load_tables(), 3)
    path = tmp_path / "houston.json"
    path.write_text(json.dumps(team_file_data(team)))
    assert load_team(str(path)) == team
    st = RollerballII({"home_roster": str(path)}).new()
    assert st.teams[0] == team


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_roster_errors_name_the_player_and_field(tmp_path):
    data = team_file_data(generate_team("Houston", load_tables(), 3))
    data["player"][2]["defence"][0] = "PASS"
    path = write(tmp_path, "bad.json", json.dumps(data))
    with pytest.raises(DataError, match=r"bad\.json: player #3: defence: PASS never occurs"):
        load_team(path)
    data = team_file_data(generate_team("Houston", load_tables(), 3))
    data["player"][1]["number"] = 1
    with pytest.raises(DataError, match="two players wear #1"):
        load_team(write(tmp_path, "dup.json", json.dumps(data)))


def test_table_errors_name_the_row(tmp_path):
    text = (DATA / "tables.toml").read_text().replace(
        "{ GOAL = 4, BKR = 2, LOSE = 1, ATT = 2, EVT = 1 }", "{ GOAL = 3, BKR = 2, LOSE = 1, ATT = 2, EVT = 2 }", 1)
    with pytest.raises(DataError, match=r"\[skater\.veteran\] offence row 1: a column has exactly one EVT"):
        load_tables(write(tmp_path, "t.toml", text))
    text = (DATA / "tables.toml").read_text().replace("[skater.rookie]\noffence = [\n    { GOAL = 3,",
                                                      "[skater.rookie]\noffence = [\n    { GOAL = 9,", 1)
    with pytest.raises(DataError, match="add up to 16"):
        load_tables(write(tmp_path, "t2.toml", text))


def test_tables_must_rank_stars_above_veterans_above_rookies(tmp_path):
    text = (DATA / "tables.toml").read_text()
    star, rookie = text.index("[biker.star]"), text.index("[biker.rookie]")
    end = text.index("# A generated roster")
    swapped = text[:star] + text[rookie:end].replace("[biker.rookie]", "[biker.star]") + \
        text[text.index("[biker.veteran]"):rookie] + text[star:text.index("[biker.veteran]")].replace(
            "[biker.star]", "[biker.rookie]") + text[end:]
    with pytest.raises(DataError, match=r"\[biker\] offence: Stars must rate above Veterans"):
        load_tables(write(tmp_path, "t3.toml", swapped))


@pytest.mark.parametrize("section,effects,message", [
    ("fires", [{"do": "penalty", "who": "attacker", "length": 2}], "'penalty' cannot happen here"),
    ("action", [{"do": "control", "slot": "S9"}], r"card 1, action, do\[0\]\.slot: 'S9'"),
    ("attack_skater", [{"do": "penalty", "who": "attacker", "length": 4}], r"do\[0\]\.length: 4 is not a penalty length"),
    ("event", [{"do": "injure", "who": "handler", "until": "forever", "injury": "x"}], r"do\[0\]\.until"),
    ("event", [{"do": "rest", "who": {"team": "home", "pick": "tallest"}, "until": "period"}], r"do\[0\]\.who\.pick"),
    ("biker", [{"do": "if", "who": {"team": "control", "slot": "B1"}, "exp": ["legend"]}], r"do\[0\]\.exp"),
])
def test_deck_errors_name_file_card_section_and_field(tmp_path, section, effects, message):
    path = deck_file(tmp_path, {section: effects})
    with pytest.raises(DataError, match=message) as err:
        load_deck(path)
    assert "deck.json" in str(err.value)


def test_deck_card_missing_a_section(tmp_path):
    path = tmp_path / "deck.json"
    cards = [{"card": 1, **{s: {"flavour": "x", "do": DEFAULTS[s]} for s in SECTIONS if s != "event"}}]
    path.write_text(json.dumps({"deck": cards}))
    with pytest.raises(DataError, match=r"card 1: section event \(EVENT\) missing"):
        load_deck(str(path))


def test_game_card_errors(tmp_path):
    text = (DATA / "game_card.toml").read_text().replace('"C2", "X"]', '"C2", "Z9"]', 1)
    with pytest.raises(DataError, match=r"\[random_player\] player face 9: 'Z9'"):
        load_game_card(write(tmp_path, "card.toml", text))


def test_unreadable_files_are_named(tmp_path):
    with pytest.raises(DataError, match="nothing.json: cannot read it"):
        load_deck(str(tmp_path / "nothing.json"))
    with pytest.raises(DataError, match="not valid TOML"):
        load_tables(write(tmp_path, "broken.toml", "[skater\n"))


# ------------------------------------------------------------------ options that name data files

def bad_files(tmp_path):
    """Files a user might point a data option at by mistake, each with what the message says."""
    binary = tmp_path / "noise.json"
    binary.write_bytes(bytes(range(256)) * 4)
    text = write(tmp_path, "notes.txt", "root:x:0:0:root:/root:/bin/bash\n")
    listed = write(tmp_path, "list.json", "[1, 2, 3]")
    return [
        (str(tmp_path / "missing.json"), "cannot read it"),
        (str(tmp_path), "not a regular file"),
        (text, "not valid TOML"),
        (str(binary), "not valid JSON"),
        (listed, "the top level must be a table"),
    ]


DATA_OPTIONS = ["deck", "game_card", "tables", "home_roster", "visitors_roster"]


@pytest.mark.parametrize("option", DATA_OPTIONS)
def test_a_data_option_naming_a_bad_file_is_an_option_error_naming_both(tmp_path, option):
    """Options that name data files: a missing file, a folder, a text or binary file that is not
    the data, or JSON of another shape is refused when the game is set up, with the option's
    name and the file's path, as the error every command turns into a one-line message."""
    for path, reason in bad_files(tmp_path):
        with pytest.raises(OptionError) as err:
            RollerballII({option: path})
        message = str(err.value)
        assert message.startswith(f"option {option}: {path}") and reason in message, message
        assert "\n" not in message


@pytest.mark.parametrize("option,shape,reason", [
    ("deck", {"deck": [1, 2]}, "card 1: 'card' must be numbered 1"),
    ("deck", {"cards": []}, "'deck' must be a list of cards"),
    ("tables", {"skater": {"star": "fast"}}, r"\[skater\.star\] offence: missing"),
    ("tables", {"skater": 3}, r"\[skater\.star\] offence: missing"),
    ("home_roster", {"team": "Houston", "player": [5]}, "player 1: must be a table"),
    ("game_card", {"penalty_minutes": "two"}, "penalty_minutes must be a list"),
])
def test_json_of_the_wrong_shape_is_named_not_a_crash(tmp_path, option, shape, reason):
    """A JSON file whose nesting differs from the schema is reported like any other fault."""
    path = write(tmp_path, "shape.json", json.dumps(shape))
    with pytest.raises(OptionError, match=reason):
        RollerballII({option: path})


def test_a_period_longer_than_the_deck_is_an_option_error(tmp_path):
    """FAST ACTION CARDS: a period draws its FACs from the deck, so it cannot need more cards."""
    with pytest.raises(OptionError, match=r"facs_per_period \(13\) exceeds the deck's 12 cards"):
        RollerballII({"deck": deck_file(tmp_path), "facs_per_period": 13})


@pytest.mark.parametrize("ref", ["seed:\u00b2", "seed:\u0663", "seed:", "seed:-1"])
def test_a_generated_roster_seed_in_other_digits_is_a_data_error_not_a_crash(ref):
    """A roster named "seed:N" is generated only for N in the digits 0-9; anything else is read
    as a roster file and refused with the project's DataError (a Unicode digit used to raise a
    bare ValueError from int())."""
    with pytest.raises(DataError, match="cannot read it"):
        team_for(ref, "home")

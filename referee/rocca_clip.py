"""The Rocca clip of ``tabletop demo``: one generated turn judged from video at the simulated table.

The synthetic scene generator (vision/synth) makes a Rocca turn with exact truth; the clip is
written as a video file and read back frame by frame, as a file camera would hand it over, into
the live judge (vision/live.py). Each event the judge decides goes through referee/rocca_vision.py
to Rocca actions, proposed to a real session (the Rocca controller, the journal, the simulated
displays written as GIFs). The truth stands in for the person at the table: a call that matches
it is confirmed with yes, a wrong call is overruled with no and the truth entered on the panel,
an unsure call is entered on the panel, a call of something that never happened is overruled.
So the journal always holds the turn that was played, whatever the judge makes of it, and the
summary says call by call what the judge said against the truth.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from device.camera import CaptureSource
from device.events import InputEvent
from engines.core.state import Action
from referee.journal import Journal
from referee.rocca_vision import VisionRejected, actions_for, verdict_inputs
from referee.session import Session
from referee.table import wire_sim
from vision.analyze import analysis_of
from vision.annotate import write_annotated
from vision.live import Decision, LiveJudge
from vision.synth import generate_clip

CLIP_SEED = 6
"""A turn of a two-player game (a drop of four, gate shots, a clear) in ten seconds of video."""
CLIP_FPS = 30
CLIP_SIZE = (640, 480)
NAMES = ["Ada", "Ben", "Cleo", "Dev", "Eve", "Finn"]
PREFIX = "rocca-clip"
FATES = ("confirmed", "overruled", "unsure", "never happened", "missed")
"""What became of the judge's calls, in the summary's order ("missed": the truth's, never called)."""


def players_for(dropped: int) -> list[str]:
    """Seats so the first drop holds what the clip drops: Rocca rules "Starting a turn" antes two
    pieces each with two players, one each with more (so 4 pieces: two players; 3, 5, 6: that
    many players)."""
    if dropped == 4:
        return NAMES[:2]
    if 3 <= dropped <= len(NAMES):
        return NAMES[:dropped]
    raise ValueError(f"no table of 2 to 6 players drops {dropped} pieces on the first turn")


def overlap(a: dict, b: dict) -> int:
    """Frames two events share (negative when apart)."""
    return min(a["end"], b["end"]) - max(a["start"], b["start"])


def describe(event: dict) -> str:
    if event["type"] == "drop":
        return "drop"
    if event["type"] == "pickup":
        return "pickup"
    return f"{event['kind']} shot"


def stones(pickup: dict) -> str:
    """How many stones a pickup took (the judge's stone ids are its own, not the generator's)."""
    n = len(pickup["stones"])
    return f"{n} stone{'s' if n != 1 else ''}"


def said(actions: list[Action]) -> str:
    return "'" + ", ".join(a.notation() for a in actions) + "'"


@dataclass
class Referee:
    """The person at the table, played from the truth: confirms, overrules and enters outcomes
    on the panel, through the same input events a real panel posts."""

    session: Session
    truth: list[dict]
    lines: list[str] = field(default_factory=list)
    """A summary line per judged event (and per truth event the judge missed)."""
    used: set[int] = field(default_factory=set)
    """Indices of the truth events already matched or entered."""
    tally: Counter = field(default_factory=Counter)
    """How the judge's calls fared (FATES)."""

    def post(self, ev: InputEvent) -> None:
        self.session.handle(ev)
        self.session.advance()

    def press(self, key: str, seat: str | None = None) -> None:
        self.post(InputEvent("panel", "press", key, seat))

    def by_hand(self, action: Action) -> None:
        """Enter ``action`` with the panel's keys (the Rocca controller's yes/no/number/arrows)."""
        s = self.session
        st, seen = s.state, len(s.history)
        mover = None if st.is_chance else st.players[st.to_move]
        text = action.notation()
        if text.startswith("drop "):
            self.press(text.rsplit("/", 1)[1])  # the count that splashed
        elif st.is_chance and text == "pass":
            self.press("yes")
        else:
            if st.is_chance:
                self.press("no")  # the fouls are listed
            for _ in range(len(s.controller.options)):
                if s.controller.selected == action:
                    break
                self.press("right", mover)
            self.press("ok", mover)
        if len(s.history) == seen or s.history[-1][1] != action:
            raise RuntimeError(f"the referee could not enter '{text}' on the panel: {s.view.refusals}")

    def confirm_or_overrule(self, judged: Action, truth: Action | None) -> bool:
        """Show the judge's call; yes when it is the truth's, else no (and the truth by hand)."""
        self.post(InputEvent("camera", "proposal", value=judged.notation()))
        if judged == truth:
            self.press("yes")
            return True
        self.press("no")
        if truth is not None:
            self.by_hand(truth)
        return False

    def enter_missed(self, upto: int) -> None:
        """Truth events before ``upto`` the judge never called: the referee enters them."""
        for k in range(upto):
            if k in self.used:
                continue
            self.used.add(k)
            event = self.truth[k]
            if event["type"] == "pickup":
                self.lines.append("  pickup: the judge missed it (nothing to score)")
                continue
            self.tally["missed"] += 1
            actions = actions_for(self.session.state, event)
            for a in actions:
                self.by_hand(a)
            self.lines.append(f"  {describe(event)}: the judge missed it; the referee entered {said(actions)}")

    def match(self, judged: dict) -> int | None:
        """The truth event the judge saw: the same type, most frames in common."""
        best = [(overlap(judged, e), k) for k, e in enumerate(self.truth)
                if k not in self.used and e["type"] == judged["type"] and overlap(judged, e) >= 0]
        return max(best)[1] if best else None

    def take(self, judged: dict) -> None:
        """One judged event: matched to the truth, then confirmed, overruled or entered by hand."""
        k = self.match(judged)
        if k is not None:
            self.enter_missed(k)
            self.used.add(k)
        truth = self.truth[k] if k is not None else None
        what = describe(judged)
        if judged["type"] == "pickup":
            took = f"pickup: judge {stones(judged)}"
            self.lines.append(f"  {took}, truth {stones(truth)} (nothing to score)" if truth
                              else f"  {took}, which never happened (nothing to score)")
            return
        state = self.session.state
        try:
            calls = actions_for(state, judged)
        except VisionRejected as exc:
            calls, why = [], str(exc)
        if truth is None:
            self.tally["never happened"] += 1
            if calls:
                self.confirm_or_overrule(calls[0], None)
                self.lines.append(f"  {what}: judge {said(calls)}, which never happened: overruled")
            else:
                self.lines.append(f"  {what}: judge unsure, which never happened: ignored")
            return
        wanted = actions_for(state, truth)
        if not calls:
            self.tally["unsure"] += 1
            self.session.view.last_event = f"judge unsure: enter the {what}"
            self.session.redraw()
            for a in wanted:
                self.by_hand(a)
            reason = judged.get("why") or why
            self.lines.append(f"  {what}: judge unsure ({reason}), truth {said(wanted)}: "
                              "the referee entered it on the panel")
            return
        agreed = all([self.confirm_or_overrule(c, t) for c, t in zip(calls, wanted, strict=True)])
        verdict = "confirmed" if agreed else "overruled, the referee entered the truth"
        self.tally[verdict.split(",")[0]] += 1
        self.lines.append(f"  {what}: judge {said(calls)}, truth {said(wanted)}: {verdict}")


def play_clip(out: Path, seed: int = CLIP_SEED) -> list[str]:
    """Generate, write, judge and referee the clip; the summary lines (calls and files)."""
    started = time.monotonic()
    clip = generate_clip("game", seed, size=CLIP_SIZE, fps=CLIP_FPS)
    truth = clip.truth
    video, truth_path = out / f"{PREFIX}.mp4", out / f"{PREFIX}-truth.json"
    clip.write(video, truth_path)
    players = players_for(len(truth["truth"]["dropped"]))
    wiring = wire_sim(players, "gif", out, prefix=f"{PREFIX}-", frame_seconds=0.8)
    journal = Journal(out / f"{PREFIX}-journal.sqlite", durable=False)  # a throwaway journal
    try:
        session = Session.open(journal, "rocca", players, seed=seed, resume=False, table=wiring.table)
        session.redraw()
        referee = Referee(session, truth["events"])
        judge = LiveJudge(tuple(truth["board"]["size_mm"]), CLIP_FPS)
        decisions: list[Decision] = []
        seen = {"frames": 0, "shape": (0, 0)}
        with CaptureSource(str(video)) as camera:
            def frames():
                for f in camera:
                    seen["frames"], seen["shape"] = seen["frames"] + 1, f.image.shape
                    yield f.image, f.t
            for decision in judge.run(frames()):  # each decision as its episode settles
                decisions.append(decision)
                for message in verdict_inputs(decision):  # what the camera posts to the referee
                    referee.take(message.value)
        referee.enter_missed(len(truth["events"]))
        status = session.state.render().splitlines()[0]  # "Rocca, turn 1: Ada to shoot, ..."
        entries = [e.notation for e in journal.actions(session.row.id)]
        record_path = out / f"{PREFIX}.jsonl"
        journal.record(session.row.id).write(record_path)
    finally:
        wiring.close()
        journal.close()
    judged = analysis_of(judge, decisions, CLIP_FPS, seen["frames"], seen["shape"])
    json_path = out / f"{PREFIX}-analysis.json"
    json_path.write_text(json.dumps(judged.doc, indent=1) + "\n", encoding="utf-8")
    annotated = out / f"{PREFIX}-annotated.mp4"
    write_annotated(str(video), judged, str(annotated))
    n_judged = sum(len(d.events) for d in decisions)
    lines = [f"demo: rocca clip: seed {seed}, {seen['frames']} frames {CLIP_SIZE[0]}x{CLIP_SIZE[1]} "
             f"at {CLIP_FPS} fps, {', '.join(players)}; the judge called {n_judged} events, "
             f"the truth has {len(truth['events'])} ({time.monotonic() - started:.1f} s)",
             "  the judge's calls of drops and shots: " + ", ".join(f"{referee.tally[k]} {k}" for k in FATES),
             *referee.lines,
             f"  journal: {len(entries)} Rocca actions: {', '.join(entries)}",
             f"  now: {status}"]
    for path in (video, truth_path, json_path, annotated, record_path, *wiring.files):
        lines.append(f"  {path} ({path.stat().st_size // 1024} KiB)")
    return lines

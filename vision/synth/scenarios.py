"""The scenarios: what happens in a clip, re-sampled until the physics yields the intended truth.

Each scenario draws its set-up and its action from the seed, runs the physics, computes the
truth from the tracks (``verdict.judge_shot``) and checks it against what the scenario is for
(a "gate_touch" clip must really touch a gate). An unintended outcome or a gate stone nudged by
a third stone is thrown away and the next attempt of the same seed is tried, a bounded number of
times; so are, unless the style keeps ``close_calls``, a near miss under 1.5 mm and a touch that
barely moves the gate stone.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .camera import Camera
from .layout import board_area, fits, gate_setup, near_marker, near_segment, scatter
from .physics import StoneState
from .stones import StoneShape
from .timeline import Resample, Timeline
from .verdict import ShotTruth, judge_shot

MAX_TRIES = 60
MIN_CLEARANCE_MM = 1.5
MIN_TOUCH_MOVE_MM = 1.0


class Scene:
    """What a scenario works with: the stones of the clip, its style, fps and seed."""

    def __init__(
        self,
        shapes: dict[int, StoneShape],
        style: dict,
        fps: int,
        seed: int,
        name: str,
        camera: Camera,
    ):
        self.shapes, self.style, self.fps, self.seed, self.name = shapes, style, fps, seed, name
        self.camera = camera

    def rng(self, *path: int) -> np.random.Generator:
        """The random stream of one attempt: fixed by seed, scenario and ``path``."""
        return np.random.default_rng([self.seed, SCENARIOS.index(self.name), *path])

    def timeline(self, rng: np.random.Generator) -> Timeline:
        return Timeline(self.shapes, self.style, self.fps, rng, camera=self.camera)


def _attempts(
    scene: Scene, build: Callable[[np.random.Generator], Timeline], what: str
) -> Timeline:
    for attempt in range(MAX_TRIES):
        try:
            return build(scene.rng(attempt))
        except (Resample, ValueError):
            continue
    raise RuntimeError(f"scenario {scene.name!r} seed {scene.seed}: no {what} in {MAX_TRIES} tries")


def _speed_for(distance: float, decel: float) -> float:
    """The flick speed that slides a stone ``distance`` mm before friction stops it."""
    return float(np.sqrt(2 * decel * max(distance, 1.0)))


def _slide(t: Timeline, rng: np.random.Generator, base: float, lo: float, hi: float) -> float:
    """How much farther than ``base`` mm a flick should slide: ``lo``..``hi`` more. Uniform in
    distance, unless the style draws shot speeds (``shot_speed_mm_s``): then the flick's speed
    is drawn log-uniformly within those bounds and the window, so creeps of a few mm and hard
    flicks are as common as middling ones."""
    speeds = t.style["shot_speed_mm_s"]
    if speeds is None:
        return float(rng.uniform(lo, hi))
    decel = t.style["board_decel_mm_s2"]
    v_lo = max(speeds[0], _speed_for(base + lo, decel))
    v_hi = min(speeds[1], _speed_for(base + hi, decel))
    if v_lo >= v_hi:
        raise Resample("no flick speed in this window")
    v = float(np.exp(rng.uniform(np.log(v_lo), np.log(v_hi))))
    return v * v / (2 * decel) - base


def _widest(t: Timeline, default: float, wide: float) -> float:
    """A slide window's bound: ``wide`` where the style draws shot speeds, else ``default``."""
    return default if t.style["shot_speed_mm_s"] is None else wide


def _shoot(t: Timeline, shooter: int, direction: np.ndarray, distance: float) -> ShotTruth:
    u = direction / np.linalg.norm(direction)
    speed = _speed_for(distance, t.style["board_decel_mm_s2"])
    start, end = t.shot(shooter, u * speed, float(t.rng.uniform(-6, 6)))
    truth = judge_shot(t.shapes, t.frames, t.contacts, shooter, start, end, t.style["board_mm"])
    if truth.gate_moved_without_touch:
        raise Resample("a gate stone moved by a chain push")
    if not t.style["close_calls"]:
        if truth.clearance < MIN_CLEARANCE_MM:
            raise Resample("ambiguous near miss")
        if "touched_gate" in truth.event["fouls"] and truth.touched_gate_moved < MIN_TOUCH_MOVE_MM:
            raise Resample("gate touch too faint to see")
    t.events.append(truth.event)
    t.shots.append({**truth.details(), "speed_mm_s": round(speed, 1)})
    return truth


def _opening(t: Timeline) -> None:
    t.idle(int(t.rng.uniform(0.1, 0.3) * t.fps))


def _closing(t: Timeline) -> None:
    t.idle(int(t.rng.uniform(0.15, 0.3) * t.fps))


# -- drops ------------------------------------------------------------------------------------
def _drop_plan(
    rng: np.random.Generator, t: Timeline, ids: list[int], splash: int, spread: float = 0.16
) -> tuple[np.ndarray, list, list]:
    """Where the hand opens and where each stone lands (``splash`` of them near an edge, moving
    outward), spread around the centre by ``spread`` times the shorter board side."""
    w, h = t.style["board_mm"]
    centre = np.array([rng.uniform(0.35, 0.65) * w, rng.uniform(0.35, 0.65) * h])
    spread *= min(w, h)
    placed = t.world.states()
    lands, vels = [], []
    for k, sid in enumerate(ids):
        beside = None
        if k < splash:  # lands near an edge, moving outward: slides off onto the table
            edge = int(rng.integers(4))
            inset = rng.uniform(4, 18)
            along = rng.uniform(0.2, 0.8)
            spot, out = {
                0: (np.array([along * w, inset]), np.array([0, -1.0])),
                1: (np.array([w - inset, along * h]), np.array([1.0, 0])),
                2: (np.array([along * w, h - inset]), np.array([0, 1.0])),
                3: (np.array([inset, along * h]), np.array([-1.0, 0])),
            }[edge]
            vel = out * rng.uniform(250, 450) + rng.uniform(-60, 60, 2)
        elif k > splash and t.style["cluster_p"] and rng.random() < t.style["cluster_p"]:
            # lands beside the stone dropped just before it and slides the last mm into it
            anchor = placed[-1]
            beside = anchor.id
            u = rng.normal(0, 1, 2)
            u /= np.linalg.norm(u)
            reach = t.shapes[anchor.id].radius + t.shapes[sid].radius + 1.0
            spot = np.array([anchor.x, anchor.y]) + u * reach
            vel = vels[-1] - u * rng.uniform(30, 60)  # drifting with it, closing in
            area = board_area(t.style)
            if not (area[0] <= spot[0] <= area[2] and area[1] <= spot[1] <= area[3]):
                raise Resample("a cluster reaching off the board")
        else:
            area = board_area(t.style, 40)
            spot = np.clip(centre + rng.normal(0, spread, 2), area[:2], area[2:])
            vel = rng.uniform(-70, 70, 2)
        cand = StoneState(sid, float(spot[0]), float(spot[1]), 0.0)
        others = [p for p in placed if p.id != beside]
        if not fits(t.shapes, others, cand, 4.0) or (
            k >= splash and near_marker(t.style, *spot, 20)
        ):
            raise Resample("landing spot taken")
        placed.append(cand)
        lands.append(spot)
        vels.append(vel)
    return centre, lands, vels


def _drop_scenario(scene: Scene, splash: bool) -> Timeline:
    """3-7 stones dropped on an empty board; with ``splash`` 1-2 of them aimed to fall off."""

    def build(rng: np.random.Generator) -> Timeline:
        t = scene.timeline(rng)
        ids = sorted(scene.shapes)[: int(rng.integers(3, 8))]
        t.start([])
        _opening(t)
        ev = t.drop(ids, *_drop_plan(rng, t, ids, int(rng.integers(1, 3)) if splash else 0))
        if bool(ev["splashed"]) != splash:
            raise Resample("splash where none was wanted, or none where one was")
        _closing(t)
        return t

    return _attempts(scene, build, "splash" if splash else "drop without splash")


def drop(scene: Scene) -> Timeline:
    return _drop_scenario(scene, False)


def drop_splash(scene: Scene) -> Timeline:
    return _drop_scenario(scene, True)


# -- gate shots -------------------------------------------------------------------------------
def _gate_scenario(
    scene: Scene,
    aim: str,
    want: Callable[[dict, list[int]], bool],
    toward_edge: bool = False,
    hit: bool = False,
) -> Timeline:
    """A gate shot of kind ``aim``; ``hit``: a bystander past the gate must be struck."""

    def build(rng: np.random.Generator) -> Timeline:
        ids = sorted(scene.shapes)
        n = int(rng.integers(3, 7))
        a, b, shooter, *extras = ids[: n + hit]
        struck = extras.pop(0) if hit else None
        states, mid, normal = gate_setup(
            rng, scene.shapes, scene.style, (a, b), shooter, extras, toward_edge, struck
        )
        t = scene.timeline(rng)
        t.start(states)
        _opening(t)
        start = np.array([states[2].x, states[2].y])
        ga, gb = np.array([states[0].x, states[0].y]), np.array([states[1].x, states[1].y])
        tangent = (gb - ga) / np.linalg.norm(gb - ga)
        half_gap = (np.linalg.norm(gb - ga) - scene.shapes[a].radius - scene.shapes[b].radius) / 2
        to_gate = float(np.dot(mid - start, normal))
        r = scene.shapes[shooter].radius
        # slide windows past the gate line; with shot speeds drawn they reach from a creep of
        # a few mm to a flick that leaves the board fast
        if aim == "through":
            target, dist = (
                mid + tangent * rng.uniform(-0.25, 0.25) * half_gap,
                to_gate + _slide(t, rng, to_gate, 2 * r + 25, _widest(t, 2 * r + 110, 2 * r + 250)),
            )
        elif aim == "touch":
            side_ = rng.choice([-1.0, 1.0])
            target, dist = (
                mid + side_ * tangent * (half_gap + rng.uniform(0.0, 0.6) * r),
                to_gate + _slide(t, rng, to_gate, 40, _widest(t, 110, 400)),
            )
        elif aim == "short":
            target, dist = (
                mid + tangent * rng.uniform(-0.2, 0.2) * half_gap,
                to_gate + _slide(t, rng, to_gate, _widest(t, -25, 3 - to_gate), r * 0.8),
            )
        elif aim == "wide":
            side_ = rng.choice([-1.0, 1.0])
            target, dist = (
                mid + side_ * tangent * (half_gap + 2 * r + rng.uniform(15, 40)),
                to_gate + _slide(t, rng, to_gate, 20, _widest(t, 90, 600)),
            )
        else:  # "off": through the gate and on over the nearby edge
            target, dist = (
                mid + tangent * rng.uniform(-0.2, 0.2) * half_gap,
                to_gate + _slide(t, rng, to_gate, 110, _widest(t, 200, 2500)),
            )
        if hit:
            dist += rng.uniform(30, 80)  # on into the bystander past the gate
        truth = _shoot(t, shooter, target - start, dist)
        if not want(truth.event, sorted((a, b))):
            raise Resample("unintended verdict")
        if hit and struck not in truth.touched:
            raise Resample("the bystander was not hit")
        if t.events[-1]["verdict"] == "pass":
            t.pickup([shooter])
        _closing(t)
        return t

    return _attempts(scene, build, f"{scene.name} shot")


def gate_pass(scene: Scene) -> Timeline:
    return _gate_scenario(
        scene, "through", lambda e, gate: e["verdict"] == "pass" and e["gate"] == gate
    )


def gate_pass_hit(scene: Scene) -> Timeline:
    """Through the gate, then into a stone beyond it: allowed (ruling uncalled gates)."""
    return _gate_scenario(
        scene,
        "through",
        lambda e, gate: e["verdict"] == "pass" and e["gate"] == gate,
        hit=True,
    )


def gate_touch(scene: Scene) -> Timeline:
    return _gate_scenario(
        scene,
        "touch",
        lambda e, gate: "touched_gate" in e["fouls"] and not e["off_board"] and e["gate"] == gate,
    )


def gate_not_through(scene: Scene) -> Timeline:
    aim = "short" if scene.seed % 2 == 0 else "wide"
    return _gate_scenario(scene, aim, lambda e, gate: e["fouls"] == ["not_through"])


def gate_off_board(scene: Scene) -> Timeline:
    return _gate_scenario(scene, "off", lambda e, gate: "off_board" in e["fouls"], toward_edge=True)


# -- clears -----------------------------------------------------------------------------------
def _clear_scenario(scene: Scene, hit: bool) -> Timeline:
    def build(rng: np.random.Generator) -> Timeline:
        shooter, other = sorted(scene.shapes)[:2]
        area = board_area(scene.style, 60)
        states = scatter(rng, scene.shapes, scene.style, [other], [], area)
        o = np.array([states[0].x, states[0].y])
        d = rng.uniform(60, 150)
        ang = rng.uniform(0, 2 * np.pi)
        s = o - d * np.array([np.cos(ang), np.sin(ang)])
        if not (area[0] <= s[0] <= area[2] and area[1] <= s[1] <= area[3]) or near_marker(
            scene.style, *s, 30
        ):
            raise Resample("shooter off the board")
        states.append(StoneState(shooter, float(s[0]), float(s[1]), rng.uniform(0, 2 * np.pi)))
        t = scene.timeline(rng)
        t.start(states)
        _opening(t)
        tangent = np.array([-np.sin(ang), np.cos(ang)])
        reach = scene.shapes[shooter].radius + scene.shapes[other].radius
        offset = (
            rng.uniform(-0.5, 0.5) * reach
            if hit
            else rng.choice([-1, 1]) * (reach + rng.uniform(12, 35))
        )
        _shoot(t, shooter, o + tangent * offset - s, d + _slide(t, rng, d, 10, _widest(t, 60, 300)))
        ev = t.events[-1]
        if ev["verdict"] != ("pass" if hit else "foul") or (
            not hit and ev["fouls"] != ["missed_clear"]
        ):
            raise Resample("unintended clear")
        if hit:
            t.pickup([shooter, other])
        _closing(t)
        return t

    return _attempts(scene, build, f"{scene.name} shot")


def clear_pass(scene: Scene) -> Timeline:
    return _clear_scenario(scene, True)


def clear_miss(scene: Scene) -> Timeline:
    return _clear_scenario(scene, False)


# -- hands that do not shoot ------------------------------------------------------------------
def _resting(
    scene: Scene, rng: np.random.Generator, lo: int, hi: int
) -> tuple[Timeline, list[StoneState]]:
    ids = sorted(scene.shapes)[: int(rng.integers(lo, hi))]
    states = scatter(rng, scene.shapes, scene.style, ids, [], board_area(scene.style))
    t = scene.timeline(rng)
    t.start(states)
    _opening(t)
    return t, states


def pickup(scene: Scene) -> Timeline:
    def build(rng: np.random.Generator) -> Timeline:
        t, states = _resting(scene, rng, 3, 8)
        k = int(rng.integers(1, 3))
        t.pickup([s.id for s in states[:k]])
        _closing(t)
        return t

    return _attempts(scene, build, "pickup")


def hover(scene: Scene) -> Timeline:
    def build(rng: np.random.Generator) -> Timeline:
        t, _ = _resting(scene, rng, 3, 8)
        w, h = scene.style["board_mm"]
        ang = rng.uniform(0, 2 * np.pi)
        u = np.array([np.cos(ang), np.sin(ang)])
        c = np.array([w / 2, h / 2]) + rng.uniform(-0.2, 0.2, 2) * [w, h]
        reach = 0.5 * max(w, h) + 350
        points = [c - u * reach, c + rng.uniform(-40, 40, 2), c + u * reach * 0.3, c - u * reach]
        t.hover(points, float(rng.uniform(60, 160)), "open" if rng.random() < 0.5 else "point")
        _closing(t)
        return t

    return _attempts(scene, build, "hover")


# -- a whole turn -----------------------------------------------------------------------------
def _plan_gate_shot(rng: np.random.Generator, t: Timeline) -> list[tuple[int, np.ndarray, float]]:
    """Candidate gate shots (shooter, direction, distance) on the current scene whose straight
    path through the gate midpoint is clear of other stones and ends on the board."""
    states = [s for s in t.world.states() if not s.fallen]
    shapes = t.shapes
    w, h = t.style["board_mm"]
    out = []
    for c in states:
        pc = np.array([c.x, c.y])
        for i, a in enumerate(states):
            for b in states[i + 1 :]:
                if c.id in (a.id, b.id):
                    continue
                pa, pb = np.array([a.x, a.y]), np.array([b.x, b.y])
                gap = np.linalg.norm(pb - pa) - shapes[a.id].radius - shapes[b.id].radius
                if gap < 2 * shapes[c.id].radius + 14:
                    continue
                mid = (pa + pb) / 2
                u = mid - pc
                dist = float(np.linalg.norm(u))
                u /= dist
                normal = np.array([-(pb - pa)[1], (pb - pa)[0]]) / np.linalg.norm(pb - pa)
                if abs(np.dot(u, normal)) < 0.75 or dist < shapes[c.id].radius + 20 or dist > 220:
                    continue
                over = rng.uniform(2 * shapes[c.id].radius + 25, 2 * shapes[c.id].radius + 90)
                end = mid + u * over
                if not (30 <= end[0] <= w - 30 and 30 <= end[1] <= h - 30):
                    continue
                lane = shapes[c.id].radius + 4
                if any(
                    near_segment(np.array([o.x, o.y]), pc, end) < lane + shapes[o.id].radius
                    for o in states
                    if o.id not in (a.id, b.id, c.id)
                ):
                    continue
                out.append((c.id, u, dist + over))
    rng.shuffle(out)
    return out


def game(scene: Scene) -> Timeline:
    """A turn: a drop, then gate shots (the shooter picked up after each pass) while three or
    more stones are on the board, a clear with two, and sometimes a foul that ends the turn."""

    def build(rng: np.random.Generator) -> Timeline:
        t = scene.timeline(rng)
        t.start([])
        _opening(t)
        ids = sorted(scene.shapes)[: int(rng.integers(4, 9))]
        if t.drop(ids, *_drop_plan(rng, t, ids, 0, spread=0.22))["splashed"]:
            raise Resample("splash in the opening drop")
        shots = int(rng.integers(2, 5))
        foul_last = rng.random() < 0.3
        base = int(rng.integers(2**32))
        for k in range(shots):
            done = _game_shot(t, base, k, want_foul=foul_last and k == shots - 1)
            if done is None:
                break
            t = done
            if t.events[-1].get("verdict") == "foul":
                break
        if sum(e["type"] == "shot" for e in t.events) < 2:
            raise Resample("fewer than two shots possible")
        _closing(t)
        return t

    return _attempts(scene, build, "game")


def _game_shot(t: Timeline, base: int, k: int, want_foul: bool) -> Timeline | None:
    """The k-th shot of a turn (and the pickup after a pass), tried on forks of the timeline
    until one comes out as wanted; None when the scene offers no such shot."""
    on_board = [s for s in t.world.states() if not s.fallen]
    for attempt in range(MAX_TRIES):
        r = np.random.default_rng([base, k, attempt])
        trial = t.fork(r)
        try:
            if len(on_board) >= 3:
                plans = _plan_gate_shot(r, trial)
                if not plans:
                    return None
                shooter, u, dist = plans[0]
                _shoot(trial, shooter, u, dist * (r.uniform(0.3, 0.6) if want_foul else 1.0))
                taken = [shooter]
            elif len(on_board) == 2:
                a, b = on_board
                u = np.array([b.x - a.x, b.y - a.y])
                _shoot(
                    trial, a.id, u + r.normal(0, 4, 2), float(np.linalg.norm(u)) + r.uniform(10, 50)
                )
                taken = [a.id, b.id]
            else:
                return None
        except (Resample, ValueError):
            continue
        if (trial.events[-1]["verdict"] == "foul") != want_foul:
            continue
        if not want_foul:
            trial.pickup(taken)
        return trial
    return None


SCENARIO_FUNCS: dict[str, Callable[[Scene], Timeline]] = {
    "drop": drop,
    "drop_splash": drop_splash,
    "gate_pass": gate_pass,
    "gate_touch": gate_touch,
    "gate_not_through": gate_not_through,
    "gate_off_board": gate_off_board,
    "clear_pass": clear_pass,
    "clear_miss": clear_miss,
    "pickup": pickup,
    "hover": hover,
    "game": game,
    "gate_pass_hit": gate_pass_hit,  # after "game": each name's index seeds its clips
}
SCENARIOS: list[str] = list(SCENARIO_FUNCS)

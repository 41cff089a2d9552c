"""A clip as it happens: the physics stepped frame by frame while a hand drops, flicks, picks up
and hovers, recording every stone and the hand on every frame.

The timeline only knows actions, not verdicts: what a shot *was* is computed afterwards from the
recorded tracks (``verdict.judge_shot``), so the truth never comes from a scenario's intent.
Frame i is the scene after i physics frames; frame 0 is the opening scene.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .camera import Camera
from .geometry import separation
from .hand import HandPose, fingertip_reach, hand_polygons, in_view
from .physics import StoneState, World
from .stones import StoneShape

G_MM_S2 = 9810.0
MAX_SETTLE_S = 5.0
HAND_SPEED_MM_S = 1500.0


class Resample(Exception):
    """An outcome the scenario cannot use (ambiguous or unintended): the sampler tries again."""


@dataclass
class Airborne:
    """A stone falling from an open hand: straight line over the board, free fall in height."""

    id: int
    release: int  # frame it leaves the hand
    start: np.ndarray
    land: np.ndarray
    z0: float
    velocity: np.ndarray  # horizontal velocity it keeps on landing
    spin: float

    def fall_frames(self, fps: int) -> int:
        return max(2, int(round(np.sqrt(2 * self.z0 / G_MM_S2) * fps)))


@dataclass
class StoneFrame:
    """One stone in one frame, as the truth lists it (``z`` only for drawing)."""

    id: int
    x: float
    y: float
    angle: float
    on_board: bool
    in_air: bool
    z: float = 0.0  # height above the board (rendering only)


@dataclass
class Frame:
    """Everything moving in one frame: the stones in the scene and the hand (or None)."""

    stones: list[StoneFrame]
    hand: HandPose | None


@dataclass
class Timeline:
    """The recorded clip so far (frames, contacts, events, rest) and the live physics world."""

    shapes: dict[int, StoneShape]
    style: dict
    fps: int
    rng: np.random.Generator
    frames: list[Frame] = field(default_factory=list)
    contacts: list[tuple[int, int, int]] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)
    rest: list[dict] = field(default_factory=list)
    airborne: list[Airborne] = field(default_factory=list)
    picked: list[int] = field(default_factory=list)
    dropped: list[int] = field(default_factory=list)
    carried: dict[int, tuple[float, float, float]] = field(default_factory=dict)
    shots: list[dict] = field(default_factory=list)  # what each shot's verdict rests on
    camera: Camera | None = None  # lets hands come from and go to outside the picture

    def __post_init__(self) -> None:
        self.world = World(self.shapes, self.style, self.fps)

    def fork(self, rng: np.random.Generator) -> Timeline:
        """A copy to try the next action on; the stones are at rest, so their states rebuild the
        world (keep the copy if the action came out as intended, else drop it)."""
        twin = Timeline(
            self.shapes,
            self.style,
            self.fps,
            rng,
            list(self.frames),
            list(self.contacts),
            [dict(e) for e in self.events],
            list(self.rest),
            [],
            list(self.picked),
            list(self.dropped),
            shots=list(self.shots),
            camera=self.camera,
        )
        for s in self.world.states():
            twin.world.add(s)
        return twin

    # -- recording ---------------------------------------------------------------------------
    @property
    def now(self) -> int:
        """Index of the last recorded frame."""
        return len(self.frames) - 1

    def start(self, states: list[StoneState], hand: HandPose | None = None) -> None:
        """The opening scene: stones already at rest (a referee may start mid-game)."""
        for s in states:
            self.world.add(s)
        self._record(hand)
        if states:
            self._note_rest()

    def _record(self, hand: HandPose | None) -> None:
        stones = [
            StoneFrame(s.id, s.x, s.y, s.angle, not s.fallen, False) for s in self.world.states()
        ]
        if hand is None:
            self.carried.clear()  # the hand took them out of the picture
        for sid, (dx, dy, angle) in self.carried.items():
            x, y = float(hand.x + dx), float(hand.y + dy)
            on = bool(0 <= x <= self.world.w and 0 <= y <= self.world.h)
            stones.append(
                StoneFrame(sid, x, y, float(angle), on, True, float(max(hand.z - 4.0, 0.0)))
            )
        frame_no = len(self.frames)
        for a in self.airborne:
            k = frame_no - a.release
            if k < 0:
                continue
            n = a.fall_frames(self.fps)
            u = k / n
            pos = a.start + (a.land - a.start) * u
            z = max(0.0, a.z0 * (1 - u * u))
            on = 0 <= pos[0] <= self.world.w and 0 <= pos[1] <= self.world.h
            stones.append(
                StoneFrame(
                    a.id,
                    float(pos[0]),
                    float(pos[1]),
                    float(a.spin * k / self.fps),
                    bool(on),
                    True,
                    float(z),
                )
            )
        stones.sort(key=lambda s: s.id)
        self.frames.append(Frame(stones, hand))

    def advance(self, hand: HandPose | None = None) -> int:
        """Step the physics one frame (landing any stone whose fall ends) and record it."""
        for pair in self.world.step_frame():
            self.contacts.append((len(self.frames), *pair))
        frame_no = len(self.frames)
        for a in list(self.airborne):
            if frame_no - a.release >= a.fall_frames(self.fps):
                self.airborne.remove(a)
                angle = a.spin * a.fall_frames(self.fps) / self.fps
                fallen = not self.world.on_board(a.land)
                self.world.add(
                    StoneState(a.id, float(a.land[0]), float(a.land[1]), angle, fallen),
                    tuple(a.velocity),
                    a.spin,
                )
        self._record(hand)
        return self.now

    def idle(self, n: int, hand: HandPose | None = None) -> None:
        for _ in range(n):
            self.advance(hand)

    def move_hand(self, a: HandPose, b: HandPose, n: int) -> None:
        """Move the hand from pose a to pose b over n frames (eased; slower for long ways, as a
        hand moves at most about 1.5 m/s), the physics running."""
        for pose in self._way(a, b, n):
            self.advance(pose)

    def _way(self, a: HandPose, b: HandPose, n: int) -> list[HandPose | None]:
        """The eased poses from a to b in at least n frames, at most about 1.5 m/s."""
        n = max(n, int(np.hypot(b.x - a.x, b.y - a.y) / HAND_SPEED_MM_S * self.fps))
        return [_lerp(a, b, _ease(i / n)) for i in range(1, n + 1)]

    def _withdraw(self, pose: HandPose, away: HandPose, n: int) -> list[HandPose | None]:
        """The hand's way from ``pose`` out of the picture. With the style's ``linger_s`` it
        first draws back a little and rests there up to that long (the stones moving on
        meanwhile), as a player's hand stays near the board after a flick or a drop."""
        linger = self.style["linger_s"]
        if not linger:
            return self._way(pose, away, n)
        wait = _offset(pose, -self.rng.uniform(40, 120), max(pose.z, self.rng.uniform(20, 60)))
        hold = int(self.rng.uniform(0, linger) * self.fps)
        return (
            self._way(pose, wait, int(0.25 * self.fps)) + [wait] * hold + self._way(wait, away, n)
        )

    def settle(self, hand_path: list[HandPose | None]) -> tuple[int, list[HandPose | None]]:
        """Run until every stone is at rest, the hand following ``hand_path`` meanwhile.
        Returns the first frame at rest and what is left of the hand's path."""
        for i in range(int(MAX_SETTLE_S * self.fps)):
            self.advance(hand_path[i] if i < len(hand_path) else None)
            if not self.airborne and self.world.at_rest():
                return self.now, hand_path[i + 1 :]
        raise Resample("stones did not settle")

    def _note_rest(self) -> None:
        self.rest.append(
            {
                "frame": self.now,
                "stones": [
                    {
                        "id": s.id,
                        "x_mm": round(s.x, 3),
                        "y_mm": round(s.y, 3),
                        "on_board": not s.fallen,
                    }
                    for s in self.world.states()
                ],
            }
        )

    def play(self, path: list[HandPose | None]) -> None:
        """Let the hand go its way (e.g. out of the picture after the stones settled)."""
        for hand in path:
            self.advance(hand)

    # -- actions -----------------------------------------------------------------------------
    def drop(
        self,
        ids: list[int],
        centre: np.ndarray,
        lands: list[np.ndarray],
        velocities: list[np.ndarray],
    ) -> dict:
        """An open hand comes over ``centre``, lets the stones fall one after another from
        under its fingers onto ``lands`` (each keeping a horizontal ``velocity`` on landing),
        and withdraws. The palm stays behind the drop point, as a hand tipping stones out does,
        so the falling stones are not all hidden under it."""
        before_off = {s.id for s in self.world.states() if s.fallen}
        heading = self.rng.uniform(-np.pi, np.pi)
        z = self.rng.uniform(150, 260)
        palm = centre - 70 * self.style["hand_scale"] * np.array([np.cos(heading), np.sin(heading)])
        over = HandPose(float(palm[0]), float(palm[1]), z, heading, "open")
        away = self._away(over, z + 120)
        self.move_hand(away, over, int(0.4 * self.fps))
        release = self.now + 1
        start = release
        for sid, land, vel in zip(ids, lands, velocities, strict=True):
            jitter = self.rng.uniform(-20, 20, 2)
            self.airborne.append(
                Airborne(
                    sid,
                    release,
                    centre + jitter,
                    np.asarray(land, float),
                    z - 25,
                    np.asarray(vel, float),
                    self.rng.uniform(-8, 8),
                )
            )
            release += int(self.rng.integers(1, max(2, int(0.06 * self.fps))))
        self.dropped.extend(ids)
        hold = release - self.now + 2
        self.idle(hold, over)
        end, rest_of_path = self.settle(self._withdraw(over, away, int(0.45 * self.fps)))
        after = {s.id: s for s in self.world.states()}
        splashed = sum(1 for sid in ids if after[sid].fallen)
        event = {
            "type": "drop",
            "start": start,
            "end": end,
            "landed": len(ids) - splashed,
            "splashed": splashed,
        }
        self.events.append(event)
        self._note_rest()
        self.play(rest_of_path)
        if any(s.fallen and sid not in before_off and sid not in ids for sid, s in after.items()):
            raise Resample("a drop knocked a resting stone off the board")
        return event

    def shot(self, shooter: int, velocity: np.ndarray, spin: float) -> tuple[int, int]:
        """A finger approaches ``shooter`` from behind, flicks it with ``velocity`` (mm/s) and
        withdraws; runs until every stone rests. Returns (touch frame, first frame at rest)."""
        v = np.asarray(velocity, float)
        speed = float(np.linalg.norm(v))
        u = v / speed
        body = self.world.bodies[shooter]
        centre = np.array([body.position.x, body.position.y])
        reach = self.shapes[shooter].extent(-u, body.angle) + fingertip_reach("point") + 0.5
        contact = centre - u * reach
        heading = float(np.arctan2(u[1], u[0]))
        touch = HandPose(float(contact[0]), float(contact[1]), 4.0, heading, "point")
        ready = _offset(touch, -14, 10)
        far = self._away(touch, 140)
        self.move_hand(far, ready, int(self.rng.uniform(0.35, 0.6) * self.fps))
        self.idle(int(self.rng.uniform(0.08, 0.25) * self.fps), ready)
        self.advance(_lerp(ready, touch, 0.5))
        start = self.advance(touch)
        self.world.kick(shooter, v, spin)
        follow = [
            _offset(touch, min(0.5 * speed / self.fps * k, 25), 4 + 6 * k) for k in range(1, 4)
        ]
        out = follow + self._withdraw(follow[-1], self._away(touch, 220), int(0.5 * self.fps))
        end, rest_of_path = self.settle(out)
        self._note_rest()
        self.play(rest_of_path)
        return start, end

    def pickup(self, ids: list[int]) -> dict:
        """A pinching hand takes the stones ``ids`` off the scene one after another."""
        heading = self.rng.uniform(-np.pi, np.pi)
        spots = [np.array(self.world.bodies[sid].position) for sid in ids]
        first = HandPose(float(spots[0][0]), float(spots[0][1]), 6.0, heading, "pinch")
        far = self._away(first, 160)
        self.move_hand(far, first, int(self.rng.uniform(0.35, 0.55) * self.fps))
        start = self.now
        pose = first
        for k, sid in enumerate(ids):
            if k:
                nxt = HandPose(float(spots[k][0]), float(spots[k][1]), 6.0, heading, "pinch")
                self.move_hand(_lift(pose, 30), nxt, int(0.3 * self.fps))
                pose = nxt
            self.idle(int(0.12 * self.fps), pose)
            body = self.world.bodies[sid]
            self.carried[sid] = (body.position.x - pose.x, body.position.y - pose.y, body.angle)
            self.world.remove(sid)
            self.picked.append(sid)
            self.move_hand(pose, _lift(pose, 40), int(0.1 * self.fps))
            pose = _lift(pose, 40)
        out = self._way(pose, self._away(pose, 200), int(0.45 * self.fps))
        end = None
        for hand in out:
            self.advance(hand)
            if end is None and not any(self._covers(hand, s) for s in spots):
                end = self.now
        if end is None:
            end = self.now
        self.carried.clear()  # out of the picture with the hand
        event = {"type": "pickup", "start": start, "end": end, "stones": list(ids)}
        self.events.append(event)
        self.rest.append({"frame": end, "stones": self._rest_at(end)})
        return event

    def _rest_at(self, frame: int) -> list[dict]:
        return [
            {"id": s.id, "x_mm": round(s.x, 3), "y_mm": round(s.y, 3), "on_board": s.on_board}
            for s in self.frames[frame].stones
            if not s.in_air
        ]

    def _covers(self, hand: HandPose | None, spot: np.ndarray) -> bool:
        """Whether the hand (its footprint on the board plane, generously) hides a spot."""
        if hand is None:
            return False
        skin, arm = hand_polygons(hand, self.style["hand_scale"])
        disc = spot + 20 * np.stack(
            [np.cos(np.arange(8) * np.pi / 4), np.sin(np.arange(8) * np.pi / 4)], 1
        )
        return any(separation(p, disc) <= 0 for p in [*skin, arm])

    def _away(self, pose: HandPose, z: float) -> HandPose:
        """The pose drawn back along its heading (raised to ``z``) until the hand is out of
        the picture, so hands enter and leave at the frame's edge instead of popping up."""
        for back in range(350, 2001, 50):
            far = _offset(pose, -back, z)
            if self.camera is None or not in_view(self.camera, far, self.style):
                return _offset(pose, -back - 150, z)  # a step beyond, as moves start one frame in
        return far

    def hover(self, path_points: list[np.ndarray], z: float, shape: str) -> None:
        """A hand passes over the scene along ``path_points`` without touching anything."""
        heading = float(np.arctan2(*(path_points[-1] - path_points[0])[::-1]))
        poses = [HandPose(float(p[0]), float(p[1]), z, heading, shape) for p in path_points]
        for a, b in zip(poses, poses[1:], strict=False):
            self.move_hand(a, b, int(self.rng.uniform(0.3, 0.5) * self.fps))


def _ease(t: float) -> float:
    return t * t * (3 - 2 * t)


def _lerp(a: HandPose, b: HandPose, t: float) -> HandPose:
    dh = (b.heading - a.heading + np.pi) % (2 * np.pi) - np.pi
    return HandPose(
        a.x + (b.x - a.x) * t,
        a.y + (b.y - a.y) * t,
        a.z + (b.z - a.z) * t,
        a.heading + dh * t,
        b.shape if t >= 0.5 else a.shape,
    )


def _offset(p: HandPose, forward: float, z: float) -> HandPose:
    """The pose moved ``forward`` mm along its heading, at height ``z``."""
    return HandPose(
        p.x + forward * np.cos(p.heading), p.y + forward * np.sin(p.heading), z, p.heading, p.shape
    )


def _lift(p: HandPose, dz: float) -> HandPose:
    return HandPose(p.x, p.y, p.z + dz, p.heading, p.shape)

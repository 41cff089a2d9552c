"""The table seen from above as a pymunk world in millimetres.

Stones slide on the board with Coulomb friction (a constant deceleration, so a flick of speed v
travels v^2 / 2a and stops dead, as real pebbles do, instead of creeping forever under linear
damping). The board is a raised platform: once a stone's centre crosses its edge the stone drops
onto the table, loses part of its speed, slides on with much more friction, and can no longer
climb back (the board's edge is a wall for fallen stones). Invisible walls at the edge of the
visible table keep every stone in view. Stone-stone contacts are recorded for the truth.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pymunk

from .stones import StoneShape

ON_BOARD, FALLEN, EDGE, WALL = 1, 2, 4, 8
STONE = 1
FALL_KEEP = 0.45  # fraction of speed kept when a stone drops off the board onto the table
SUBSTEPS = 4


@dataclass
class StoneState:
    """A stone at rest (or a snapshot of a moving one): enough to rebuild the world from."""

    id: int
    x: float
    y: float
    angle: float
    fallen: bool = False


class World:
    """The stones currently in the scene and the physics stepping them."""

    def __init__(self, shapes: dict[int, StoneShape], style: dict, fps: int):
        self.shapes = shapes
        self.style = style
        self.dt = 1.0 / fps
        self.w, self.h = style["board_mm"]
        self.space = pymunk.Space()
        self.space.iterations = 20
        self.bodies: dict[int, pymunk.Body] = {}
        self.fallen: set[int] = set()
        self.contacts: list[tuple[int, int]] = []
        self._add_walls()
        self.space.on_collision(STONE, STONE, begin=self._on_contact)

    def _add_walls(self) -> None:
        m = self.style["margin_mm"]
        static = self.space.static_body

        def box(x0: float, y0: float, x1: float, y1: float, category: int, mask: int) -> None:
            corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
            for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
                seg = pymunk.Segment(static, a, b, 1.0)
                seg.elasticity = 0.3
                seg.friction = 0.6
                seg.filter = pymunk.ShapeFilter(categories=category, mask=mask)
                self.space.add(seg)

        box(-m, -m, self.w + m, self.h + m, WALL, ON_BOARD | FALLEN)
        box(0, 0, self.w, self.h, EDGE, FALLEN)

    def _on_contact(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: object) -> None:
        a, b = (s.body.stone_id for s in arbiter.shapes)  # type: ignore[attr-defined]
        self.contacts.append((min(a, b), max(a, b)))

    def add(
        self, state: StoneState, velocity: tuple[float, float] = (0.0, 0.0), spin: float = 0.0
    ) -> None:
        """Put a stone into the world (from a rest state, or landing from a drop)."""
        shape = self.shapes[state.id]
        verts = [tuple(v) for v in shape.outline]
        body = pymunk.Body(shape.mass, pymunk.moment_for_poly(shape.mass, verts))
        body.position = (state.x, state.y)
        body.angle = state.angle
        body.velocity = velocity
        body.angular_velocity = spin
        body.stone_id = state.id  # type: ignore[attr-defined]
        body.velocity_func = self._friction
        poly = pymunk.Poly(body, verts)
        poly.elasticity = self.style["restitution"]
        poly.friction = self.style["stone_friction"]
        poly.collision_type = STONE
        self.bodies[state.id] = body
        self.space.add(body, poly)
        self._set_fallen(state.id, state.fallen)

    def remove(self, stone_id: int) -> None:
        """Take a stone out of the scene (a hand picked it up)."""
        body = self.bodies.pop(stone_id)
        self.space.remove(body, *body.shapes)
        self.fallen.discard(stone_id)

    def _set_fallen(self, stone_id: int, fallen: bool) -> None:
        body = self.bodies[stone_id]
        category = FALLEN if fallen else ON_BOARD
        mask = ON_BOARD | FALLEN | WALL | (EDGE if fallen else 0)
        for s in body.shapes:
            s.filter = pymunk.ShapeFilter(categories=category, mask=mask)
        if fallen:
            self.fallen.add(stone_id)

    def _friction(self, body: pymunk.Body, gravity: tuple, damping: float, dt: float) -> None:
        decel = self.style[
            "table_decel_mm_s2" if body.stone_id in self.fallen else "board_decel_mm_s2"
        ]  # type: ignore[attr-defined]
        v = body.velocity
        speed = v.length
        body.velocity = (0, 0) if speed <= decel * dt else v * (1 - decel * dt / speed)
        # rolling/spinning pebbles lose spin at a rate comparable to their sliding deceleration
        w = body.angular_velocity
        dw = decel * dt / 8.0
        body.angular_velocity = 0.0 if abs(w) <= dw else w - np.sign(w) * dw

    def step_frame(self) -> list[tuple[int, int]]:
        """Advance one video frame; returns the stone pairs that came into contact during it."""
        self.contacts = []
        for _ in range(SUBSTEPS):
            self.space.step(self.dt / SUBSTEPS)
            for sid, body in self.bodies.items():
                if sid not in self.fallen and not self.on_board(body.position):
                    self._drop_off(sid, body)
        return sorted(set(self.contacts))

    def _drop_off(self, sid: int, body: pymunk.Body) -> None:
        """The centre crossed the edge: the stone tips over and lands on the table wholly clear
        of the board (so the raised edge can hold it there), having lost part of its speed."""
        x, y = body.position
        shift = np.zeros(2)
        for axis, lo, hi in ((0, 0.0, self.w), (1, 0.0, self.h)):
            v = (x, y)[axis]
            outward = -1.0 if v < lo else 1.0 if v > hi else 0.0
            if outward:
                normal = np.eye(2)[axis] * outward
                reach = self.shapes[sid].extent(-normal, body.angle)  # how far it pokes back in
                beyond = (lo - v) if outward < 0 else (v - hi)
                shift += normal * max(0.0, reach + 1.5 - beyond)
        body.position = (x + shift[0], y + shift[1])
        self.space.reindex_shapes_for_body(body)
        body.velocity = body.velocity * FALL_KEEP
        body.angular_velocity *= FALL_KEEP
        self._set_fallen(sid, True)

    def on_board(self, pos: tuple[float, float]) -> bool:
        return 0.0 <= pos[0] <= self.w and 0.0 <= pos[1] <= self.h

    def at_rest(self) -> bool:
        return all(
            b.velocity.length < 1e-6 and abs(b.angular_velocity) < 1e-6
            for b in self.bodies.values()
        )

    def states(self) -> list[StoneState]:
        return [
            StoneState(
                sid, float(b.position.x), float(b.position.y), float(b.angle), sid in self.fallen
            )
            for sid, b in sorted(self.bodies.items())
        ]

    def kick(self, stone_id: int, velocity: np.ndarray, spin: float) -> None:
        body = self.bodies[stone_id]
        body.velocity = (float(velocity[0]), float(velocity[1]))
        body.angular_velocity = spin

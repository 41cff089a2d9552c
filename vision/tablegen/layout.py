"""What a synthetic scene holds: tokens on cells, dice beside the board, an optional hand.

Table millimetres have their origin at the board's NW marker centre (board mm), so the truth
of a token is simply its cell; dice lie in a tray East of the board.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.kit.geometry import GridSpec
from vision.kit.tokens import CARD_TAIL, Token, tokens_for

from .dice import COLOURED
from .solid import project

DIE_KINDS = ("d6", "d4", "d10")
D4_LOOKS = (((225, 225, 225), (25, 25, 25)), ((30, 30, 30), (240, 240, 240)),
            ((40, 40, 180), (245, 245, 245)), ((160, 70, 25), (245, 245, 245)))
"""Solid d4 bodies and their ink (BGR): white, black, red, blue (the first is the default;
none is the tray cloth's green, which no camera tells from the cloth)."""
VIEWS = ("straight", "side", "near")
"""Where the camera is for solid dice: straight over the tray (550-800 mm up), or over the
board with the tray at the side, the tray's middle 5-30 degrees off its axis ("side"), or
5-20 degrees ("near": the placement the docs ask of a camera that reads d4)."""
OFF_AXIS_DEG = {"side": (5.0, 30.0), "near": (5.0, 20.0)}
DIE_SIDES = {"d6": 6, "d4": 4, "d10": 10}
TRAY_MM = (110.0, 160.0)
"""The dice tray East of the board: width, height."""
TRAY_GAP_MM = 25.0


@dataclass(frozen=True)
class Placed:
    """A token on a cell, slightly off centre and askew, as a hand leaves it."""

    token: Token
    facing: str | None
    dx_mm: float = 0.0
    dy_mm: float = 0.0
    angle_deg: float = 0.0


@dataclass(frozen=True)
class DieTruth:
    """A die in the tray: centre in table mm, its value (None for a cocked die, which has no
    readable top face), and its spin in degrees. Only d6 are generated cocked."""

    kind: str
    value: int | None
    centre_mm: tuple[float, float]
    angle_deg: float
    cocked: bool = False
    d4_numbers: str = "apex"
    """How a d4 shows its value: "apex", as most real d4 (every face carries a number at each
    corner; the rolled one is at the top vertex, so seen from above it appears three times
    around it, each copy's top toward the vertex), "edges" (every face carries the number of
    the face beyond each edge: the rolled one along each bottom edge), or "middle" (one
    number in the middle of the top face, as a truncated d4 does; drawn flat)."""
    body_bgr: tuple[int, int, int] | None = None
    """A d6's body colour; None for the kit's ivory die with dark pips. A coloured body carries
    white pips (as most red, blue or green dice do). A solid d4's body (its ink: see
    `solid_d4_ink`)."""
    eye_mm: tuple[float, float, float] | None = None
    """The camera's centre (x, y, height in table mm) for a die drawn as a solid (a d6 cube or
    a d4 tetrahedron under perspective, vision.tablegen.solid); None: a camera 600 mm straight
    above the die. A d10 and a truncated d4 are drawn flat."""
    edge_mm: float | None = None
    """A solid die's edge (None: 16 mm for a d6, 19 mm for a d4)."""
    lean_deg: float = 0.0
    """A cocked solid d6 leans this far on something."""

    def seen_at(self) -> tuple[float, float]:
        """Where a reader places the die (table mm): a solid d6 at its top face's middle as the
        camera sees it on the table plane (shifted away from the camera by the die's height),
        any other die at its centre."""
        if self.kind != "d6" or self.cocked:
            return self.centre_mm
        eye = np.asarray(self.eye_mm or (*self.centre_mm, 600.0), float)
        x, y = project(np.array([*self.centre_mm, self.edge_mm or 16.0]), eye)[0]
        return float(x), float(y)


@dataclass(frozen=True)
class Hand:
    """A hand reaching in from the board's edge: wrist point, fingertip point (table mm)."""

    wrist_mm: tuple[float, float]
    tip_mm: tuple[float, float]
    width_mm: float = 75.0


@dataclass(frozen=True)
class Scene:
    spec: GridSpec
    cells: dict[tuple[int, int], Placed] = field(default_factory=dict)
    dice: tuple[DieTruth, ...] = ()
    hand: Hand | None = None
    seed: int = 0

    def truth(self) -> dict[tuple[int, int], tuple[str, str | None]]:
        """The true content of every cell: ("empty", None) or (token name, facing or None)."""
        out = {rc: ("empty", None) for rc in self.spec.cells()}
        for rc, p in self.cells.items():
            out[rc] = (p.token.name, p.facing)
        return out

    def tray_origin(self) -> tuple[float, float]:
        w, h = self.spec.size_mm
        return (w + TRAY_GAP_MM, (h - TRAY_MM[1]) / 2)


def _spread(rng: np.random.Generator, n: int, box: tuple[float, float, float, float], gap: float):
    """Up to n points in a box, each at least `gap` from the others."""
    x0, y0, x1, y1 = box
    pts: list[tuple[float, float]] = []
    for _ in range(200 * max(n, 1)):
        if len(pts) == n:
            break
        p = (float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1)))
        if all(np.hypot(p[0] - q[0], p[1] - q[1]) >= gap for q in pts):
            pts.append(p)
    return pts


def solid_d4_ink(body: tuple[int, int, int] | None) -> tuple[int, int, int]:
    """The ink of a solid d4 of this body (see `solid_d4_body`; white unless D4_LOOKS says)."""
    return next((ink for b, ink in D4_LOOKS if b == solid_d4_body(body)), (250, 250, 250))


def solid_d4_body(body: tuple[int, int, int] | None) -> tuple[int, int, int]:
    """A solid d4's body: its own, or the default look's."""
    return body or D4_LOOKS[0][0]


def _eye(rng: np.random.Generator, origin: tuple[float, float], view: str) -> tuple[float, float, float]:
    """A camera centre for `view` (see VIEWS), over the tray's middle or off to a side."""
    if view not in VIEWS:
        raise ValueError(f"unknown dice view {view!r}; the views are: {', '.join(VIEWS)}")
    mid = (origin[0] + TRAY_MM[0] / 2, origin[1] + TRAY_MM[1] / 2)
    height = float(rng.uniform(550, 800))
    if view == "straight":
        return (mid[0], mid[1], height)
    off = np.tan(np.deg2rad(rng.uniform(*OFF_AXIS_DEG[view]))) * height
    az = rng.uniform(0, 2 * np.pi)
    return (float(mid[0] + off * np.cos(az)), float(mid[1] + off * np.sin(az)), height)


def random_dice(rng: np.random.Generator, origin: tuple[float, float], kinds: tuple[str, ...],
                count: int, cocked_rate: float = 0.0, white_pips_rate: float = 0.0,
                view: str | None = None, touching_rate: float = 0.0,
                d4_style: str = "apex") -> tuple[DieTruth, ...]:
    """Dice spread over the tray; `white_pips_rate` of the d6 are coloured with white pips.
    `view` (see VIEWS) draws the d6 and d4 as solids seen from that camera (None: flat);
    then `touching_rate` of the d6 get a second d6 pressed against one of their faces."""
    ox, oy = origin
    margin = 30 if touching_rate else 15  # room for a second die pressed against the first
    box = (ox + margin, oy + margin, ox + TRAY_MM[0] - margin, oy + TRAY_MM[1] - margin)
    eye = _eye(rng, origin, view) if view else None
    dice: list[DieTruth] = []
    for centre in _spread(rng, count, box, 30.0 if not touching_rate else 45.0):
        kind = str(rng.choice(kinds))
        cocked = kind == "d6" and bool(rng.random() < cocked_rate)
        value = None if cocked else int(rng.integers(1, DIE_SIDES[kind] + 1))
        body = None
        if kind == "d6" and white_pips_rate > 0 and rng.random() < white_pips_rate:
            body = COLOURED[int(rng.integers(len(COLOURED)))]
        angle = float(rng.uniform(0, 360))
        if eye is None or kind == "d10":
            dice.append(DieTruth(kind, value, centre, angle, cocked, body_bgr=body))
            continue
        if kind == "d4":
            body = D4_LOOKS[int(rng.integers(len(D4_LOOKS)))][0]
            dice.append(DieTruth(kind, value, centre, angle, body_bgr=body, eye_mm=eye,
                                 edge_mm=float(rng.uniform(17, 21)), d4_numbers=d4_style))
            continue
        edge = float(rng.uniform(14.5, 17.5))
        die = DieTruth(kind, value, centre, angle, cocked, body_bgr=body, eye_mm=eye, edge_mm=edge,
                       lean_deg=float(rng.uniform(20, 40)) if cocked else 0.0)
        dice.append(die)
        if not cocked and rng.random() < touching_rate:
            side = np.deg2rad(angle + 90 * int(rng.integers(4)))
            slide = rng.uniform(-0.35, 0.35) * edge
            gap = edge * 1.01
            at = (centre[0] + gap * np.cos(side) - slide * np.sin(side),
                  centre[1] + gap * np.sin(side) + slide * np.cos(side))
            other = COLOURED[int(rng.integers(len(COLOURED)))] if rng.random() < white_pips_rate else None
            dice.append(DieTruth("d6", int(rng.integers(1, 7)), (float(at[0]), float(at[1])), angle,
                                 body_bgr=other, eye_mm=eye, edge_mm=edge))
    return tuple(dice)


_STEP = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}


def place_card(spec: GridSpec, cells: dict, head: Token, rc: tuple[int, int], facing: str,
               angle_deg: float = 0.0, dx_mm: float = 0.0, dy_mm: float = 0.0) -> bool:
    """Lay a two-cell card with its head on `rc`, its tail on the neighbour toward `facing`,
    both halves moved together (a card is rigid). False if a cell is taken or off the grid."""
    dr, dc = _STEP[facing]
    tail = (rc[0] + dr, rc[1] + dc)
    if not (0 <= tail[0] < spec.rows and 0 <= tail[1] < spec.cols) or rc in cells or tail in cells:
        return False
    a = np.deg2rad(angle_deg)
    v = np.array([dc, dr], float) * spec.cell_mm
    turned = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) @ v
    cells[rc] = Placed(head, facing, dx_mm, dy_mm, angle_deg)
    cells[tail] = Placed(CARD_TAIL, facing, dx_mm + turned[0] - v[0], dy_mm + turned[1] - v[1], angle_deg)
    return True


def random_scene(spec: GridSpec, seed: int, fill: float = 0.5, dice: int = 0,
                 die_kinds: tuple[str, ...] = ("d6",), cocked_rate: float = 0.0,
                 hand: bool = False, skew_deg: float = 8.0, cards: int = 0,
                 white_pips_rate: float = 0.0, dice_view: str | None = None,
                 touching_rate: float = 0.0) -> Scene:
    """A random position: `cards` two-cell cards (Rollerball v4) first, then about `fill` of
    the other cells hold one of the game's tokens (any kind, any facing), `dice` dice in the
    tray (solid ones seen from `dice_view`, see random_dice), and a hand over the board if
    asked."""
    rng = np.random.default_rng(seed)
    kinds = [t for t in tokens_for(spec.game) if t.name not in ("djinn", "card_tail") and not t.card]
    heads = [t for t in tokens_for(spec.game) if t.card]
    cells: dict[tuple[int, int], Placed] = {}
    for _ in range(200):
        if len(cells) >= 2 * cards or not heads:
            break
        rc = (int(rng.integers(spec.rows)), int(rng.integers(spec.cols)))
        place_card(spec, cells, heads[int(rng.integers(len(heads)))], rc, str(rng.choice(list("NESW"))),
                   float(rng.uniform(-skew_deg / 2, skew_deg / 2)))
    for rc in spec.cells():
        if rc in cells:
            continue
        if rng.random() >= fill:
            continue
        token = kinds[int(rng.integers(len(kinds)))]
        facing = str(rng.choice(list("NESW"))) if token.directed else None
        slack = max(0.0, (spec.cell_mm - 18.0) / 2)
        cells[rc] = Placed(token, facing, float(rng.uniform(-slack, slack)), float(rng.uniform(-slack, slack)),
                           float(rng.uniform(-skew_deg, skew_deg)))
    w, h = spec.size_mm
    scene_hand = None
    if hand:
        side = int(rng.integers(4))
        t = float(rng.uniform(0.2, 0.8))
        wrist, tip = [((t * w, -60.0), (t * w, 0.0)), ((w + 60.0, t * h), (w, t * h)),
                      ((t * w, h + 60.0), (t * w, h)), ((-60.0, t * h), (0.0, t * h))][side]
        reach = float(rng.uniform(40, 90))
        d = np.subtract(tip, wrist) / np.linalg.norm(np.subtract(tip, wrist))
        scene_hand = Hand(wrist, (tip[0] + d[0] * reach, tip[1] + d[1] * reach), float(rng.uniform(60, 85)))
    scene = Scene(spec, cells, (), scene_hand, seed)
    if dice:
        scene = Scene(spec, cells, random_dice(rng, scene.tray_origin(), die_kinds, dice, cocked_rate,
                                                white_pips_rate, dice_view, touching_rate),
                      scene_hand, seed)
    return scene


def scene_of(spec: GridSpec, contents: dict[tuple[int, int], tuple[str, str | None]], seed: int = 0,
             skew_deg: float = 6.0, hand: Hand | None = None, dice: tuple[DieTruth, ...] = ()) -> Scene:
    """A scene showing a given position (cell -> (token name, facing)), placed by a slightly
    careless hand: tokens off centre and askew."""
    rng = np.random.default_rng(seed)
    names = {t.name: t for t in tokens_for(spec.game)}
    slack = max(0.0, (spec.cell_mm - 18.0) / 2)
    cells = {}
    for rc, (name, facing) in contents.items():
        if name == "empty":
            continue
        if name not in names:
            raise ValueError(f"{spec.game} has no token {name!r}")
        cells[rc] = Placed(names[name], facing, float(rng.uniform(-slack, slack)),
                           float(rng.uniform(-slack, slack)), float(rng.uniform(-skew_deg, skew_deg)))
    return Scene(spec, cells, dice, hand, seed)

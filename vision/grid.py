"""Reading a kit board: what lies on every cell, which way it points, and how sure we are.

The frame is warped to a top-down view of the board at `READ_PX_PER_MM`, where the token
markers (ArUco ids 4 and up, see vision.kit.tokens) are found: the id is the token's kind, the
marker's top edge its direction, the marker's centre its cell. A cell with no marker is
compared with the printed board itself (drawn by the kit code at the same scale): if it looks
like the paper, it is empty; if something covers it (a hand, a token turned over or smudged),
it reads "unknown" rather than a guess. Uneven light is taken out by fitting a smooth gain
(a quadratic surface) to the paper-white parts of the print before comparing, and a faded
print (ink printed grey, `_ink`) by lifting the print's dark parts to the ink's own level.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from .board import Board
from .kit.draw import board_image, token_image
from .kit.geometry import GridSpec
from .kit.tokens import CODE_MM, TOKEN_MM, Token, token_by_id, tokens_for
from .kit_board import find_kit_board

READ_PX_PER_MM = 4.0
EMPTY_LIMIT = 0.10
"""Mean normalised difference from the printed board above which a cell is not empty."""
TINT_LIMIT = 10.0
"""Mean colour difference from the print (|Cr| + |Cb| levels) above which a cell is not empty."""
TINT_PX_PER_MM = 1.0
"""The scale a cell's colour is compared at."""

_DETECTOR: cv2.aruco.ArucoDetector | None = None
_FACINGS = ("N", "E", "S", "W")
_STEPS = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}


def _is_card(spec: GridSpec, name: str) -> bool:
    return any(t.card and t.name == name for t in tokens_for(spec.game))


def _detector() -> cv2.aruco.ArucoDetector:
    global _DETECTOR
    if _DETECTOR is None:
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        _DETECTOR = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)
    return _DETECTOR


@dataclass(frozen=True)
class CellReading:
    """One cell: `content` is "empty", a token name of the game ("vortex", "white", ...) or
    "unknown" (something is there that cannot be read); `facing` is N/E/S/W for directed
    tokens; `confidence` runs from 0 (a guess) to 1 (clear)."""

    content: str
    facing: str | None = None
    confidence: float = 1.0


@dataclass
class GridReading:
    spec: GridSpec
    board: Board
    cells: dict[tuple[int, int], CellReading] = field(default_factory=dict)

    def unsure(self, threshold: float = 0.5) -> list[tuple[int, int]]:
        """Cells a referee should not act on: unknown, or read with low confidence."""
        return [rc for rc, c in self.cells.items() if c.content == "unknown" or c.confidence < threshold]

    def contents(self) -> dict[tuple[int, int], tuple[str, str | None]]:
        return {rc: (c.content, c.facing) for rc, c in self.cells.items()}

    def cards(self) -> list[tuple[str, tuple[int, int], tuple[int, int]]]:
        """Two-cell cards (Rollerball v4) as (code, head cell, tail cell): a head whose arrow
        points at a tail half facing the same way. A head or tail without its partner is
        left out (and the referee should treat those cells as unsure)."""
        out = []
        for (r, c), cell in sorted(self.cells.items()):
            if cell.facing is None or cell.content in ("card_tail", "unknown") or not _is_card(self.spec, cell.content):
                continue
            dr, dc = _STEPS[cell.facing]
            tail = self.cells.get((r + dr, c + dc))
            if tail is not None and tail.content == "card_tail" and tail.facing == cell.facing:
                out.append((cell.content, (r, c), (r + dr, c + dc)))
        return out


def _print(spec: GridSpec, s: float) -> np.ndarray:
    """The printed board (BGR), top-down at `s` px/mm (board mm origin at pixel 0)."""
    img, origin = board_image(spec, s)
    w, h = spec.size_mm
    x, y = int(round(origin[0])), int(round(origin[1]))
    return img[y:y + int(round(h * s)), x:x + int(round(w * s))]


@lru_cache(maxsize=8)
def _reference(spec: GridSpec, s: float) -> np.ndarray:
    """The printed board's grey levels, top-down at `s` px/mm, blurred by a millimetre."""
    grey = cv2.cvtColor(_print(spec, s), cv2.COLOR_BGR2GRAY)
    return cv2.GaussianBlur(grey.astype(np.float32), (0, 0), s)


@lru_cache(maxsize=8)
def _reference_tint(spec: GridSpec, s: float) -> np.ndarray:
    """The printed board's colour (Cr, Cb about grey: 0 for grey ink), as `_reference`."""
    ycc = cv2.cvtColor(_print(spec, s), cv2.COLOR_BGR2YCrCb)[..., 1:]
    return cv2.GaussianBlur(ycc.astype(np.float32) - 128.0, (0, 0), s)


def _tint_difference(frame: np.ndarray, board: Board, spec: GridSpec, gain: np.ndarray,
                     ref: np.ndarray, printed: np.ndarray) -> np.ndarray | None:
    """How far each pixel's colour is from the print's (|Cr| + |Cb| levels), at TINT_PX_PER_MM,
    or None for a grey frame. Grey alone cannot tell a hand from the print: skin is as bright
    as Stoneball's grey cells, and a hand over one read "empty". Colour offsets scale with the
    light, as brightness does: the print's colour by the gain, and the light's own tint (what
    the paper shows beyond the print's colour) by how bright the print is there too
    (`printed`, the print as this sheet shows it: a warm lamp tints white paper more than a
    dark zone). A cell's colour is its mean, so a coarse view serves (a sixteenth of the
    pixels of the grey one)."""
    if frame.ndim != 3:
        return None
    s = TINT_PX_PER_MM
    small = _warped(frame, board, s)
    size = (small.shape[1], small.shape[0])
    seen = cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)[..., 1:].astype(np.float32) - 128.0
    g = np.maximum(cv2.resize(gain, size, interpolation=cv2.INTER_AREA), 0.05)[..., None]
    bright = cv2.resize(printed, size, interpolation=cv2.INTER_AREA)
    lit = g * _reference_tint(spec, s)
    paper = cv2.resize(ref, size, interpolation=cv2.INTER_AREA) > 200
    shade = ((seen - lit) / g)[paper]
    tint = np.median(shade, axis=0) if len(shade) else np.zeros(2, np.float32)
    return np.abs(seen - lit - g * tint * (bright / 255.0)[..., None]).sum(axis=2)


def _gain(top: np.ndarray, ref: np.ndarray, s: float) -> np.ndarray:
    """How bright the light makes the paper at every pixel. Paper is the brightest thing on
    the board, so each 8 mm block's upper percentile of frame / print over paper-white pixels
    measures the light there (tokens, shadows and hands only darken); a quadratic surface
    fitted to the blocks, refitted without the outliers, spreads it over the board."""
    h, w = ref.shape
    b = max(4, int(4 * s))  # 8 mm blocks, sampled every other pixel
    r, t = ref[::2, ::2], top[::2, ::2]
    rows, cols = r.shape[0] // b, r.shape[1] // b
    r, t = r[:rows * b, :cols * b], t[:rows * b, :cols * b]
    ratio = np.where(r > 200, t / np.maximum(r, 1.0), -np.inf)
    blocks = np.sort(ratio.reshape(rows, b, cols, b).transpose(0, 2, 1, 3).reshape(rows, cols, b * b), axis=-1)
    count = np.isfinite(blocks).sum(axis=-1)
    at = np.minimum(b * b - count + (0.9 * np.maximum(count - 1, 0)).astype(int), b * b - 1)
    value = np.take_along_axis(blocks, at[..., None], axis=-1)[..., 0]
    keep = count >= 0.3 * b * b
    yy, xx = np.mgrid[0:rows, 0:cols]
    u = ((xx[keep] + 0.5) * 2 * b) / w - 0.5
    v = ((yy[keep] + 0.5) * 2 * b) / h - 0.5
    ratio = value[keep]
    A = np.stack([np.ones_like(u), u, v, u * u, u * v, v * v], axis=1)
    good = np.ones(ratio.shape, bool)
    for _ in range(3):
        coef, *_ = np.linalg.lstsq(A[good], ratio[good], rcond=None)
        good = np.abs(ratio - A @ coef) < 0.06 * np.median(ratio)
    U, V = np.meshgrid(np.arange(w) / w - 0.5, np.arange(h) / h - 0.5)
    return (coef[0] + coef[1] * U + coef[2] * V + coef[3] * U * U + coef[4] * U * V
            + coef[5] * V * V).astype(np.float32)


INK_MAX = 0.5
"""The palest ink taken for print (a share of the paper's white): beyond, it is no print."""
INK_SHARE = 0.25
"""The share of the print's dark pixels the ink's level is taken at (`_ink`)."""


def _ink(lit: np.ndarray, ref: np.ndarray) -> float:
    """The ink's grey level (0 black .. 255 paper) in a top view already divided by the light
    (`lit`, paper at 255). A printer low on toner, or a worn sheet, prints grey where the kit
    draws black: a large inked area (Stoneball's dark zone) then differs from a black print by
    a third of the paper's brightness, and every empty cell on it would read covered. Each
    darker pixel of the print tells the ink's level on its own (its frame value is the ink and
    the paper mixed in its print's shares), over the pixels the print draws at least half dark.
    What lies on the print is paler than ink (a hand, a token's white) or as dark (a token's
    black, a shadow): the level is taken low among them (INK_SHARE), so that a hand over most
    of the dark zone cannot lift it to the hand's own grey (the hand would then read as
    print). No ink lighter than INK_MAX of white."""
    dark = ref < 128
    if np.count_nonzero(dark) < 0.01 * ref.size:
        return 0.0
    share = 1.0 - ref[dark] / 255.0  # how much of the pixel the print inks
    level = (lit[dark] - ref[dark]) / share
    return float(np.clip(np.quantile(level, INK_SHARE), 0.0, INK_MAX * 255.0))


def _warped(image: np.ndarray, board: Board, s: float) -> np.ndarray:
    """`image` seen from straight above the board, `s` px per mm."""
    w, h = board.size_mm
    to_top = np.array([[s, 0, 0], [0, s, 0], [0, 0, 1]]) @ board.H
    return cv2.warpPerspective(image, to_top, (int(round(w * s)), int(round(h * s))), flags=cv2.INTER_LINEAR)


def top_view(frame: np.ndarray, board: Board, s: float = READ_PX_PER_MM) -> np.ndarray:
    """The board seen from straight above, `s` px per mm, grey."""
    return _warped(frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), board, s)


def _ramp(value: float, good: float, bad: float) -> float:
    """1 at or below `good`, 0 at or beyond `bad`, linear between."""
    return float(np.clip((bad - value) / (bad - good), 0.0, 1.0))


def _token_cells(spec: GridSpec, top: np.ndarray, s: float, offset=(0.0, 0.0),
                 zoom: float = 1.0) -> dict[tuple[int, int], list[CellReading]]:
    """Tokens found in (a crop of) the top view: `offset` is the crop's corner in top-view
    pixels, `zoom` how much the crop was enlarged."""
    corners, ids, _ = _detector().detectMarkers(top)
    found: dict[tuple[int, int], list[CellReading]] = {}
    if ids is None:
        return found
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        quad = quad / zoom + np.asarray(offset, np.float32)
        token = token_by_id(spec.game, int(marker_id))
        if token is None:
            continue
        q = quad.reshape(4, 2).astype(np.float64) / s
        centre = q.mean(axis=0)
        rc = spec.cell_at(*centre)
        if rc is None:
            continue
        up = (q[0] + q[1]) / 2 - (q[3] + q[2]) / 2
        angle = np.degrees(np.arctan2(up[0], -up[1])) % 360
        quarter = int(round(angle / 90)) % 4
        off_axis = abs(((angle + 45) % 90) - 45)
        side = float(np.mean(np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1)))
        offset = float(np.linalg.norm(centre - spec.centre_mm(*rc)))
        confidence = min(
            _ramp(offset, 0.2 * spec.cell_mm, 0.5 * spec.cell_mm),
            _ramp(abs(side / CODE_MM - 1), 0.15, 0.4),
            _ramp(off_axis, 20.0, 44.0) if token.directed else 1.0,
        )
        facing = _FACINGS[quarter] if token.directed else None
        found.setdefault(rc, []).append(CellReading(token.name, facing, confidence))
    return found


LOOKS = ((2.0, 1.0), (3.0, 1.0), (2.0, 2.0), (3.0, 2.0), (4.0, 1.5))
"""Second looks at a cell, tried in turn: (enlargement, unsharp strength)."""
MANY_COVERED = 8
"""More covered cells without a marker than this is a hand or an arm: only the first look."""


def _second_look(spec: GridSpec, top: np.ndarray, s: float, rc: tuple[int, int],
                 looks: tuple[tuple[float, float], ...] = LOOKS) -> list[CellReading]:
    """A cell that is not empty but where the whole-board pass found no token, looked at
    again enlarged and sharpened at a few scales and strengths (`LOOKS`): a blurred or dim
    marker is often found that way. Only a marker inside this cell counts; the first look
    that finds one decides (the id is still checked by the marker's own error detection)."""
    cx, cy = spec.centre_mm(*rc)
    half = 0.75 * spec.cell_mm
    x0, y0 = max(int((cx - half) * s), 0), max(int((cy - half) * s), 0)
    crop = top[y0:int((cy + half) * s), x0:int((cx + half) * s)]
    if crop.size == 0:
        return []
    for zoom, strength in looks:
        big = cv2.resize(crop, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
        big = cv2.addWeighted(big, 1.0 + strength, cv2.GaussianBlur(big, (0, 0), zoom * s / 4), -strength, 0)
        found = _token_cells(spec, big, s, (x0, y0), zoom).get(rc, [])
        if found:
            return found
    return []


TEMPLATE_SURE = 0.9
"""The normalised correlation a token's printed face must reach in `_template_look`."""
TEMPLATE_LEAD = 2.0
"""And how far it must lead the best other reading (another kind, or another facing): the
other's misfit (1 - correlation) at least this many times its own."""
TEMPLATE_BLURS_MM = (0.6, 1.0, 1.4)
TEMPLATE_TURNS = (-6.0, 0.0, 6.0)
TEMPLATE_SHORTLIST = 4
"""How many faces, best first at a glance, are matched at every turn and blur."""


@lru_cache(maxsize=2048)
def _template(token: Token, facing: str, turn: float, blur_mm: float, s: float) -> np.ndarray:
    """A token's printed face as the camera would see it: grey, turned `turn` degrees off its
    facing, blurred by `blur_mm`."""
    img = cv2.cvtColor(token_image(token, s, facing), cv2.COLOR_BGR2GRAY).astype(np.float32)
    if turn:
        h, w = img.shape
        m = cv2.getRotationMatrix2D((w / 2, h / 2), turn, 1.0)
        img = cv2.warpAffine(img, m, (w, h), borderValue=255.0)
    return cv2.GaussianBlur(img, (0, 0), blur_mm * s)


def _template_look(spec: GridSpec, top: np.ndarray, s: float, rc: tuple[int, int]) -> list[CellReading]:
    """A covered cell where no ArUco look found a marker, matched against every token of the
    game printed whole (its marker, margin and label), at each facing, a few turns and blurs.
    Far and soft cameras smear a marker's 2 mm modules below what a detector can threshold
    (3-4 px a module, blurred by more than 1 px), but the face as a whole still correlates with
    its own print better than with any other token's (on far development frames 0.97 against
    at most 0.92: the tokens share their card's outline and the marker's black border, so the
    others correlate too, and the lead is in the misfit, 0.03 against 0.08 or more). Read only
    when the best reading is sure (TEMPLATE_SURE) and its misfit is at most 1/TEMPLATE_LEAD of
    every other kind's and facing's; a hand, a token turned over or a smudge correlates with
    none."""
    cx, cy = spec.centre_mm(*rc)
    half = spec.cell_mm / 2 + 4.0
    x0, y0 = max(int((cx - half) * s), 0), max(int((cy - half) * s), 0)
    crop = top[y0:int((cy + half) * s), x0:int((cx + half) * s)].astype(np.float32)
    faces = [(token, facing) for token in tokens_for(spec.game) if not token.card
             and token.name != "card_tail" for facing in _FACINGS]
    if not faces or int(round(TOKEN_MM * s)) >= min(crop.shape):
        return []

    def score(token: Token, facing: str, turn: float, blur: float) -> float:
        return float(cv2.matchTemplate(crop, _template(token, facing, turn, blur, s), cv2.TM_CCOEFF_NORMED).max())

    # every face square and at a middle blur first; the few best then at every turn and blur
    best: dict[tuple[str, str | None], float] = {}
    first = sorted(faces, key=lambda tf: -score(*tf, 0.0, TEMPLATE_BLURS_MM[1]))
    for token, facing in first[:TEMPLATE_SHORTLIST]:
        key = (token.name, facing if token.directed else None)
        for turn in TEMPLATE_TURNS:
            for blur in TEMPLATE_BLURS_MM:
                best[key] = max(best.get(key, -1.0), score(token, facing, turn, blur))
    for token, facing in first[TEMPLATE_SHORTLIST:]:  # the rest as first seen
        key = (token.name, facing if token.directed else None)
        best.setdefault(key, score(token, facing, 0.0, TEMPLATE_BLURS_MM[1]))
    ranked = sorted(best.items(), key=lambda kv: -kv[1])
    if len(ranked) < 2:
        return []
    (name, facing), top_score = ranked[0]
    lead = (1.0 - ranked[1][1]) / max(1.0 - top_score, 1e-6)
    if top_score < TEMPLATE_SURE or lead < TEMPLATE_LEAD:
        return []
    return [CellReading(name, facing, 0.5 + 0.5 * _ramp(-lead, -1.5 * TEMPLATE_LEAD, -TEMPLATE_LEAD))]


def _tint_of(tinted: np.ndarray, cx: float, cy: float, inner: float) -> float:
    """The mean colour difference over a cell's inner square (`_tint_difference`)."""
    s = TINT_PX_PER_MM
    return float(tinted[int((cy - inner) * s):int((cy + inner) * s), int((cx - inner) * s):int((cx + inner) * s)].mean())


def read_grid(frame: np.ndarray, spec: GridSpec, board: Board | None = None,
              s: float = READ_PX_PER_MM) -> GridReading:
    """Read every cell of a kit board in a frame (calibrating on its markers, or three of them
    and the print, unless a `board` is given; CalibrationError names missing markers)."""
    if board is None:
        board = find_kit_board(frame, spec)
    top = top_view(frame, board, s)
    tokens = _token_cells(spec, top, s)
    ref = _reference(spec, s)
    seen = cv2.GaussianBlur(top.astype(np.float32), (0, 0), s * 0.5)
    gain = _gain(seen, ref, s)
    ink = _ink(seen / np.maximum(gain, 0.05), ref)
    printed = ink + (1.0 - ink / 255.0) * ref  # the print as this sheet shows it
    diff = np.abs(seen - gain * printed) / (255.0 * np.maximum(gain, 0.05))
    tinted = _tint_difference(frame, board, spec, gain, ref, printed)
    reading = GridReading(spec, board)
    inner = 0.42 * spec.cell_mm
    # a cell the colour of the print or of a token's grey card (a hand is neither)
    greyish = {rc: tinted is None or _tint_of(tinted, *spec.centre_mm(*rc), inner) < TINT_LIMIT
               for rc in spec.cells()}
    covered: list[tuple[int, int]] = []
    for rc in spec.cells():
        if rc in tokens:
            continue
        cx, cy = spec.centre_mm(*rc)
        x0, x1 = int((cx - inner) * s), int((cx + inner) * s)
        y0, y1 = int((cy - inner) * s), int((cy + inner) * s)
        d = float(diff[y0:y1, x0:x1].mean())
        if d < EMPTY_LIMIT and greyish[rc]:
            reading.cells[rc] = CellReading("empty", None, _ramp(d, EMPTY_LIMIT / 2, EMPTY_LIMIT))
        else:
            covered.append(rc)
    # many covered cells are a hand over the board, not blurred chips: one look each is enough
    looks = LOOKS if len(covered) <= MANY_COVERED else LOOKS[:1]
    for rc in spec.cells():
        if rc in reading.cells:
            continue
        found = tokens.get(rc) or _second_look(spec, top, s, rc, looks)
        if not found and greyish[rc]:
            found = _template_look(spec, top, s, rc)
        if len(found) == 1:
            reading.cells[rc] = found[0]
        else:
            reading.cells[rc] = CellReading("unknown", None, 0.0)
    return reading

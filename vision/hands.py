"""A mask of hands, arms and fingers over the scene: what the stone detector must ignore.

A hand is told from a stone by what it is attached to, not only by its colour: an arm always
enters the picture from its border and is far larger than any stone. So the mask is the set of large
regions, reaching the image border, that differ from the surfaces (board and table); skin colour
lowers the bar for a region to count as different, so that a hand close to the board's colour is
still found, but a skin-coloured stone (small, isolated) never is. When the board or table is itself
skin-coloured (light wood), skin colour says nothing and only the difference from the surface counts.

Everything runs on a copy a quarter of the frame's size: a hand is large, so detail does not matter,
and the mask costs well under a millisecond.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.board import Board

#: the classic skin region in the CrCb plane (holds across skin tones: they differ mostly in luma)
SKIN_CR = (135, 178)
SKIN_CB = (80, 128)


def _surfaces(lab: np.ndarray, board: Board | None, step: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """Where the board is (a 0/1 map) and the typical colours of the board and of the table.

    Without a board, the middle of the picture stands for the board and its rim for the table.
    """
    h, w = lab.shape[:2]
    inside = np.zeros((h, w), np.uint8)
    if board is not None:
        cv2.fillPoly(inside, [np.round(board.corners_px / step).astype(np.int32)], 1)
    else:
        inside[h // 4: 3 * h // 4, w // 4: 3 * w // 4] = 1
    rim = np.zeros((h, w), np.uint8)
    rim[:3], rim[-3:], rim[:, :3], rim[:, -3:] = 1, 1, 1, 1
    refs = []
    for region in (cv2.erode(inside, np.ones((5, 5), np.uint8)), rim & (1 - inside)):
        pts = lab[region > 0]
        pts = pts[:: max(len(pts) // 400, 1)]  # a few hundred samples give a steady median
        refs.append(np.median(pts, axis=0).astype(np.float32) if len(pts) >= 10 else None)
    if refs[1] is None:
        refs[1] = refs[0]
    if refs[0] is None:
        refs[0] = refs[1]
    return inside, refs


def _is_skin(lab_ref: np.ndarray) -> bool:
    bgr = cv2.cvtColor(lab_ref.reshape(1, 1, 3).astype(np.uint8), cv2.COLOR_Lab2BGR)
    _, cr, cb = cv2.cvtColor(bgr, cv2.COLOR_BGR2YCrCb).reshape(3)
    # the heart of the skin region only: a red or orange board near its edge still leaves skin
    # colour telling
    return SKIN_CR[0] + 5 <= cr <= SKIN_CR[1] - 8 and SKIN_CB[0] + 5 <= cb <= SKIN_CB[1] - 3


def hand_mask(
    frame_bgr: np.ndarray,
    board: Board | None = None,
    step: int = 4,
    min_area_frac: float = 0.01,
    margin_px: int = 10,
    max_stone_mm: float = 50.0,
) -> np.ndarray:
    """The hand/arm mask (uint8, 255 = hand) at the frame's size.

    step: the downscale factor of the working copy. min_area_frac: the smallest region (as a
    fraction of the frame) taken for an arm reaching in from the border. margin_px: how far the mask
    reaches past the visible hand (motion blur and the hand's shadow). max_stone_mm: the largest
    stone; with a board, a region away from the border counts as a hand (an arm may match the
    table) when it is far larger than such a stone; without a board, when it covers 3 % of the
    frame.
    """
    if not isinstance(frame_bgr, np.ndarray) or frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3:
        raise ValueError(f"hand_mask needs an 8-bit BGR frame, got {getattr(frame_bgr, 'shape', frame_bgr)!r}")
    H, W = frame_bgr.shape[:2]
    small = np.ascontiguousarray(frame_bgr[step // 2:: step, step // 2:: step])
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab)
    inside, refs = _surfaces(lab, board, step)
    if refs[0] is None:
        return np.zeros((H, W), np.uint8)
    # difference from the surface underneath (board inside the markers, table outside; without a
    # board, the nearer of the two); luma counts half, since lighting changes it most
    weights = np.array([[0.25, 1.0, 1.0]], np.float32)
    d_board, d_table = (
        cv2.transform(cv2.pow(cv2.subtract(lab, (*map(float, r), 0.0), dtype=cv2.CV_32F), 2), weights)
        for r in refs
    )
    if board is not None:
        dist = d_table
        cv2.copyTo(d_board, inside, dist)
    else:
        dist = cv2.min(d_board, d_table)
    foreign = dist > 22**2
    if board is not None:  # the markers are strong structure next to where arms reach in
        edge_px = float(np.mean(np.linalg.norm(board.corners_px - np.roll(board.corners_px, 1, axis=0), axis=1)))
        for (cx, cy), side in zip(board.corners_px, board.marker_side_px, strict=True):
            half = (side if side > 0 else 0.13 * edge_px) * 0.9 / step
            foreign[max(int(cy / step - half), 0):int(cy / step + half) + 1,
                    max(int(cx / step - half), 0):int(cx / step + half) + 1] = False
    skin = np.zeros_like(foreign)
    skin_tells = not any(_is_skin(r) for r in refs)
    if skin_tells:
        ycc = cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)
        skin = cv2.inRange(ycc, (30, SKIN_CR[0], SKIN_CB[0]), (255, SKIN_CR[1], SKIN_CB[1])) > 0
        foreign |= skin & (dist > 8**2)
    cand = cv2.morphologyEx(foreign.astype(np.uint8), cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    cand = cv2.morphologyEx(cand, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))

    n, labels, stats, _ = cv2.connectedComponentsWithStats(cand, connectivity=8)
    h, w = cand.shape
    min_area = min_area_frac * h * w
    big = 3 * min_area
    if board is not None:
        big = min(big, 2.5 * np.pi * (max_stone_mm / 2 * board.px_per_mm() / step) ** 2)
    keep = np.zeros(n, np.uint8)
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        at_border = x == 0 or y == 0 or x + bw >= w or y + bh >= h
        # an arm reaches in from the border
        # away from the border, only a skin-coloured region (a hand whose sleeve matches the table)
        inland = area >= big and (
            not skin_tells or skin[y:y + bh, x:x + bw][labels[y:y + bh, x:x + bw] == i].mean() > 0.5)
        if (at_border and area >= min_area) or inland:
            keep[i] = 255
    mask = keep[labels]
    if margin_px > 0:
        k = 2 * max(int(round(margin_px / step)), 1) + 1
        mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return cv2.resize(mask, (W, H), interpolation=cv2.INTER_NEAREST)

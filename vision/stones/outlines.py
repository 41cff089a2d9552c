"""A footprint's outline (part of stage 4 of `vision.stones`): tightened to the stone's own
contrast (`_contrast_outlines`, which also finds a faint stone beside a vivid one), and its cast
shadow told apart from it (`_shadow_like`, `_with_penumbra`), trimmed off it (`_trim_shadow`) or,
when a split took the shadow for a stone, given back to it (`_join_shadows`)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.stones.masks import (
    CRESCENT,
    MIN_ROUNDNESS,
    ROUND,
    _convex,
    _disk,
    _fill_holes,
    _quantile,
    _roundness,
)
from vision.stones.split_peaks import _cut_at_waists

CONTRAST_FRACTION = 0.3
HALO_FRACTION = 0.15  # a piece beside a stone with less contrast than this share of the stone's is its halo


def _contrast_outlines(part: np.ndarray, z: np.ndarray, shadow: np.ndarray, min_d: float, threshold: float,
                       depth: int = 0) -> list[np.ndarray]:
    """Tighten a footprint to where its difference reaches a fraction of the stone's own contrast;
    what that leaves aside, if it is stone-sized and not shade, is another stone (a faint stone
    touching a vivid one), outlined the same way.

    Defocus, motion and resampling blur a stone's edge into a ramp, and its soft shadow and halo
    reach far beyond it. A blurred step crosses half its height at the true edge, but a stone is a
    dome (its rim is darker than its top), so a lower fraction of its robust peak contrast keeps the
    rim while still dropping the halo, whatever the stone's own contrast.
    """
    level = _quantile(z[part > 0], 0.9)
    cut = max(threshold, CONTRAST_FRACTION * level)
    min_px = np.pi * (min_d / 2) ** 2 * 0.7
    if cut <= threshold:
        return [part]
    core = _fill_holes(((z > cut) & (part > 0)).astype(np.uint8) * 255) // 255
    if core.sum() < min_px:
        return [part]
    core = _convex_if_crescent(core) & part
    found = [core]
    rest = part & (1 - cv2.dilate(core, np.ones((3, 3), np.uint8)))
    rest = cv2.morphologyEx(rest, cv2.MORPH_OPEN, _disk(min_d * 0.6))
    # a piece left aside is a whole stone of its own, at least the smallest stone's size (its
    # core was not shrunk), and more than a halo: ringing, glare and blur around a stone are a
    # fixed fraction of the stone's own contrast, a touching stone's contrast is its own
    min_aside = np.pi * (min_d / 2) ** 2
    if depth < 2 and rest.sum() >= min_aside:
        n, labels, stats, _ = cv2.connectedComponentsWithStats(rest, connectivity=4)
        for i in range(1, n):
            if stats[i, 4] < min_aside:
                continue
            piece = (labels == i).astype(np.uint8)
            if (shadow & piece).sum() > 0.5 * stats[i, 4] and _roundness(piece) < MIN_ROUNDNESS:
                continue  # the stone's own cast shadow (a crescent; a round piece is a stone of the surface's colour)
            if _quantile(z[piece > 0], 0.9) < HALO_FRACTION * level:
                continue  # the stone's halo
            found += _contrast_outlines(piece, z, shadow, min_d, threshold, depth + 1)
    return found


def _convex_if_crescent(mask: np.ndarray) -> np.ndarray:
    """A stone of the surface's colour shows only its shaded side: a crescent; its hull is the stone."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if len(contours) != 1 or cv2.contourArea(contours[0]) >= 0.8 * cv2.contourArea(cv2.convexHull(contours[0])):
        return mask
    return _convex(mask)


def _shadow_like(ycc: np.ndarray, bg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pixels that look like the surface in shade: darker, with the surface's own colour; and
    those that are any darker with it (a shadow's soft edge, its penumbra, fades to nothing).

    Shade scales B, G and R alike; in YCrCb that scales Y and the chroma offsets by one factor.
    """
    y, cr, cb = (c.astype(np.float32) for c in cv2.split(ycc))
    by, bcr, bcb = (c.astype(np.float32) for c in cv2.split(bg))
    a = (y + 2) / (by + 2)
    same_hue = (np.abs((cr - 128) - a * (bcr - 128)) < 5) & (np.abs((cb - 128) - a * (bcb - 128)) < 5)
    return ((a < 0.9) & same_hue).astype(np.uint8), ((a < 1.0) & same_hue).astype(np.uint8)


def _with_penumbra(shade: np.ndarray, faint: np.ndarray, width: float) -> np.ndarray:
    """The shade and the faintly darker pixels of the surface's colour beside it, within `width`
    px: a cast shadow's soft edge, too faint to pass for shade by itself, yet part of the shadow
    (left in a footprint, it closes a ring around the shadow that the trim then fills back in).
    Only a band: grown further, it would crawl over a stone's own dark rim."""
    return shade | (faint & cv2.dilate(shade, _disk(width)))


def _trim_shadow(part: np.ndarray, shade: np.ndarray, z: np.ndarray, min_d: float, threshold: float) -> np.ndarray:
    """Cut a cast shadow (`shade`: with its soft edge, `_with_penumbra`) off one stone's
    footprint, when a stone of its own colour remains.

    A stone of the surface's own hue looks like shade all over; it is left whole (its shadow then
    widens it: the documented bias).
    """
    sh = shade & part
    if not sh.any():
        return part
    core = cv2.morphologyEx(part & (1 - sh), cv2.MORPH_OPEN, _disk(min_d * 0.3))
    if not core.any():
        return part
    # the stone's own shaded rim is shade-like too: keep what the core encloses
    trimmed = _fill_holes(cv2.morphologyEx(core * 255, cv2.MORPH_CLOSE, _disk(min_d * 0.4))) // 255 & part
    # where its dark side has the surface's hue, shade-like and other pixels interleave along the
    # cut (noise): the spurs and tails they leave are no part of a round stone (an opening that
    # breaks the footprint in two went through the waist between touching stones: not taken)
    near_shade = cv2.dilate(sh, _disk(min_d * 0.5))
    smooth = trimmed & (cv2.morphologyEx(trimmed, cv2.MORPH_OPEN, _disk(min_d * 0.5)) | (1 - near_shade))
    if cv2.connectedComponents(smooth, connectivity=8)[0] == 2:
        trimmed = smooth
    # a cut that turns a round footprint into a ragged one took a bite out of a stone whose
    # shaded side looks like shade (a cast shadow makes a footprint lopsided, not round)
    if _roundness(trimmed) < MIN_ROUNDNESS and _roundness(part) >= ROUND:
        return part
    # a stone is convex: pixels of its own dark side that passed for shade, cut out of it as
    # nicks and holes, go back (never beyond the footprint; and not where the notches are a
    # waist between touching stones, which the waist cut is to find)
    hull = _convex(trimmed) & part
    if hull.sum() > trimmed.sum() and len(_cut_at_waists(trimmed, min_d)) == 1:
        trimmed = hull
    # what is left must be a stone: most of the footprint, or a whole stone beside its shadow
    # (stone-sized, and as round as a piece cut at a waist)
    if trimmed.sum() < 0.5 * part.sum() and (trimmed.sum() < np.pi * (min_d / 2) ** 2
                                             or _roundness(trimmed) < MIN_ROUNDNESS):
        return part
    # a stone of the surface's colour differs from it only by its shading, which looks like
    # shade: what the trim leaves (its lit top) is not a stone by itself
    if _quantile(z[trimmed > 0], 0.5) < threshold <= _quantile(z[part > 0], 0.5):
        return part
    return trimmed


def _join_shadows(parts: list[np.ndarray], shadow: np.ndarray) -> list[np.ndarray]:
    """Give a stone back its cast shadow when the split took it for a stone of its own.

    A stone's shadow is as strong as the stone itself where the stone is close to the surface's
    brightness (a white stone on a light board), so the split may find two summits: the stone and
    its shadow. A part that looks like shade (mostly the surface's own colour, darker) and is a
    crescent rather than a disc joins the stone it touches most; the shadow trim then takes it off again.
    """
    if len(parts) < 2:
        return parts
    shade = [(shadow & p).sum() > 0.5 * p.sum() and _roundness(p) < CRESCENT for p in parts]
    if all(shade) or not any(shade):
        return parts
    stones = [p for p, s in zip(parts, shade, strict=True) if not s]
    for p, s in zip(parts, shade, strict=True):
        if s:
            grown = cv2.dilate(p, np.ones((3, 3), np.uint8))
            touch = [int((grown & q).sum()) for q in stones]
            k = int(np.argmax(touch))
            if touch[k]:
                stones[k] = stones[k] | p
            else:
                stones.append(p)
    return stones

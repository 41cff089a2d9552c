"""The stone-free surface, estimated from the frame itself (stage 2 of `vision.stones`), and each
pixel's difference from it in units of the noise (`_Surface.z`), from which candidates are taken.

Three models, each where the others fail: a coarse median per surface (board, table) away from
the board's edges; an edge profile along each edge (bevel, rim, the board's shadow), the median
along the edge by distance from it; and the board's grain (wood's stripes), a running median
along the grain that a stone breaks."""

from __future__ import annotations

import cv2
import numpy as np

from vision.stones.masks import _odd, _quantile
from vision.stones.view import _Geometry, _zones


def _extend(img: np.ndarray, keep: np.ndarray, k: int) -> np.ndarray:
    """`img` where `keep`, and elsewhere a smooth continuation of it (normalised convolution), so
    that a median near the edge of a surface sees that surface's own colour and lighting."""
    if keep.all() or not keep.any():
        return img
    w = keep.astype(np.float32)
    num = cv2.blur(img.astype(np.float32) * w[..., None], (k, k))
    den = cv2.blur(w, (k, k))[..., None]
    fill = np.where(den > 1e-3, num / np.maximum(den, 1e-3), img.reshape(-1, 3)[keep.ravel()].mean(axis=0))
    return np.where(keep[..., None], img, np.clip(fill, 0, 255).astype(np.uint8))


def _chunk_medians(strip: np.ndarray, n: int) -> np.ndarray:
    """Medians over `n` near-equal runs of columns (as np.array_split cuts them), per row and
    channel: (rows, n, channels). Two reshaped medians instead of one per run."""
    rows, cols = strip.shape[:2]
    q, extra = divmod(cols, n)
    split = extra * (q + 1)  # the first `extra` runs are one column longer
    ch = strip.shape[2]
    parts = [strip[:, :split].reshape(rows, extra, q + 1, ch), strip[:, split:].reshape(rows, n - extra, q, ch)]
    return np.concatenate([np.median(p, axis=2) for p in parts if p.shape[1] and p.shape[2]], axis=1)


GRAIN_ANISOTROPY = 2.0  # the luma changes this many times faster across the board's grain than along it
GRAIN_GAIN = 0.7  # the grain is modelled only when that leaves at most this share of the luma's noise
GRAIN_ROWS = 6  # the grain model is worked out on every sixth row (along the grain) and interpolated
GRAIN_STEP = 3  # its samples along the grain lie this many pixels apart
GRAIN_OUTLIER = 4.0  # a luma difference beyond this many times the median one is no stripe


def _grain(luma: np.ndarray, max_d: float) -> np.ndarray | None:
    """The board's grain in a luma difference (the board inside its edge strips), or None.

    Wood (and any surface with stripes) has a texture no median wider than a stone can follow:
    stripes a few pixels apart, light and dark by several times the sensor's noise, which then
    counts as noise, and a pale stone on such a board differs from it by less than the stripes
    do. Stripes change fast across the grain and slowly along it; boards are cut along their
    grain, so it runs along one of the board's axes in the view. Along that axis a running
    median twice the largest stone long (GRAIN_STEP apart) follows the stripes and their
    waviness, while a stone, shorter than half of it, breaks the stripes and is left out (and a
    stone far brighter or darker than any stripe moves no median, whatever its length); where
    the stripes stop at a stone is what tells the stone. Only kept when it removes most of the
    noise (GRAIN_GAIN: a board with no grain is left as it is)."""
    h, w = luma.shape
    if min(h, w) < 2 * max_d:
        return None
    sub = luma[::2, ::2].astype(np.float32)
    across = float(np.abs(np.diff(sub, axis=1)).mean())  # changes along x: stripes running along y
    along = float(np.abs(np.diff(sub, axis=0)).mean())
    if max(across, along) < GRAIN_ANISOTROPY * min(across, along):
        return None
    if along > across:  # stripes along x: the same along the other axis
        g = _grain(np.ascontiguousarray(luma.T), max_d)
        return None if g is None else np.ascontiguousarray(g.T)
    # a stone or its shadow far darker or brighter than any stripe gives its samples half to
    # the brightest and half to the darkest side, so that they move no median: the stripes
    # beyond it decide
    mad = float(np.median(np.abs(sub)))
    row_sign = np.where(np.arange(h) // GRAIN_STEP % 2 == 0, 32000, -32000).astype(np.int16)[:, None]
    votes = np.where(np.abs(luma) > GRAIN_OUTLIER * mad, row_sign, luma).astype(np.int16)
    m = max(int(round(max_d / GRAIN_STEP)), 2)  # 2m + 1 samples: twice the largest stone long
    rows = np.arange(0, h, GRAIN_ROWS)
    pad = np.pad(votes, ((m * GRAIN_STEP, m * GRAIN_STEP), (0, 0)), mode="edge")
    stack = np.stack([pad[rows + GRAIN_STEP * k] for k in range(2 * m + 1)])
    lim = GRAIN_OUTLIER * mad  # where a stone covers most of the samples, no stripe is known
    model = np.clip(np.partition(stack, m, axis=0)[m], -lim, lim).astype(np.float32)
    model = cv2.resize(model, (w, len(rows) * GRAIN_ROWS), interpolation=cv2.INTER_LINEAR)[:h]
    before = mad
    after = np.median(np.abs(sub - model[::2, ::2]))
    if after > GRAIN_GAIN * before:
        return None
    return np.round(model).astype(np.int16)


ALL_CHANNELS = np.ones((1, 3), np.float32)  # a colour difference's channels, summed (cv2.transform)


class _Surface:
    """The stone-free surface predicted from the view, and each pixel's difference from it (`z`).

    `z` is the difference in Y, Cr and Cb, each in units of that channel's noise, summed, and
    divided by the local texture level (a grainy table needs a larger difference than smooth felt).
    The noise is measured apart on the table, the edge strips and the board inside them;
    `contrast` gives the same with one noise per surface (board, table), for reading a stone's
    outline from its own contrast.
    """

    def __init__(self, ycc: np.ndarray, geo: _Geometry, max_d: float,
                 bare: np.ndarray | None = None):
        view, markers, e = geo.view, geo.markers, geo.band_px
        h, w = ycc.shape[:2]
        (bu0, bv0), (bu1, bv1) = view.board_rect
        on_board = np.zeros((h, w), np.uint8)
        on_board[max(bv0, 0):max(bv1, 0), max(bu0, 0):max(bu1, 0)] = 1

        # away from the edges: a coarse median per surface, the other surface (and what the camera
        # does not see) filled with a smooth continuation of its own colours (a median across the
        # board's edge would smear the edge into the surface)
        f = min(1.0, 6.0 / max(max_d, 1.0))
        sw, sh = max(int(round(w * f)), 8), max(int(round(h * f)), 8)
        k = _odd(min(2.6 * max_d * f, min(sh, sw) - 1))
        if bare is not None:
            diff = cv2.subtract(ycc, bare, dst=np.zeros((h, w, 3), np.int16), mask=view.valid,
                                dtype=cv2.CV_16S)
            # light that changed since (a hand's or an arm's shadow, a lamp dimmed on one side)
            # changes the picture as broadly as the model's median sees: taken off the same way
            low = cv2.resize(diff, (sw, sh), interpolation=cv2.INTER_AREA) + 128
            low = cv2.medianBlur(np.clip(low, 0, 255).astype(np.uint8), k).astype(np.int16) - 128
            diff -= cv2.resize(low, (w, h), interpolation=cv2.INTER_LINEAR)
        else:
            diff = self._modelled(ycc, geo, max_d, on_board, (sw, sh), k)
        outer, inner = _zones(view, e)
        self._ycc, self._diff = ycc, diff
        self.resid = resid = cv2.convertScaleAbs(diff)  # |difference| never exceeds 255
        resid = np.float32(cv2.bitwise_and(resid, resid, mask=cv2.bitwise_not(markers)))

        # robust noise per channel, for the board, the table and the edge strips apart (brighter
        # surfaces and JPEG blocks are noisier), then a local texture level, with stones clipped
        # out so that they do not inflate their own neighbourhood's level
        inv_sigma = np.ones((3, 1, 3), np.float32)
        for zid, pixels in enumerate(geo.noise_samples):
            if len(pixels):
                sample = np.ascontiguousarray(resid.reshape(-1, 3)[pixels].T)
                inv_sigma[zid, 0] = 1.0 / np.maximum(1.4826 * np.median(sample, axis=1), 1.0)
        z = cv2.transform(resid, inv_sigma[0])
        z[outer] = cv2.transform(resid[outer], inv_sigma[1]).reshape(z[outer].shape)
        z[inner] = cv2.transform(resid[inner], inv_sigma[2]).reshape(z[inner].shape)
        z_small = cv2.resize(z, (sw, sh), interpolation=cv2.INTER_AREA)
        kt = _odd(k / 2)
        texture = cv2.blur(np.minimum(z_small, 8.0), (kt, kt)) / 2.4  # 2.4: the mean of pure noise
        texture = cv2.resize(np.maximum(texture, 1.0), (w, h), interpolation=cv2.INTER_LINEAR)
        self.z = cv2.divide(z, texture)
        self._resid, self._texture, self._on_board = resid, texture, on_board
        self._weights = inv_sigma[0, 0], inv_sigma[2, 0]  # the table's, the board's
        self._strips = geo.strips

    @staticmethod
    def _modelled(ycc: np.ndarray, geo: _Geometry, max_d: float, on_board: np.ndarray,
                  small_size: tuple[int, int], k: int) -> np.ndarray:
        """The difference from the surface as the three models predict it."""
        view, e = geo.view, geo.band_px
        h, w = ycc.shape[:2]
        (bu0, bv0), (bu1, bv1) = view.board_rect
        sw, sh = small_size
        small = cv2.resize(ycc, (sw, sh), interpolation=cv2.INTER_AREA)
        board_s = cv2.resize(on_board, (sw, sh), interpolation=cv2.INTER_NEAREST) > 0
        valid_s = cv2.resize(view.valid, (sw, sh), interpolation=cv2.INTER_NEAREST) > 0
        fill_k = _odd(3 * k)
        bg_b = cv2.medianBlur(_extend(small, board_s & valid_s, fill_k), k)
        bg_t = cv2.medianBlur(_extend(small, ~board_s & valid_s, fill_k), k)
        bg = cv2.resize(bg_t, (w, h), interpolation=cv2.INTER_LINEAR)
        cv2.copyTo(cv2.resize(bg_b, (w, h), interpolation=cv2.INTER_LINEAR), on_board, bg)

        # along the edges: the edge profile (difference from the 2-D surface, by distance from the
        # edge), the median along the edge over stretches many stones long
        # what the camera does not see differs by nothing
        diff = cv2.subtract(ycc, bg, dst=np.zeros((h, w, 3), np.int16), mask=view.valid, dtype=cv2.CV_16S)
        seg = max(4.0 * max_d, 8.0)
        for axis, line in ((0, bv0), (0, bv1), (1, bu0), (1, bu1)):
            lo = (bu0 - e, bu1 + e) if axis == 0 else (bv0 - e, bv1 + e)
            r0, r1 = max(line - e, 0), min(line + e + 1, h if axis == 0 else w)
            c0, c1 = max(lo[0], 0), min(lo[1], w if axis == 0 else h)
            if r1 - r0 < 2 or c1 - c0 < 2:
                continue
            strip = diff[r0:r1, c0:c1] if axis == 0 else diff[c0:c1, r0:r1].transpose(1, 0, 2)
            n_seg = max(int(round((c1 - c0) / seg)), 1)
            prof = _chunk_medians(strip, n_seg)
            prof = cv2.resize(prof.astype(np.float32), (c1 - c0, r1 - r0), interpolation=cv2.INTER_LINEAR)
            prof = np.round(prof).astype(np.int16)
            # the edge may run a pixel or two off the calibrated line: each pixel is compared with
            # the edge shifted by up to `slack` rows across it, and keeps the best match. The edge
            # shifted whole, surface and profile together: the profile is a difference from a
            # surface that jumps across the edge (the board's median on one side, the table's on
            # the other), and the profile alone shifted across the line gave the board's side
            # the board's brightness plus the table side's rim offset, a value the edge never
            # has, as bright as a pale stone lying across the rim (cut in two along it)
            ground = (bg[r0:r1, c0:c1] if axis == 0 else bg[c0:c1, r0:r1].transpose(1, 0, 2)).astype(np.int16)
            edge = ground + prof  # the edge's own values
            seen = np.ascontiguousarray(strip + ground)  # the pixels' own values (the surface where the camera does not see)
            slack = 2
            padded = np.concatenate([edge[:1]] * slack + [edge] + [edge[-1:]] * slack)  # edge rows repeated
            n_rows = strip.shape[0]
            # the whole colour decides: the two surfaces may differ in colour alone (a green board
            # on a brown table of its brightness), and a shift chosen by luma then took one's colour
            # for the other's
            # shift by shift, each pixel keeps the first best (a running minimum: argmin across
            # a stack of shifts strides through memory), and its edge row is gathered by flat index
            best = cv2.transform(cv2.absdiff(seen, padded[:n_rows]), ALL_CHANNELS)
            shift = np.zeros(best.shape, np.intp)
            for by in range(1, 2 * slack + 1):
                err = cv2.transform(cv2.absdiff(seen, padded[by: by + n_rows]), ALL_CHANNELS)
                shift = np.where(err < best, by, shift)
                np.minimum(best, err, out=best)
            n_cols = strip.shape[1]
            rows = (shift + np.arange(n_rows)[:, None]) * n_cols + np.arange(n_cols)
            np.subtract(seen, np.take(padded.reshape(-1, 3), rows, axis=0), out=strip)  # a view of `diff`
        # the board's grain (wood's stripes), which no median wider than a stone can follow
        outer, inner = _zones(view, e)
        grain = _grain(diff[inner][..., 0], max_d)
        if grain is not None:
            diff[inner][..., 0] -= grain
        return diff

    def bg(self, rows: slice, cols: slice) -> np.ndarray:
        """The predicted surface (YCrCb) in one window: only stones' windows ever need it."""
        return np.clip(self._ycc[rows, cols].astype(np.int16) - self._diff[rows, cols], 0, 255).astype(np.uint8)

    def shading(self, rows: slice, cols: slice, part: np.ndarray) -> float:
        """How much a footprint's brightness difference from the surface varies across it: the
        spread between its 90 % and 10 % quantiles, in units of the luma noise of the surface it
        lies on. A stone is a lit body (a bright flank, a shaded one, a darker rim than its top)
        whatever its colour; a patch that differs from the surface by one even offset, or by
        colour alone, is no body. In the strips along the board's edges the unit is the local
        texture's too: the rim's own structure (a grain running into it, a compressed frame's
        blocks smeared along its strong edge) varies there as much as a faint stone's flanks do,
        and its smears were taken for stones (`z` is measured in that unit already)."""
        luma = self._diff[rows, cols, 0][part > 0].astype(np.float32)
        table, board = self._weights
        weight = board[0] if self._on_board[rows, cols][part > 0].mean() >= 0.5 else table[0]
        if self._strips[rows, cols][part > 0].mean() >= 0.5:
            weight = weight / float(np.median(self._texture[rows, cols][part > 0]))
        return (_quantile(luma, 0.9) - _quantile(luma, 0.1)) * float(weight)

    def contrast(self, rows: slice, cols: slice) -> np.ndarray:
        """`z` in one window, but with the channels weighed alike over each surface (the board's
        noise on the board, the table's off it): the noise zones are for telling a stone from
        noise, but a stone's own contrast profile, which its outline is read from, does not jump
        where an edge strip ends (across that line, half a stone weighed by the strip's larger
        noise lost its outline)."""
        resid = self._resid[rows, cols]
        table, board = self._weights
        weights = np.where(self._on_board[rows, cols, None] > 0, board, table)
        return (resid * weights).sum(axis=2) / self._texture[rows, cols]

"""Stone detection on a single still, with or without a picture of the empty board.

A referee may start mid-game, so nothing need be known of the empty board: the surface under
the stones is estimated from the frame itself, and stones are what differs from it (stages 1-6).
Where the game began on an empty board, its picture (`bare_board` says whether a still is one)
is a second surface to read against (7).

1. The frame is warped to a top-down view of the board and the table around it (board mm, at a
   fixed resolution): stones have the same size everywhere and the board's edges are straight and
   axis-aligned, whatever the camera's tilt.
2. The surface: away from the board's edges, a median much wider than a stone (on a coarse copy)
   sees mostly surface, and so predicts each pixel without stones; board and table get their own
   medians, so that neither smears into the other. Along each edge of the board (a bevel, a rim,
   the board's own shadow), the surface is an edge profile: for each distance from the edge, the
   median along the edge, which no stone can dominate. A board's grain (wood's stripes, along one
   of its axes) is followed by a running median along the grain, which a stone breaks.
3. Stones are what differs from that prediction beyond the noise (per channel, Y Cr Cb, scaled by
   the local texture), in brightness (shading, rims, shadows) or in colour. A stone the board's own
   colour still differs by its dome shading and its cast shadow; its outline, a ring or a crescent
   of difference, is filled (holes filled, a crescent completed by its convex hull).
4. Touching stones are separated by their colours (two round patches side by side) or their lit
   tops (two domes with a dark contact line between), where blur and shadow filled their waist;
   at the necks of the distance transform, or at a shallow neck
   between two different colours (each footprint pixel goes to the peak whose inscribed circle it
   is nearest to), or, where the landscape has one peak (a small stone against a large one of its
   colour), along a short line between two notches of the outline; a cast shadow is trimmed off a footprint
   where it looks like shade (the surface's own colour, uniformly darker), and a crescent of shade
   split off as a stone goes back to its stone; a faint piece beside a vivid stone is another stone
   only if it is more than that stone's halo; the centre is the area centroid of the footprint, in
   board mm. A blob of candidates smaller than any stone (the lit top of a stone close to the
   surface's colour) is grown over the fainter difference round it (its shaded rim and shadow).
5. A faint footprint with no shading across it is no stone (a smear of colour that heavy
   compression leaves along the board's rim): a stone is a lit body, brighter on one flank than
   on the other.
6. A stone of the surface's colour keeps its whole cast shadow in its footprint. One lamp lights
   every stone of a scene alike, so the side the shadows fall on is estimated from all the stones
   together (the darkness around each footprint); when they agree, such a footprint's centre moves
   back toward the light by half its excess length along that side. A lamp straight above or two
   lamps leave no side.
7. Given a picture of the bare board (`detect_stones`'s ``bare``: exposure matched to the frame),
   the stages run again against it, where a stone of the board's colour differs from the wood
   it covers by every stripe of grain it hides. That look also finds cast shadows, which join
   stones lying close, so it only adds: a stone clear of all those of the first look, plainly a
   stone (score 0.8, the bar by a marker), of a stone's size (three quarters of the scene's
   median radius at least), with a lit part (a tenth of it brighter than the bare board: a cast
   shadow is only darker).

Where each stage lives, in the order a frame goes through them (`detect.detect_stones` runs them):
`view` (1: the top-down view, and what is built once per board), `surface` (2: the surface, edge
profiles, grain and noise), `candidates` (3: the pixels that differ and their blobs: the hand,
crescents, seeds, small lit tops grown), `split_colours`, `split_domes`, `split_peaks` (4:
touching stones apart by colour, lit tops, peaks and waists), `outlines` (4: each outline
tightened to its stone's contrast, its cast shadow trimmed or given back), `scoring` (5: a
footprint judged as a stone), `heaps` (clusters no split could separate), `footprint` (6: the
scene's shadow side; footprints wrapped round another); `types` holds what the detector takes and
gives, `masks` the small tools on masks they all share.
"""

from vision.stones.detect import bare_board, detect_stones
from vision.stones.types import DEFAULT_PARAMS, FrameError, Stone, StoneParams, check_frame
from vision.stones.view import TopView

__all__ = ["DEFAULT_PARAMS", "FrameError", "Stone", "StoneParams", "TopView", "bare_board", "check_frame",
           "detect_stones"]

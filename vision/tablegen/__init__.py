"""Synthetic camera frames of printed kit boards with tokens, dice and hands, with ground truth.

`layout` decides what is where (in table millimetres), `solid` paints d6 and d4 as solids
through a pinhole camera (and `dice` the flat d10 and truncated d4),
`camera` turns the top-down table into what a tilted camera under uneven light would see. A
scene is fully determined by its seed, so a failing test or benchmark frame can be replayed.
"""

from .layout import DieTruth, Hand, Scene, random_scene, scene_of
from .render import Frame, render

__all__ = ["DieTruth", "Frame", "Hand", "Scene", "random_scene", "render", "scene_of"]

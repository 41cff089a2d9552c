"""The physics world: flicks slide and settle like pebbles, the board edge drops stones onto the
table, and collisions are recorded."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.synth.geometry import place, separation
from vision.synth.physics import StoneState, World
from vision.synth.stones import random_stone
from vision.synth.style import random_style

FPS = 60


def _world(n: int = 2, **style):
    chosen = random_style(np.random.default_rng(5), board_mm=(400, 400), **style)
    rng = np.random.default_rng(7)
    stone = random_stone(rng, 0, (18, 22), (90, 90, 90))
    shapes = {i: replace(stone, id=i) for i in range(n)}  # equal stones: collisions share momentum
    return World(shapes, chosen, FPS), chosen


def _run(world: World, limit_s: float = 5.0) -> int:
    for frame in range(1, int(limit_s * FPS)):
        world.step_frame()
        if world.at_rest():
            return frame
    raise AssertionError("never came to rest")


def test_a_flick_slides_the_distance_its_speed_gives_and_stops_within_a_second_or_two():
    world, style = _world(1)
    world.add(StoneState(0, 100.0, 200.0, 0.0))
    decel = style["board_decel_mm_s2"]
    v = np.sqrt(2 * decel * 180.0)
    world.kick(0, np.array([v, 0.0]), 0.0)
    frames = _run(world)
    s = world.states()[0]
    assert abs(s.x - 280.0) < 4.0 and abs(s.y - 200.0) < 1.0
    assert 0.4 <= frames / FPS <= 1.6
    assert abs(frames / FPS - v / decel) < 0.1


def test_a_stone_pushed_over_the_edge_lands_on_the_table_clear_of_the_board():
    world, style = _world(1)
    world.add(StoneState(0, 370.0, 200.0, 0.3))
    world.kick(0, np.array([400.0, 30.0]), 0.0)
    _run(world)
    s = world.states()[0]
    assert s.fallen and s.x > 400.0
    assert s.x < 400.0 + style["margin_mm"]
    foot = place(world.shapes[0].outline, s.x, s.y, s.angle)
    assert foot[:, 0].min() > 400.0  # wholly on the table, not straddling the edge


def test_the_table_brakes_harder_than_the_board():
    slides = []
    for fallen in (False, True):
        world, _ = _world(1)
        x = 200.0 if not fallen else -60.0
        world.add(StoneState(0, x, 200.0, 0.0, fallen))
        world.kick(0, np.array([0.0, 300.0]), 0.0)
        _run(world)
        slides.append(world.states()[0].y - 200.0)
    assert slides[1] < slides[0] / 2


def test_collisions_are_recorded_and_stones_do_not_overlap_at_rest():
    world, style = _world(2)
    world.add(StoneState(0, 100.0, 200.0, 0.0))
    world.add(StoneState(1, 200.0, 200.0, 0.0))
    world.kick(0, np.array([np.sqrt(2 * style["board_decel_mm_s2"] * 200.0), 0.0]), 0.0)
    contacts = []
    for _ in range(5 * FPS):
        contacts += world.step_frame()
        if world.at_rest():
            break
    assert (0, 1) in contacts
    a, b = world.states()
    assert b.x > 220.0  # the struck stone moved on
    fa = place(world.shapes[0].outline, a.x, a.y, a.angle)
    fb = place(world.shapes[1].outline, b.x, b.y, b.angle)
    assert separation(fa, fb) > -0.5

"""The heat maps' colour scale (gradviz/model/colorscale.py): symmetric, steady between round
numbers, following shrinking values down by half every HALF_LIFE steps. Qt-free."""

import math

import numpy as np
import pytest

from gradviz.model.colorscale import (
    HALF_LIFE,
    WINDOW,
    RunningScale,
    bar_labels,
    decayed_max,
    max_abs,
    nice_ceil,
    row_scale,
    scale,
)


@pytest.mark.parametrize(
    "x,want",
    [
        (0.005, 0.005),
        (0.0051, 0.01),
        (0.011, 0.02),
        (0.03, 0.05),
        (0.9, 1.0),
        (1.0, 1.0),
        (3.0, 5.0),
        (7.0, 10.0),
        (123456.0, 200000.0),
        (1e-30, 1e-30),
        (0.0, 1.0),
        (float("nan"), 1.0),
        (float("inf"), 1.0),
    ],
)
def test_the_scale_is_a_round_number_at_least_the_value(x, want):
    assert nice_ceil(x) == want


def test_earlier_values_count_half_every_half_life():
    # 0.5 at step 1, then 0.004 a step: at step 1 + HALF_LIFE the 0.5 counts 0.25
    steps = np.arange(1, 2 * HALF_LIFE + 2)
    maxabs = np.r_[0.5, np.full(len(steps) - 1, 0.004)]
    assert decayed_max(steps, maxabs, 1) == 0.5
    assert decayed_max(steps, maxabs, 1 + HALF_LIFE) == pytest.approx(0.25)
    assert decayed_max(steps, maxabs, 1 + 2 * HALF_LIFE) == pytest.approx(0.125)
    assert scale(steps, maxabs, 1 + HALF_LIFE) == 0.5 and scale(steps, maxabs, 1 + 2 * HALF_LIFE) == 0.2
    # the steps after `at` do not count (a past step shows the scale it had)
    assert decayed_max(steps, maxabs[::-1], 5) == pytest.approx(0.004)


def test_steps_more_than_a_window_back_are_forgotten():
    steps = np.array([1, 2, WINDOW + 1, WINDOW + 2])
    maxabs = np.array([1000.0, 10.0, 0.001, 0.002])
    # at step WINDOW + 1, step 1 is WINDOW steps back: out; step 2 is in
    assert decayed_max(steps, maxabs, WINDOW + 1) == pytest.approx(10.0 * 2 ** (-(WINDOW - 1) / HALF_LIFE))
    assert decayed_max(steps, maxabs, WINDOW + 2) == pytest.approx(0.002)  # 1000 and 10 are out
    assert math.isnan(decayed_max(steps, maxabs, 0))


def test_a_table_row_takes_the_largest_finite_value_of_each_earlier_row():
    steps = np.array([3, 4, 5, 6])
    table = np.array([[0.1, -0.4], [np.nan, 0.02], [np.inf, -np.inf], [0.001, 0.003]])
    want = max(0.4 * 2 ** (-3 / HALF_LIFE), 0.02 * 2 ** (-2 / HALF_LIFE), 0.003)
    assert row_scale(steps, table, 3) == nice_ceil(want) == 0.5
    assert row_scale(steps, table[:, :0], 3) == 1.0  # nothing to scale by
    assert max_abs([np.nan, -3.0, np.inf]) == 3.0 and math.isnan(max_abs([np.nan]))


def test_a_stream_of_frames_follows_the_same_rule_and_forgets_the_future_when_it_goes_back():
    r = RunningScale()
    assert r.update("w", 0, [0.5, -0.1]) == 0.5
    assert r.update("w", 50, [0.004]) == nice_ceil(0.5 * 2 ** (-50 / HALF_LIFE)) == 0.5
    assert r.update("w", 400, [0.004]) == nice_ceil(max(0.5 * 2 ** (-4), 0.004 * 2 ** (-3.5))) == 0.05
    assert r.update("w", 400, [0.004]) == 0.05  # the same frame again changes nothing
    assert r.update("w", 30, [0.001]) == 0.5  # back before step 50: only step 0 came before
    assert r.update("g", 30, [0.001]) == 0.001  # each key its own
    r.reset()
    assert r.update("w", 31, [0.001]) == 0.001


def test_bar_labels():
    assert bar_labels(0.05) == ("−0.05", "+0.05") and bar_labels(200000.0) == ("−200000", "+200000")
    assert bar_labels(5e-05) == ("−5e-05", "+5e-05")

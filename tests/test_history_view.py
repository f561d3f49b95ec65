"""What the plots draw from the history: about two points per horizontal pixel at any length, each
pair the min and max of its group of steps."""

import numpy as np
import pytest

from gradviz.model.history import History
from gradviz.model.layout import Layout

NONE = Layout([], [])


def _history(n: int, seed: int = 0) -> tuple[History, np.ndarray]:
    """n steps of a noisy loss with one spike, and the float64 loss itself."""
    pl = Layout(["w"], [(2,)])
    h = History(pl, pl, NONE)
    rng = np.random.default_rng(seed)
    loss = np.exp(-np.arange(n) / (n / 4)) + 0.05 * rng.standard_normal(n)
    loss[n // 3] = 50.0
    for a in range(0, n, 10_000):
        s = np.arange(a + 1, min(a + 10_000, n) + 1)
        k = len(s)
        h.append(s, loss[a : a + k], np.zeros((k, 2)), np.zeros((k, 2)), np.zeros((k, 0)), np.ones(k))
    return h, loss.astype(np.float32).astype(np.float64)


@pytest.mark.parametrize("n", [5_000, 20_000, 100_000, 200_000, 1_000_000])
@pytest.mark.parametrize("pixels", [350, 900])
def test_a_plot_gets_two_points_per_pixel_at_any_length(n, pixels):
    h, _ = _history(n)
    x, y = h.view(max_points=2 * pixels)
    # a min and a max per pixel, within a 16th (a group's edges are whole blocks), plus the
    # partial groups at either end
    assert 2 * pixels * 15 / 16 <= len(x) <= 2 * pixels + 4, len(x)
    assert np.all(np.diff(x) >= 0)


@pytest.mark.parametrize("span", [3_000, 40_000, 100_000, 190_000])
def test_a_zoomed_plot_gets_two_points_per_pixel_too(span):
    h, _ = _history(200_000)
    x, _ = h.view(200_000 - span, 200_000, 700)
    assert 700 * 15 / 16 <= len(x) <= 704, len(x)


@pytest.mark.parametrize("n", [200_000, 1_000_000])
def test_every_pair_is_the_min_and_max_of_its_group_and_the_spike_survives(n):
    h, loss = _history(n)
    x, y = h.view(max_points=700)
    lv, edges = h.groups(max_points=700)
    rows = np.minimum(edges * (16 ** (lv + 1) if lv >= 0 else 1), n)  # each group's first step's row
    assert rows[0] == 0 and rows[-1] == n and np.all(np.diff(rows) > 0)  # the groups tile the run
    sizes = np.diff(rows)[:-1]  # (the last one may be short)
    assert sizes.max() <= 2 * sizes.min()  # near enough equal
    lo, hi = y[0::2, 0], y[1::2, 0]
    assert len(lo) == len(rows) - 1
    for a, b, c, r0, r1 in zip(lo, hi, x[0::2], rows[:-1], rows[1:]):
        chunk = loss[r0:r1]  # steps r0 + 1 .. r1
        assert a == pytest.approx(chunk.min(), rel=1e-6)
        assert b == pytest.approx(chunk.max(), rel=1e-6)
        assert c == (r0 + 1 + r1 + 1) / 2
    assert hi.max() == pytest.approx(50.0)


def test_the_groups_stay_put_while_the_view_scrolls():
    h, _ = _history(200_000)
    x_a, _ = h.view(50_000, 150_000, 700)
    x_b, _ = h.view(60_000, 160_000, 700)
    shared = np.intersect1d(x_a, x_b)
    assert len(shared) >= 0.8 * len(np.unique(x_a))


def test_a_zoomed_view_draws_its_range_at_the_same_density():
    h, loss = _history(200_000)
    x, y = h.view(50_000, 150_000, 700)
    assert 350 <= len(x) <= 704
    assert x[0] >= 49_000 and x[-1] <= 151_000
    x, y = h.view(100_000, 100_400, 700)  # few steps: every one of them
    np.testing.assert_allclose(y[:, 0], loss[99_999:100_401], rtol=1e-6)

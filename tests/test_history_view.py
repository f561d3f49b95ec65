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


@pytest.mark.parametrize("n", [5_000, 200_000, 1_000_000])
@pytest.mark.parametrize("pixels", [350, 900])
def test_a_plot_gets_about_two_points_per_pixel_at_any_length(n, pixels):
    h, _ = _history(n)
    x, y = h.view(max_points=2 * pixels)
    # between half and all of what was asked for (a group of at most 16 blocks of the finest
    # level fits), plus the partial groups at either end
    assert pixels <= len(x) <= 2 * pixels + 4, len(x)
    assert np.all(np.diff(x) >= 0)


def test_every_pair_is_the_min_and_max_of_its_group_and_the_spike_survives():
    n = 200_000
    h, loss = _history(n)
    x, y = h.view(max_points=700)
    lo, hi = y[0::2, 0], y[1::2, 0]
    centres = x[0::2]
    # groups are equal runs of steps: recover their edges from the centres and check each one
    width = centres[1] - centres[0]
    for c, a, b in zip(centres, lo, hi):
        first = int(round(c - width / 2))  # 1-based step
        last = min(first + int(round(width)) - 1, n)
        chunk = loss[first - 1 : last]
        assert a == pytest.approx(chunk.min(), rel=1e-6)
        assert b == pytest.approx(chunk.max(), rel=1e-6)
    assert hi.max() == pytest.approx(50.0)


def test_a_zoomed_view_draws_its_range_at_the_same_density():
    h, loss = _history(200_000)
    x, y = h.view(50_000, 150_000, 700)
    assert 350 <= len(x) <= 704
    assert x[0] >= 49_000 and x[-1] <= 151_000
    x, y = h.view(100_000, 100_400, 700)  # few steps: every one of them
    np.testing.assert_allclose(y[:, 0], loss[99_999:100_401], rtol=1e-6)

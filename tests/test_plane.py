"""The data view's plane (model/plane.py): its grid, which nodes are hidden, and the engine's
outputs over it (MindSpore's compiled gv_values), checked against a float64 numpy forward of
the moons network written here, now and at a past step's parameters."""

import numpy as np
import pytest

from gradviz.model import plane
from gradviz.model.presets import load_preset
from reference import moons_forward


def test_the_grid_runs_from_the_low_ends_row_by_row():
    spec = plane.PlaneSpec(-1.0, 3.0, 0.0, 2.0, resolution=5, coarse=3)
    pts = spec.points(5)
    assert pts.shape == (25, 2) and pts.dtype == np.float32
    assert tuple(pts[0]) == (-1.0, 0.0) and tuple(pts[4]) == (3.0, 0.0)  # row 0: the bottom
    assert tuple(pts[5]) == (-1.0, 0.5) and tuple(pts[24]) == (3.0, 2.0)
    assert plane.PlaneSpec(1.0, 0.0, 0.0, 1.0).problems() and plane.PlaneSpec(0, 1, 0, 1, resolution=1).problems()


def test_the_plane_covers_the_samples_with_a_margin_and_names_the_hidden_nodes():
    s = load_preset("moons")
    g = s.graph
    x = np.array([[0.0, -1.0], [2.0, 1.0]])
    b = plane.bounds(x)
    assert (b.x0, b.x1, b.y0, b.y1) == pytest.approx((-0.2, 2.2, -1.2, 1.2))
    shapes = g.check()
    assert plane.hidden_nodes(g, shapes) == ["fc1", "h1", "fc2", "h2"]
    assert plane.scores_of(g) == ("logits", "SoftmaxCrossEntropy")
    digits = load_preset("digits")
    from gradviz.model import datasets

    info = plane.plane_info(digits.graph, digits.graph.check(), datasets.prepare(digits.graph.data_spec()))
    assert info is None  # 64 features: no plane


@pytest.mark.real_engine
@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_the_engines_plane_is_numpys_forward_now_and_at_a_past_step(mode):
    from gradviz.engine.engine import Engine

    s = load_preset("moons")
    s.options.mode = mode
    e = Engine(s)
    for _ in range(5):
        e.step()
    past = e.current_params()  # the parameters after 5 updates (step 6's)
    for _ in range(30):
        e.step()
    now = e.current_params()
    info = plane.plane_info(e.session.graph, e.shapes, e.data)
    assert info["hidden"] == {"fc1": 8, "h1": 8, "fc2": 8, "h2": 8} and info["classes"] == 2
    spec = plane.PlaneSpec(*info["bounds"], resolution=100, coarse=24)
    # MindSpore's CPU tanh is off by up to 1e-4 near |x| = 5 (ops.tanh against np.tanh, measured
    # with mindspore 2.10): the hidden values agree to that, the probabilities to 5e-5
    for params, asked in ((now, None), (past, past)):
        out = e.plane(spec, asked)
        assert out.probs.shape == (100, 100, 2) and out.probs.dtype == np.float32
        want, hidden = moons_forward(spec.points(100).astype(np.float64), params)
        np.testing.assert_allclose(out.probs.reshape(-1, 2), want, rtol=0, atol=5e-5)
        _, hidden = moons_forward(spec.points(24).astype(np.float64), params)
        for name in ("fc1", "h1", "fc2", "h2"):
            assert out.hidden[name].shape == (24, 24, 8)
            np.testing.assert_allclose(out.hidden[name].reshape(-1, 8), hidden[name], rtol=1e-5, atol=2e-4)
    # the training state was left as it was: the parameters are still those after 35 updates
    assert e.updates == 35
    for k, v in e.current_params().items():
        np.testing.assert_array_equal(v, now[k])
    e.close()

"""The lessons' computations: the four variants and the gradient check, against independent
float64 numpy (tests/reference.py's hand-derived gradients) and through the command line."""

import json

import numpy as np
import pytest

from gradviz.cli import main
from gradviz.experiments import gradcheck, variants
from gradviz.model.graph import Graph, Node, initial_values
from gradviz.model.presets import load_preset
from gradviz.model.session import Options, Session
from reference import grads_for


def tutorial(**opts):
    s = load_preset("tutorial")
    for k, v in opts.items():
        setattr(s.options, k, v)
    return s


@pytest.mark.parametrize("api", ["grad", "value_and_grad", "cell"])
def test_variants_of_the_tutorial(api):
    found = {v.name: v for v in variants.compute(tutorial(api=api))}
    assert list(found) == ["loss", "return_z", "stop_gradient", "has_aux"]
    _, plain, _ = grads_for(tutorial())
    _, with_z, _ = grads_for(tutorial(aux_output=True))
    for name, ref in (("loss", plain), ("return_z", with_z), ("stop_gradient", plain), ("has_aux", plain)):
        for p in ("w", "b"):
            np.testing.assert_allclose(found[name].grads[p], ref[p], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(found["return_z"].grads["b"], found["loss"].grads["b"] + 1, rtol=1e-6)
    if api == "grad":
        assert found["has_aux"].call == "mindspore.grad(function, (2, 3), has_aux=True)"
        assert found["has_aux"].returns == "((dw, db), (z,))" and found["return_z"].returns == "(dw, db)"
    else:
        assert found["return_z"].returns == "((loss, z), (dw, db))"
    assert found["stop_gradient"].function_returns == "return loss, ops.stop_gradient(z)"
    assert found["return_z"].differentiated == "loss + sum(z)" and found["has_aux"].differentiated == "loss"


def test_variants_command_json(capsys):
    assert main(["variants", "--preset", "tutorial", "--seed", "7", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    names = [v["name"] for v in out["variants"]]
    assert names == ["loss", "return_z", "stop_gradient", "has_aux"]
    assert set(out["variants"][0]) == {"name", "call", "returns", "grads"}
    s = tutorial(seed=7, aux_output=True)
    _, g, _ = grads_for(s)
    np.testing.assert_allclose(out["variants"][1]["grads"]["b"], g["b"], rtol=1e-5)
    assert np.shape(out["variants"][1]["grads"]["w"]) == (5, 3)


def test_variants_need_a_second_output(capsys):
    assert main(["variants", "--preset", "linreg"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gradviz variants: error: ") and "only one Output" in err and err.count("\n") == 1


def test_finite_differences_match_the_hand_derived_gradients():
    for opts in (
        {},
        {"aux_output": True},
        {"aux_output": True, "stop_gradient": True},
        {"aux_output": True, "has_aux": True},
    ):
        s = tutorial(**opts)
        params = {k: v for k, v in initial_values(s.graph, 42).items() if k in ("w", "b")}
        num = gradcheck.finite_differences(s, params, ["w", "b"])
        _, ref, _ = grads_for(s)
        for p in ("w", "b"):
            np.testing.assert_allclose(num[p], ref[p], rtol=1e-7, atol=1e-9)


def test_a_stop_gradient_node_is_held_in_the_differences():
    """L = sum(w * stop_gradient(w)): autodiff gives w (the second factor is a constant); the
    differences of the function with the node held give the same, not 2w."""
    nodes = [
        Node("w", "Parameter", shape=(3,), init="randn"),
        Node("c", "StopGradient", inputs={"x": "w"}),
        Node("m", "Mul", inputs={"a": "w", "b": "c"}),
        Node("L", "Sum", inputs={"x": "m"}),
        Node("out", "Output", inputs={"x": "L"}),
    ]
    s = Session(Graph(nodes), Options(api="grad"))
    result = gradcheck.run(s)
    assert result.ok
    w = initial_values(s.graph, 42)["w"].astype(np.float64)
    np.testing.assert_allclose(result.params["w"].numeric, w, rtol=1e-7)


@pytest.mark.parametrize("preset,opts", [("tutorial", {"aux_output": True}), ("mlp", {}), ("linreg", {"api": "cell"})])
def test_gradcheck_command_agrees(preset, opts, capsys):
    args = (
        ["gradcheck", "--preset", preset, "--json"]
        + (["--aux-output"] if opts.get("aux_output") else [])
        + (["--api", opts["api"]] if "api" in opts else [])
    )
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is True and out["eps"] == gradcheck.EPS and out["tolerance"] == gradcheck.TOLERANCE
    assert all(p["max_rel_error"] <= gradcheck.TOLERANCE for p in out["params"].values())


def test_gradcheck_exits_1_when_an_element_disagrees(monkeypatch, capsys):
    monkeypatch.setattr(gradcheck, "TOLERANCE", 1e-15)  # float32 against float64 cannot meet this
    assert main(["gradcheck", "--preset", "tutorial"]) == 1
    assert "DISAGREES" in capsys.readouterr().out


def test_a_wrong_gradient_is_caught():
    s = tutorial(aux_output=True)
    params = {k: v for k, v in initial_values(s.graph, 42).items() if k in ("w", "b")}
    _, ref, _ = grads_for(s)
    wrong = {"w": ref["w"].astype(np.float32), "b": (ref["b"] - 1).astype(np.float32)}  # the +1 forgotten
    result = gradcheck.check(s, wrong, params)
    assert result.params["w"].ok and not result.params["b"].ok and not result.ok
    np.testing.assert_allclose(result.params["b"].abs_error, 1.0, rtol=1e-6)


def test_landscape_over_two_elements_is_the_loss_there():
    from gradviz.experiments import landscape
    from gradviz.model.layout import Layout
    from reference import forward

    s = tutorial()
    init = initial_values(s.graph, 42)
    lay = Layout(["w", "b"], [(5, 3), (3,)])
    center = lay.flatten({"w": init["w"], "b": init["b"]}).astype(np.float64)
    plane = landscape.element_plane(lay, center, 0, 15)  # w[0,0] and b[0]
    assert plane.labels == ("w[0,0]", "b[0]")
    alphas, betas = np.linspace(-1, 1, 5), np.linspace(-2, 2, 3)
    z = landscape.surface(s, plane, alphas, betas)
    assert z.shape == (3, 5)
    for r, b in enumerate(betas):
        for c, a in enumerate(alphas):
            vals = {k: np.array(v, np.float64) for k, v in init.items()}
            vals["w"][0, 0] += a
            vals["b"][0] += b
            assert z[r, c] == pytest.approx(float(forward(s.graph, vals)["loss"]), rel=1e-12)


def test_filter_normalised_directions_and_projection():
    from gradviz.experiments import landscape
    from gradviz.model.layout import Layout

    lay = Layout(["w", "b"], [(5, 3), (3,)])
    rng = np.random.default_rng(3)
    center = rng.standard_normal(lay.total)
    plane = landscape.filter_normalised(lay, center, seed=1)
    p, u = lay.unflatten(center), lay.unflatten(plane.u)
    np.testing.assert_allclose(np.linalg.norm(u["w"], axis=0), np.linalg.norm(p["w"], axis=0), rtol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(u["b"]), np.linalg.norm(p["b"]), rtol=1e-12)
    pts = np.stack([center + 0.3 * plane.u - 0.2 * plane.v, center])
    np.testing.assert_allclose(plane.project(pts), [[0.3, -0.2], [0.0, 0.0]], atol=1e-12)


def test_landscape_can_be_cancelled_and_reports_progress():
    from gradviz.experiments import landscape
    from gradviz.model.layout import Layout

    s = tutorial()
    lay = Layout(["w", "b"], [(5, 3), (3,)])
    init = initial_values(s.graph, 42)
    plane = landscape.filter_normalised(lay, lay.flatten({"w": init["w"], "b": init["b"]}), seed=0)
    seen = []
    with pytest.raises(InterruptedError):
        landscape.surface(
            s,
            plane,
            np.linspace(-1, 1, 4),
            np.linspace(-1, 1, 4),
            progress=seen.append,
            cancelled=lambda: len(seen) >= 2,
        )
    assert seen == [0.25, 0.5]


def test_mode_cost_compares_the_two_modes():
    from gradviz.experiments import modecost

    m = modecost.measure(tutorial(aux_output=True, optimizer="adam", lr=0.05), steps=20)
    assert m.steps == 20 and m.pynative_ms > 0 and m.graph_ms > 0 and m.graph_compile_s > 0
    assert m.max_rel_difference < 1e-5  # the same numbers, up to float32 rounding

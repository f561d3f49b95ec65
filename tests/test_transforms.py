"""MindSpore's other transforms (experiments/transforms.py): grad of grad and the Hessian, the
Jacobian by jacrev and jacfwd with the chain rule, vjp and jvp; each against float64 numpy written
here (the tutorial's derivatives by hand, the MLP's by central differences of its own numpy), and
the bad input (an element outside the shape, too large a transform, ReLU at its kink)."""

import json

import numpy as np
import pytest

from gradviz.cli import main
from gradviz.experiments import transforms
from gradviz.model.graph import Graph, Node, initial_values
from gradviz.model.presets import load_preset
from gradviz.model.session import Options, Session


def tutorial(**opts):
    s = load_preset("tutorial")
    for k, v in opts.items():
        setattr(s.options, k, v)
    return s


def sigmoid(z):
    return 1 / (1 + np.exp(-z))


def tutorial_values(s):
    v = {k: np.asarray(a, np.float64) for k, a in initial_values(s.graph, s.options.seed).items()}
    return v["x"], v["y"], v["w"], v["b"]


# -- the tutorial, by hand: z = x·w + b, loss = mean BCE(z, y); L adds sum(z) with z returned ---------
@pytest.mark.parametrize(
    "opts, z_in_L",
    [
        ({}, False),
        ({"aux_output": True}, True),
        ({"aux_output": True, "stop_gradient": True}, False),
        ({"aux_output": True, "has_aux": True}, False),
        ({"aux_output": True, "mode": "graph"}, True),
    ],
    ids=["loss", "return_z", "stop_gradient", "has_aux", "graph_mode"],
)
def test_the_jacobian_of_z_both_ways_and_the_chain_rule(opts, z_in_L):
    s = tutorial(**opts)
    x, y, w, b = tutorial_values(s)
    r = transforms.jacobian(s, "z", "w")
    # ∂z_j/∂w_ik = x_i δ_jk, a (3, 15) matrix over w flattened row by row
    J = np.zeros((3, 5, 3))
    for j in range(3):
        J[j, :, j] = x
    J = J.reshape(3, 15)
    assert not r.sampled and r.error == ""
    np.testing.assert_allclose(r.jacrev, J, atol=1e-6)
    np.testing.assert_allclose(r.jacfwd, J, atol=1e-6)
    np.testing.assert_allclose(r.reference, J, atol=1e-8)
    z = x @ w + b
    upstream = (sigmoid(z) - y) / 3 + (1.0 if z_in_L else 0.0)
    np.testing.assert_allclose(r.upstream, upstream, rtol=1e-5)
    np.testing.assert_allclose(r.chain, J.T @ upstream, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(r.grad, J.T @ upstream, rtol=1e-5, atol=1e-6)
    assert r.all_paths and r.ok
    assert "jacrev is cheaper: 3 passes instead of 15" in r.cheaper()


def test_the_hessian_of_the_tutorial_is_marked_where_mindspore_has_no_second_derivative():
    """MindSpore has no second derivative of binary_cross_entropy_with_logits: its Hessian is
    marked as disagreeing, with the reason, while the reference is the one by hand."""
    s = tutorial()
    x, _, w, b = tutorial_values(s)
    r = transforms.higher_order(s, "w", 4)
    z = x @ w + b
    d = sigmoid(z) * (1 - sigmoid(z)) / 3  # ∂²loss/∂z_j²
    H = np.einsum("i,k,jl,j->ijkl", x, x, np.eye(3), d).reshape(15, 15)
    np.testing.assert_allclose(r.hessian_ref, H, rtol=1e-5, atol=1e-9)
    assert r.second_ref == pytest.approx(H[4, 4], rel=1e-5)
    assert r.label == "w[1,1]"
    assert not r.ok and r.note()
    assert json.loads(json.dumps(r.to_json()))["note"] == str(r.note())


# -- the MLP: tanh and cross_entropy, which MindSpore differentiates twice -------------------------
def mlp_loss(v, w2):
    h = np.tanh(v["x"] @ v["w1"] + v["b1"])
    logits = h @ w2 + v["b2"]
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    return float(-np.mean(np.sum(v["y"] * np.log(p), axis=1)))


@pytest.fixture(scope="module")
def mlp():
    s = load_preset("mlp")
    v = {k: np.asarray(a, np.float64) for k, a in initial_values(s.graph, s.options.seed).items()}
    return s, v


def test_the_hessian_and_grad_of_grad_of_the_mlp(mlp):
    s, v = mlp
    r = transforms.higher_order(s, "w2", 5)
    w2 = v["w2"]
    h = 1e-4
    n = w2.size
    H = np.empty((n, n))
    for i in range(n):  # second-order central differences of L itself
        for j in range(n):
            d = np.zeros(n)
            d[i] += h
            e = np.zeros(n)
            e[j] += h
            f = [
                mlp_loss(v, (w2.reshape(-1) + sa * d + sb * e).reshape(w2.shape))
                for sa, sb in ((1, 1), (1, -1), (-1, 1), (-1, -1))
            ]
            H[i, j] = (f[0] - f[1] - f[2] + f[3]) / (4 * h * h)
    assert r.error == "" and r.ok
    np.testing.assert_allclose(r.hessian, H, atol=2e-5)
    np.testing.assert_allclose(r.hessian, r.hessian.T, atol=1e-6)
    assert r.second == pytest.approx(H[5, 5], abs=2e-5)
    assert r.calls[1] == "mindspore.jacfwd(mindspore.grad(L))(w2)"


def test_vjp_and_jvp_with_chosen_vectors_and_grad_as_the_vjp_with_one(mlp):
    s, v = mlp
    rows = v["x"].shape[0]  # the first mini-batch the Dataset node feeds
    vec = np.linspace(-1, 1, 2 * rows)
    r = transforms.products(s, "logits", "b2", v=vec, u=(2.0, -1.0))
    # logits = h·w2 + b2: ∂logits/∂b2 adds b2 to every row, so Jᵀv sums v's columns and Ju repeats u
    np.testing.assert_allclose(r.vjp, vec.reshape(rows, 2).sum(axis=0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(r.jvp, np.tile([2.0, -1.0], (rows, 1)), atol=1e-6)
    h = 1e-6
    fd = [
        (mlp_loss({**v, "b2": v["b2"] + h * e}, v["w2"]) - mlp_loss({**v, "b2": v["b2"] - h * e}, v["w2"])) / (2 * h)
        for e in np.eye(2)
    ]
    np.testing.assert_allclose(r.grad, fd, atol=1e-6)
    np.testing.assert_array_equal(r.grad_vjp, r.grad)
    assert r.ok


# -- bad input ---------------------------------------------------------------------------------
def test_an_element_outside_the_shape_and_unknown_names_are_said():
    s = tutorial()
    with pytest.raises(
        transforms.TransformError, match=r"element 15 is outside w's shape \(5, 3\) \(15 elements: 0 to 14\)"
    ):
        transforms.higher_order(s, "w", 15)
    with pytest.raises(transforms.TransformError, match="no node nope"):
        transforms.jacobian(s, "nope", "w")
    with pytest.raises(transforms.TransformError, match="x is not a Parameter of the graph; the Parameters are w, b"):
        transforms.products(s, "z", "x")
    with pytest.raises(transforms.TransformError, match="v must have z's 3 elements"):
        transforms.products(s, "z", "w", v=(1.0, 2.0))


def test_too_large_a_transform_says_how_large_and_the_sample_is_computed():
    s = load_preset("big")
    with pytest.raises(
        transforms.TransformError,
        match=r"w has 1000000 elements: its Hessian would be .*1,000,000,000,000 numbers.*sample",
    ):
        transforms.higher_order(s, "w")
    with pytest.raises(
        transforms.TransformError,
        match=r"Jacobian of z \(1000 elements\) with respect to w \(1000000 elements\) has 1,000,000,000 numbers",
    ):
        transforms.jacobian(s, "z", "w")
    s = load_preset("moons")
    s.graph["data"].attrs["batch_size"] = 32  # fc2's first mini-batch: 32 x 8 = 256 elements
    with pytest.raises(transforms.TransformError, match=r"fc2 \(256 elements\).*fc2_weight \(64 elements\) has 16,384"):
        transforms.jacobian(s, "fc2", "fc2_weight")
    r = transforms.jacobian(s, "fc2", "fc2_weight", sample=5)
    assert r.sampled and r.jacrev.shape == (5, 5) and r.ok
    np.testing.assert_allclose(r.jacrev, r.jacfwd, atol=1e-6)
    # fc2 = h1 · weightᵀ + bias: ∂fc2[s, o]/∂weight[o', i] = h1[s, i] δ(o, o'), in float64 here
    v = {k: np.asarray(a, np.float64) for k, a in initial_values(s.graph, s.options.seed).items()}
    assert v["x"].shape == (32, 2)
    h1 = np.tanh(v["x"] @ v["fc1_weight"].T + v["fc1_bias"])
    J = np.einsum("si,op->sopi", h1, np.eye(8)).reshape(256, 64)
    np.testing.assert_allclose(r.reference, J[np.ix_(r.rows, r.cols)], atol=1e-6)


def test_relu_exactly_at_zero_is_marked():
    nodes = [
        Node("w", "Parameter", shape=(3,), init="zeros"),
        Node("r", "ReLU", inputs={"x": "w"}),
        Node("L", "Sum", inputs={"x": "r"}),
        Node("out", "Output", inputs={"x": "L"}),
    ]
    s = Session(Graph(nodes), Options(api="grad"))
    r = transforms.jacobian(s, "r", "w")
    assert [(k.node, k.count) for k in r.kinks] == [("r", 3)]
    assert "exactly 0" in r.kinks[0].text
    # at the kink MindSpore takes a side (slope 0), central differences straddle it (0.5)
    np.testing.assert_allclose(r.reference, 0.5 * np.eye(3))
    assert not r.ok


def test_the_command_line(capsys):
    assert main(["transform", "jacobian", "--preset", "tutorial", "--aux-output", "--param", "b", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["ok"] and d["node"] == "z" and d["jacrev"] == np.eye(3).tolist()
    assert d["chain"] == pytest.approx(d["grad"]) and d["grad"][0] == pytest.approx(1.326, abs=1e-3)
    assert main(["transform", "hessian", "--preset", "tutorial", "--param", "w", "--element", "15"]) == 2
    assert "element 15 is outside w's shape (5, 3)" in capsys.readouterr().err
    assert main(["transform", "vjp", "--preset", "tutorial", "--sample", "3"]) == 2
    assert "--sample is for hessian and jacobian" in capsys.readouterr().err

"""Layers in the op table: Dense (with its own weight and bias), Flatten and Softmax, checked
against float64 numpy written here, through the graph, the numpy reference, MindSpore and export."""

import math

import numpy as np
import pytest

from gradviz.model import numeric
from gradviz.model import scripts as export
from gradviz.model.codegen import generate
from gradviz.model.graph import Graph, Node, initial_values
from gradviz.model.session import Options, Session, SessionError, load_session, save_session

X = np.random.RandomState(7).randn(6, 4)
LABELS = np.array([0, 2, 1, 2, 0, 1])
T = np.eye(3)[LABELS]


def _mlp(**dense2) -> Session:
    """x (6, 4) -> Flatten -> Dense(4, 5) -> Tanh -> Dense(5, 3) -> SoftmaxCrossEntropy."""
    nodes = [
        Node("x", "Input", shape=(6, 4), init="values", values=X.tolist()),
        Node("t", "Input", shape=(6, 3), init="values", values=T.tolist()),
        Node("flat", "Flatten", {"x": "x"}),
        Node("fc1", "Dense", {"x": "flat"}, attrs={"in_channels": 4, "out_channels": 5, "bias_init": "uniform"}),
        Node("h", "Tanh", {"x": "fc1"}),
        Node("fc2", "Dense", {"x": "h"}, attrs={"in_channels": 5, "out_channels": 3, **dense2}),
        Node("ce", "SoftmaxCrossEntropy", {"logits": "fc2", "target": "t"}),
        Node("p", "Softmax", {"x": "fc2"}),
        Node("loss", "Output", {"x": "ce"}),
    ]
    return Session(Graph(nodes), Options(lr=0.1, steps=3, seed=3))


def _reference_init(seed):
    """The initial values drawn here as MindSpore's initializers of those names define them, in
    graph order: fc1's he_uniform weight and uniform(0.07) bias, fc2's he_uniform weight."""
    rng = np.random.RandomState(seed)
    w1 = rng.uniform(-math.sqrt(6 / 4), math.sqrt(6 / 4), (5, 4))
    b1 = rng.uniform(-0.07, 0.07, (5,))
    w2 = rng.uniform(-math.sqrt(6 / 5), math.sqrt(6 / 5), (3, 5))
    return {"fc1_weight": w1, "fc1_bias": b1, "fc2_weight": w2, "fc2_bias": np.zeros(3)}


def _reference_loss_and_grads(p):
    h = np.tanh(X @ p["fc1_weight"].T + p["fc1_bias"])
    z = h @ p["fc2_weight"].T + p["fc2_bias"]
    z = z - z.max(axis=1, keepdims=True)
    prob = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    loss = -np.mean(np.log(prob[np.arange(6), LABELS]))
    dz = (prob - T) / 6
    dh = dz @ p["fc2_weight"]
    da = dh * (1 - h * h)
    grads = {"fc2_weight": dz.T @ h, "fc2_bias": dz.sum(0), "fc1_weight": da.T @ X, "fc1_bias": da.sum(0)}
    return loss, grads


def test_a_dense_node_holds_its_weight_and_bias_as_parameters():
    s = _mlp()
    g = s.graph
    shapes = g.check()
    assert [p.name for p in g.parameters()] == ["fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias"]
    assert shapes["fc1_weight"] == (5, 4) and shapes["fc1_bias"] == (5,) and shapes["fc2"] == (6, 3)
    init = initial_values(g, 3)
    for name, v in _reference_init(3).items():
        np.testing.assert_allclose(init[name], v.astype(np.float32), rtol=0, atol=0)
    src = generate(g, s.options).source
    assert "fc1 = ops.dense(flat, fc1_weight, fc1_bias)" in src
    assert "flat = ops.flatten(x)" in src and "p = ops.softmax(fc2, axis=-1)" in src


def test_the_numpy_reference_of_a_dense_network_matches_numpy():
    s = _mlp()
    loss, values, grads = numeric.evaluate(s)
    ref = _reference_init(3)
    ref_loss, ref_grads = _reference_loss_and_grads(ref)
    assert loss == pytest.approx(ref_loss, rel=1e-6)
    for name, g in ref_grads.items():
        np.testing.assert_allclose(grads[name], g, rtol=1e-5, atol=1e-6)
    z = values["fc2"]
    np.testing.assert_allclose(values["p"], np.exp(z) / np.exp(z).sum(1, keepdims=True), rtol=1e-12)


@pytest.mark.real_engine
@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_a_dense_network_trains_in_mindspore_like_numpy(mode):
    from gradviz.engine.engine import Engine

    s = _mlp()
    s.options.mode = mode
    e = Engine(s)
    p = {k: v.astype(np.float32).astype(np.float64) for k, v in _reference_init(3).items()}
    for _ in range(3):
        loss, grads = _reference_loss_and_grads(p)
        assert e.step().loss == pytest.approx(loss, rel=1e-5)
        p = {k: v - 0.1 * grads[k] for k, v in p.items()}


def _course_mlp() -> Session:
    """_mlp with the Softmax computed before the loss, through the Cell API: the course's Network
    of layers (an nn.SequentialCell of named nn.Dense and nn.Tanh) runs, not `function`."""
    s = _mlp()
    names = [n.name for n in s.graph.nodes]
    i, j = names.index("ce"), names.index("p")
    s.graph.nodes[i], s.graph.nodes[j] = s.graph.nodes[j], s.graph.nodes[i]
    s.options.api = "cell"
    return s


@pytest.mark.real_engine
@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_the_cell_apis_network_of_layers_trains_like_numpy(mode):
    from gradviz.engine.engine import Engine

    s = _course_mlp()
    s.options.mode = mode
    src = generate(s.graph, s.options).source
    assert "self.dense_tanh_sequential = nn.SequentialCell(" in src and "def function(" not in src
    e = Engine(s)
    try:
        p = {k: v.astype(np.float32).astype(np.float64) for k, v in _reference_init(3).items()}
        for _ in range(3):
            loss, grads = _reference_loss_and_grads(p)
            r = e.step()
            assert r.loss == pytest.approx(loss, rel=1e-5)
            got = e.grad_layout.unflatten(r.grads)
            for k, g in grads.items():
                np.testing.assert_allclose(got[k].reshape(g.shape), g, rtol=1e-4, atol=1e-6, err_msg=k)
            p = {k: v - 0.1 * grads[k] for k, v in p.items()}
    finally:
        e.close()


def test_the_cell_api_writes_the_courses_network_and_the_functional_ops_dense():
    """The Cell API's program and script build the layers in __init__ (nn.Flatten on its own, an
    nn.SequentialCell of nn.Dense with MindSpore's weight_init/bias_init and activations) and call
    them in construct; the functional form writes ops.dense."""
    s = _course_mlp()
    prog, script = generate(s.graph, s.options).source, export.mindspore_script(s)
    for text in (prog, script):
        assert "        self.flatten = nn.Flatten()\n        self.dense_tanh_sequential = nn.SequentialCell(" in text
        assert '("h", nn.Tanh()),' in text and "        self.softmax = nn.Softmax()\n" in text
        assert "        flat = self.flatten(x)\n        fc2 = self.dense_tanh_sequential(flat)\n" in text
        assert "def forward_fn(x, t):\n    fc2 = network(x)\n    ce = ops.cross_entropy(fc2, t)\n" in text
    # the program: MindSpore's initializer names, then GradViz's Parameters (the engine's) in the layers
    assert "(\"fc1\", nn.Dense(4, 5, weight_init='he_uniform', bias_init='uniform'))," in prog
    assert "        self.dense_tanh_sequential.fc1.weight = fc1_weight\n" in prog
    # the script: each layer starts from the values drawn above it, as GradViz draws them
    assert '("fc1", nn.Dense(4, 5, weight_init=fc1_weight, bias_init=fc1_bias)),' in script
    assert "fc1_weight = Tensor(np.random.uniform(" in script
    s.options.api = "value_and_grad"
    assert "    fc1 = ops.dense(flat, fc1_weight, fc1_bias)\n" in export.mindspore_script(s)


def test_the_exported_scripts_draw_and_call_the_layers():
    s = _mlp(weight_init="xavier_uniform")
    ms = export.mindspore_script(s)
    pt = export.pytorch_script(s)
    bound = math.sqrt(6 / 8)
    assert f"fc2_weight = Parameter(Tensor(np.random.uniform({-bound!r}, {bound!r}, (3, 5))" in ms
    assert "fc1 = ops.dense(flat, fc1_weight, fc1_bias)" in ms
    assert "fc1 = torch.nn.functional.linear(flat, fc1_weight, fc1_bias)" in pt
    assert "flat = torch.flatten(x, 1)" in pt and "p = torch.softmax(fc2, dim=-1)" in pt
    # the scripts' draws are numpy's global RandomState in graph order: the app's values
    np.random.seed(3)
    ns = {"np": np}
    for line in pt.splitlines():
        if line.startswith(("fc1_", "fc2_")):
            name, expr = line.split(" = ", 1)
            ns[name] = eval(expr.split("torch.tensor(")[1].rsplit(", dtype", 1)[0], ns)
    init = initial_values(s.graph, 3)
    for name in ("fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias"):
        np.testing.assert_array_equal(np.float32(ns[name]), init[name])


def test_a_dense_whose_in_size_does_not_match_its_input_names_the_node_and_field():
    s = _mlp()
    s.graph["fc2"].attrs["in_channels"] = 6
    problems = [p for p in s.graph.validate() if p.node == "fc2"]
    assert [str(p) for p in problems] == [
        'Dense "fc2": h has shape (6, 5); Dense needs (samples, in_channels) or (in_channels,) with in_channels 6'
    ]


def test_dense_attributes_round_trip_and_bad_ones_are_named(tmp_path):
    s = _mlp(weight_init="normal")
    path = tmp_path / "net.json"
    save_session(s, path)
    back = load_session(path)
    assert back.graph["fc2"].attrs["weight_init"] == "normal" and back.graph["fc1"].attrs["out_channels"] == 5
    text = path.read_text().replace('"normal"', '"gaussian"')
    path.write_text(text)
    with pytest.raises(SessionError) as e:
        load_session(path)
    assert "fc2" in str(e.value) and "weight_init must be one of he_uniform" in str(e.value)


def test_a_parameter_name_taken_by_another_node_is_refused():
    s = _mlp()
    s.graph.nodes.append(Node("fc1_bias", "Input", shape=(5,)))
    msgs = [str(p) for p in s.graph.validate() if p.node == "fc1"]
    assert msgs == ['Dense "fc1": its parameter "fc1_bias" has the name of another node']


def test_the_node_tab_edits_a_dense_nodes_sizes_and_initializers(qtbot):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QComboBox, QDoubleSpinBox

    from gradviz.ui.document import SessionDocument
    from gradviz.ui.inspector import Inspector

    doc = SessionDocument(_mlp())
    insp = Inspector(doc)
    qtbot.addWidget(insp)
    insp.show_node("fc1")
    init = insp.findChild(QComboBox, "inspectorAttr_weight_init")
    size = insp.findChild(QDoubleSpinBox, "inspectorAttr_out_channels")
    assert init.currentText() == "he_uniform" and size.value() == 5 and size.decimals() == 0
    init.setCurrentText("xavier_uniform")
    qtbot.mouseClick(insp.applyButton, Qt.MouseButton.LeftButton)
    assert doc.graph["fc1"].attrs["weight_init"] == "xavier_uniform" and doc.graph["fc1"].attrs["out_channels"] == 5
    doc.undo()
    from gradviz.model.ops import OPS

    assert OPS["Dense"].attr_values(doc.graph["fc1"].attrs)["weight_init"] == "he_uniform"
    assert init.currentText() == "he_uniform"


def test_the_moons_preset_is_moons_through_three_layers_and_its_first_loss_is_numpys():
    from sklearn.datasets import make_moons

    from gradviz.model.presets import load_preset

    s = load_preset("moons")
    g = s.graph
    assert [n.name for n in g.nodes if n.kind == "Dense"] == ["fc1", "fc2", "logits"]
    assert not [n for n in g.nodes if n.kind == "Parameter"]  # the layers hold every Parameter
    # the first mini-batch: the documented split and epoch 1's order of make_moons(400, 0.1, 0)
    x, labels = make_moons(n_samples=400, noise=0.1, random_state=0)
    train = np.random.RandomState(0).permutation(400)[:320]
    first = train[np.random.RandomState(1).permutation(320)[:16]]
    xs, labels = x[first], labels[first]
    # the initial loss, from the layers' draws in graph order (he_uniform weights, zero biases)
    rng = np.random.RandomState(s.options.seed)
    h = xs.astype(np.float32).astype(np.float64)
    for fan_in, fan_out, act in ((2, 8, np.tanh), (8, 8, np.tanh), (8, 2, None)):
        w = rng.uniform(-math.sqrt(6 / fan_in), math.sqrt(6 / fan_in), (fan_out, fan_in)).astype(np.float32)
        h = h @ w.T
        h = act(h) if act else h
    z = h - h.max(1, keepdims=True)
    loss = -np.mean(z[np.arange(16), labels] - np.log(np.exp(z).sum(1)))
    assert numeric.evaluate(s)[0] == pytest.approx(loss, rel=1e-6)


@pytest.mark.real_engine
def test_a_dense_nodes_parameters_are_rewound_and_trained_on_alike():
    from gradviz.engine.engine import Engine

    s = _mlp()
    s.options.optimizer = "adam"
    e = Engine(s)
    losses = [e.step().loss for _ in range(4)]
    e.rewind(1)
    np.testing.assert_allclose([e.step().loss for _ in range(3)], losses[1:], rtol=1e-6)


def test_the_call_view_names_forward_fn_over_the_network_of_layers(qtbot):
    from gradviz.ui.call_view import call_lines

    s = _course_mlp()
    assert call_lines(s.graph, s.options)[0] == "def forward_fn(...): return ce"
    s.options.api = "value_and_grad"
    assert call_lines(s.graph, s.options)[0] == "def function(...): return ce"

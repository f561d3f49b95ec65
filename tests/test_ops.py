"""The op table: each kind's float64 backward against central differences of its forward, the
table's own import check, and the MLP preset trained by MindSpore against numpy."""

import dataclasses

import numpy as np
import pytest

from gradviz.engine.engine import Engine
from gradviz.engine.run_end import finish_step
from gradviz.model import numeric
from gradviz.model.graph import initial_values
from gradviz.model.ops import OPS, TABLE, _check_table
from gradviz.model.presets import load_preset, preset_names

COMPUTING = [k for k in TABLE if k.computes]
SHAPES = {
    "MatMul": [((3,), (3, 2)), ((2, 3), (3, 4)), ((2, 3), (3,)), ((3,), (3,))],
    # a kind's own Parameters follow its ports (Dense's defaults: 2 in, 2 out)
    "Dense": [((4, 2), (2, 2), (2,)), ((2,), (2, 2), (2,))],
    "Flatten": [((2, 3),)],
}


def _inputs(kind, shapes, rng):
    xs = [rng.standard_normal(s) for s in shapes]
    if kind == "Log":
        xs = [np.abs(x) + 0.5 for x in xs]
    if kind in ("BCEWithLogits", "SoftmaxCrossEntropy"):
        xs[1] = rng.uniform(0.1, 0.9, shapes[1])
    if kind in ("ReLU", "LeakyReLU"):
        xs = [x + np.sign(x) * 0.1 for x in xs]  # away from the kink
    return xs


def _cases():
    for k in COMPUTING:
        n = len(k.ports) + len(k.params)
        for shapes in SHAPES.get(k.name, [((3,),) * n, ((2, 3),) * n]):
            yield pytest.param(k.name, shapes, id=f"{k.name}-{'x'.join(map(str, shapes))}")
    yield pytest.param("Add", ((2, 3), (3,)), id="Add-broadcast")
    yield pytest.param("Mul", ((2, 3), (1, 3)), id="Mul-broadcast")


@pytest.mark.parametrize("kind,shapes", list(_cases()))
def test_backward_is_the_derivative_of_forward(kind, shapes):
    """Central differences in float64 of sum(forward * r) for a random r, port by port."""
    k = OPS[kind]
    rng = np.random.default_rng(0)
    xs = _inputs(kind, shapes, rng)
    at = k.attr_values()  # the defaults
    out = np.asarray(k.forward(*xs, **at), np.float64)
    r = rng.standard_normal(out.shape)
    grads = k.backward(r, *xs, out, **at)
    assert len(grads) == len(k.ports) + len(k.params)
    h = 1e-6
    for i, x in enumerate(xs):
        num = np.zeros_like(x)
        for idx in np.ndindex(x.shape):
            xp = [a.copy() for a in xs]
            xm = [a.copy() for a in xs]
            xp[i][idx] += h
            xm[i][idx] -= h
            num[idx] = (np.sum(k.forward(*xp, **at) * r) - np.sum(k.forward(*xm, **at) * r)) / (2 * h)
        expected = np.zeros_like(num) if k.blocks_gradient else num
        np.testing.assert_allclose(
            np.asarray(grads[i]).reshape(x.shape), expected, rtol=1e-6, atol=1e-7, err_msg=f"{kind} input {i}"
        )


def test_shape_rules_agree_with_numpy():
    rng = np.random.default_rng(1)
    for name, shapes in [(c.values[0], c.values[1]) for c in _cases()]:
        k = OPS[name]
        ins = [(p, s) for p, s in zip(k.ports, shapes)]
        shape, msg = k.shape(ins, **k.attr_values()) if k.params else k.shape(ins)
        assert msg is None
        assert shape == np.shape(k.forward(*_inputs(name, shapes, rng), **k.attr_values()))


def test_an_entry_with_a_missing_piece_is_refused_at_import():
    broken = dataclasses.replace(OPS["Tanh"], name="Tanh2", pytorch=None)
    with pytest.raises(TypeError, match="op kind 'Tanh2' is missing: pytorch"):
        _check_table((*TABLE, broken))
    bad_port = dataclasses.replace(OPS["Neg"], name="Neg2", mindspore="ops.neg({y})")
    with pytest.raises(TypeError, match="names an unknown port"):
        _check_table((*TABLE, bad_port))
    with pytest.raises(TypeError, match="defined twice"):
        _check_table((*TABLE, OPS["Add"]))
    no_derivative = dataclasses.replace(OPS["Add"], name="Add2", derivatives=(OPS["Add"].derivatives[0],))
    with pytest.raises(TypeError, match="one local-derivative text per port"):
        _check_table((*TABLE, no_derivative))


def test_every_kind_with_ports_says_each_ports_local_derivative_translatably():
    from gradviz.i18n import Msg

    for k in TABLE:
        assert len(k.derivatives) == len(k.ports) + len(k.params), k.name  # a Dense also its weight and bias
        for text in k.derivatives:
            assert isinstance(text, Msg) and text.startswith("∂"), (k.name, text)
    assert OPS["Add"].derivatives[1] == "∂(a+b)/∂b = 1"
    assert OPS["MatMul"].derivatives[1] == "∂(a·b)/∂b = aᵀ · upstream"
    assert OPS["BCEWithLogits"].derivatives[0] == "∂BCE/∂z = (σ(z) − y)/n"


def test_every_kind_a_teacher_needs_is_in_the_table():
    assert {
        "Sub",
        "Neg",
        "ReLU",
        "Sigmoid",
        "Tanh",
        "Exp",
        "Log",
        "Square",
        "Sum",
        "Mean",
        "Transpose",
        "SoftmaxCrossEntropy",
    } <= set(OPS)


def _xor(seed=0, n=400):
    """The MLP preset's data set, generated independently: XOR of the signs of two uniform
    coordinates (label 1 in the first and third quadrants), split as documented."""
    x = np.random.RandomState(seed).uniform(-1, 1, size=(n, 2))
    labels = (x[:, 0] * x[:, 1] > 0).astype(int)
    train = np.random.RandomState(seed).permutation(n)[: n - round(n * 0.2)]
    return x[train].astype(np.float32).astype(np.float64), np.eye(2)[labels[train]]


def _batch(x, y, step, seed=0, size=32):
    """Step `step`'s mini-batch: epoch e visits RandomState(seed + e).permutation(n_train)."""
    per_epoch = -(-len(x) // size)
    epoch, b = (step - 1) // per_epoch + 1, (step - 1) % per_epoch
    pos = np.random.RandomState(seed + epoch).permutation(len(x))[b * size : (b + 1) * size]
    return x[pos], y[pos]


def test_mlp_preset_holds_its_generated_data_set():
    s = load_preset("mlp")
    x, y = _batch(*_xor(), 1)
    v = initial_values(s.graph, s.options.seed)
    np.testing.assert_array_equal(v["x"], x.astype(np.float32))
    np.testing.assert_array_equal(v["y"], y.astype(np.float32))
    assert "mlp" in preset_names()


def _numpy_adam_run(s, lr, until, steps=5000):
    """Loss per step of the MLP trained with Adam in float64 numpy on its mini-batches, until
    the loss is below `until`."""
    params = {
        k: v.astype(np.float64)
        for k, v in initial_values(s.graph, s.options.seed).items()
        if s.graph[k].kind == "Parameter"
    }
    data = _xor()
    m, v2, losses = {}, {}, []
    for t in range(1, steps + 1):
        x, y = _batch(*data, t)
        loss, _, g = numeric.evaluate(s, {**params, "x": x, "y": y})
        losses.append(loss)
        if loss < until:
            return losses
        for k in params:
            m[k] = 0.9 * m.get(k, 0) + 0.1 * g[k]
            v2[k] = 0.999 * v2.get(k, 0) + 0.001 * g[k] ** 2
            params[k] = params[k] - lr * np.sqrt(1 - 0.999**t) / (1 - 0.9**t) * m[k] / (np.sqrt(v2[k]) + 1e-8)
    return losses


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_mlp_preset_trains_like_numpy(mode):
    s = load_preset("mlp")
    s.options.mode = mode
    ref = _numpy_adam_run(s, s.options.lr, s.options.until_loss, steps=50)
    e = Engine(s)
    losses = [e.step().loss for _ in range(50)]
    np.testing.assert_allclose(losses, ref, rtol=1e-4)


# -- LeakyReLU: an op kind with an attribute (alpha), added through the table -------------------
def _leaky_graph(alpha):
    """w (3,) -> LeakyReLU(alpha) -> Sum -> Output: L = sum(leaky(w))."""
    from gradviz.model.graph import Graph, Node
    from gradviz.model.session import Options, Session

    nodes = [
        Node("w", "Parameter", shape=(3,), init="values", values=[1.5, -2.0, -0.5]),
        Node("h", "LeakyReLU", {"x": "w"}, attrs={} if alpha is None else {"alpha": alpha}),
        Node("loss", "Sum", {"x": "h"}),
        Node("L", "Output", {"x": "loss"}),
    ]
    return Session(Graph(nodes), Options(lr=0.1, steps=3))


def test_leaky_relu_forward_and_gradient_against_numpy():
    """Independent float64 numpy: leaky(w) = w if w > 0 else alpha * w; dL/dw = 1 or alpha."""
    w = np.array([1.5, -2.0, -0.5])
    for alpha in (None, 0.05):
        a = 0.2 if alpha is None else alpha  # the default MindSpore's ops.leaky_relu has too
        loss, values, grads = numeric.evaluate(_leaky_graph(alpha), {"w": w})
        np.testing.assert_allclose(values["h"], [1.5, -2.0 * a, -0.5 * a])
        assert loss == pytest.approx(1.5 - 2.5 * a)
        np.testing.assert_allclose(grads["w"], [1.0, a, a])


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_leaky_relu_trains_in_mindspore_with_its_alpha(mode):
    """The generated program passes alpha to ops.leaky_relu: each SGD step (lr 0.1) moves w by
    -0.1 * (1 where w > 0, else alpha)."""
    s = _leaky_graph(0.05)
    s.options.mode = mode
    e = Engine(s)
    assert "ops.leaky_relu(w, alpha=0.05)" in e.program.source
    w = np.array([1.5, -2.0, -0.5])
    for _ in range(3):
        r = e.step()
        np.testing.assert_allclose(r.params, w, rtol=1e-6)
        np.testing.assert_allclose(r.loss, np.sum(np.where(w > 0, w, 0.05 * w)), rtol=1e-6)
        np.testing.assert_allclose(r.grads, np.where(w > 0, 1.0, 0.05), rtol=1e-6)
        finish_step(e, r)
        w = w - 0.1 * np.where(w > 0, 1.0, 0.05)


def test_leaky_relu_alpha_is_checked_and_round_trips_a_session_file(tmp_path):
    from gradviz.model.session import SessionError, Session, load_session, save_session

    s = _leaky_graph(0.3)
    p = tmp_path / "leaky.json"
    save_session(s, p)
    d = __import__("json").loads(p.read_text())
    assert d["version"] == 2 and d["graph"]["nodes"][1]["attrs"] == {"alpha": 0.3}
    assert load_session(p).graph["h"].attrs == {"alpha": 0.3}
    assert _leaky_graph(None).to_dict()["graph"]["nodes"][1]["attrs"] == {"alpha": 0.2}
    for bad, said in ((1.5, "alpha must be a number from 0 to 1, not 1.5"), ("x", "not 'x'")):
        d["graph"]["nodes"][1]["attrs"] = {"alpha": bad}
        with pytest.raises(SessionError, match=said):
            Session.from_dict(d)
    d["graph"]["nodes"][1]["attrs"] = {"beta": 1}
    with pytest.raises(SessionError, match='LeakyReLU has no attribute "beta"'):
        Session.from_dict(d)
    d["version"] = 1  # a version 1 file has no attributes: each takes its default
    del d["graph"]["nodes"][1]["attrs"]
    assert Session.from_dict(d).graph["h"].attrs == {}


def test_leaky_relu_exports_to_both_frameworks_with_its_alpha():
    from gradviz.model.scripts import script

    s = _leaky_graph(0.3)
    assert "h = ops.leaky_relu(w, alpha=0.3)" in script(s, "mindspore")
    assert "h = torch.nn.functional.leaky_relu(w, negative_slope=0.3)" in script(s, "pytorch")


def test_the_node_tab_edits_alpha_in_its_range_and_undo_restores_it(qtbot):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QDoubleSpinBox

    from gradviz.ui.document import SessionDocument
    from gradviz.ui.inspector import Inspector

    doc = SessionDocument(_leaky_graph(None))
    insp = Inspector(doc)
    qtbot.addWidget(insp)
    insp.show_node("h")
    box = insp.findChild(QDoubleSpinBox, "inspectorAttr_alpha")
    assert box is not None and box.value() == 0.2 and (box.minimum(), box.maximum()) == (0.0, 1.0)
    insp.set_locked(True)  # while training
    assert not box.isEnabled()
    insp.set_locked(False)
    assert box.isEnabled()
    box.setValue(0.35)
    qtbot.mouseClick(insp.applyButton, Qt.MouseButton.LeftButton)
    assert doc.graph["h"].attrs == {"alpha": 0.35} and insp.error.text() == ""
    doc.undo()
    assert OPS["LeakyReLU"].attr_values(doc.graph["h"].attrs) == {"alpha": 0.2} and box.value() == 0.2
    insp.show_node("w")  # a kind without attributes shows no attribute field
    assert not insp.attrEdits

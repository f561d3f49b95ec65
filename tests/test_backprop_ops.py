"""Step through backprop on every op kind and option set: each stage's numbers against float64
central differences of L, computed here with a numpy forward pass written from the formulas
(stop_gradient honoured: a perturbation does not pass through it). The model-level check runs
on the reference's own numbers; the real-engine one on MindSpore's, in both modes."""

import dataclasses

import numpy as np
import pytest

from gradviz.model.backprop import BACKWARD, stages
from gradviz.model.graph import Graph, Node, initial_values
from gradviz.model.ops import OPS
from gradviz.model.session import Options, Session


def _sig(x):
    return 1 / (1 + np.exp(-x))


def _log_softmax(z):
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


FORWARD = {  # float64, written from the formulas (not from the op table)
    "MatMul": lambda a, b: a @ b,
    "Add": lambda a, b: a + b,
    "Sub": lambda a, b: a - b,
    "Mul": lambda a, b: a * b,
    "Neg": lambda x: -x,
    "Square": lambda x: x * x,
    "Exp": np.exp,
    "Log": np.log,
    "ReLU": lambda x: np.maximum(x, 0),
    "LeakyReLU": lambda x: np.where(x > 0, x, 0.2 * x),
    "Sigmoid": _sig,
    "Tanh": np.tanh,
    "Flatten": lambda x: x.reshape(x.shape[0], -1),
    "Softmax": lambda x: np.exp(_log_softmax(x)),
    "Sum": np.sum,
    "Mean": np.mean,
    "Transpose": lambda x: x.T,
    "StopGradient": lambda x: x,
    "BCEWithLogits": lambda z, y: np.mean(np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z)))),
    "MSE": lambda p, t: np.mean((p - t) ** 2),
    "SoftmaxCrossEntropy": lambda z, t: np.mean(-(t * _log_softmax(z)).sum(axis=-1)),
}


def _body(op: str) -> list[Node]:
    """z = x·w + b (4x3), then h from z through `op` (every computing kind but the losses)."""
    n = [
        Node("x", "Input", shape=(4, 5), init="randn"),
        Node("w", "Parameter", shape=(5, 3), init="randn"),
        Node("b", "Parameter", shape=(3,), init="randn"),
        Node("w2", "Parameter", shape=(3, 3), init="randn"),
        Node("matmul", "MatMul", {"a": "x", "b": "w"}),
        Node("z", "Add", {"a": "matmul", "b": "b"}),
    ]
    if op in ("Add", "Sub", "Mul"):  # broadcast over the rows
        n.append(Node("h", op, {"a": "z", "b": "b"}))
    elif op == "MatMul":
        n.append(Node("h", op, {"a": "z", "b": "w2"}))
    elif op == "Log":  # of a positive number
        n += [Node("s", "Sigmoid", {"x": "z"}), Node("h", "Log", {"x": "s"})]
    elif op == "Transpose":  # and back, to the rows' shape
        n += [Node("t", "Transpose", {"x": "z"}), Node("h", "Transpose", {"x": "t"})]
    elif op in ("Sum", "Mean"):  # a scalar added back to every element
        n += [Node("s", op, {"x": "z"}), Node("h", "Add", {"a": "z", "b": "s"})]
    elif op == "StopGradient":  # z twice: once through the cut
        n += [Node("sg", op, {"x": "z"}), Node("h", "Mul", {"a": "sg", "b": "z"})]
    elif op == "all":  # every kind at once, the branches added up
        n += [
            Node("mm", "MatMul", {"a": "z", "b": "w2"}),
            Node("sub", "Sub", {"a": "z", "b": "b"}),
            Node("mul", "Mul", {"a": "z", "b": "b"}),
            Node("s", "Sigmoid", {"x": "z"}),
            Node("log", "Log", {"x": "s"}),
            Node("t", "Transpose", {"x": "z"}),
            Node("tt", "Transpose", {"x": "t"}),
            Node("mean", "Mean", {"x": "z"}),
            Node("sum", "Sum", {"x": "tt"}),
            Node("sg", "StopGradient", {"x": "z"}),
            Node("cut", "Mul", {"a": "sg", "b": "z"}),
        ]
        branches = ["mm", "sub", "mul", "log", "sum", "mean", "cut"]
        for k in ("Neg", "Square", "Exp", "ReLU", "LeakyReLU", "Tanh", "Flatten", "Softmax"):
            n.append(Node(k.lower(), k, {"x": "z" if k != "Exp" else "neg"}))
            branches.append(k.lower())
        for i, b in enumerate(branches[1:]):
            n.append(
                Node(
                    "h" if i == len(branches) - 2 else f"h{i}", "Add", {"a": f"h{i - 1}" if i else branches[0], "b": b}
                )
            )
    else:
        n.append(Node("h", op, {"x": "z"}))
    return n


def graph_for(op: str, loss: str = "BCEWithLogits") -> Graph:
    onehot = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]  # a target for every loss
    nodes = _body(op) + [Node("y", "Input", shape=(4, 3), init="values", values=onehot)]
    port = {
        "BCEWithLogits": ("logits", "target"),
        "MSE": ("pred", "target"),
        "SoftmaxCrossEntropy": ("logits", "target"),
    }
    nodes += [
        Node("loss", loss, dict(zip(port[loss], ("h", "y")))),
        Node("out_loss", "Output", {"x": "loss"}),
        Node("out_z", "Output", {"x": "z"}),
    ]
    return Graph(nodes)


COMPUTING = [k for k, o in OPS.items() if o.role == "op" and not o.params]  # Dense: refused for now
OPTIONS = [  # (aux_output, stop_gradient, has_aux)
    (False, False, False),
    (True, False, False),
    (True, True, False),
    (True, False, True),
    (True, True, True),
]


def session_for(op, loss="BCEWithLogits", aux=False, sg=False, ha=False, mode="pynative") -> Session:
    o = dataclasses.replace(Options(), aux_output=aux, stop_gradient=sg, has_aux=ha, mode=mode, seed=3)
    return Session(graph_for(op, loss), o, "bp")


def _forward(graph: Graph, values: dict, base: dict | None = None) -> dict:
    """Every node's value; `base`: the unperturbed values, which stop_gradient passes on."""
    v = dict(values)
    for n in graph.topo_order():
        if n.is_source or n.kind == "Output":
            continue
        if n.name in v and base is not None and n.name in values:  # the perturbed node itself
            continue
        src = base if (n.kind == "StopGradient" and base is not None) else v
        ins = [src[n.inputs[p]] for p in OPS[n.kind].ports]
        v[n.name] = np.asarray(FORWARD[n.kind](*ins), np.float64)
    return v


def reference(s: Session) -> tuple[dict, dict]:
    """(values, ∂L/∂node by central differences) in float64; L = the loss plus sum(z) where z is
    returned and differentiated."""
    g = s.graph
    start = {k: np.asarray(x, np.float64) for k, x in initial_values(g, s.options.seed).items()}
    v = _forward(g, start)
    o = s.options
    aux = o.aux_output and not o.stop_gradient and not o.has_aux

    def L(vals):
        return float(vals["loss"]) + (float(np.sum(vals["z"])) if aux else 0.0)

    grads, eps = {}, 1e-6
    for n in g.topo_order():
        if n.kind == "Output":
            continue
        d = np.zeros_like(v[n.name])
        for i in np.ndindex(d.shape):
            up, down = v[n.name].copy(), v[n.name].copy()
            up[i] += eps
            down[i] -= eps
            sources = {k: start[k] for k in start}
            d[i] = (L(_forward(g, {**sources, n.name: up}, v)) - L(_forward(g, {**sources, n.name: down}, v))) / (
                2 * eps
            )
        grads[n.name] = d
    return v, grads


def _check(s, v, g, want_v, want_g, element, rel, abs_):
    found = stages(s.graph, s.options, v, g, element)
    for st in found:
        want = (want_g if st.phase == BACKWARD else want_v)[st.node][st.element]
        assert st.result == pytest.approx(want, rel=rel, abs=abs_), (st.key, st.formula)
        for t in st.terms:
            if t.pairs:  # the products written out sum to the share
                assert sum(u * d for _, u, d in t.pairs) == pytest.approx(t.share, rel=1e-9, abs=1e-12)
    return found


@pytest.mark.parametrize("aux,sg,ha", OPTIONS)
@pytest.mark.parametrize("op", COMPUTING)
def test_every_op_kind_and_option_set_equals_finite_differences(op, aux, sg, ha):
    s = session_for(op, aux=aux, sg=sg, ha=ha)
    v, g = reference(s)
    last = {k: int(np.size(x)) - 1 for k, x in v.items()}  # an element other than the first
    found = _check(s, v, g, v, g, last, 1e-6, 1e-7)
    z = next(st for st in found if st.key == "backward:z")
    out_z = [t for t in z.terms if t.via == "out_z"]
    assert [t.cut for t in out_z] == ([] if not aux else [sg or ha])
    if op == "StopGradient":
        sgt = next(t for t in z.terms if t.via == "sg")
        assert sgt.cut and sgt.share == 0.0 and "stop_gradient" in sgt.note


@pytest.mark.parametrize("loss", ["BCEWithLogits", "MSE", "SoftmaxCrossEntropy"])
def test_the_other_losses_and_every_kind_at_once_equal_finite_differences(loss):
    s = session_for("all", loss, aux=True)
    v, g = reference(s)
    _check(s, v, g, v, g, 2, 1e-6, 1e-7)


def test_every_op_kind_has_its_derivative_text_in_chinese():
    import xml.etree.ElementTree as ET
    from pathlib import Path

    ts = ET.parse(Path(__file__).parents[1] / "resources/i18n/gradviz_zh_CN.ts")
    done = {
        m.findtext("source"): m.find("translation")
        for c in ts.getroot()
        if c.findtext("name") == "Ops"
        for m in c.findall("message")
    }
    for k in OPS.values():
        for text in k.derivatives:
            t = done.get(text.template)
            assert t is not None and t.get("type") != "unfinished" and t.text, (k.name, text)


@pytest.mark.real_engine
@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_the_engines_numbers_for_every_op_kind_in_both_modes(mode):
    """Every op kind in one graph, on MindSpore's snapshot: each stage's numbers equal the
    float64 reference. PyNative with each loss and option set; Graph mode (a compile each) once,
    with z returned and differentiated (test_engine.py checks the snapshot's gradients in both
    modes for every option set)."""
    from gradviz.engine.engine import Engine

    assert {n.kind for n in graph_for("all").nodes} >= set(COMPUTING)
    cases = [
        ("BCEWithLogits", True, False, False),
        ("MSE", True, True, False),
        ("SoftmaxCrossEntropy", True, False, True),
    ]
    for loss, aux, sg, ha in cases if mode == "pynative" else cases[:1]:
        s = session_for("all", loss, aux, sg, ha, mode)
        e = Engine(s)
        try:
            snap = e.node_snapshot()
        finally:
            e.close()
        v, g = reference(s)
        found = _check(s, snap.values, snap.grads, v, g, 1, 2e-4, 2e-5)
        for st in found:  # the card's number is the engine's own gradient there
            assert st.result == pytest.approx(float(st.value[st.element]), rel=2e-4, abs=2e-5), (loss, st.key)

"""Hypothesis strategies: random valid graphs of every op kind, with random valid node names."""

from __future__ import annotations

import keyword

from dataclasses import replace

import numpy as np
from hypothesis import strategies as st

from gradviz.model.graph import Graph, Node, check_name
from gradviz.model.ops import OPS
from gradviz.model.session import Options, Session

# names a generated program could trip over if its namespaces met: the generator's old and
# current plumbing, the optimizer's and nn.Cell's own attributes, builtins, MindSpore's words
RISKY = [
    "loss",
    "before",
    "r0",
    "r7",
    "recorded_step",
    "recorded_steps",
    "values",
    "probe",
    "parameters",
    "make_optimizer",
    "aux",
    "training",
    "learning_rate",
    "global_step",
    "moments",
    "moment1",
    "beta1_power",
    "accum",
    "stat",
    "momentum",
    "phase",
    "cells",
    "requires_grad",
    "param_prefix",
    "bprop_debug",
    "print",
    "len",
    "range",
    "tuple",
    "sum",
    "Tensor",
    "Parameter",
    "ms",
    "np",
    "jit",
    "x",
    "y",
    "z",
    "w",
    "b",
    "out",
    "_",
    "_x",
    "self_",
    "F",
    "P",
    "grad_position",
    "weights",
    "has_aux",
    "data",
    "name",
]
_ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
_identifier = st.builds(
    lambda a, b: a + b,
    st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"),
    st.text(_ALNUM, max_size=10),
)
valid_name = st.one_of(st.sampled_from(RISKY), _identifier).filter(
    lambda n: check_name(n) is None and not keyword.iskeyword(n)
)

UNARY = ["Neg", "Square", "Exp", "ReLU", "Sigmoid", "Tanh", "StopGradient"]
BINARY = ["Add", "Sub", "Mul"]


@st.composite
def graphs(draw, max_ops: int = 5) -> Graph:
    """A valid graph on tensors of one shape S, with scalars and transposes on the way: every
    kind of the table appears in some graph. The loss is a loss kind or a Sum/Mean."""
    shape = draw(st.sampled_from([(3,), (2, 3), (1,)]))
    nodes: list[Node] = []
    same: list[str] = []  # nodes of shape S

    def add(kind, **kw):
        n = Node(f"n{len(nodes)}", kind, **kw)
        nodes.append(n)
        return n.name

    for _ in range(draw(st.integers(1, 2))):
        same.append(add("Input", shape=shape, init=draw(st.sampled_from(["ones", "randn"]))))
    for _ in range(draw(st.integers(1, 3))):
        same.append(add("Parameter", shape=shape, init="randn"))
    if draw(st.booleans()):  # a frozen Parameter
        same.append(add("Parameter", shape=shape, init="randn", requires_grad=False))
    for _ in range(draw(st.integers(1, max_ops))):
        choice = draw(st.sampled_from(["unary", "binary", "log", "transpose", "matmul"]))
        if choice == "unary":
            same.append(add(draw(st.sampled_from(UNARY)), inputs={"x": draw(st.sampled_from(same))}))
        elif choice == "binary":
            a, b = draw(st.sampled_from(same)), draw(st.sampled_from(same))
            same.append(add(draw(st.sampled_from(BINARY)), inputs={"a": a, "b": b}))
        elif choice == "log":  # on a positive value
            pos = add(draw(st.sampled_from(["Exp", "Sigmoid"])), inputs={"x": draw(st.sampled_from(same))})
            same.append(add("Log", inputs={"x": pos}))
        elif choice == "transpose":  # there and back: S again
            t = add("Transpose", inputs={"x": draw(st.sampled_from(same))})
            same.append(add("Transpose", inputs={"x": t}))
        else:  # S times a square matrix: S again
            m = add("Parameter", shape=(shape[-1], shape[-1]), init="randn")
            same.append(add("MatMul", inputs={"a": draw(st.sampled_from(same)), "b": m}))
    pred, target = draw(st.sampled_from(same[-3:])), draw(st.sampled_from(same[:2]))
    loss_kind = draw(st.sampled_from(["BCEWithLogits", "MSE", "SoftmaxCrossEntropy", "Sum", "Mean"]))
    if loss_kind in ("Sum", "Mean"):
        loss = add(loss_kind, inputs={"x": pred})
    elif loss_kind == "BCEWithLogits" or loss_kind == "SoftmaxCrossEntropy":
        prob = add("Sigmoid", inputs={"x": target})
        loss = add(loss_kind, inputs={"logits": pred, "target": prob})
    else:
        loss = add(loss_kind, inputs={"pred": pred, "target": target})
    add("Output", inputs={"x": loss})
    everything = [n.name for n in nodes if n.kind != "Output"]
    for _ in range(draw(st.integers(0, 2))):  # auxiliary outputs from any node, sources included
        add("Output", inputs={"x": draw(st.sampled_from(everything))})
    g = Graph(nodes)
    assert not g.validate(), g.validate()
    return g


def renamed(graph: Graph, names: dict[str, str]) -> Graph:
    g = graph.copy()
    for n in g.nodes:
        n.inputs = {p: names[s] for p, s in n.inputs.items()}
        n.name = names[n.name]
    return g


@st.composite
def named_graphs(draw):
    """(plain graph, the same graph with random valid names)."""
    g = draw(graphs())
    new = draw(st.lists(valid_name, min_size=len(g), max_size=len(g), unique=True))
    return g, renamed(g, dict(zip(g.names(), new)))


options = st.builds(
    lambda aux, sg, ha, api, opt: Options(
        aux_output=aux, stop_gradient=sg, has_aux=ha, api=api, optimizer=opt, lr=0.05
    ),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["grad", "value_and_grad", "cell"]),
    st.sampled_from(["sgd", "momentum", "adam"]),
)


def session_of(graph: Graph, o: Options, mode: str) -> Session:
    from dataclasses import replace

    o = replace(o, mode=mode, aux_output=o.aux_output and len(graph.outputs()) > 1)
    return Session(graph, o)


@st.composite
def layered_sessions(draw):
    """Random stacks of layers: an optional Flatten, Dense layers of random sizes and
    initializers each with an optional activation, a plain Parameter added somewhere or not, a
    loss, and a Softmax of the logits returned before or after the loss or not at all; any API
    and option set."""
    rows, width = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    rng = np.random.RandomState(draw(st.integers(0, 99)))
    nodes = [Node("u_x", "Input", shape=(rows, width), init="values", values=rng.randn(rows, width).tolist())]
    prev = "u_x"
    if draw(st.booleans()):
        nodes.append(Node("u_flat", "Flatten", {"x": prev}))
        prev = "u_flat"
    plain = draw(st.integers(-1, 2))  # after which layer a Parameter is added (-1: none)
    for i in range(draw(st.integers(1, 3))):
        out = draw(st.integers(1, 4))
        attrs = {
            "in_channels": width,
            "out_channels": out,
            "weight_init": draw(st.sampled_from(OPS["Dense"].attrs[2].choices)),
            "bias_init": draw(st.sampled_from(OPS["Dense"].attrs[3].choices)),
        }
        nodes.append(Node(f"u_d{i}", "Dense", {"x": prev}, attrs=attrs))
        prev, width = f"u_d{i}", out
        if i == plain:
            nodes.insert(draw(st.integers(0, len(nodes))), Node("u_p", "Parameter", shape=(out,)))
            nodes.append(Node("u_shift", "Add", {"a": prev, "b": "u_p"}))
            prev = "u_shift"
        act = draw(st.sampled_from([None, "ReLU", "Tanh", "Sigmoid", "LeakyReLU", "Softmax"]))
        if act is not None:
            nodes.append(Node(f"u_a{i}", act, {"x": prev}, attrs={"alpha": 0.125} if act == "LeakyReLU" else {}))
            prev = f"u_a{i}"
    nodes.append(Node("u_t", "Input", shape=(rows, width), init="values", values=rng.rand(rows, width).tolist()))
    loss = draw(st.sampled_from(["SoftmaxCrossEntropy", "MSE"]))
    nodes.append(Node("u_loss", loss, dict(zip(OPS[loss].ports, (prev, "u_t")))))
    aux = draw(st.sampled_from([None, "before", "after"]))
    if aux is not None:
        nodes.insert(len(nodes) - (aux == "before"), Node("u_prob", "Softmax", {"x": prev}))
    nodes.append(Node("u_out", "Output", {"x": "u_loss"}))
    if aux is not None:
        nodes.append(Node("u_aux", "Output", {"x": "u_prob"}))
    o = draw(options)
    on = o.aux_output and aux is not None
    o = replace(o, aux_output=on, stop_gradient=o.stop_gradient and on, has_aux=o.has_aux and on)
    return Session(Graph(nodes), replace(o, mode=draw(st.sampled_from(["pynative", "graph"]))))

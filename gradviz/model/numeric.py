"""A graph evaluated in float64 numpy from the op table: the reference MindSpore is checked
against, and the function a finite-difference gradient check differentiates.

Independent of MindSpore: every op's forward and backward here is the table's numpy math, whose
backward the tests check against central differences of its forward."""

from __future__ import annotations

import numpy as np

from .codegen import differentiated_outputs
from .graph import Graph, initial_values
from .ops import OPS, owned_name
from .session import Session


def forward(
    graph: Graph, sources: dict[str, np.ndarray], held: dict[str, np.ndarray] | None = None
) -> dict[str, np.ndarray]:
    """float64 value of every node but the Outputs, from the values of the Inputs and Parameters;
    nodes in `held` take the value given there (a gradient check holds StopGradient nodes so)."""
    v = {k: np.asarray(x, np.float64) for k, x in sources.items()}
    for n in graph.topo_order():
        if n.is_source or n.kind == "Output":
            continue
        if held and n.name in held:
            v[n.name] = held[n.name]
            continue
        k = OPS[n.kind]
        with np.errstate(all="ignore"):
            ins = [v[n.inputs[p]] for p in k.ports] + [v[owned_name(n.name, o.name)] for o in k.params]
            v[n.name] = np.asarray(k.forward(*ins, **k.attr_values(n.attrs)), np.float64)
    return v


def backward(graph: Graph, values: dict[str, np.ndarray], seeds: list[str]) -> dict[str, np.ndarray]:
    """d(sum of the seed nodes' values)/d(node) for every node, with StopGradient cutting the graph.

    A node listed twice in `seeds` counts twice, as MindSpore does for a value returned twice."""
    g = {name: np.zeros_like(v) for name, v in values.items()}
    for s in seeds:
        g[s] = g[s] + np.ones_like(values[s])
    for n in reversed(graph.topo_order()):
        if n.is_source or n.kind == "Output":
            continue
        k = OPS[n.kind]
        if k.blocks_gradient:
            continue
        srcs = [n.inputs[p] for p in k.ports] + [owned_name(n.name, o.name) for o in k.params]
        ins = [values[s] for s in srcs]
        with np.errstate(all="ignore"):
            parts = k.backward(g[n.name], *ins, values[n.name], **k.attr_values(n.attrs))
        for src, part in zip(srcs, parts):
            g[src] = g[src] + np.asarray(part, np.float64).reshape(values[src].shape)
    return g


def seeds(session: Session) -> list[str]:
    """The nodes whose values add up to L, the function MindSpore differentiates with these
    options: the loss, plus each auxiliary output returned without stop_gradient or has_aux."""
    return [o.inputs["x"] for o in differentiated_outputs(session.graph, session.options)]


def evaluate(session: Session, params: dict[str, np.ndarray] | None = None):
    """(loss, node values, node gradients of L) at the session's initial values, or at `params`."""
    vals = {k: np.asarray(v, np.float64) for k, v in initial_values(session.graph, session.options.seed).items()}
    if params:
        vals.update({k: np.asarray(v, np.float64) for k, v in params.items()})
    v = forward(session.graph, vals)
    g = backward(session.graph, v, seeds(session))
    loss = float(v[session.graph.loss_output().inputs["x"]])  # type: ignore[union-attr]
    return loss, v, g

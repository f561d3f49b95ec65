"""Where each gradient on the graph comes from, in words and numbers the graph view draws. Qt-free.

MindSpore differentiates L, the sum of the differentiated outputs (codegen.differentiated_outputs).
This module says, for the current options:
- what flows back into each Output node (1 for the loss, ones for z when z is differentiated too,
  nothing when ops.stop_gradient or has_aux stops it) -- `output_flows`;
- which gradients MindSpore does not return at all, and why (Inputs and frozen Parameters are
  not asked for by grad_position / weights) -- `not_requested`;
- each node's gradient as the sum of its parts, one per differentiated output, from the engine's
  snapshot (Nodes.parts: MindSpore's gradient of each output alone) -- `share_text`;
- the gradient flowing back along each edge -- `edge_gradients`: the vector-Jacobian product of
  the op table (float64) applied to the engine's own dL/d(node) and values, so an edge carries
  exactly its share of the gradient its source node shows.
"""

from __future__ import annotations

import math

from dataclasses import dataclass

import numpy as np

from ..i18n import Msg
from .codegen import differentiated_outputs, grad_request
from .formatting import fmt_special
from .graph import Graph
from .ops import OPS
from .session import Options

SHOWN_IN_FULL = 4  # vectors up to this many elements are written out in full


@dataclass(frozen=True)
class OutputFlow:
    """What an Output node sends back: `seed` is d L / d(returned value) (None: nothing flows),
    `label` says why in a few words, `cut` marks an ops.stop_gradient on the way back."""

    label: str
    seed: np.ndarray | None
    cut: bool = False


def fmt3(v: float) -> str:
    """A number with 3 decimals (0.326, 1.016, -4.300), or 3 significant digits in e-notation
    outside [0.001, 10000): the digits the tutorial's +1 needs, and no more."""
    v = float(v)
    special = fmt_special(v)
    if special is not None:
        return special
    if 1e-3 <= abs(v) < 1e4:
        return f"{v:.3f}"
    return f"{v:.2e}"


def fmt_values(a) -> str:
    """A scalar, or a vector of up to SHOWN_IN_FULL elements in full: '[1.326, 1.016, 1.042]'.
    Larger tensors: the first two and the count ('[0.100, 0.200, …] (64)')."""
    a = np.asarray(a)
    if a.ndim == 0:
        return fmt3(a)
    flat = a.reshape(-1)
    if a.ndim == 1 and flat.size <= SHOWN_IN_FULL:
        return "[" + ", ".join(fmt3(x) for x in flat) + "]"
    return "[" + ", ".join(fmt3(x) for x in flat[:2]) + f", …] ({flat.size})"


def _fmt_digits(v: float, digits: int) -> str:
    """fmt3 with fewer decimals (at least 1): `digits` of them, and below 1 as many as keep
    `digits` significant ones (0.016 is "0.02", never "0.0": a gradient that is not zero).
    Outside [0.001, 10000): `digits` significant digits in e-notation."""
    text = fmt3(v)
    v = float(v)
    if fmt_special(v) is not None:
        return text
    if not 1e-3 <= abs(v) < 1e4:  # e-notation, its exponent short and whole: 9.9e-4, never "9.93e…"
        mantissa, exponent = f"{v:.{max(digits - 1, 0)}e}".split("e")
        return f"{mantissa}e{int(exponent)}"
    if digits < 3 and v == int(v):  # a whole number written whole: [1, 2], not [1.0, 2.0]
        return str(int(v))
    if abs(v) < 1:
        digits = max(digits, math.ceil(-math.log10(abs(v))) + digits - 1)
    return f"{v:.{digits}f}"


def short_forms(a) -> list[str]:
    """`a` written ever shorter, for a number that must stay large in a small room: in full
    (fmt_values), with fewer decimals, then the first element and "…"."""
    a = np.asarray(a)
    flat = a.reshape(-1)
    if flat.size == 0:
        return ["[]"]
    if a.ndim == 0 or flat.size == 1:
        return [fmt_values(a)] + [_fmt_digits(flat[0], d) for d in (3, 2, 1)]
    forms = [fmt_values(a)]
    if a.ndim == 1 and flat.size <= SHOWN_IN_FULL:
        forms += ["[" + ", ".join(_fmt_digits(x, d) for x in flat) + "]" for d in (2, 1)]
    forms += [f"[{_fmt_digits(flat[0], d)}, …]" for d in (3, 2, 1)] + [f"{_fmt_digits(flat[0], d)}…" for d in (3, 2, 1)]
    return forms


def output_flows(graph: Graph, options: Options, shapes: dict) -> dict[str, OutputFlow]:
    """For each Output node: the gradient that flows back into what it returns."""
    outs = graph.outputs()
    diff = {o.name for o in differentiated_outputs(graph, options)}
    aux_on = options.aux_output and len(outs) > 1
    flows = {}
    for i, o in enumerate(outs):
        src = o.inputs.get("x", "")
        shape = tuple(shapes.get(src) or ())
        if i > 0 and not aux_on:
            flows[o.name] = OutputFlow(Msg("GradFlow", "not returned"), None)
        elif o.name in diff:
            what = (
                Msg("GradFlow", "L = loss + …")
                if i == 0 and len(diff) > 1
                else (Msg("GradFlow", "the loss") if i == 0 else Msg("GradFlow", "differentiated too"))
            )
            flows[o.name] = OutputFlow(what, np.ones(shape))
        elif options.has_aux:
            flows[o.name] = OutputFlow(Msg("GradFlow", "returned, not differentiated (has_aux)"), None)
        else:
            flows[o.name] = OutputFlow(Msg("GradFlow", "ops.stop_gradient: no gradient flows back"), None, cut=True)
    return flows


def not_requested(graph: Graph, options: Options) -> dict[str, str]:
    """{node: why MindSpore does not return its gradient}: every Input and frozen Parameter.
    The probe still computes dL/d(node) for them; the view shows it apart, not as a gradient
    grad_fn returns."""
    why = Msg("GradFlow", "not requested by {call}").format(call=grad_request(graph, options))
    return {n.name: why for n in graph.inputs() + graph.parameters() if not n.requires_grad or n.kind == "Input"}


def _reaches(graph: Graph) -> dict[str, set[str]]:
    """{node: the Output nodes its gradient can come from} (through ops that pass gradients)."""
    reach: dict[str, set[str]] = {n.name: set() for n in graph.nodes}
    for o in graph.outputs():
        reach[o.name].add(o.name)
    for n in reversed(graph.topo_order()):
        if n.kind == "Output":
            src = n.inputs.get("x")
            if src in reach:
                reach[src] |= reach[n.name]
            continue
        if n.is_source or OPS[n.kind].blocks_gradient:
            continue
        for src in n.inputs.values():
            if src in reach:
                reach[src] |= reach[n.name]
    return reach


def contributing(graph: Graph, parts: dict) -> dict[str, list[str]]:
    """{node: the differentiated outputs its gradient sums over}, for nodes with two or more."""
    if len(parts) < 2:
        return {}
    reach = _reaches(graph)
    return {
        name: [o for o in parts if o in outs]
        for name, outs in reach.items()
        if len([o for o in parts if o in outs]) >= 2
    }


def share_text(parts: dict, outputs: list[str], node: str) -> str:
    """'0.326 from out_loss + 1.000 from out_z' (scalars; vectors written out in full)."""
    return " + ".join(f"{fmt_values(parts[o][node])} from {o}" for o in outputs if node in parts.get(o, {}))


def edge_gradients(graph: Graph, values: dict, grads: dict) -> dict[tuple[str, str, str], np.ndarray | None]:
    """{(source, consumer, port): the gradient flowing back along that edge}, from the engine's
    values and dL/d(node); None where nothing flows (into a StopGradient, out of an Output that
    is not differentiated is left to output_flows). Edges into Output nodes are not included."""
    out: dict[tuple[str, str, str], np.ndarray | None] = {}
    for n in graph.nodes:
        if n.is_source or n.kind == "Output" or n.name not in grads:
            continue
        k = OPS[n.kind]
        srcs = [n.inputs.get(p) for p in k.ports]
        if k.params or any(s not in values for s in srcs):  # a node's own Parameters have no values here
            continue
        if k.blocks_gradient:
            for p, s in zip(k.ports, srcs):
                out[(s, n.name, p)] = None
            continue
        ins = [np.asarray(values[s], np.float64) for s in srcs]
        with np.errstate(all="ignore"):
            back = k.backward(
                np.asarray(grads[n.name], np.float64),
                *ins,
                np.asarray(values[n.name], np.float64),
                **k.attr_values(n.attrs),
            )
        for p, s, g in zip(k.ports, srcs, back):
            out[(s, n.name, p)] = np.asarray(g, np.float64).reshape(np.shape(values[s]))
    return out

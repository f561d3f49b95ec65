"""Backpropagation as stages to step through: the forward pass node by node in the generated
program's order, then the backward pass in reverse, each node's gradient as the chain rule with
the numbers of one chosen element.

Qt-free and MindSpore-free: the values and gradients come from one snapshot of the engine (the
protocol's Nodes message); the op table gives each edge's local-derivative text and its
vector-Jacobian product, which turns a consumer's upstream gradient into this node's share."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..i18n import Msg
from .codegen import differentiated_outputs, expression, plan
from .formatting import fmt_number
from .graph import Graph, numel
from .ops import OPS, owned_name
from .session import Options

FORWARD, BACKWARD = "forward", "backward"


class BackpropError(ValueError):
    """A stage that cannot be shown (an element outside a node's shape): the message says why."""


@dataclass(frozen=True)
class Term:
    """One share of ∂L/∂node at the element: from a consumer's port, or a returned output's seed."""

    via: str  # the consuming node, or the Output whose value starts the gradient
    port: str  # the consumer's port this node feeds ("" for a seed)
    formula: str  # the local derivative, from the op table (translatable)
    upstream: np.ndarray  # ∂L/∂via, the whole tensor
    upstream_at: float | None  # ∂L/∂via at the matching element, where one element matches
    local: float | None  # ∂via/∂node at the element, where one element matches
    share: float  # this term's part of ∂L/∂node at the element
    cut: bool = False  # stop_gradient stops it here, or the output is not differentiated
    note: str = ""  # why it is cut (translatable)
    # every element k of `via` this element feeds: (k, ∂L/∂via[k], ∂via[k]/∂node[e]); the share
    # is the sum of their products (empty where `via` has too many elements to list)
    pairs: tuple[tuple[tuple[int, ...], float, float], ...] = ()
    names: tuple[tuple[str, str], ...] = ()  # (port, the node feeding it) of `via`: named(formula, names)

    def text(self, formula: str | None = None) -> str:
        """The local derivative with the consumer's inputs named: "∂(x·w)/∂w = xᵀ · upstream"
        (`formula`: the op table's text in the window's language; default English)."""
        return named(self.formula if formula is None else formula, dict(self.names))


@dataclass(frozen=True)
class Stage:
    phase: str  # FORWARD or BACKWARD
    node: str
    kind: str
    element: tuple[int, ...]  # the chosen element of this node
    value: np.ndarray  # the node's value (forward) or gradient ∂L/∂node (backward), from the engine
    formula: str  # forward: the expression; backward: the chain rule written with the numbers
    terms: tuple[Term, ...] = ()
    result: float = 0.0  # forward: the value at the element; backward: the sum of the shares

    @property
    def key(self) -> str:
        """The graph view's backpropStage: "forward:z", "backward:b"."""
        return f"{self.phase}:{self.node}"

    def to_json(self) -> dict:
        return {
            "node": self.node,
            "phase": self.phase,
            "kind": self.kind,
            "element": list(self.element),
            "formula": str(self.formula),
            "upstream": [
                {
                    "via": t.via,
                    "port": t.port,
                    "formula": t.text(),
                    "upstream": None if t.upstream_at is None else t.upstream_at,
                    "local": t.local,
                    "share": t.share,
                    "cut": t.cut,
                    "note": str(t.note),
                    "pairs": [{"at": list(k), "upstream": u, "local": d} for k, u, d in t.pairs],
                }
                for t in self.terms
            ],
            "result": self.result,
            "engine": float(self.value[self.element]),  # the engine's own value or gradient there
        }


def named(formula: str, names: dict[str, str]) -> str:
    """The op table's derivative text with each port letter (a, b, x) replaced by the node that
    feeds it, all at once: "∂(a·b)/∂b = aᵀ · upstream" -> "∂(x·w)/∂w = xᵀ · upstream"."""
    letters = {p: n for p, n in names.items() if len(p) == 1}
    if not letters:
        return str(formula)
    pattern = r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, letters)) + r")(?![A-Za-z0-9_])"
    return re.sub(pattern, lambda m: letters[m.group(1)], str(formula))


def _at(name: str, idx: tuple[int, ...]) -> str:
    return f"{name}[{','.join(map(str, idx))}]" if idx else name


def _element(name: str, shape: tuple[int, ...], element) -> tuple[int, ...]:
    """The element of node `name` that `element` chooses: a flat index (for every node with more
    than one element), or {node: flat index}; scalars have only ()."""
    if not shape:
        return ()
    i = element.get(name, 0) if isinstance(element, dict) else element
    n = numel(shape)
    if isinstance(i, bool) or not isinstance(i, int | np.integer) or not 0 <= i < n:
        raise BackpropError(
            Msg("Backprop", "element {i} is outside {node}'s shape {shape} ({n} elements: 0 to {last})").format(
                i=i, node=name, shape=tuple(shape), n=n, last=n - 1
            )
        )
    return tuple(int(k) for k in np.unravel_index(int(i), shape))


def stages(graph: Graph, options: Options, values: dict, grads: dict, element: int | dict[str, int] = 0) -> list[Stage]:
    """Every stage: forward in the program's order, then backward in reverse. `values` and
    `grads` are one engine snapshot (Nodes.values, Nodes.grads); `element` as in _element."""
    layers = [n.name for n in graph.nodes if OPS[n.kind].params]
    if layers:  # the engine's snapshot holds no values of a layer's own weight and bias yet
        raise BackpropError(
            Msg(
                "Backprop", "stepping through a layer that holds its own weight and bias ({node}) is not done yet"
            ).format(node=layers[0])
        )
    p = plan(graph, options)
    v = {k: np.asarray(x, np.float64) for k, x in values.items()}
    g = {k: np.asarray(x, np.float64) for k, x in grads.items()}
    chosen = {n.name: _element(n.name, tuple(np.shape(v[n.name])), element) for n in p.order}
    out: list[Stage] = []
    for n in p.order:
        e = chosen[n.name]
        formula = n.name if n.is_source else f"{n.name} = {expression(n)}"
        out.append(Stage(FORWARD, n.name, n.kind, e, v[n.name], formula, (), float(v[n.name][e])))
    seeded = [o.name for o in differentiated_outputs(graph, options)]
    returned = graph.outputs()[: len(p.sources)]
    loss = graph.outputs()[0].inputs.get("x") if graph.outputs() else None
    for n in reversed(p.order):
        e = chosen[n.name]
        terms = _consumers(graph, n.name, e, v, g) + _seeds(graph, options, n.name, e, v, seeded, returned)
        result = float(sum(t.share for t in terms))
        text = _chain(n.name, e, terms, result, loss, [graph[o].inputs.get("x") for o in seeded])
        out.append(Stage(BACKWARD, n.name, n.kind, e, g[n.name], text, tuple(terms), result))
    return out


def _seeds(graph, options, name, e, v, seeded, returned) -> list[Term]:
    """The returned outputs of `name`: the loss (∂L/∂loss = 1), each differentiated auxiliary
    output (∂sum(z)/∂z = 1) and, cut, those stop_gradient or has_aux leaves out of L."""
    terms = []
    for k, o in enumerate(graph.outputs()):
        if o.inputs.get("x") != name:
            continue
        one = np.ones(np.shape(v[name]))
        text = f"∂L/∂{name} = 1" if k == 0 else f"∂sum({name})/∂{name} = 1"
        if o.name in seeded:
            terms.append(Term(o.name, "", text, one, 1.0, 1.0, 1.0))
        elif o in returned:
            note = (
                Msg("Backprop", "returned through ops.stop_gradient: not part of L")
                if options.stop_gradient
                else Msg("Backprop", "returned as auxiliary data (has_aux=True): not part of L")
            )
            terms.append(Term(o.name, "", text, one * 0, None, None, 0.0, True, note))
    return terms


MAX_JACOBIAN = 4096  # a consumer with more elements than this: its share alone, not each product


def _consumers(graph, name, e, v, g) -> list[Term]:
    """Each port of a computing node fed by `name`: the VJP of that op on its upstream gradient,
    and the elements of the consumer this element feeds, each with its local derivative."""
    terms = []
    for c in graph.topo_order():
        if c.is_source or c.kind == "Output":
            continue
        k = OPS[c.kind]
        # its ports' sources, then the Parameters it holds itself (a Dense node's weight and bias)
        fed = [c.inputs.get(q) for q in k.ports] + [owned_name(c.name, o.name) for o in k.params]
        slots = list(k.ports) + [o.name for o in k.params]
        for i, port in enumerate(slots):
            if fed[i] != name:
                continue
            ins = [v[f] for f in fed]
            attrs = k.attr_values(c.attrs)
            names = tuple((q, f) for q, f in zip(slots, fed) if f is not None)
            if k.blocks_gradient:
                note = Msg("Backprop", "ops.stop_gradient: no gradient flows back through {node}").format(node=c.name)
                terms.append(Term(c.name, port, k.derivatives[i], g[c.name], None, 0.0, 0.0, True, note, names=names))
                continue

            def vjp(up, i=i, ins=ins, attrs=attrs, c=c, k=k):
                with np.errstate(all="ignore"):
                    return np.asarray(k.backward(up, *ins, v[c.name], **attrs)[i], np.float64).reshape(
                        np.shape(v[name])
                    )

            share = vjp(g[c.name])
            pairs = _pairs(vjp, np.shape(v[c.name]), g[c.name], e)
            up_at, local = (pairs[0][1], pairs[0][2]) if len(pairs) == 1 else (None, None)
            terms.append(
                Term(c.name, port, k.derivatives[i], g[c.name], up_at, local, float(share[e]), pairs=pairs, names=names)
            )
    return terms


def _pairs(vjp, out_shape, upstream, e) -> tuple:
    """(k, ∂L/∂via[k], ∂via[k]/∂node[e]) for every element k of the consumer whose local
    derivative at e is not 0: column e of the op's Jacobian, one VJP of a one-hot vector each."""
    n = numel(out_shape)
    if n > MAX_JACOBIAN:
        return ()
    up = np.asarray(upstream, np.float64).reshape(out_shape)
    out = []
    for flat in range(n):
        k = tuple(int(i) for i in np.unravel_index(flat, out_shape)) if out_shape else ()
        onehot = np.zeros(out_shape)
        onehot[k] = 1.0
        d = float(vjp(onehot)[e])
        if d != 0.0:
            out.append((k, float(up[k]), d))
    return tuple(out)


MAX_TERMS = 4  # products written out in a sum; more are summed as "… (n terms in all)"


def _num(x: float) -> str:
    """A number in a formula: whole numbers exactly ("1", "-1"), negatives in brackets after "·"."""
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e6 else fmt_number(x)


def _paren(x: float) -> str:
    t = _num(x)
    return f"({t})" if t.startswith("-") else t


def _chain(name: str, e: tuple[int, ...], terms: list[Term], result: float, loss, seeded_sources) -> str:
    """ "∂L/∂b[0] = ∂L/∂z[0] · ∂z[0]/∂b[0] = 0.326 · 1 = 0.326": one product per element of
    each consumer the element feeds (the factor ∂L/∂loss = 1 left out), the shares summed."""
    live = [t for t in terms if not t.cut]
    left = f"∂L/∂{_at(name, e)}"
    if name == loss and len(live) == 1 and live[0].port == "":  # the loss itself: where the backward pass starts
        total = " + ".join([name] + [f"sum({s})" for s in seeded_sources if s != name])
        return Msg("Backprop", "{left} = 1\nthe backward pass starts here, at L = {total}").format(
            left=left, total=total
        )
    if not live:
        return f"{left} = 0"
    symbols, numbers = [], []
    for t in live:
        if t.port == "":
            symbols.append(t.formula.split(" = ")[0].replace(f"∂{name}", f"∂{_at(name, e)}"))
            numbers.append(_num(t.share))
            continue
        pairs = t.pairs
        one = t.via == loss and np.ndim(t.upstream) == 0 and float(t.upstream) == 1.0  # ∂L/∂loss = 1
        if len(pairs) == 1:
            k, up, d = pairs[0]
            via = _at(t.via, k)
            symbols.append(f"∂{via}/∂{_at(name, e)}" if one else f"∂L/∂{via} · ∂{via}/∂{_at(name, e)}")
            numbers.append(_num(d) if one else f"{_num(up)} · {_paren(d)}")
        elif pairs:
            symbols.append(f"Σₖ ∂L/∂{t.via}[k] · ∂{t.via}[k]/∂{_at(name, e)}")
            shown = " + ".join(f"{_paren(up)} · {_paren(d)}" for _, up, d in pairs[:MAX_TERMS])
            if len(pairs) > MAX_TERMS:
                shown = Msg("Backprop", "{shown} + … ({n} terms in all)").format(shown=shown, n=len(pairs))
            numbers.append(shown)
        elif t.local == 0.0 or np.all(np.asarray(t.upstream) == 0):
            continue
        else:  # too many elements to list each product
            symbols.append(f"Σₖ ∂L/∂{t.via}[k] · ∂{t.via}[k]/∂{_at(name, e)}")
            numbers.append(_num(t.share))
    if not symbols:
        return f"{left} = 0"
    if len(numbers) == 1 and numbers[0] == _num(result):
        return Msg("Backprop", "{left} = {symbols} = {result}").format(
            left=left, symbols=" + ".join(symbols), result=_num(result)
        )
    return Msg("Backprop", "{left} = {symbols} = {numbers} = {result}").format(
        left=left, symbols=" + ".join(symbols), numbers=_join(numbers), result=_num(result)
    )


def _join(parts: list) -> str:
    """Parts joined by " + ", still translatable where a part is a message."""
    if len(parts) == 1:
        return parts[0]
    return Msg("Backprop", "{a} + {b}").format(a=parts[0], b=_join(parts[1:]))

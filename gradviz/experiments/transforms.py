"""MindSpore's other functional transforms on the session's graph, each checked against float64
finite differences of the op table's numpy (model/numeric.py):

- higher order: the second derivative of L with respect to one element of a Parameter, by
  `grad` of `grad`, and the Hessian of L with respect to that Parameter (`jacfwd(grad(L))`);
- the Jacobian of a node with respect to a Parameter, by `jacrev` and by `jacfwd`, with the chain
  rule as that Jacobian's transpose times the upstream gradient ∂L/∂node;
- `vjp` and `jvp` with chosen vectors, and `grad` as the VJP of L with a one.

L is the function the session's grad call differentiates (codegen.differentiated_outputs): the
loss plus each auxiliary output returned without stop_gradient or has_aux. The transforms call
the generated program's gv_values (every node's value) with one Parameter as the argument.
Too large a transform is refused with its size, or computed on a random sample of elements;
an op at its kink (ReLU at exactly 0) is marked; what MindSpore cannot differentiate is said."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..i18n import Msg
from ..model import numeric
from ..model.graph import initial_values, numel
from ..model.ops import OPS, owned_name
from ..model.session import Session, SessionError
from .gradcheck import objective

KINDS = ("hessian", "jacobian", "vjp")  # the command line's `gradviz transform KIND`
MAX_HESSIAN = 100  # elements of the Parameter: a Hessian of up to 100 x 100, else a sample
MAX_JACOBIAN = 10_000  # entries (node elements x Parameter elements), else a sample
SAMPLE = 16  # elements drawn at random for a sampled transform, unless asked otherwise
MAX_SAMPLE = 100
MAX_CHECKED = 2000  # the references' finite differences: at most this many elements, at random
TOLERANCE = 1e-3  # agrees when |MindSpore - reference| <= TOLERANCE * max(1, |reference|) (float32)
STEP = 1e-5  # the central-difference step, in float64


class TransformError(SessionError):
    """A transform that cannot be asked (an unknown node, an element outside its shape, too large
    without a sample): the message says why and what to do."""


def _agree(ms: np.ndarray, ref: np.ndarray) -> bool:
    ms, ref = np.asarray(ms, np.float64), np.asarray(ref, np.float64)
    with np.errstate(invalid="ignore"):
        bad = np.abs(ms - ref) > TOLERANCE * np.maximum(1.0, np.abs(ref))
    return bool(ms.shape == ref.shape and not np.any(bad[~np.isnan(ref)]))


def label(name: str, shape: tuple[int, ...], flat: int) -> str:
    """`w[1,2]` for flat index 5 of a (5, 3) tensor; a scalar is its name."""
    if not shape:
        return name
    return f"{name}[{','.join(str(int(i)) for i in np.unravel_index(flat, shape))}]"


@dataclass
class Kink:
    """An op at a point where it is not differentiable (ReLU's input exactly 0)."""

    node: str
    count: int  # elements exactly at the kink
    text: Msg


@dataclass
class HigherOrder:
    """∂²L/∂p_i² by grad of grad, and the Hessian of L over `elements` of the Parameter (all of
    it, or a sample: rows and columns the same elements)."""

    param: str
    shape: tuple[int, ...]
    element: int  # flat index of the element differentiated twice
    second: float  # MindSpore: grad(grad(f))(0) with f(t) = L(p + t·e_i)
    second_ref: float  # float64 central differences of the reference gradient
    elements: np.ndarray  # flat indices of the Hessian's rows (and columns)
    hessian: np.ndarray  # MindSpore, (k, k); NaN where it could not compute it
    hessian_ref: np.ndarray
    sampled: bool
    calls: tuple[str, str]  # the MindSpore calls: the second derivative's, the Hessian's
    error: str = ""  # MindSpore's own message where it could not differentiate twice
    kinks: tuple[Kink, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.error and _agree(self.second, self.second_ref) and _agree(self.hessian, self.hessian_ref)

    @property
    def label(self) -> str:
        return label(self.param, self.shape, self.element)

    def note(self) -> str:
        """Why MindSpore's side is missing or disagrees, where it is or does ("" otherwise)."""
        if self.error:
            return Msg("Transforms", "MindSpore could not differentiate twice: {error}").format(error=self.error)
        if not self.ok and np.all(self.hessian == 0) and self.second == 0 and np.any(self.hessian_ref != 0):
            return Msg(
                "Transforms",
                "MindSpore returned 0 where finite differences do not: an op of this graph has no second "
                "derivative in this MindSpore (the tutorial's binary_cross_entropy_with_logits has none), "
                "and grad of grad treats it as a constant",
            )
        return ""

    def to_json(self) -> dict:
        return {
            "transform": "hessian",
            "ok": self.ok,
            "param": self.param,
            "shape": list(self.shape),
            "element": self.element,
            "label": self.label,
            "second_derivative": _num(self.second),
            "second_derivative_reference": self.second_ref,
            "elements": [int(i) for i in self.elements],
            "sampled": self.sampled,
            "hessian": _list(self.hessian),
            "hessian_reference": _list(self.hessian_ref),
            "calls": list(self.calls),
            "tolerance": TOLERANCE,
            "error": self.error,
            "note": str(self.note()),
            "kinks": [{"node": k.node, "elements": k.count, "text": str(k.text)} for k in self.kinks],
        }


@dataclass
class Jacobian:
    """∂node/∂param as a matrix (node elements x Parameter elements, both flat), by jacrev and
    by jacfwd, over `rows` x `cols` (all, or a sample); and the chain rule: Jᵀ · ∂L/∂node."""

    node: str
    param: str
    node_shape: tuple[int, ...]
    param_shape: tuple[int, ...]
    rows: np.ndarray
    cols: np.ndarray
    jacrev: np.ndarray
    jacfwd: np.ndarray
    reference: np.ndarray
    sampled: bool
    seconds: tuple[float, float]  # jacrev's and jacfwd's time, compile included
    upstream: np.ndarray  # ∂L/∂node, MindSpore's (the graph view's gradient of the node)
    chain: np.ndarray  # Jᵀ · upstream over `cols` (MindSpore's vjp with the upstream)
    grad: np.ndarray  # ∂L/∂param over `cols` (MindSpore's grad)
    all_paths: bool  # every path from the Parameter to L passes through the node: chain == grad
    calls: tuple[str, str]
    error: str = ""
    kinks: tuple[Kink, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.error and _agree(self.jacrev, self.reference) and _agree(self.jacfwd, self.reference)

    @property
    def outputs(self) -> int:
        return numel(self.node_shape)

    @property
    def inputs(self) -> int:
        return numel(self.param_shape)

    def cheaper(self) -> Msg:
        """Which of jacrev and jacfwd needs fewer passes here, and why."""
        m, n = self.outputs, self.inputs
        which = "jacrev" if m < n else "jacfwd" if n < m else ""
        text = Msg(
            "Transforms",
            "jacrev builds the Jacobian a row at a time, one backward pass (a VJP) for each of the {m} "
            "elements of {node}; jacfwd a column at a time, one forward-mode pass (a JVP) for each of "
            "the {n} elements of {param}.",
        ).format(m=m, n=n, node=self.node, param=self.param)
        if which:
            more = Msg("Transforms", "Here {which} is cheaper: {few} passes instead of {many}.").format(
                which=which, few=min(m, n), many=max(m, n)
            )
        else:
            more = Msg("Transforms", "Here both need {m} passes.").format(m=m)
        return Msg("Transforms", "{text} {more}").format(text=text, more=more)

    def to_json(self) -> dict:
        return {
            "transform": "jacobian",
            "ok": self.ok,
            "node": self.node,
            "param": self.param,
            "node_shape": list(self.node_shape),
            "param_shape": list(self.param_shape),
            "rows": [int(i) for i in self.rows],
            "cols": [int(i) for i in self.cols],
            "sampled": self.sampled,
            "jacrev": _list(self.jacrev),
            "jacfwd": _list(self.jacfwd),
            "reference": _list(self.reference),
            "seconds": list(self.seconds),
            "cheaper": str(self.cheaper()),
            "upstream": _list(self.upstream),
            "chain": _list(self.chain),
            "grad": _list(self.grad),
            "all_paths": self.all_paths,
            "calls": list(self.calls),
            "tolerance": TOLERANCE,
            "error": self.error,
            "kinks": [{"node": k.node, "elements": k.count, "text": str(k.text)} for k in self.kinks],
        }


@dataclass
class Products:
    """vjp(node)(v) = Jᵀ v and jvp(node)(u) = J u with the chosen vectors, and grad as the VJP of
    L with a one; each with its float64 reference (NaN where not checked)."""

    node: str
    param: str
    v: np.ndarray  # node-shaped
    u: np.ndarray  # Parameter-shaped
    vjp: np.ndarray  # Parameter-shaped
    vjp_ref: np.ndarray
    jvp: np.ndarray  # node-shaped
    jvp_ref: np.ndarray
    grad: np.ndarray  # ms.grad(L)(p)
    grad_vjp: np.ndarray  # ms.vjp(L, p)[1](1.0)
    grad_ref: np.ndarray
    calls: tuple[str, str, str, str]
    error: str = ""
    kinks: tuple[Kink, ...] = ()
    checked: int = field(default=0)  # elements of the Parameter the references cover

    @property
    def ok(self) -> bool:
        return (
            not self.error
            and _agree(self.vjp, self.vjp_ref)
            and _agree(self.jvp, self.jvp_ref)
            and _agree(self.grad_vjp, self.grad_ref)
            and _agree(self.grad, self.grad_vjp)
        )

    def to_json(self) -> dict:
        return {
            "transform": "vjp",
            "ok": self.ok,
            "node": self.node,
            "param": self.param,
            **{k: _list(getattr(self, k)) for k in ("v", "u", "vjp", "vjp_ref", "jvp", "jvp_ref")},
            **{k: _list(getattr(self, k)) for k in ("grad", "grad_vjp", "grad_ref")},
            "checked": self.checked,
            "calls": list(self.calls),
            "tolerance": TOLERANCE,
            "error": self.error,
            "kinks": [{"node": k.node, "elements": k.count, "text": str(k.text)} for k in self.kinks],
        }


def _num(x) -> float | None:
    x = float(x)
    return x if np.isfinite(x) else None


def _list(a) -> list:
    """JSON of a float array: NaN (not computed, not checked) as null."""
    a = np.asarray(a, np.float64)
    return np.where(np.isnan(a), None, a).tolist() if a.ndim else _num(a)


# -- checking what is asked --------------------------------------------------------------------------
def _param(session: Session, name: str | None) -> str:
    params = [n.name for n in session.graph.parameters()]
    if name is None:
        return params[0]
    if name not in params:
        raise TransformError(
            Msg("Transforms", "{name} is not a Parameter of the graph; the Parameters are {names}").format(
                name=name, names=", ".join(params)
            )
        )
    return name


def _node(session: Session, shapes: dict, name: str | None) -> str:
    """The node to differentiate: any computed node (an Output's source for an Output), by
    default the first auxiliary output's source (the tutorial's z), else the loss."""
    g = session.graph
    if name is None:
        outs = g.outputs()
        return (outs[1] if len(outs) > 1 else outs[0]).inputs["x"]
    n = g.get(name)
    if n is not None and n.kind == "Output":
        name, n = n.inputs["x"], g.get(n.inputs["x"])
    if n is None or name not in shapes:
        raise TransformError(Msg("Transforms", "there is no node {name} in the graph").format(name=name))
    return name


def _element(name: str, shape: tuple[int, ...], i: int) -> int:
    n = numel(shape)
    if isinstance(i, bool) or not isinstance(i, int | np.integer) or not 0 <= i < n:
        raise TransformError(
            Msg("Transforms", "element {i} is outside {node}'s shape {shape} ({n} elements: 0 to {last})").format(
                i=i, node=name, shape=tuple(shape), n=n, last=n - 1
            )
        )
    return int(i)


def _sample_size(sample: int | None) -> int:
    k = SAMPLE if sample is None else sample
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or not 1 <= k <= MAX_SAMPLE:
        raise TransformError(
            Msg("Transforms", "the sample is 1 to {most} elements, not {k}").format(most=MAX_SAMPLE, k=sample)
        )
    return int(k)


def _vector(name: str, shape: tuple[int, ...], given, what: str) -> np.ndarray:
    """The vector a product takes: ones by default, one number for every element, or one per element."""
    if given is None:
        return np.ones(shape)
    a = np.asarray(given, np.float64).reshape(-1)
    n = numel(shape)
    if a.size == 1:
        a = np.full(n, a[0])
    if a.size != n or not np.all(np.isfinite(a)):
        raise TransformError(
            Msg(
                "Transforms", "{what} must have {node}'s {n} elements (shape {shape}) or be one number, not {k}"
            ).format(what=what, node=name, n=n, shape=tuple(shape), k=a.size)
        )
    return a.reshape(shape)


def _draw(n: int, k: int, seed: int) -> np.ndarray:
    return np.sort(np.random.RandomState(seed).choice(n, k, replace=False))


# -- the reference --------------------------------------------------------------------------------
class _Reference:
    """The float64 side at the same point: node values, ∂L/∂node (op table backward), and
    StopGradient nodes held at their values there (autodiff sees them as constants)."""

    def __init__(self, session: Session, params: dict[str, np.ndarray]):
        self.session, g = session, session.graph
        base = {k: np.asarray(v, np.float64) for k, v in initial_values(g, session.options.seed).items()}
        base.update({k: np.asarray(v, np.float64) for k, v in params.items()})
        self.base = base
        self.values = numeric.forward(g, base)
        self.held = {n.name: self.values[n.name] for n in g.nodes if n.kind in OPS and OPS[n.kind].blocks_gradient}
        self.L = objective(session, base)

    def value(self, node: str, param: str, p: np.ndarray) -> np.ndarray:
        return numeric.forward(self.session.graph, {**self.base, param: p}, self.held)[node]

    def gradient(self, param: str, p: np.ndarray) -> np.ndarray:
        v = numeric.forward(self.session.graph, {**self.base, param: p}, self.held)
        return numeric.backward(self.session.graph, v, numeric.seeds(self.session))[param]

    def along(self, f, param: str, direction: np.ndarray) -> np.ndarray:
        """(f(p + h·d) - f(p - h·d)) / 2h: f's derivative along d, central differences."""
        p = self.base[param]
        return (np.asarray(f(p + STEP * direction)) - np.asarray(f(p - STEP * direction))) / (2 * STEP)

    def unit(self, param: str, i: int) -> np.ndarray:
        e = np.zeros(self.base[param].size)
        e[i] = 1.0
        return e.reshape(self.base[param].shape)


def kinks(session: Session, values: dict[str, np.ndarray]) -> tuple[Kink, ...]:
    """The ops whose input sits exactly on their kink at these values (ReLU at 0)."""
    out = []
    for n in session.graph.topo_order():
        k = OPS.get(n.kind)
        if k is None or k.kink is None:
            continue
        x = np.asarray(values[n.inputs["x"]])
        count = int(np.sum(x == k.kink))
        if count:
            out.append(
                Kink(
                    n.name,
                    count,
                    Msg(
                        "Transforms",
                        "{node}: {count} elements of its input are exactly {at}, where {kind} has no derivative; "
                        "MindSpore takes the slope of one side there and finite differences straddle the kink, "
                        "so they may disagree at those elements",
                    ).format(node=n.name, count=count, at=k.kink, kind=n.kind),
                )
            )
    return tuple(out)


def reaches_around(session: Session, param: str, node: str) -> bool:
    """Whether the Parameter reaches L by a path that does not pass through `node`."""
    g = session.graph
    seeds = set(numeric.seeds(session))
    users: dict[str, list[str]] = {}
    for n in g.topo_order():
        if n.is_source or n.kind == "Output":
            continue
        k = OPS[n.kind]
        for src in [n.inputs.get(q) for q in k.ports] + [owned_name(n.name, o.name) for o in k.params]:
            users.setdefault(src, []).append(n.name)
    todo, seen = [param], {param}
    while todo:
        cur = todo.pop()
        if cur in seeds:
            return True
        for u in users.get(cur, ()):
            if u != node and u not in seen and not OPS[g.get(u).kind].blocks_gradient:
                seen.add(u)
                todo.append(u)
    return False


# -- MindSpore's side -----------------------------------------------------------------------------
class _Program:
    """The generated program at a point: gv_values with one Parameter as the argument, for the
    node's value and for L. Runs MindSpore in this process (the engine process's main thread)."""

    def __init__(self, session: Session, params: dict[str, np.ndarray] | None):
        from ..engine.checkpoints import TrainingState
        from ..engine.engine import Engine

        import mindspore as ms

        self.ms = ms
        self.engine = e = Engine(session)
        if params:
            e.restore(TrainingState(0, params, {}, float(session.options.lr)))
        self.params = e.current_params()
        self.shapes = e.shapes
        self.names = e.program.param_names
        self.nodes = e.program.node_names
        self.module = e._module  # the generated module: gv_values is the graph as MindSpore runs it
        self.inputs = list(e._inputs)
        self.seeds = [self.nodes.index(s) for s in numeric.seeds(session)]

    def close(self) -> None:
        self.engine.close()

    def tensor(self, a) -> object:
        return self.ms.Tensor(np.asarray(a, np.float32))

    def value_fn(self, node: str, param: str):
        """node's value as a function of the Parameter `param` (the others at their values)."""
        mod, inputs, k = self.module, self.inputs, self.nodes.index(node)
        fixed = [None if n == param else self.tensor(self.params[n]) for n in self.names]

        def value(p):
            return mod.gv_values(*inputs, *[p if f is None else f for f in fixed])[k]

        return value

    def loss_fn(self, param: str):
        """L as a function of the Parameter `param`: the loss plus the sum of each differentiated
        auxiliary output."""
        from mindspore import ops

        mod, inputs, seeds = self.module, self.inputs, self.seeds
        fixed = [None if n == param else self.tensor(self.params[n]) for n in self.names]

        def L(p):
            v = mod.gv_values(*inputs, *[p if f is None else f for f in fixed])
            total = ops.sum(v[seeds[0]])
            for s in seeds[1:]:
                total = total + ops.sum(v[s])
            return total

        return L


def _numpy(t, shape) -> np.ndarray:
    return np.asarray(t.asnumpy(), np.float64).reshape(shape)


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return (text[0] if text else type(e).__name__)[:300]


def _point(session: Session, params) -> tuple[_Program, _Reference]:
    prog = _Program(session, params)
    return prog, _Reference(session, prog.params)


def higher_order(
    session: Session,
    param: str | None = None,
    element: int = 0,
    params: dict[str, np.ndarray] | None = None,
    sample: int | None = None,
    seed: int = 0,
    progress=None,
    cancelled=None,
) -> HigherOrder:
    """∂²L/∂p_i² by grad of grad and the Hessian of L over the Parameter `param` (a random
    sample of `sample` elements, the element i among them, where it has more than MAX_HESSIAN
    elements and a sample is asked for), at the session's initial parameters or at `params`."""
    param = _param(session, param)
    shape = tuple(session.graph.check()[param])
    n = numel(shape)
    i = _element(param, shape, element)
    if n > MAX_HESSIAN and sample is None:
        raise TransformError(
            Msg(
                "Transforms",
                "{param} has {n} elements: its Hessian would be {n} x {n} = {entries} numbers (up to {most} "
                "elements here); ask for a sample of its elements instead",
            ).format(param=param, n=n, entries=f"{n * n:,}", most=MAX_HESSIAN)
        )
    sampled = n > MAX_HESSIAN
    if sampled:
        k = _sample_size(sample)
        rest = np.delete(np.arange(n), i)
        elements = np.sort(np.concatenate([[i], rest[_draw(n - 1, min(k, n) - 1, seed)]]))
    else:
        elements = np.arange(n)
    prog, ref = _point(session, params)
    try:
        ms = prog.ms
        L = prog.loss_fn(param)
        p = prog.tensor(prog.params[param])
        # the reference: central differences of the float64 gradient along each element shown
        href = np.empty((len(elements), len(elements)))
        for c, j in enumerate(elements):
            if cancelled is not None and cancelled():
                raise InterruptedError("transform cancelled")
            col = ref.along(lambda q: ref.gradient(param, q), param, ref.unit(param, int(j))).reshape(-1)
            href[:, c] = col[elements]
            if progress is not None:
                progress(0.5 * (c + 1) / len(elements))
        second_ref = float(href[list(elements).index(i), list(elements).index(i)])
        e_i = prog.tensor(ref.unit(param, i))
        error = ""
        hess = np.full((len(elements), len(elements)), np.nan)
        second = float("nan")

        def f(t):
            return L(p + t * e_i)

        try:
            second = float(ms.grad(ms.grad(f))(ms.Tensor(0.0, ms.float32)).asnumpy())
            if not sampled:
                hess = _numpy(ms.jacfwd(ms.grad(L))(p), (n, n))
            else:  # a column at a time, as jacfwd does: the JVP of grad(L) along each element
                for c, j in enumerate(elements):
                    if cancelled is not None and cancelled():
                        raise InterruptedError("transform cancelled")
                    _, col = ms.jvp(ms.grad(L), p, prog.tensor(ref.unit(param, int(j))))
                    hess[:, c] = _numpy(col, (n,))[elements]
                    if progress is not None:
                        progress(0.5 + 0.5 * (c + 1) / len(elements))
        except InterruptedError:
            raise
        except Exception as ex:  # MindSpore cannot differentiate some op twice: said, not raised
            error = _first_line(ex)
        hcall = (
            f"mindspore.jacfwd(mindspore.grad(L))({param})"
            if not sampled
            else f"mindspore.jvp(mindspore.grad(L), {param}, e_j) for {len(elements)} sampled j"
        )
        return HigherOrder(
            param,
            shape,
            i,
            second,
            second_ref,
            elements,
            hess,
            href,
            sampled,
            (f"mindspore.grad(mindspore.grad(f))(0.0), f(t) = L({param} + t·e_{i})", hcall),
            error,
            kinks(session, ref.values),
        )
    finally:
        prog.close()


def jacobian(
    session: Session,
    node: str | None = None,
    param: str | None = None,
    params: dict[str, np.ndarray] | None = None,
    sample: int | None = None,
    seed: int = 0,
    progress=None,
    cancelled=None,
) -> Jacobian:
    """∂node/∂param by jacrev and jacfwd (or, where it has more than MAX_JACOBIAN entries and a
    sample is asked for, `sample` rows by VJPs and `sample` columns by JVPs, as those two build it)."""
    shapes = session.graph.check()
    param = _param(session, param)
    node = _node(session, shapes, node)
    nshape, pshape = tuple(shapes[node]), tuple(shapes[param])
    m, n = numel(nshape), numel(pshape)
    if m * n > MAX_JACOBIAN and sample is None:
        raise TransformError(
            Msg(
                "Transforms",
                "the Jacobian of {node} ({m} elements) with respect to {param} ({n} elements) has {entries} "
                "numbers (up to {most} here); ask for a sample of its rows and columns instead",
            ).format(node=node, m=m, param=param, n=n, entries=f"{m * n:,}", most=f"{MAX_JACOBIAN:,}")
        )
    sampled = m * n > MAX_JACOBIAN
    if sampled:
        k = _sample_size(sample)
        rows, cols = _draw(m, min(k, m), seed), _draw(n, min(k, n), seed + 1)
    else:
        rows, cols = np.arange(m), np.arange(n)
    prog, ref = _point(session, params)
    try:
        ms = prog.ms
        fn = prog.value_fn(node, param)
        p = prog.tensor(prog.params[param])
        reference = np.empty((len(rows), len(cols)))
        for c, j in enumerate(cols):
            if cancelled is not None and cancelled():
                raise InterruptedError("transform cancelled")
            col = ref.along(lambda q: ref.value(node, param, q), param, ref.unit(param, int(j))).reshape(-1)
            reference[:, c] = col[rows]
        if progress is not None:
            progress(0.3)
        rev = np.full((len(rows), len(cols)), np.nan)
        fwd = rev.copy()
        seconds = [float("nan"), float("nan")]
        error = ""
        try:
            if not sampled:
                t0 = time.perf_counter()
                rev = _numpy(ms.jacrev(fn)(p), (m, n))
                t1 = time.perf_counter()
                fwd = _numpy(ms.jacfwd(fn)(p), (m, n))
                seconds = [t1 - t0, time.perf_counter() - t1]
            else:
                t0 = time.perf_counter()
                for r, i in enumerate(rows):  # a row at a time, as jacrev does: a VJP with e_i
                    _, vjp_fn = ms.vjp(fn, p)
                    rev[r] = _numpy(_one(vjp_fn(prog.tensor(ref_unit(nshape, int(i))))), (n,))[cols]
                t1 = time.perf_counter()
                for c, j in enumerate(cols):  # a column at a time, as jacfwd does: a JVP with e_j
                    _, col = ms.jvp(fn, p, prog.tensor(ref.unit(param, int(j))))
                    fwd[:, c] = _numpy(col, (m,))[rows]
                seconds = [t1 - t0, time.perf_counter() - t1]
        except Exception as ex:
            error = _first_line(ex)
        if progress is not None:
            progress(0.8)
        # the chain rule: the engine's ∂L/∂node (the graph view's), pulled back by the VJP
        upstream = np.asarray(prog.engine.node_snapshot().grads[node], np.float64)
        chain = grad = np.full(len(cols), np.nan)
        try:
            _, vjp_fn = ms.vjp(fn, p)
            chain = _numpy(_one(vjp_fn(prog.tensor(upstream))), (n,))[cols]
            grad = _numpy(ms.grad(prog.loss_fn(param))(p), (n,))[cols]
        except Exception as ex:
            error = error or _first_line(ex)
        calls = (
            (f"mindspore.jacrev({node}_of_{param})({param})", f"mindspore.jacfwd({node}_of_{param})({param})")
            if not sampled
            else (
                f"mindspore.vjp({node}_of_{param}, {param}) with e_i for {len(rows)} sampled rows",
                f"mindspore.jvp({node}_of_{param}, {param}, e_j) for {len(cols)} sampled columns",
            )
        )
        return Jacobian(
            node,
            param,
            nshape,
            pshape,
            rows,
            cols,
            rev,
            fwd,
            reference,
            sampled,
            tuple(seconds),
            upstream,
            chain,
            grad,
            not reaches_around(session, param, node),
            calls,
            error,
            kinks(session, ref.values),
        )
    finally:
        prog.close()


def ref_unit(shape: tuple[int, ...], i: int) -> np.ndarray:
    e = np.zeros(numel(shape))
    e[i] = 1.0
    return e.reshape(shape)


def _one(t):
    """vjp's function returns a tuple of one gradient per input: the one."""
    return t[0] if isinstance(t, tuple) else t


def products(
    session: Session,
    node: str | None = None,
    param: str | None = None,
    v=None,
    u=None,
    params: dict[str, np.ndarray] | None = None,
    progress=None,
    cancelled=None,
) -> Products:
    """vjp of the node with `v` (ones by default), jvp with `u` (ones), and grad(L) beside the
    VJP of L with a one; the references by central differences (the VJP's at up to MAX_CHECKED
    elements of the Parameter, at random)."""
    shapes = session.graph.check()
    param = _param(session, param)
    node = _node(session, shapes, node)
    nshape, pshape = tuple(shapes[node]), tuple(shapes[param])
    v = _vector(node, nshape, v, "v")
    u = _vector(param, pshape, u, "u")
    n = numel(pshape)
    chosen = np.arange(n) if n <= MAX_CHECKED else _draw(n, MAX_CHECKED, 0)
    prog, ref = _point(session, params)
    try:
        ms = prog.ms
        fn, L = prog.value_fn(node, param), prog.loss_fn(param)
        p = prog.tensor(prog.params[param])
        vjp_ref = np.full(n, np.nan)
        grad_ref = np.full(n, np.nan)
        for c, j in enumerate(chosen):  # ∂(v · node)/∂p_j and ∂L/∂p_j, one element at a time
            if cancelled is not None and cancelled():
                raise InterruptedError("transform cancelled")
            e = ref.unit(param, int(j))
            vjp_ref[j] = float(np.sum(v * ref.along(lambda q: ref.value(node, param, q), param, e)))
            grad_ref[j] = float(ref.along(lambda q: ref.L({param: q}), param, e))
            if progress is not None and c % 50 == 0:
                progress(0.8 * (c + 1) / len(chosen))
        jvp_ref = ref.along(lambda q: ref.value(node, param, q), param, u)
        nan_n, nan_m = np.full(pshape, np.nan), np.full(nshape, np.nan)
        vjp, jvp, grad, grad_vjp = nan_n, nan_m, nan_n, nan_n
        error = ""
        try:
            _, vjp_fn = ms.vjp(fn, p)
            vjp = _numpy(_one(vjp_fn(prog.tensor(v))), pshape)
            _, jv = ms.jvp(fn, p, prog.tensor(u))
            jvp = _numpy(jv, nshape)
            grad = _numpy(ms.grad(L)(p), pshape)
            _, l_vjp = ms.vjp(L, p)
            grad_vjp = _numpy(_one(l_vjp(ms.Tensor(1.0, ms.float32))), pshape)
        except Exception as ex:
            error = _first_line(ex)
        return Products(
            node,
            param,
            v,
            u,
            vjp,
            vjp_ref.reshape(pshape),
            jvp,
            np.asarray(jvp_ref, np.float64).reshape(nshape),
            grad,
            grad_vjp,
            grad_ref.reshape(pshape),
            (
                f"out, vjp_fn = mindspore.vjp({node}_of_{param}, {param}); vjp_fn(v)",
                f"mindspore.jvp({node}_of_{param}, {param}, u)",
                f"mindspore.grad(L)({param})",
                f"out, vjp_fn = mindspore.vjp(L, {param}); vjp_fn(1.0)",
            ),
            error,
            kinks(session, ref.values),
            len(chosen),
        )
    finally:
        prog.close()

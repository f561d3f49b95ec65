"""The computation graph: node kinds, shape inference and validation.

Qt-free and MindSpore-free, so that the editor, the session loader and the CLI can check a graph
without starting a runtime. Every problem names the node and the rule it breaks.
"""

from __future__ import annotations

import keyword
import math
import threading
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

# The kinds come from the one op table (ops.py); these names are views of it.
from .ops import DATA_KINDS, DESCRIPTIONS, KINDS, LOSS_KINDS, OPS, PORTS, SOURCE_KINDS, owned_name, shape_str  # noqa: F401
from . import datasets
from .datasets import DATA_INITS
from ..i18n import Msg
from .formatting import quote, shorten

MAX_ELEMENTS = 1_000_000  # per tensor; larger shapes are refused before anything is allocated
MAX_DIM = 1_000_000
MAX_NDIM = 2
MAX_NODES = 200

INITS = ("ones", "zeros", "randn", "values", *DATA_INITS)  # the last: an Input fed by the Dataset node

RESERVED_PREFIX = "gv_"  # every identifier the code generators make up for themselves starts so
# The identifiers the code generators (codegen.py, scripts.py) use outside gv_: no node may take
# one (tests/test_properties.py checks this is exactly what the generated programs use). "Tensor"
# is one MindSpore's graph compiler resolves itself, whatever the program binds it to: as a node
# name it fails mindspore.jit (with mindspore 2.10, the only Python builtin or MindSpore word that does).
RESERVED_NAMES = frozenset(
    {
        *("Network", "OrderedDict", "Parameter", "Tensor", "_", "__init__", "all", "construct", "float"),
        "forward_backward",
        *("forward_fn", "function", "globals", "grad", "grad_fn", "gradient", "grads", "loss_value"),
        *("mindspore", "network", "nn", "np", "ops", "optimizer", "param", "print", "range", "self", "step"),
        *("step_loss", "super", "torch", "train_step"),
    }
)


class GraphError(ValueError):
    """A graph that cannot be built; the message names the node and the rule broken."""


@dataclass
class Problem:
    node: str | None  # None for problems of the whole graph
    message: str

    def __str__(self) -> str:
        return self.message


@dataclass
class Node:
    name: str
    kind: str
    inputs: dict[str, str] = field(default_factory=dict)  # port -> source node name
    shape: tuple[int, ...] = ()
    init: str = "zeros"
    values: Any = None  # nested lists in `shape` when init == "values"
    requires_grad: bool = True
    pos: tuple[float, float] = (0.0, 0.0)
    attrs: dict[str, float] = field(default_factory=dict)  # the kind's attributes (ops.Attr) set; defaults for the rest

    @property
    def is_source(self) -> bool:
        return self.kind in SOURCE_KINDS

    @property
    def is_data(self) -> bool:
        """An Input whose values are the Dataset node's mini-batches (init features, onehot, labels)."""
        return self.kind == "Input" and self.init in DATA_INITS

    @property
    def is_trainable(self) -> bool:
        return self.kind == "Parameter" and self.requires_grad

    def label(self) -> str:
        return f"{self.kind} {quote(self.name)}"

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.is_source:
            d["shape"] = list(self.shape)
            d["init"] = self.init
            if self.init == "values":
                d["values"] = self.values
            if self.kind == "Parameter":
                d["requires_grad"] = self.requires_grad
        else:
            d["inputs"] = dict(self.inputs)
        if OPS[self.kind].attrs:
            d["attrs"] = OPS[self.kind].attr_values(self.attrs)
        d["pos"] = [float(self.pos[0]), float(self.pos[1])]
        return d


def copy_values(v: Any, depth: int) -> Any:
    """A copy of `depth` levels of nested lists of numbers (a node's values, `depth` its number
    of axes), the innermost sliced whole; the numbers themselves are immutable."""
    if not isinstance(v, list):
        return v
    if depth <= 1:
        return v[:]
    return [copy_values(x, depth - 1) for x in v]


def numel(shape: tuple[int, ...]) -> int:
    return int(math.prod(shape)) if shape else 1


class Graph:
    """An ordered set of named nodes. Order matters: it fixes argument order and init order."""

    def __init__(self, nodes: list[Node] | None = None):
        self.nodes: list[Node] = list(nodes or [])

    # -- access -------------------------------------------------------------------------------
    def __iter__(self):
        return iter(self.nodes)

    def __len__(self) -> int:
        return len(self.nodes)

    def get(self, name: str) -> Node | None:
        for n in self.nodes:
            if n.name == name:
                return n
        return None

    def __getitem__(self, name: str) -> Node:
        n = self.get(name)
        if n is None:
            raise KeyError(name)
        return n

    def names(self) -> list[str]:
        return [n.name for n in self.nodes]

    def copy(self) -> Graph:
        # field by field: copy.deepcopy walks every value one by one, slowly, on the GUI thread
        return Graph(
            [
                replace(n, inputs=dict(n.inputs), attrs=dict(n.attrs), values=copy_values(n.values, len(n.shape)))
                for n in self.nodes
            ]
        )

    def inputs(self) -> list[Node]:
        return [n for n in self.sources() if n.kind == "Input"]

    def dataset(self) -> Node | None:
        """The Dataset node (at most one is allowed), or None."""
        return next((n for n in self.nodes if n.kind in DATA_KINDS), None)

    def data_spec(self) -> datasets.DataSpec | None:
        """The Dataset node's settings, or None without one (or with unusable attributes)."""
        d = self.dataset()
        if d is None or attr_problems(d.kind, d.attrs):
            return None
        return datasets.DataSpec.from_attrs(OPS[d.kind].attr_values(d.attrs))

    def data_inputs(self) -> list[Node]:
        """The Inputs fed by the Dataset node, in graph order."""
        return [n for n in self.inputs() if n.is_data]

    def _fed(self, n: Node, spec: datasets.DataSpec | None) -> Node:
        """An Input fed by the Dataset with the shape of a full batch (its own shape otherwise)."""
        if not n.is_data or spec is None or spec.problems():
            return n
        return replace(n, shape=datasets.data_shape(spec, n.init, spec.batch_size), values=None)

    def owned(self, n: Node) -> list[Node]:
        """The Parameters node `n` holds itself (ops.OwnedParam: a Dense node's weight and bias),
        as Parameter nodes named owned_name(n, ...); none for other kinds or unusable attributes."""
        k = OPS.get(n.kind)
        if k is None or not k.params or attr_problems(n.kind, n.attrs):
            return []
        vals = k.attr_values(n.attrs)
        return [
            Node(owned_name(n.name, o.name), "Parameter", shape=o.shape(vals), init=vals[o.init_attr], pos=n.pos)
            for o in k.params
        ]

    def sources(self) -> list[Node]:
        """Every Input and Parameter in graph order, a node's own Parameters where the node is."""
        out: list[Node] = []
        spec = self.data_spec()
        for n in self.nodes:
            out += [self._fed(n, spec)] if n.is_source else self.owned(n)
        return out

    def parameters(self) -> list[Node]:
        return [n for n in self.sources() if n.kind == "Parameter"]

    def trainable(self) -> list[Node]:
        return [n for n in self.sources() if n.is_trainable]

    def outputs(self) -> list[Node]:
        return [n for n in self.nodes if n.kind == "Output"]

    def loss_output(self) -> Node | None:
        outs = self.outputs()
        return outs[0] if outs else None

    def aux_outputs(self) -> list[Node]:
        return self.outputs()[1:]

    def args(self) -> list[Node]:
        """Arguments of the generated function: inputs first, then parameters (tutorial order)."""
        return self.inputs() + self.parameters()

    def unique_name(self, stem: str) -> str:
        stem = "".join(c if (c.isalnum() or c == "_") else "_" for c in stem) or "node"
        if stem[0].isdigit():
            stem = "n_" + stem
        taken = set(self.names())
        if stem not in taken and check_name(stem) is None:
            return stem
        i = 1
        while f"{stem}{i}" in taken or check_name(f"{stem}{i}") is not None:
            i += 1
        return f"{stem}{i}"

    def to_dict(self) -> dict:
        spec = self.data_spec()
        return {"nodes": [self._fed(n, spec).to_dict() for n in self.nodes]}

    # -- analysis -----------------------------------------------------------------------------
    def topo_order(self) -> list[Node]:
        """Nodes so that every node comes after its sources (stable w.r.t. graph order).

        Raises GraphError naming a cycle."""
        by_name = {n.name: n for n in self.nodes}
        state: dict[str, int] = {}
        order: list[Node] = []

        def visit(n: Node, path: list[str]) -> None:
            s = state.get(n.name, 0)
            if s == 2:
                return
            if s == 1:
                cyc = path[path.index(n.name) :] + [n.name]
                raise GraphError(
                    Msg("Graph", "{node}: the graph has a cycle: {cycle}").format(
                        node=n.label(), cycle=" -> ".join(cyc)
                    )
                )
            state[n.name] = 1
            for port in PORTS.get(n.kind, ()):
                src = by_name.get(n.inputs.get(port, ""))
                if src is not None:
                    visit(src, path + [n.name])
            state[n.name] = 2
            order.append(n)

        for n in self.nodes:
            if n.kind not in DATA_KINDS:  # the Dataset feeds Inputs, outside the computation
                visit(n, [])
        return order

    def infer_shapes(self) -> tuple[dict[str, tuple[int, ...] | None], list[Problem]]:
        """Shape of every node (None where it cannot be known) and every problem found."""
        problems: list[Problem] = []
        shapes: dict[str, tuple[int, ...] | None] = {}
        by_name: dict[str, Node] = {}
        for n in self.nodes:
            if n.name in by_name:
                problems.append(
                    Problem(
                        n.name,
                        Msg("Graph", "{node}: the name {name} is used twice").format(
                            node=n.label(), name=quote(n.name)
                        ),
                    )
                )
            by_name.setdefault(n.name, n)
        for n in self.nodes:
            msg = check_name(n.name)
            if msg:
                problems.append(Problem(n.name, _on(n, msg)))
            if n.kind not in PORTS:
                problems.append(
                    Problem(
                        n.name,
                        Msg("Graph", "node {name}: unknown kind {kind}").format(name=quote(n.name), kind=quote(n.kind)),
                    )
                )
                continue
            problems += [Problem(n.name, _on(n, m)) for m in attr_problems(n.kind, n.attrs)]
            for o in self.owned(n):
                if o.name in by_name:
                    problems.append(
                        Problem(
                            n.name,
                            Msg("Graph", "{node}: its parameter {param} has the name of another node").format(
                                node=n.label(), param=quote(o.name)
                            ),
                        )
                    )
                elif (msg := check_name(o.name)) is not None:
                    problems.append(Problem(n.name, _on(n, msg)))
        problems += self._dataset_problems()
        try:
            order = self.topo_order()
        except GraphError as e:
            # mark every node on the cycle, and still report unconnected ports
            cycle = str(e).split("cycle: ")[-1].split(" -> ")
            for name in dict.fromkeys(cycle):
                if name in by_name:
                    problems.append(
                        Problem(
                            name,
                            Msg("Graph", "{node}: is on a cycle: {cycle}").format(
                                node=by_name[name].label(), cycle=" -> ".join(cycle)
                            ),
                        )
                    )
            for n in self.nodes:
                for port in PORTS.get(n.kind, ()):
                    if not n.inputs.get(port):
                        problems.append(Problem(n.name, _not_connected(n, port)))
            return {n.name: None for n in self.nodes}, problems

        for n in order:
            if n.kind not in PORTS:
                shapes[n.name] = None
                continue
            if n.is_source:
                msg = check_source(n) if not n.is_data else self._data_problem(n)
                if msg:
                    problems.append(Problem(n.name, _on(n, msg)))
                    shapes[n.name] = None
                else:
                    shapes[n.name] = tuple(self._fed(n, self.data_spec()).shape)
                continue
            ins: list[tuple[str, tuple[int, ...] | None]] = []
            ok = True
            for port in PORTS[n.kind]:
                src = n.inputs.get(port)
                if not src:
                    problems.append(Problem(n.name, _not_connected(n, port)))
                    ok = False
                    continue
                if src not in by_name:
                    problems.append(
                        Problem(
                            n.name,
                            Msg("Graph", "{node}: input port '{port}' refers to {source}, which does not exist").format(
                                node=n.label(), port=port, source=quote(src)
                            ),
                        )
                    )
                    ok = False
                    continue
                if by_name[src].kind == "Output":
                    problems.append(
                        Problem(
                            n.name,
                            Msg(
                                "Graph",
                                "{node}: input port '{port}' is fed by Output {source}; an Output only marks a result",
                            ).format(node=n.label(), port=port, source=quote(src)),
                        )
                    )
                    ok = False
                    continue
                ins.append((src, shapes.get(src)))
            extra = set(n.inputs) - set(PORTS[n.kind])
            if extra:
                problems.append(
                    Problem(
                        n.name,
                        Msg("Graph", "{node}: unknown input port(s) {ports}").format(
                            node=n.label(), ports=", ".join(quote(e, 40) for e in sorted(extra)[:5])
                        ),
                    )
                )
            if not ok or any(s is None for _, s in ins):
                shapes[n.name] = None
                continue
            k = OPS[n.kind]
            shape, msg = k.shape(ins, **k.attr_values(n.attrs)) if k.params else k.shape(ins)
            for o in self.owned(n):
                shapes[o.name] = tuple(o.shape)
            if msg:
                problems.append(Problem(n.name, _on(n, msg)))
            shapes[n.name] = shape
        return shapes, problems

    def _data_problem(self, n: Node) -> str | None:
        """Why an Input cannot take its values from the Dataset node, or None."""
        if self.dataset() is None:
            return Msg("Graph", "init {init} takes its values from a Dataset node, and the graph has none").format(
                init=n.init
            )
        spec = self.data_spec()
        if spec is None or spec.problems():
            return Msg("Graph", "its Dataset node cannot be used")
        return None

    def _dataset_problems(self) -> list[Problem]:
        """The Dataset node's problems, each naming the node and the field."""
        found = [n for n in self.nodes if n.kind in DATA_KINDS]
        out = [Problem(n.name, _on(n, Msg("Graph", "a graph takes at most one Dataset node"))) for n in found[1:]]
        if not found or attr_problems(found[0].kind, found[0].attrs):
            return out  # attribute problems are reported with the node's others
        d = found[0]
        out += [Problem(d.name, _on(d, m)) for m in self.data_spec().problems()]
        if not any(n.kind == "Input" and n.init in DATA_INITS for n in self.nodes):
            out.append(
                Problem(
                    d.name,
                    _on(d, Msg("Graph", "it feeds no Input: give an Input the init features, onehot or labels")),
                )
            )
        return out

    def validate(self) -> list[Problem]:
        """Every problem of the graph; an empty list means it can be trained."""
        if len(self.nodes) > MAX_NODES:
            return [Problem(None, too_many_nodes(len(self.nodes)))]
        shapes, problems = self.infer_shapes()
        outs = self.outputs()
        if not outs:
            problems.append(
                Problem(None, Msg("Graph", "the graph has no Output node: add an Output and connect the loss to it"))
            )
        else:
            loss = outs[0]
            s = shapes.get(loss.name)
            if s is not None and s != ():
                src = loss.inputs.get("x", "?")
                problems.append(
                    Problem(
                        loss.name,
                        Msg(
                            "Graph",
                            '{node}: the loss (first output) must be a scalar, but "{source}" has shape {shape}',
                        ).format(node=loss.label(), source=src, shape=shape_str(s)),
                    )
                )
        if not self.trainable():
            problems.append(
                Problem(None, Msg("Graph", "the graph has no trainable Parameter: there is nothing to train"))
            )
        return problems

    def check(self) -> dict[str, tuple[int, ...]]:
        """Shapes of all nodes, or GraphError with every problem, one per line."""
        problems = self.validate()
        if problems:
            raise GraphError("\n".join(p.message for p in problems))
        shapes, _ = self.infer_shapes()
        return shapes  # type: ignore[return-value]


def attr_problems(kind: str, attrs) -> list[Msg]:
    """Why these attributes cannot be those of a `kind` node (the op table's ops.Attr), if they cannot."""
    if not isinstance(attrs, dict):
        return [Msg("Graph", "attrs must map attribute names to numbers")]
    known = {a.name: a for a in OPS[kind].attrs}
    out = [
        Msg("Graph", "{kind} has no attribute {name}").format(kind=kind, name=quote(str(k), 40))
        for k in list(attrs)[:5]
        if k not in known
    ]
    return out + [m for k, v in attrs.items() if k in known and (m := known[k].problem(v)) is not None]


def _on(node: Node, problem: str) -> Msg:
    """A problem of one node: 'Parameter "w": <problem>'."""
    return Msg("Graph", "{node}: {problem}").format(node=node.label(), problem=problem)


def _not_connected(node: Node, port: str) -> Msg:
    return Msg("Graph", "{node}: input port '{port}' is not connected").format(node=node.label(), port=port)


def too_many_nodes(n: int) -> Msg:
    return Msg("Graph", "the graph has {n} nodes; at most {max} are supported").format(n=n, max=MAX_NODES)


def check_name(name: Any) -> str | None:
    """Why `name` cannot name a node, or None. The generated programs use node names as Python
    identifiers, so a name must be one, and must not be one the generators use themselves
    (RESERVED_NAMES)."""
    if not isinstance(name, str) or not name:
        return Msg("Graph", "a node needs a name")
    if len(name) > 40:
        return Msg("Graph", "a name has at most 40 characters")
    q = quote(name)
    if not name.isidentifier() or not name.isascii():
        return Msg(
            "Graph", "{name} is not a valid name: use letters, digits and _ and do not start with a digit"
        ).format(name=q)
    if name.startswith(RESERVED_PREFIX):
        return Msg("Graph", "{name} is reserved: names starting with {prefix} are used by GradViz").format(
            name=q, prefix=RESERVED_PREFIX
        )
    if name.startswith("__") and name.endswith("__"):
        return Msg("Graph", "{name} is reserved: names with double underscores on both sides belong to Python").format(
            name=q
        )
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        return Msg("Graph", "{name} is a Python keyword; choose another name").format(name=q)
    if name in RESERVED_NAMES:
        return Msg("Graph", "{name} is a name the generated program uses itself; choose another name").format(name=q)
    return None


def check_shape(shape: Any) -> str | None:
    if not isinstance(shape, (tuple, list)):
        return Msg("Graph", "shape must be a list of sizes, not {shape}").format(shape=shorten(repr(shape), 40))
    if len(shape) > MAX_NDIM:
        return Msg("Graph", "shape has {n} axes; at most {max} are supported").format(n=len(shape), max=MAX_NDIM)
    for d in shape:
        if isinstance(d, bool) or not isinstance(d, int):
            return Msg("Graph", "shape {shape} must hold whole numbers").format(shape=shorten(repr(list(shape)), 40))
        if d < 1:
            return Msg("Graph", "shape {shape} has a size {size}; sizes must be at least 1").format(
                shape=shorten(shape_str(tuple(shape)), 40), size=shorten(d, 20)
            )
        if d > MAX_DIM:
            return Msg("Graph", "shape {shape} is too large").format(shape=shape_str(tuple(shape)))
    if numel(tuple(shape)) > MAX_ELEMENTS:
        return Msg("Graph", "shape {shape} has {n:,} elements; at most {max:,} are allowed").format(
            shape=shape_str(tuple(shape)), n=numel(tuple(shape)), max=MAX_ELEMENTS
        )
    return None


def check_source(n: Node) -> str | None:
    msg = check_shape(n.shape)
    if msg:
        return msg
    if n.init not in INITS:
        return unknown_init(n.init)
    if n.init in DATA_INITS:  # only an Input takes a data set's batches
        return Msg("Graph", "init {init} is for an Input fed by a Dataset node").format(init=n.init)
    if n.init == "values":
        return _checked_values(n.values, tuple(n.shape))
    return None


# The last values lists checked, by identity, with their verdict: the window asks for the
# graph's problems many times per edit, and converting a million values each time froze it.
# Values lists are replaced by edits, never changed in place, so a list once checked stays so.
_CHECKED: dict[int, tuple[Any, tuple[int, ...], str | None]] = {}
_CHECKED_LOCK = threading.Lock()
CHECKED_KEPT = 8


def _checked_values(values: Any, shape: tuple[int, ...]) -> str | None:
    with _CHECKED_LOCK:
        hit = _CHECKED.get(id(values))
    if hit is not None and hit[0] is values and hit[1] == shape:
        return hit[2]
    verdict = _check_values(values, shape)
    if isinstance(values, list):
        with _CHECKED_LOCK:
            while len(_CHECKED) >= CHECKED_KEPT:
                del _CHECKED[next(iter(_CHECKED))]
            _CHECKED[id(values)] = (values, shape, verdict)
    return verdict


def _check_values(values: Any, shape: tuple[int, ...]) -> str | None:
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        return Msg("Graph", "values must be numbers")
    if arr.shape != shape:
        return Msg("Graph", "values have shape {values} but the node's shape is {shape}").format(
            values=shape_str(arr.shape), shape=shape_str(shape)
        )
    if not np.all(np.isfinite(arr)):
        return Msg("Graph", "values must be finite numbers (no NaN or infinity)")
    if np.any(np.abs(arr) > 3.0e38):
        return Msg("Graph", "values are too large for float32")
    return None


def unknown_init(init: Any) -> Msg:
    return Msg("Graph", "init {init} is unknown; use one of {inits}").format(init=quote(init), inits=", ".join(INITS))


def initial_values(graph: Graph, seed: int, data: datasets.Prepared | None = None) -> dict[str, np.ndarray]:
    """float32 values of every Input and Parameter, drawn in graph order from the run's seed
    (an Input fed by the Dataset node from `data`, prepared here when not given).

    np.random.seed(42) followed by randn(5, 3), randn(3) is what the tutorial does; the legacy
    RandomState reproduces it exactly."""
    rng = np.random.RandomState(seed)
    out: dict[str, np.ndarray] = {}
    data = None
    for n in graph.sources():
        shape = tuple(n.shape)
        if n.is_data:  # the first batch of the first epoch (the node values show it)
            data = data or datasets.prepare(graph.data_spec())
            v = data.inputs(n.init, positions=data.batch_positions(1))
        elif n.init == "ones":
            v = np.ones(shape)
        elif n.init == "zeros":
            v = np.zeros(shape)
        elif n.init == "randn":
            v = np.asarray(rng.randn(*shape))
        elif n.init in INITIALIZERS:
            method, args = init_draw(n.init, shape)
            v = np.asarray(getattr(rng, method)(*args))
        else:
            v = np.asarray(n.values, dtype=np.float64).reshape(shape)
        out[n.name] = np.ascontiguousarray(v, dtype=np.float32)
    return out


# The initializers a node's own Parameters may name (ops.WEIGHT_INITS, BIAS_INITS) beyond INITS,
# with MindSpore's meanings: Normal(sigma=0.01), Uniform(scale=0.07), HeUniform (negative_slope
# 0) and XavierUniform from the fans of a (out, in) weight
INITIALIZERS = ("normal", "uniform", "he_uniform", "xavier_uniform")


def init_draw(init: str, shape: tuple[int, ...]) -> tuple[str, tuple]:
    """The numpy RandomState method and its arguments that draw `init` in `shape`; the exported
    scripts call the same on numpy's global RandomState, so they draw the same values."""
    fan_out, fan_in = (shape[0], shape[1]) if len(shape) == 2 else (shape[0], shape[0]) if shape else (1, 1)
    if init == "normal":
        return "normal", (0.0, 0.01, shape)
    if init == "uniform":
        return "uniform", (-0.07, 0.07, shape)
    bound = math.sqrt(6.0 / fan_in) if init == "he_uniform" else math.sqrt(6.0 / (fan_in + fan_out))
    return "uniform", (-bound, bound, shape)

"""Read a MindSpore program as a GradViz session, without running it.

The source is parsed with `ast` and read by a small symbolic interpreter: nothing in it is
executed, imported or evaluated (no exec, eval, compile or import; a decorator, a default value
or a call is looked at, never run). What it reads:
- the imports of mindspore and numpy (under any alias); PyTorch is refused as PyTorch;
- tensors: `ops.ones`, `ops.zeros`, `Tensor([...])`, `Tensor(np.random.randn(...))`,
  `np.ones`/`np.zeros`/`np.array`, wrapped in `Parameter(...)` for a trainable one;
- functions of the op table's MindSpore expressions (each OpKind's template, so a kind added to
  the table is read too), `nn.Cell` classes (`__init__` setting attributes, `construct`), the
  table's loss cells (`OpKind.cell`, e.g. `nn.MSELoss()`);
- `mindspore.grad` / `mindspore.value_and_grad` (grad_position, weights=, has_aux) and the call
  of the function they make, which says what is differentiated and with which tensors;
  `ops.stop_gradient` around returned values;
- the optimizer (the optimizer table's `nn` classes, with learning_rate), `np.random.seed`,
  `mindspore.set_context(mode=..., device_target=...)`, `mindspore.set_device`, `mindspore.jit`;
- one training loop `for i in range(N)` (the step limit) with `if loss < t: break`
  (stop-at-loss); prints are read as printing only.
The last call of a differentiation function is the program. Anything else is refused with a
CodeProblem (line, column, message naming the construct and what is known instead), so an import
is complete or refused. Qt-free and MindSpore-free."""

from __future__ import annotations

import ast
import math
import os
from dataclasses import dataclass, field, replace

from ..i18n import Msg, message
from . import datasets
from ..safe_io import FileProblem, read_text_file
from .graph import INITIALIZERS, MAX_NODES, Graph, Node, init_draw, too_many_nodes
from .ops import BIAS_INITS, OPS, WEIGHT_INITS
from .ops import TABLE as OP_TABLE
from .optimizers import LR_KEYWORD, OPTIMIZERS
from .options import OPTIONS
from .session import Options, Session

MAX_CODE_BYTES = 1024 * 1024  # a program is a page or two; a larger file is not one
MAX_LINE = 10_000  # characters on one line
MAX_DEPTH = 60  # nesting of expressions and calls read
_PORT = "gv_port_"

_GX, _GY = 363.0, 180.0  # the grid of the laid-out graph: a column fits the widest node (MatMul's)


@dataclass(frozen=True)
class CodeProblem:
    line: int  # 1-based; 0 where the problem has no line (the file itself)
    col: int  # 1-based, in characters
    message: str

    def at(self, where: str) -> str:
        """`FILE:LINE:COL: message`, or `FILE: message` for the file itself."""
        if self.line <= 0 and not where:
            return self.message
        if self.line <= 0:
            return Msg("CodeImport", "{where}: {message}").format(where=where, message=self.message)
        return Msg("CodeImport", "{where}:{line}:{col}: {message}").format(
            where=where, line=self.line, col=self.col, message=self.message
        )


class CodeError(ValueError):
    """A program that cannot be imported: every problem, each at its line."""

    def __init__(self, problems: list[CodeProblem], where: str):
        self.problems, self.where = problems, where
        super().__init__("\n".join(self.lines()))

    def lines(self) -> list[str]:
        return [p.at(self.where) for p in self.problems]


# -- the op table as patterns ----------------------------------------------------------------------
def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def _full(path: str) -> str:
    """A template's module-relative name as an absolute one: ops.matmul -> mindspore.ops.matmul."""
    return "mindspore." + path if path.split(".")[0] in ("ops", "nn") else path


def _key(node: ast.AST, resolve) -> tuple | None:
    if isinstance(node, ast.BinOp):
        return ("bin", type(node.op).__name__)
    if isinstance(node, ast.Call):
        path = resolve(node.func)
        return ("call", path) if path else None
    return None


def _patterns() -> dict[tuple, list]:
    """Each computing kind's MindSpore template parsed once, indexed by its outer call or operator."""
    out: dict[tuple, list] = {}
    for k in OP_TABLE:
        if not k.computes or not k.mindspore or k.params:
            continue  # a kind holding its own Parameters (Dense) is a layer cell: not read yet
        text = k.expression("mindspore", {p: _PORT + p for p in k.ports})
        tree = ast.parse(text, mode="eval").body
        key = _key(tree, lambda f: _full(_dotted(f) or ""))
        out.setdefault(key, []).append((k, tree))
    return out


PATTERNS = _patterns()
# Python's operators for two kinds whose templates are calls: -x is ops.neg(x), a @ b ops.matmul(a, b)
OPERATORS = {"USub": "Neg", "MatMult": "MatMul"}
CELLS = {_full(k.cell): k for k in OP_TABLE if k.cell}
LAYERS = {_full(k.layer): k for k in OP_TABLE if k.layer}  # nn.Dense, nn.ReLU, ...
# mindspore.common.initializer's classes that are a Dense node's initializers, with the settings
# GradViz draws them with (graph.init_draw): an instance is read as the initializer's name
INITIALIZER_CLASSES = {
    "Normal": ("normal", {"sigma": 0.01, "mean": 0.0}),
    "Uniform": ("uniform", {"scale": 0.07}),
    "HeUniform": ("he_uniform", {"negative_slope": 0, "mode": "fan_in", "nonlinearity": "leaky_relu"}),
    "XavierUniform": ("xavier_uniform", {"gain": 1}),
    "Zero": ("zeros", {}),
    "One": ("ones", {}),
}
OPTIMIZER_CLASSES = {f"mindspore.nn.{o.mindspore}": o for o in OPTIMIZERS.values()}
_BIN_TEXT = {"Add": "+", "Sub": "-", "Mult": "*", "MatMult": "@", "Div": "/", "Pow": "**"}


def known_ops() -> str:
    """What the importer reads as ops, in the op table's order: `ops.matmul, +, ...`."""
    names = []
    for key in PATTERNS:
        names.append(key[1].replace("mindspore.", "") if key[0] == "call" else _BIN_TEXT.get(key[1], key[1]))
    names += [f"{_BIN_TEXT.get(op, '-')}" for op in OPERATORS if op != "USub"]
    return ", ".join(dict.fromkeys(names + ["-x"]))


def _shifted(node, lines: int):
    """A stand-in for `node` with its line numbers `lines` earlier (for get_source_segment)."""
    return ast.Name(
        lineno=node.lineno - lines,
        end_lineno=node.end_lineno - lines,
        col_offset=node.col_offset,
        end_col_offset=node.end_col_offset,
    )


# -- the interpreter's values ----------------------------------------------------------------------
@dataclass(eq=False)
class _Path:  # a module or a name in one: "mindspore.ops.matmul"
    path: str


@dataclass(eq=False)
class _Array:  # a numpy array expression: how its values are made
    init: str
    shape: tuple
    values: object = None


@dataclass(eq=False)
class _Tensor:  # a tensor the program makes: an Input, or a Parameter once wrapped
    seq: int
    shape: tuple
    init: str
    values: object
    line: int
    col: int
    kind: str = "Input"
    name: str = ""
    requires_grad: bool = True


@dataclass(eq=False)
class _Func:
    node: ast.FunctionDef


@dataclass(eq=False)
class _Class:
    node: ast.ClassDef


@dataclass(eq=False)
class _Cell:
    cls: _Class
    attrs: dict = field(default_factory=dict)


@dataclass(eq=False)
class _LossCell:
    kind: object  # OpKind


@dataclass(eq=False)
class _GradFn:
    fn: object
    which: str  # grad or value_and_grad
    positions: object  # int, tuple of ints or None
    weights: object  # list of _Tensor or None
    has_aux: bool
    line: int
    col: int


@dataclass(eq=False)
class _Optim:
    opt: object
    lr: float
    params: object = None  # what it updates (optimizer.parameters)


@dataclass(eq=False)
class _Layer:  # an nn layer of the op table (nn.Dense(...), nn.ReLU()): a node each time it is called
    kind: object  # OpKind
    attrs: dict
    params: dict  # a Dense's own tensors by the op table's names: weight, bias
    node: ast.AST  # where it is built: a node's problems are told there


@dataclass(eq=False)
class _Seq:  # nn.SequentialCell(...): its layers in order, each with its name (OrderedDict) or None
    items: list


@dataclass(eq=False)
class _Named:  # collections.OrderedDict([("fc1", layer), ...])
    items: list


@dataclass(eq=False)
class _Sym:  # a computed node of one builder
    builder: _Builder
    name: str


@dataclass(eq=False)
class _Stopped:  # ops.stop_gradient(v) written around a returned value
    value: object
    line: int
    col: int


@dataclass(eq=False)
class _Bound:  # obj.method, to be called
    obj: object
    name: str


class _Opaque:  # a value only printed or passed on: a loop index, gradients
    pass


@dataclass(eq=False)
class _Given:  # what GradViz sets in its generated program's globals: gv_parameters, gv_make_optimizer
    what: str


class _Loss:  # the loss a grad_fn call returns
    pass


class _Poison:  # the value of a statement that was refused: its later uses say nothing more
    pass


class _Refuse(Exception):
    def __init__(self, node, msg: str):
        super().__init__(msg)
        self.node, self.msg = node, msg


class _Poisoned(Exception):
    pass


@dataclass
class _Run:
    """One differentiation call: what the program is."""

    grad: _GradFn
    builder: _Builder
    args: list
    result: object
    line: int
    col: int


class _Builder:
    """The nodes of one reading of a function (a differentiation call's, or the module's own)."""

    def __init__(self):
        self.graph = Graph()
        self.sources: dict[int, str] = {}
        self.tensors: dict[str, _Tensor] = {}
        self.where: dict[str, tuple[int, int]] = {}
        self.returned_first: set[str] = set()  # the first value each function read here returned
        # the tensors a layer holds itself (a Dense's weight and bias): id -> (its _Sym, the param's name)
        self.owned: dict[int, tuple[_Sym, str]] = {}
        self.layer_seq: dict[int, int] = {}  # id of a layer's Node -> the draw order of its own tensors
        self.called: set[int] = set()  # the layers (_Layer) called here: each is one node

    def source(self, t: _Tensor) -> str:
        if id(t) not in self.sources:
            name = self.graph.unique_name(t.name or t.kind.lower())
            self.graph.nodes.append(
                Node(name, t.kind, shape=tuple(t.shape), init=t.init, values=t.values, requires_grad=t.requires_grad)
            )
            self.sources[id(t)], self.tensors[name] = name, t
            self.where[name] = (t.line, t.col)
        return self.sources[id(t)]

    def op(self, kind: str, inputs: dict, attrs: dict, where: tuple[int, int]) -> _Sym:
        name = self.graph.unique_name(kind.lower())
        self.graph.nodes.append(Node(name, kind, inputs=inputs, attrs=attrs))
        self.where[name] = where
        return _Sym(self, name)

    def rename(self, sym: _Sym, stem: str) -> None:
        node = self.graph[sym.name]
        self.graph.nodes.remove(node)
        new = self.graph.unique_name(stem)
        self.graph.nodes.append(node)
        node.name, self.where[new] = new, self.where.pop(sym.name)
        sym.name = new


_BUILTINS = {"print", "range", "float", "super", "len", "int", "str", "isinstance", "list", "tuple", "globals"}
_NO_OPS = {"set_train"}  # nn.Cell methods that change nothing GradViz draws
_PASS = {"numpy", "asnumpy", "item", "value"}  # tensor methods that give the same number


class _Reader:
    def __init__(self, lines: list[str], base: Session | None = None):
        self.lines = lines
        self.base = base
        self.given: dict[str, _Tensor] = {}  # the base session's tensors, by name, once read
        self.problems: list[CodeProblem] = []
        self.globals: dict = {}
        self.module = _Builder()
        self.seq = 0
        self.depth = 0
        self.runs: list[_Run] = []
        self.torch: list[CodeProblem] = []
        self.opts: dict = {}  # option -> (value, line, col)
        self.loop = False
        self.pipeline: list = []  # an exported script's data pipeline: its statements (_pipeline_key)
        self.data: datasets.DataSpec | None = None  # the Dataset node it describes

    # -- problems ------------------------------------------------------------------------------
    def pos(self, node) -> tuple[int, int]:
        line = getattr(node, "lineno", 0) or 0
        off = getattr(node, "col_offset", 0) or 0
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return line, len(text.encode("utf-8")[:off].decode("utf-8", "replace")) + 1

    def refuse(self, node, msg) -> _Refuse:
        return _Refuse(node, msg)

    def add(self, node, msg) -> None:
        line, col = self.pos(node)
        p = CodeProblem(line, col, msg)
        if p not in self.problems:
            self.problems.append(p)

    def text(self, node) -> str:
        try:  # the node's own lines only: a message never re-reads the whole program
            first, last = node.lineno - 1, node.end_lineno
            s = ast.get_source_segment("\n".join(self.lines[first:last]), _shifted(node, first)) or ast.unparse(node)
        except Exception:  # noqa: BLE001 - a segment is only for the message
            s = type(node).__name__
        s = " ".join(s.split())
        return s if len(s) <= 60 else s[:57] + "..."

    # -- the module ----------------------------------------------------------------------------
    def read(self, tree: ast.Module) -> None:
        # an exported script over a data set: its pipeline is read as GradViz writes it (read_pipeline)
        piped = any(isinstance(s, ast.FunctionDef) and s.name == "train_loop" for s in tree.body)
        for stmt in tree.body:
            if piped and _pipeline_key(stmt) is not None:
                self.pipeline.append(stmt)
                continue
            self.top(stmt, self.module_frame())
        if piped and not self.problems:
            try:
                self.read_pipeline()
            except _Refuse as r:
                self.add(r.node, r.msg)
            except _Poisoned:
                pass
        step = self.globals.get("train_step")
        if not self.runs and self.base is not None and isinstance(step, _Func):
            # GradViz's own program: the engine calls train_step with the session's Inputs
            try:
                names = [a.arg for a in step.node.args.args]
                self.call_func(
                    step, [self.base_tensor(n, step.node) for n in names], step.node, self.module_frame(), None
                )
            except _Refuse as r:
                self.add(r.node, r.msg)
            except _Poisoned:
                pass

    # -- an exported script's data pipeline ----------------------------------------------------
    def read_pipeline(self) -> None:
        """The data set, the Inputs it feeds and the training of an exported MindSpore script
        over a Dataset node (scripts.py writes them): the settings are read from the calls that
        carry them, the Inputs from train_loop's batches, and forward_backward is read on them as
        train_loop calls it. check_pipeline then compares every pipeline statement with what
        GradViz writes for the session read, so nothing in it goes unread."""
        train = next(s for s in self.pipeline if isinstance(s, ast.FunctionDef) and s.name == "train_loop")
        spec = self.pipeline_spec(train)
        why = spec.problems()
        if why:
            raise self.refuse(self.pipeline[0], why[0])
        self.data = spec
        for n in ast.walk(train):
            if isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.left, ast.Name):
                value = _const(n.comparators[0])
                if n.left.id == "step" and isinstance(n.ops[0], ast.Eq) and isinstance(value, int):
                    self.opts["steps"] = (value, *self.pos(n))
                if n.left.id == "loss_value" and isinstance(n.ops[0], ast.Lt) and isinstance(value, (int, float)):
                    self.opts["until_loss"] = (float(value), *self.pos(n))
        fed: dict[str, _Tensor] = {}
        for n in ast.walk(train):  # x = Tensor(np.asarray(batch_x)), y = Tensor(np.eye(k, ...)[...])
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                text = ast.dump(n.value)
                if "batch_x" not in text and "batch_y" not in text:
                    continue
                init = "onehot" if "'eye'" in text else "labels" if "'reshape'" in text else "features"
                first = init == "features"  # features before the Parameters, targets after: the presets' order
                seq = (-(10**9) if first else 10**9) + len(fed)
                shape = datasets.data_shape(spec, init, spec.batch_size)
                fed[n.targets[0].id] = _Tensor(seq, shape, init, None, *self.pos(n), "Input", n.targets[0].id)
        call = next(
            (
                n
                for n in ast.walk(train)
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "forward_backward"
            ),
            None,
        )
        fb = self.globals.get("forward_backward")
        if call is None or not isinstance(fb, _Func) or not all(isinstance(a, ast.Name) for a in call.args):
            raise self.refuse(train, Msg("CodeImport", "train_loop must call forward_backward on the Inputs"))
        args = [fed[a.id] if a.id in fed else self.lookup(a, self.module_frame()) for a in call.args]
        self.call_func(fb, args, call, self.module_frame(), None)

    def pipeline_spec(self, train) -> datasets.DataSpec:
        """The Dataset node's settings from the calls of the pipeline that carry them."""
        a: dict = {}
        for stmt in self.pipeline:
            for n in ast.walk(stmt):
                if isinstance(n, ast.Call):
                    name = (_dotted(n.func) or "").split(".")[-1]
                    kw = {k.arg: _const(k.value) for k in n.keywords}
                    if name in ("make_moons", "make_circles", "make_blobs"):
                        a.update(source=name[5:], size=kw.get("n_samples"), seed=kw.get("random_state"))
                        if name == "make_blobs" and isinstance(kw.get("cluster_std"), float):
                            a["noise"] = round(kw["cluster_std"] / 10, 12)
                        elif "noise" in kw:
                            a["noise"] = kw["noise"]
                    elif name == "load_digits":
                        a["source"] = "digits"
                    elif name == "open" and n.args:
                        a.update(source="csv", path=_const(n.args[0]))
                    elif name == "RandomState" and n.args and isinstance(stmt, ast.Assign):
                        a.setdefault("seed", _const(n.args[0]))
                    elif name == "round" and n.args and isinstance(n.args[0], ast.BinOp):
                        a["test_fraction"] = _const(n.args[0].right)
                    elif name == "uniform" and len(n.args) == 3 and isinstance(n.args[2], ast.Tuple):
                        a["size"] = _const(n.args[2].elts[0])  # XOR's points
                    elif name == "arange" and n.args:
                        a["size"] = _const(n.args[0])  # the spiral's labels
                    elif name == "normal" and len(n.args) == 3 and "sample_rng" in ast.dump(n.func):
                        a["noise"] = _const(n.args[1])
                if isinstance(n, ast.Assign) and [_dotted(t) for t in n.targets] == ["sample_dir"]:
                    a.update(source="mnist", path=_const(n.value))
                labels = isinstance(n, ast.Assign) and [_dotted(t) for t in n.targets] == ["sample_y"]
                if labels and "sample_x" in ast.dump(n.value) and a.get("source") is None:
                    a["source"] = "xor"  # the quadrants of the points
                if isinstance(n, ast.Assign) and [_dotted(t) for t in n.targets] == ["sample_radius"]:
                    a["source"] = "spiral"
                sliced = isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Slice) and n.slice.lower is None
                if sliced and a.get("source") == "mnist" and isinstance(_const(n.slice.upper), int):
                    a["size"] = _const(n.slice.upper)  # the images used
        for n in ast.walk(train):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "batch" and n.args:
                a["batch_size"] = _const(n.args[0])
        if "source" not in a:
            raise self.refuse(
                train,
                Msg(
                    "CodeImport",
                    "train_loop over a data set GradViz does not know: it reads the pipeline its exported "
                    "scripts write, over a Dataset node's sources ({sources})",
                ).format(sources=", ".join(datasets.SOURCES)),
            )
        defaults = OPS["Dataset"].attr_values({})
        attrs = {k: v for k, v in a.items() if k in defaults and v is not None}
        if attrs.get("source") != "csv" and "path" in attrs and attrs.get("source") != "mnist":
            attrs.pop("path")
        for name, attr in ((at.name, at) for at in OPS["Dataset"].attrs):
            if name in attrs and attr.problem(attrs[name]) is not None:
                raise self.refuse(self.pipeline[0], attr.problem(attrs[name]))
        return datasets.DataSpec.from_attrs({**defaults, **attrs})

    def check_pipeline(self, session: Session) -> None:
        """Each statement of the pipeline as GradViz writes it for `session`: one that differs,
        is missing or is not GradViz's is a problem at its line, with the line expected."""
        from .scripts import mindspore_script

        want = [s for s in ast.parse(mindspore_script(session)).body if _pipeline_key(s) is not None]
        for i, stmt in enumerate(self.pipeline):
            exp = want[i] if i < len(want) else None
            if exp is None or ast.dump(exp) != ast.dump(stmt):
                stmt, exp = _first_difference(stmt, exp)
                told = ast.unparse(exp).splitlines()[0] if exp is not None else ""
                self.add(
                    stmt,
                    Msg(
                        "CodeImport",
                        "this line of the data pipeline is not the one GradViz writes for {source} with these "
                        "settings; GradViz reads its exported scripts' pipeline, here: {expected}",
                    ).format(source=self.data.source, expected=told[:80] or "nothing"),
                )
                return
        if len(want) > len(self.pipeline):
            self.add(
                self.pipeline[-1],
                Msg("CodeImport", "the data pipeline ends early; GradViz writes next: {expected}").format(
                    expected=ast.unparse(want[len(self.pipeline)]).splitlines()[0][:80]
                ),
            )

    def base_tensor(self, name: str, node, kind: str = "Input") -> _Tensor:
        """The base session's Input or Parameter `name` (the same tensor each time it is read)."""
        if isinstance(self.globals.get(name), _Tensor):
            return self.globals[name]
        srcs = self.base.graph.sources() if self.base is not None else []
        n = next((s for s in srcs if s.name == name), None)  # a Dense node's own Parameters too
        if n is None or n.kind != kind:
            raise self.refuse(
                node,
                Msg(
                    "CodeImport", "{name} is not one of the session's {kind}s; make it with Tensor(...) at the top"
                ).format(name=name, kind=kind),
            )
        if name not in self.given:
            seq = srcs.index(n) - len(srcs) - 1  # before the program's own, in the base's draw order
            self.given[name] = _Tensor(seq, n.shape, n.init, n.values, *self.pos(node), n.kind, n.name, n.requires_grad)
        return self.given[name]

    def module_frame(self) -> dict:
        return {"locals": self.globals, "builder": self.module, "self": None}

    def top(self, stmt, frame) -> None:
        try:
            self.statement(stmt, frame, top=True)
        except _Refuse as r:
            self.add(r.node, r.msg)
            self.poison(stmt, frame)
        except _Poisoned:
            self.poison(stmt, frame)

    def poison(self, stmt, frame) -> None:
        if isinstance(stmt, ast.Assign):
            for t in stmt.targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        frame["locals"][n.id] = _Poison()
        elif isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
            frame["locals"][stmt.name] = _Poison()
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for a in stmt.names:
                frame["locals"][(a.asname or a.name).split(".")[0]] = _Poison()

    def statement(self, s, frame, top=False, loop=False):
        """Read one statement; returns ("return", value) for a return."""
        if isinstance(s, ast.Expr):
            if isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
                return None  # a docstring
            if isinstance(s.value, ast.Call):
                self.call(s.value, frame)
                return None
            raise self.refuse(
                s, Msg("CodeImport", "the expression {code} does nothing GradViz reads").format(code=self.text(s))
            )
        if isinstance(s, ast.Pass):
            return None
        if isinstance(s, ast.Assign):
            value = self.expr(s.value, frame)
            for t in s.targets:
                self.assign(t, value, frame, s)
            return None
        if isinstance(s, ast.Return):
            if top:
                raise self.refuse(s, Msg("CodeImport", "return outside a function"))
            if s.value is None:
                return ("return", None)
            return ("return", self.returned(s.value, frame))
        if top and isinstance(s, (ast.Import, ast.ImportFrom)):
            self.imports(s)
            return None
        if top and isinstance(s, ast.FunctionDef):
            self.define(s)
            return None
        if top and isinstance(s, ast.ClassDef):
            self.define_class(s)
            return None
        if top and isinstance(s, ast.For):
            self.training_loop(s, frame)
            return None
        if loop and isinstance(s, ast.If):
            self.loop_if(s, frame)
            return None
        if loop and isinstance(s, ast.For) and self.prints_only(s.body):
            return None
        raise self.refuse(s, self.unsupported_statement(s, top, loop))

    def unsupported_statement(self, s, top, loop) -> Msg:
        what = {
            ast.If: "if",
            ast.For: "for",
            ast.While: "while",
            ast.With: "with",
            ast.Try: "try",
            ast.AugAssign: "augmented assignment",
            ast.Import: "import",
            ast.ImportFrom: "import",
            ast.FunctionDef: "def",
            ast.ClassDef: "class",
            ast.Break: "break",
            ast.Delete: "del",
            ast.Global: "global",
            ast.Raise: "raise",
            ast.AsyncFunctionDef: "async def",
            ast.Lambda: "lambda",
        }.get(type(s), type(s).__name__)
        return Msg(
            "CodeImport",
            "a {what} statement here is not something GradViz reads; it reads straight-line functions, "
            "one training loop `for i in range(N)` with `if loss < t: break`, and assignments",
        ).format(what=what)

    def prints_only(self, body) -> bool:
        return all(
            isinstance(b, ast.Pass)
            or (isinstance(b, ast.Expr) and isinstance(b.value, ast.Call) and _dotted(b.value.func) == "print")
            for b in body
        )

    def imports(self, s) -> None:
        if isinstance(s, ast.Import):
            items = [(a.name, a.asname or a.name.split(".")[0], a.asname is None) for a in s.names]
        else:
            if s.level or not s.module:
                raise self.refuse(s, Msg("CodeImport", "a relative import: GradViz reads one file"))
            items = [(f"{s.module}.{a.name}", a.asname or a.name, False) for a in s.names]
        for full, bound, top_only in items:
            root = full.split(".")[0]
            if root == "torch":
                self.torch.append(
                    CodeProblem(
                        *self.pos(s),
                        Msg(
                            "CodeImport",
                            "this is PyTorch ({module}); GradViz reads MindSpore programs: "
                            "nn.Cell, ops and mindspore.grad or value_and_grad",
                        ).format(module=full),
                    )
                )
                raise _Poisoned()
            if root == "collections" and full in ("collections", "collections.OrderedDict"):
                self.globals[bound] = _Path(full if not top_only else root)
                continue
            if root not in ("mindspore", "numpy"):
                raise self.refuse(
                    s,
                    Msg(
                        "CodeImport",
                        "import {module}: GradViz reads MindSpore programs and knows the modules mindspore "
                        "and numpy only, and collections.OrderedDict (nothing is imported)",
                    ).format(module=full),
                )
            if "*" in full:
                raise self.refuse(s, Msg("CodeImport", "import *: name what you import"))
            self.globals[bound] = _Path(root if top_only else full)

    def define(self, s: ast.FunctionDef) -> None:
        jit = False
        for d in s.decorator_list:
            if self.resolve(d) in ("mindspore.jit", "mindspore.ms_function"):
                jit = True
                continue
            raise self.refuse(
                d,
                Msg("CodeImport", "the decorator @{code} is not run; GradViz reads only @mindspore.jit").format(
                    code=self.text(d)
                ),
            )
        a = s.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.kw_defaults or a.posonlyargs:
            raise self.refuse(
                s,
                Msg("CodeImport", "def {name}: GradViz reads plain arguments (no defaults, * or **)").format(
                    name=s.name
                ),
            )
        if jit:
            self.opts["mode"] = ("graph", *self.pos(s))
        self.globals[s.name] = _Func(s)

    def define_class(self, s: ast.ClassDef) -> None:
        if s.decorator_list:
            raise self.refuse(
                s.decorator_list[0],
                Msg("CodeImport", "the decorator @{code} is not run; a class is read without decorators").format(
                    code=self.text(s.decorator_list[0])
                ),
            )
        if len(s.bases) != 1 or s.keywords or self.resolve(s.bases[0]) != "mindspore.nn.Cell":
            raise self.refuse(
                s, Msg("CodeImport", "class {name}: GradViz reads classes of nn.Cell only").format(name=s.name)
            )
        for b in s.body:
            if isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant) or isinstance(b, ast.Pass):
                continue
            if isinstance(b, ast.FunctionDef) and b.name in ("__init__", "construct"):
                if b.decorator_list:
                    raise self.refuse(
                        b.decorator_list[0],
                        Msg(
                            "CodeImport", "the decorator @{code} is not run; methods are read without decorators"
                        ).format(code=self.text(b.decorator_list[0])),
                    )
                continue
            name = getattr(b, "name", type(b).__name__)
            raise self.refuse(
                b,
                Msg(
                    "CodeImport", "{name} in class {cls}: GradViz reads an nn.Cell's __init__ and construct only"
                ).format(name=name, cls=s.name),
            )
        self.globals[s.name] = _Class(s)

    # -- the training loop ---------------------------------------------------------------------
    def training_loop(self, s: ast.For, frame) -> None:
        it = s.iter
        if not (isinstance(it, ast.Call) and _dotted(it.func) == "range" and "range" not in self.globals):
            if self.prints_only(s.body):
                return
            raise self.refuse(
                s,
                Msg("CodeImport", "a loop over {code}: GradViz reads one training loop, `for i in range(N)`").format(
                    code=self.text(it)
                ),
            )
        if self.loop:
            raise self.refuse(s, Msg("CodeImport", "a second training loop; GradViz trains one"))
        if s.orelse or it.keywords or not 1 <= len(it.args) <= 2:
            raise self.refuse(it, Msg("CodeImport", "GradViz reads range(N) or range(start, stop) as the step limit"))
        ends = [self.number(a, frame, int) for a in it.args]
        steps = ends[0] if len(ends) == 1 else ends[1] - ends[0]
        self.loop = True
        self.opts["steps"] = (steps, *self.pos(it))
        self.assign(s.target, _Opaque(), frame, s)
        for b in s.body:
            try:
                self.statement(b, frame, loop=True)
            except _Refuse as r:
                self.add(r.node, r.msg)
                self.poison(b, frame)
            except _Poisoned:
                self.poison(b, frame)

    def loop_if(self, s: ast.If, frame) -> None:
        breaks = len(s.body) == 1 and isinstance(s.body[0], ast.Break) and not s.orelse
        if breaks and any(
            isinstance(n, (ast.Attribute, ast.Name))
            and (getattr(n, "attr", None) or getattr(n, "id", None)) == "isfinite"
            for n in ast.walk(s.test)
        ):
            return  # a stop on a value that is not finite: GradViz always stops there
        t = s.test
        if breaks and isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.ops[0], ast.Lt):
            left = self.expr(t.left, frame)
            if self.is_loss(left):
                self.opts["until_loss"] = (self.number(t.comparators[0], frame, float), *self.pos(t))
                return
        raise self.refuse(
            s,
            Msg(
                "CodeImport",
                "GradViz reads an if in the training loop as `if loss < t: break` (stop at loss), not {code}",
            ).format(code=self.text(s.test)),
        )

    def is_loss(self, v) -> bool:
        return isinstance(v, _Loss) or isinstance(v, _Sym) and v.name in v.builder.returned_first

    # -- names and values ----------------------------------------------------------------------
    def assign(self, target, value, frame, stmt) -> None:
        if isinstance(target, ast.Name):
            if isinstance(value, _Sym) and value.builder is frame["builder"] and value.name in self.fresh(frame):
                value.builder.rename(value, target.id)
            if isinstance(value, _Tensor) and not value.name:
                value.name = target.id
            frame["locals"][target.id] = value
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value, _Opaque):
                items = [_Opaque() for _ in target.elts]
            elif isinstance(value, (tuple, list)):
                items = list(value)
            else:
                raise self.refuse(
                    target, Msg("CodeImport", "{code} unpacks a single value").format(code=self.text(target))
                )
            if len(items) != len(target.elts):
                raise self.refuse(
                    target,
                    Msg("CodeImport", "{code} unpacks {n} values from {m}").format(
                        code=self.text(target), n=len(target.elts), m=len(items)
                    ),
                )
            for t, v in zip(target.elts, items):
                self.assign(t, v, frame, stmt)
            return
        cell = frame["self"]
        if isinstance(target, ast.Attribute) and cell is not None and target.attr in ("weight", "bias"):
            layer = self.expr(target.value, frame)
            if isinstance(layer, _Layer) and target.attr in layer.params:
                self.replace_param(layer, target.attr, value, target)
                return
        is_self = isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
        if is_self and cell is not None and frame["locals"].get(target.value.id) is cell:  # self.name = value
            if isinstance(value, _Tensor) and not value.name:
                value.name = target.attr
            cell.attrs[target.attr] = value
            return
        raise self.refuse(
            target,
            Msg(
                "CodeImport", "assigning to {code}: GradViz reads assignments to names (and self.name in __init__)"
            ).format(code=self.text(target)),
        )

    def fresh(self, frame) -> set:
        return frame.get("fresh", set())

    def lookup(self, node: ast.Name, frame):
        for scope in (frame["locals"], self.globals):
            if node.id in scope:
                v = scope[node.id]
                if isinstance(v, _Poison):
                    raise _Poisoned()
                return v
        if node.id in _BUILTINS:
            return _Path("builtins." + node.id)
        raise self.refuse(
            node,
            Msg("CodeImport", "{name} is not defined, or not something GradViz reads in a MindSpore program").format(
                name=node.id
            ),
        )

    def resolve(self, node) -> str | None:
        """The full dotted name a Name or attribute refers to (mindspore.ops.matmul), if any."""
        if isinstance(node, ast.Name):
            v = self.globals.get(node.id)
            if isinstance(v, _Path):
                return v.path
            return "builtins." + node.id if node.id in _BUILTINS and v is None else None
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            return None if base is None else f"{base}.{node.attr}"
        return None

    def number(self, node, frame, kind=float):
        v = self.expr(node, frame)
        ok = isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
        if not ok or (kind is int and not float(v).is_integer()):
            want = Msg("CodeImport", "a whole number") if kind is int else Msg("CodeImport", "a number")
            raise self.refuse(node, Msg("CodeImport", "{code} must be {want}").format(code=self.text(node), want=want))
        return int(v) if kind is int else float(v)

    def expr(self, node, frame):
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise self.refuse(node, Msg("CodeImport", "this expression nests too deeply"))
            return self._expr(node, frame)
        finally:
            self.depth -= 1

    def _expr(self, node, frame):
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (int, float, str, bool)) or node.value is None:
                return node.value
        elif isinstance(node, ast.Name):
            return self.lookup(node, frame)
        elif isinstance(node, ast.Attribute):
            return self.attribute(node, frame)
        elif isinstance(node, ast.Call):
            return self.call(node, frame)
        elif isinstance(node, (ast.Tuple, ast.List)):
            items = [self.expr(e, frame) for e in node.elts]
            return tuple(items) if isinstance(node, ast.Tuple) else items
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = self.expr(node.operand, frame)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return -v if isinstance(node.op, ast.USub) else v
            if isinstance(node.op, ast.USub):
                return self.make_op("Neg", {"x": self.operand(v, node.operand, frame)}, {}, node, frame)
        elif isinstance(node, ast.BinOp):
            return self.binop(node, frame)
        elif isinstance(node, ast.JoinedStr):
            return ""
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            v, key = self.expr(node.value, frame), node.slice.value
            if isinstance(v, _Given) and v.what == "globals" and key in ("gv_parameters", "gv_make_optimizer"):
                return _Given(key)
            if isinstance(v, _Given) and v.what == "gv_parameters" and isinstance(key, str):
                return self.base_tensor(key, node, "Parameter")
        raise self.refuse(node, Msg("CodeImport", "{code} is not something GradViz reads").format(code=self.text(node)))

    def attribute(self, node: ast.Attribute, frame):
        base = self.expr(node.value, frame)
        if isinstance(base, _Path):
            return _Path(f"{base.path}.{node.attr}")
        if isinstance(base, _Cell):
            if node.attr in base.attrs:
                v = base.attrs[node.attr]
                if isinstance(v, _Poison):
                    raise _Poisoned()
                return v
            if node.attr in ("trainable_params", "get_parameters", *_NO_OPS):
                return _Bound(base, node.attr)
            raise self.refuse(
                node,
                Msg("CodeImport", "{code}: the cell sets no attribute {attr} in __init__").format(
                    code=self.text(node), attr=node.attr
                ),
            )
        if isinstance(base, _Layer) and node.attr in base.params:
            return base.params[node.attr]
        if isinstance(base, _Seq):
            named = {name: layer for name, layer in base.items if name}
            if node.attr in named:
                return named[node.attr]
        if isinstance(base, _Optim) and node.attr == "parameters" and base.params is not None:
            return base.params
        if isinstance(base, (_Tensor, _Sym, _Loss, _Opaque, _Array)):
            if node.attr in (*_PASS, "astype") or isinstance(base, _Opaque):
                return _Bound(base, node.attr)
            raise self.refuse(
                node,
                Msg(
                    "CodeImport", "the method {code}: GradViz reads the ops functions (ops.sum(x), not x.sum())"
                ).format(code=self.text(node)),
            )
        raise self.refuse(node, Msg("CodeImport", "{code} is not something GradViz reads").format(code=self.text(node)))

    def binop(self, node: ast.BinOp, frame):
        left, right = self.expr(node.left, frame), self.expr(node.right, frame)
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (left, right))
        op = type(node.op).__name__
        if numbers:
            fold = {
                "Add": lambda a, b: a + b,
                "Sub": lambda a, b: a - b,
                "Mult": lambda a, b: a * b,
                "Div": lambda a, b: a / b if b else math.inf,
            }
            if op in fold:
                return fold[op](left, right)
        if op in OPERATORS:
            kind = OPERATORS[op]
            k = next(k for k in OP_TABLE if k.name == kind)
            ins = dict(zip(k.ports, (self.operand(left, node.left, frame), self.operand(right, node.right, frame))))
            return self.make_op(kind, ins, {}, node, frame)
        for k, pattern in PATTERNS.get(("bin", op), []):
            if isinstance(pattern.left, ast.Name) and isinstance(pattern.right, ast.Name):
                ins = {
                    pattern.left.id[len(_PORT) :]: self.operand(left, node.left, frame),
                    pattern.right.id[len(_PORT) :]: self.operand(right, node.right, frame),
                }
                return self.make_op(k.name, ins, {}, node, frame)
        raise self.refuse(
            node,
            Msg("CodeImport", "the operator {op} in {code} is not an op GradViz knows; it knows: {known}").format(
                op=_BIN_TEXT.get(op, op), code=self.text(node), known=known_ops()
            ),
        )

    def operand(self, v, node, frame) -> str:
        """The node name of a tensor value used by an op, in this frame's builder."""
        b = frame["builder"]
        if isinstance(v, _Stopped):
            return self.operand(
                self.make_op("StopGradient", {"x": self.operand(v.value, node, frame)}, {}, node, frame), node, frame
            )
        if isinstance(v, _Tensor):
            return b.source(v)
        if isinstance(v, _Sym):
            if v.builder is not b:
                raise self.refuse(
                    node,
                    Msg(
                        "CodeImport",
                        "{code} is computed outside the function being read; GradViz's graph is the "
                        "differentiated function's own computation",
                    ).format(code=self.text(node)),
                )
            return v.name
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            raise self.refuse(
                node,
                Msg(
                    "CodeImport",
                    "the number {code} in an op: GradViz's graph holds tensors; make it a tensor, Tensor([{code}])",
                ).format(code=self.text(node)),
            )
        raise self.refuse(node, Msg("CodeImport", "{code} is not a tensor").format(code=self.text(node)))

    def make_op(self, kind, inputs, attrs, node, frame) -> _Sym:
        if len(frame["builder"].graph.nodes) >= MAX_NODES:
            raise self.refuse(node, too_many_nodes(len(frame["builder"].graph.nodes) + 1))
        sym = frame["builder"].op(kind, inputs, attrs, self.pos(node))
        frame.setdefault("fresh", set()).add(sym.name)
        return sym

    def returned(self, node, frame):
        """A return value, with ops.stop_gradient(v) around a returned value kept as a mark (the
        stop_gradient option) rather than a node."""
        if isinstance(node, ast.Tuple):
            return tuple(self.returned(e, frame) for e in node.elts)
        if (
            isinstance(node, ast.Call)
            and self.resolve(node.func) == "mindspore.ops.stop_gradient"
            and len(node.args) == 1
        ):
            return _Stopped(self.expr(node.args[0], frame), *self.pos(node))
        return self.expr(node, frame)

    # -- calls ---------------------------------------------------------------------------------
    def call(self, node: ast.Call, frame):
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise self.refuse(node, Msg("CodeImport", "calls nest too deeply (a function that calls itself?)"))
            return self._call(node, frame)
        finally:
            self.depth -= 1

    def _call(self, node: ast.Call, frame):
        if isinstance(node.func, ast.Name) and node.func.id == "print" and "print" not in self.globals:
            return None  # printing changes nothing GradViz draws; its arguments are not read
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            raise self.refuse(node, Msg("CodeImport", "* and ** arguments are not read; write the arguments out"))
        if (
            isinstance(node.func, ast.Attribute)
            and node.func.attr == "__init__"
            and isinstance(node.func.value, ast.Call)
            and _dotted(node.func.value.func) == "super"
        ):
            return None  # super().__init__() in a cell's __init__
        f = self.expr(node.func, frame)
        if isinstance(f, _Path):
            return self.call_path(f.path, node, frame)
        if isinstance(f, _Func):
            return self.call_func(f, [self.expr(a, frame) for a in node.args], node, frame, None)
        if isinstance(f, _Class):
            return self.instantiate(f, node, frame)
        if isinstance(f, _Cell):
            return self.call_func(self.construct(f, node), [self.expr(a, frame) for a in node.args], node, frame, f)
        if isinstance(f, _LossCell):
            if len(node.args) != 2 or node.keywords:
                raise self.refuse(
                    node, Msg("CodeImport", "a loss cell takes two arguments: the prediction and the target")
                )
            k = f.kind
            ins = {p: self.operand(self.expr(a, frame), a, frame) for p, a in zip(k.ports, node.args)}
            return self.make_op(k.name, ins, {}, node, frame)
        if isinstance(f, (_Layer, _Seq)):
            if len(node.args) != 1 or node.keywords:
                raise self.refuse(node, Msg("CodeImport", "a layer takes one argument: its input"))
            return self.apply(f, self.expr(node.args[0], frame), node.args[0], frame)
        if isinstance(f, _GradFn):
            return self.differentiate(f, node, frame)
        if isinstance(f, _Optim):
            return None  # optimizer(grads): the update GradViz makes every step
        if isinstance(f, _Given) and f.what == "gv_make_optimizer":
            return _Optim(OPTIMIZERS[self.base.options.optimizer], self.base.options.lr)
        if isinstance(f, _Bound):
            return self.method(f, node, frame)
        if isinstance(f, _Opaque):
            return _Opaque()
        raise self.refuse(node, Msg("CodeImport", "{code} cannot be called").format(code=self.text(node.func)))

    def args(self, node: ast.Call, names: tuple, frame, required: int = 1) -> dict:
        """The call's arguments by parameter name (positional ones in the order of `names`)."""
        if len(node.args) > len(names):
            raise self.refuse(
                node,
                Msg("CodeImport", "{code} takes at most {n} arguments here").format(
                    code=self.text(node.func), n=len(names)
                ),
            )
        out = {n: (a, self.expr(a, frame)) for n, a in zip(names, node.args)}
        for k in node.keywords:
            if k.arg not in names or k.arg in out:
                raise self.refuse(
                    k.value,
                    Msg("CodeImport", "{code} has no argument {name} GradViz reads; it reads: {known}").format(
                        code=self.text(node.func), name=k.arg, known=", ".join(names)
                    ),
                )
            out[k.arg] = (k.value, self.expr(k.value, frame))
        missing = [n for n in names[:required] if n not in out]
        if missing:
            raise self.refuse(
                node, Msg("CodeImport", "{code} needs {name}").format(code=self.text(node.func), name=missing[0])
            )
        return out

    def call_path(self, path: str, node: ast.Call, frame):
        b = path.split(".")
        if path == "builtins.float" or path == "builtins.int":
            (a,) = node.args or [None]
            return self.expr(a, frame) if a is not None else 0.0
        if path == "builtins.range" and not self.loop:
            return _Opaque()
        if path == "builtins.globals" and self.base is not None and not node.args:
            return _Given("globals")
        if path in ("mindspore.ops.ones", "mindspore.ops.zeros"):
            a = self.args(node, ("shape", "dtype"), frame)
            self.dtype(a)
            return self.tensor(self.shape(*a["shape"]), b[-1], None, node)
        if path in ("mindspore.Tensor", "mindspore.common.Tensor"):
            a = self.args(node, ("input_data", "dtype"), frame)
            self.dtype(a)
            data_node, data = a["input_data"]
            if isinstance(data, _Tensor):
                return data
            if isinstance(data, _Array):
                return self.tensor(data.shape, data.init, data.values, node)
            shape, values = self.values(data, data_node)
            return self.tensor(shape, "values", values, node)
        if path in ("mindspore.Parameter", "mindspore.common.Parameter"):
            a = self.args(node, ("default_input", "name", "requires_grad"), frame)
            t = a["default_input"][1]
            if not isinstance(t, _Tensor):
                raise self.refuse(
                    a["default_input"][0],
                    Msg("CodeImport", "Parameter(...) takes a tensor: Tensor(np.random.randn(...))"),
                )
            t.kind = "Parameter"
            if "name" in a and isinstance(a["name"][1], str) and a["name"][1]:
                t.name = a["name"][1]
            if "requires_grad" in a:
                if not isinstance(a["requires_grad"][1], bool):
                    raise self.refuse(a["requires_grad"][0], Msg("CodeImport", "requires_grad must be True or False"))
                t.requires_grad = a["requires_grad"][1]
            return t
        if path == "numpy.random.randn":
            dims = [self.number(x, frame, int) for x in node.args]
            if node.keywords:
                raise self.refuse(node, Msg("CodeImport", "np.random.randn takes the sizes only"))
            return _Array("randn", tuple(dims))
        if path in ("numpy.random.uniform", "numpy.random.normal"):
            return self.initializer_draw(b[-1], node, frame)
        if path in ("numpy.ones", "numpy.zeros"):
            a = self.args(node, ("shape", "dtype"), frame)
            return _Array(b[-1], self.shape(*a["shape"]))
        if path in ("numpy.array", "numpy.asarray"):
            a = self.args(node, ("object", "dtype"), frame)
            shape, values = self.values(a["object"][1], a["object"][0])
            return _Array("values", shape, values)
        if path == "numpy.random.seed":
            a = self.args(node, ("seed",), frame)
            self.opts["seed"] = (self.number(a["seed"][0], frame, int), *self.pos(node))
            return None
        if path in ("mindspore.grad", "mindspore.value_and_grad", "mindspore.ops.grad", "mindspore.ops.value_and_grad"):
            return self.grad_fn(b[-1], node, frame)
        if path in OPTIMIZER_CLASSES:
            return self.optimizer(OPTIMIZER_CLASSES[path], node, frame)
        if path in LAYERS:
            return self.nn_layer(LAYERS[path], node, frame)
        cls = path.removeprefix("mindspore.common.initializer.")
        if cls in INITIALIZER_CLASSES and path != cls:
            name, settings = INITIALIZER_CLASSES[cls]
            a = self.args(node, tuple(settings), frame, required=0)
            for key, (arg, v) in a.items():
                if v != settings[key] or isinstance(v, bool):
                    raise self.refuse(
                        arg,
                        Msg("CodeImport", "GradViz draws {cls} with {settings} (weight_init='{name}')").format(
                            cls=cls, settings=", ".join(f"{k}={v!r}" for k, v in settings.items()), name=name
                        ),
                    )
            return name
        if path == "mindspore.nn.SequentialCell":
            return self.sequential(node, frame)
        if path == "collections.OrderedDict":
            return self.ordered_dict(node, frame)
        if path in CELLS:
            if node.args or node.keywords:
                raise self.refuse(
                    node,
                    Msg("CodeImport", "{code}: GradViz reads this loss with its defaults (no arguments)").format(
                        code=self.text(node.func)
                    ),
                )
            return _LossCell(CELLS[path])
        if path == "mindspore.set_context":
            return self.context(node, frame)
        if path == "mindspore.set_device":
            a = self.args(node, ("device_target", "device_id"), frame)
            self.opts["device"] = (a["device_target"][1], *self.pos(node))
            return None
        if path.startswith("mindspore.ops.") or ("call", path) in PATTERNS:
            return self.op_call(path, node, frame)
        if path.startswith("mindspore.nn."):
            raise self.refuse(
                node,
                Msg(
                    "CodeImport", "{code} is not a cell GradViz knows; it knows: nn.Cell, {cells}, {optimizers}"
                ).format(
                    code=self.text(node.func),
                    cells=", ".join(c.replace("mindspore.", "") for c in [*LAYERS, "nn.SequentialCell", *CELLS]),
                    optimizers=", ".join(c.replace("mindspore.", "") for c in OPTIMIZER_CLASSES),
                ),
            )
        raise self.refuse(
            node,
            Msg("CodeImport", "{code} is not something GradViz reads in a MindSpore program (it runs nothing)").format(
                code=self.text(node.func)
            ),
        )

    def dtype(self, a: dict) -> None:
        if "dtype" in a:
            d = a["dtype"][1]
            if not (isinstance(d, _Path) and d.path in ("mindspore.float32", "numpy.float32")):
                raise self.refuse(
                    a["dtype"][0],
                    Msg("CodeImport", "the dtype {code}: GradViz computes in float32 (mindspore.float32)").format(
                        code=self.text(a["dtype"][0])
                    ),
                )

    def shape(self, node, value) -> tuple:
        dims = value if isinstance(value, (tuple, list)) else (value,)
        if not all(isinstance(d, int) and not isinstance(d, bool) for d in dims):
            raise self.refuse(
                node, Msg("CodeImport", "the shape {code} must be whole numbers").format(code=self.text(node))
            )
        return tuple(dims)

    def values(self, data, node) -> tuple[tuple, object]:
        """(shape, nested lists of floats) of a literal list of numbers."""

        def walk(v, depth):
            if depth > 3:
                raise self.refuse(node, Msg("CodeImport", "a tensor has at most two axes"))
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                if not math.isfinite(v):
                    raise self.refuse(node, Msg("CodeImport", "values must be finite numbers"))
                return (), float(v)
            if isinstance(v, (list, tuple)) and v:
                parts = [walk(x, depth + 1) for x in v]
                if any(p[0] != parts[0][0] for p in parts):
                    raise self.refuse(
                        node, Msg("CodeImport", "the rows of {code} differ in length").format(code=self.text(node))
                    )
                return (len(v), *parts[0][0]), [p[1] for p in parts]
            raise self.refuse(node, Msg("CodeImport", "{code} must be a list of numbers").format(code=self.text(node)))

        return walk(data, 0)

    def tensor(self, shape, init, values, node) -> _Tensor:
        self.seq += 1
        return _Tensor(self.seq, tuple(shape), init, values, *self.pos(node))

    def context(self, node, frame) -> None:
        a = self.args(node, ("mode", "device_target"), frame, required=0)
        if "mode" in a:
            m = a["mode"][1]
            modes = {"mindspore.GRAPH_MODE": "graph", "mindspore.PYNATIVE_MODE": "pynative", 0: "graph", 1: "pynative"}
            key = m.path if isinstance(m, _Path) else m
            if key not in modes:
                raise self.refuse(
                    a["mode"][0], Msg("CodeImport", "mode must be mindspore.GRAPH_MODE or mindspore.PYNATIVE_MODE")
                )
            self.opts["mode"] = (modes[key], *self.pos(node))
        if "device_target" in a:
            self.opts["device"] = (a["device_target"][1], *self.pos(node))
        return None

    def optimizer(self, opt, node, frame) -> _Optim:
        settings = dict(opt.settings)
        names = ("params", LR_KEYWORD["mindspore"], *settings)
        a = self.args(node, names, frame)
        lr = self.number(a[names[1]][0], frame) if names[1] in a else 0.001 if opt.name == "adam" else 0.1
        for k, want in settings.items():
            if k not in a or self.number(a[k][0], frame) != want:
                raise self.refuse(
                    node,
                    Msg("CodeImport", "GradViz's {cls} has {setting}={value}").format(
                        cls=f"nn.{opt.mindspore}", setting=k, value=want
                    ),
                )
        self.opts["optimizer"] = (opt.name, *self.pos(node))
        self.opts["lr"] = (lr, *self.pos(node))
        return _Optim(opt, lr, a["params"][1])

    def initializer_draw(self, method: str, node: ast.Call, frame) -> _Array:
        """np.random.uniform(low, high, shape) or np.random.normal(loc, scale, shape): one of the
        initializers GradViz draws a layer's weight and bias with (graph.init_draw), by its name."""
        names = ("low", "high", "size") if method == "uniform" else ("loc", "scale", "size")
        a = self.args(node, names, frame, required=3)
        ends = tuple(self.number(a[n][0], frame) for n in names[:2])
        shape = self.shape(*a["size"])
        for init in INITIALIZERS:
            m, args = init_draw(init, shape)
            if m == method and tuple(float(v) for v in args[:2]) == ends:
                return _Array(init, shape)
        raise self.refuse(
            node,
            Msg(
                "CodeImport",
                "{code} is not an initializer GradViz draws; for shape {shape} it draws: {known} "
                "(or name it: nn.Dense(..., weight_init='he_uniform'))",
            ).format(
                code=self.text(node),
                shape=shape,
                known=", ".join(
                    f"{i} = np.random.{init_draw(i, shape)[0]}({init_draw(i, shape)[1][0]:.6g}, "
                    f"{init_draw(i, shape)[1][1]:.6g}, ...)"
                    for i in INITIALIZERS
                ),
            ),
        )

    def dense_call(self, node: ast.Call, frame) -> _Sym:
        """ops.dense(x, weight, bias): a Dense node holding the two Parameters itself, its sizes
        from the weight's shape (out_channels, in_channels), its initializers from theirs."""
        a = self.args(node, ("input", "weight", "bias"), frame, required=3)
        x = self.operand(a["input"][1], a["input"][0], frame)
        w, bias = a["weight"][1], a["bias"][1]
        for (arg, t), want in (((a["weight"]), 2), ((a["bias"]), 1)):
            if not (isinstance(t, _Tensor) and t.kind == "Parameter" and len(t.shape) == want):
                raise self.refuse(
                    arg,
                    Msg(
                        "CodeImport",
                        "{code}: ops.dense's weight and bias are the layer's own Parameters, of shapes "
                        "(out_channels, in_channels) and (out_channels,)",
                    ).format(code=self.text(arg)),
                )
        if bias.shape[0] != w.shape[0]:
            raise self.refuse(
                a["bias"][0],
                Msg("CodeImport", "the bias has shape {b} but the weight {w}: the bias has out_channels {n}").format(
                    b=tuple(bias.shape), w=tuple(w.shape), n=w.shape[0]
                ),
            )
        attrs = {"in_channels": int(w.shape[1]), "out_channels": int(w.shape[0])}
        for (arg, t), attr, known in (
            (a["weight"], "weight_init", WEIGHT_INITS),
            (a["bias"], "bias_init", BIAS_INITS),
        ):
            if t.init not in known:
                raise self.refuse(
                    arg,
                    Msg(
                        "CodeImport",
                        "{code} is drawn as {init}; a Dense layer's {attr} is one of: {known}",
                    ).format(code=self.text(arg), init=t.init, attr=attr, known=", ".join(known)),
                )
            attrs[attr] = t.init
        return self.layer("Dense", x, attrs, node, frame, {"weight": w, "bias": bias})

    def layer(self, kind, x: str, attrs: dict, node, frame, params: dict | None = None) -> _Sym:
        """A node of `kind` on `x`; `params`: the tensors it holds itself, by the op table's names."""
        b = frame["builder"]
        for t in (params or {}).values():
            if id(t) in b.owned:
                raise self.refuse(
                    node,
                    Msg("CodeImport", "{name} is already the weight or bias of another layer").format(
                        name=t.name or "this tensor"
                    ),
                )
        sym = self.make_op(kind, {"x": x}, attrs, node, frame)
        for pname, t in (params or {}).items():
            b.owned[id(t)] = (sym, pname)
            b.source(t)  # a tensor of the program: in its draw order, folded into the layer later
        if params:
            b.layer_seq[id(b.graph[sym.name])] = params["weight"].seq
        return sym

    def nn_layer(self, k, node: ast.Call, frame) -> _Layer:
        """nn.Dense(in, out, weight_init=..., bias_init=...), nn.ReLU(), nn.LeakyReLU(alpha), ...:
        the op table's layer of the kind, its attributes by MindSpore's positions and keywords."""
        extra = {"has_bias": True, "activation": None} if k.params else {}
        fixed = {"Softmax": {"axis": -1}, "Flatten": {"start_dim": 1, "end_dim": -1}}.get(k.name, {})
        names = (*(a.mindspore for a in k.attrs), *extra, *fixed, "dtype" if k.params else "")
        a = self.args(node, tuple(n for n in names if n), frame, required=k.layer_args)
        for key, want in {**extra, **fixed}.items():
            if key in a and a[key][1] != want:
                raise self.refuse(
                    a[key][0],
                    Msg("CodeImport", "{cls}: GradViz's layer has {key}={want}").format(
                        cls=k.layer, key=key, want=repr(want)
                    ),
                )
        self.dtype(a)
        attrs, params = {}, {}
        for at in k.attrs:
            if at.mindspore not in a:
                if at.type is str:  # an initializer: MindSpore's own default is not one GradViz draws
                    raise self.refuse(
                        node,
                        Msg(
                            "CodeImport",
                            "{cls} needs {attr}: MindSpore's default initializer is not one GradViz draws; "
                            "name one of: {known}",
                        ).format(cls=k.layer, attr=at.mindspore, known=", ".join(at.choices)),
                    )
                continue
            arg, v = a[at.mindspore]
            if at.type is str and isinstance(v, _Tensor):  # the initial values themselves
                attrs[at.name] = v.init
                params[at.name] = v
                continue
            if at.type is str:
                if not isinstance(v, str):
                    raise self.refuse(
                        arg,
                        Msg("CodeImport", "{code}: {attr} is an initializer's name ({known}) or a tensor").format(
                            code=self.text(arg), attr=at.mindspore, known=", ".join(at.choices)
                        ),
                    )
                why = at.problem(v)
                if why:
                    raise self.refuse(arg, why)
                attrs[at.name] = v
            else:
                attrs[at.name] = self.attr_value(at, arg, frame)
        values = k.attr_values(attrs)
        for o in k.params:  # a Dense's weight and bias: GradViz draws them by their initializer's name
            t = params.pop(o.init_attr, None)
            shape = o.shape(values)
            if t is None:
                t = self.tensor(shape, values[o.init_attr], None, node)
            elif tuple(t.shape) != shape:
                raise self.refuse(
                    a[o.init_attr][0],
                    Msg("CodeImport", "{code} has shape {shape}; the layer's {param} has shape {want}").format(
                        code=self.text(a[o.init_attr][0]), shape=tuple(t.shape), param=o.name, want=shape
                    ),
                )
            elif t.init not in next(x.choices for x in k.attrs if x.name == o.init_attr):
                raise self.refuse(
                    a[o.init_attr][0],
                    Msg("CodeImport", "{code} is drawn as {init}; a Dense layer's {attr} is one of: {known}").format(
                        code=self.text(a[o.init_attr][0]),
                        init=t.init,
                        attr=o.init_attr,
                        known=", ".join(next(x.choices for x in k.attrs if x.name == o.init_attr)),
                    ),
                )
            t.kind = "Parameter"  # nn.Dense makes its own Parameter of it
            params[o.name] = t
        return _Layer(k, attrs, params, node)

    def replace_param(self, layer: _Layer, name: str, value, target) -> None:
        """self.seq.fc1.weight = p in __init__: the layer holds the Parameter p instead (GradViz's
        own, in its training program), of the same shape."""
        old = layer.params[name]
        edited = isinstance(value, _Tensor) and any(value is t for t in self.given.values())
        if edited and tuple(value.shape) != tuple(old.shape):  # sizes edited in the program tab: the
            # new shape, drawn where the session's Parameter was
            value = replace(value, shape=tuple(old.shape), init=old.init, values=None)
        if not (isinstance(value, _Tensor) and value.kind == "Parameter" and tuple(value.shape) == tuple(old.shape)):
            raise self.refuse(
                target,
                Msg("CodeImport", "{code} must be a Parameter of shape {shape}").format(
                    code=self.text(target), shape=tuple(old.shape)
                ),
            )
        layer.params[name] = value

    def sequential(self, node: ast.Call, frame) -> _Seq:
        """nn.SequentialCell(layer, ...), nn.SequentialCell([layer, ...]) or
        nn.SequentialCell(OrderedDict([("name", layer), ...])): the layers in order."""
        if node.keywords:
            raise self.refuse(node, Msg("CodeImport", "nn.SequentialCell takes its layers, not keywords"))
        args = [self.expr(a, frame) for a in node.args]
        if len(args) == 1 and isinstance(args[0], _Named):
            items = list(args[0].items)
        elif len(args) == 1 and isinstance(args[0], list):
            items = [(None, v) for v in args[0]]
        else:
            items = [(None, v) for v in args]
        out = []
        for (name, v), arg in zip(items, node.args if len(items) == len(node.args) else [node] * len(items)):
            if isinstance(v, _Seq):
                out += v.items
            elif isinstance(v, _Layer):
                out.append((name, v))
            else:
                raise self.refuse(
                    arg,
                    Msg("CodeImport", "{code}: nn.SequentialCell holds layers GradViz knows: {known}").format(
                        code=self.text(arg), known=", ".join(c.replace("mindspore.", "") for c in LAYERS)
                    ),
                )
        return _Seq(out)

    def ordered_dict(self, node: ast.Call, frame) -> _Named:
        a = self.args(node, ("items",), frame)
        items = a["items"][1]
        ok = isinstance(items, list) and all(
            isinstance(i, tuple) and len(i) == 2 and isinstance(i[0], str) and i[0].isidentifier() for i in items
        )
        if not ok:
            raise self.refuse(
                node, Msg("CodeImport", 'OrderedDict takes a list of ("name", layer) pairs: the layers, named')
            )
        return _Named(list(items))

    def apply(self, f, v, arg, frame):
        """A layer or a SequentialCell called on v: a node per layer (named as in its OrderedDict)."""
        b = frame["builder"]
        if isinstance(f, _Seq):
            for name, layer in f.items:
                v = self.apply(layer, v, arg, frame)
                if name:
                    b.rename(v, name)
            return v
        if id(f) in b.called:
            raise self.refuse(
                arg,
                Msg(
                    "CodeImport",
                    "a layer called a second time: GradViz's layers are one node each, with their own weights",
                ),
            )
        b.called.add(id(f))
        x = self.operand(v, arg, frame)
        if f.params:
            return self.layer(f.kind.name, x, f.attrs, f.node, frame, f.params)
        return self.make_op(f.kind.name, {"x": x}, f.attrs, f.node, frame)

    def op_call(self, path: str, node: ast.Call, frame):
        if path == "mindspore.ops.dense":
            return self.dense_call(node, frame)
        for k, pattern in PATTERNS.get(("call", path), []):
            binds, attrs = {}, {}
            why = self.match(pattern, node, binds, attrs, k, frame)
            if why is None:
                ins = {}
                for port, users in binds.items():
                    first = ast.dump(users[0])
                    if any(ast.dump(u) != first for u in users[1:]):
                        raise self.refuse(
                            node,
                            Msg("CodeImport", "{code}: GradViz reads {template}").format(
                                code=self.text(node), template=k.expression("mindspore", {p: p for p in k.ports})
                            ),
                        )
                    ins[port] = self.operand(self.expr(users[0], frame), users[0], frame)
                return self.make_op(k.name, ins, attrs, node, frame)
            raise self.refuse(node, why)
        raise self.refuse(
            node,
            Msg("CodeImport", "{code} is not an op GradViz knows; it knows: {known}").format(
                code=self.text(node.func).replace("mindspore.", ""), known=known_ops()
            ),
        )

    def match(self, p, u, binds, attrs, k, frame) -> str | None:
        """Why the user's expression `u` is not the template `p` (None when it is); the ports'
        expressions go to binds, attribute values to attrs. Nothing is evaluated but attributes."""
        if isinstance(p, ast.Name) and p.id.startswith(_PORT):
            binds.setdefault(p.id[len(_PORT) :], []).append(u)
            return None
        template = Msg("CodeImport", "{code}: GradViz reads {template}").format(
            code=self.text(u), template=k.expression("mindspore", {q: q for q in k.ports})
        )
        if isinstance(p, ast.Call):
            if not isinstance(u, ast.Call) or self.resolve(u.func) != _full(_dotted(p.func) or ""):
                return template
            if len(u.args) > len(p.args) + len(k.attrs):
                return template
            for i, pa in enumerate(p.args):
                if i < len(u.args):
                    why = self.match(pa, u.args[i], binds, attrs, k, frame)
                    if why:
                        return why
                elif not (isinstance(pa, ast.Call) and (_dotted(pa.func) or "").endswith("ones_like")):
                    return template  # only the weights of ones may be left out (MindSpore's default)
            by_kw = {a.mindspore: a for a in k.attrs}
            fixed = {kw.arg: ast.dump(kw.value) for kw in p.keywords if kw.arg not in by_kw}  # softmax's axis=-1
            extra = u.args[len(p.args) :]
            for a, value in zip(k.attrs, extra):
                attrs[a.name] = self.attr_value(a, value, frame)
            for kw in u.keywords:
                if kw.arg in fixed:
                    if ast.dump(kw.value) != fixed[kw.arg]:
                        return template
                    continue  # the template's own keyword (left out, MindSpore's default: the same)
                if kw.arg not in by_kw:
                    return template
                attrs[by_kw[kw.arg].name] = self.attr_value(by_kw[kw.arg], kw.value, frame)
            return None
        if isinstance(p, ast.BinOp):
            if not isinstance(u, ast.BinOp) or type(u.op) is not type(p.op):
                return template
            return self.match(p.left, u.left, binds, attrs, k, frame) or self.match(
                p.right, u.right, binds, attrs, k, frame
            )
        return None if ast.dump(p) == ast.dump(u) else template

    def attr_value(self, a, node, frame):
        v = self.number(node, frame, a.type)
        why = a.problem(v)
        if why:
            raise self.refuse(node, why)
        return v

    def grad_fn(self, which: str, node: ast.Call, frame) -> _GradFn:
        a = self.args(node, ("fn", "grad_position", "weights", "has_aux"), frame)
        fn = a["fn"][1]
        if not isinstance(fn, (_Func, _Cell)):
            raise self.refuse(
                a["fn"][0], Msg("CodeImport", "the function to differentiate must be a def or an nn.Cell")
            )
        pos = a["grad_position"][1] if "grad_position" in a else 0
        ok = pos is None or isinstance(pos, int) or isinstance(pos, tuple) and all(isinstance(i, int) for i in pos)
        if not ok or isinstance(pos, bool):
            raise self.refuse(
                a["grad_position"][0], Msg("CodeImport", "grad_position must be a number, a tuple of numbers or None")
            )
        weights = a["weights"][1] if "weights" in a else None
        if weights is not None and not (
            isinstance(weights, (list, tuple)) and all(isinstance(w, _Tensor) for w in weights)
        ):
            raise self.refuse(
                a["weights"][0],
                Msg("CodeImport", "weights= must be a cell's trainable_params() or a list of Parameters"),
            )
        has_aux = a["has_aux"][1] if "has_aux" in a else False
        if not isinstance(has_aux, bool):
            raise self.refuse(a["has_aux"][0], Msg("CodeImport", "has_aux must be True or False"))
        return _GradFn(fn, which, pos, list(weights) if weights is not None else None, has_aux, *self.pos(node))

    def differentiate(self, g: _GradFn, node: ast.Call, frame):
        """grad_fn(...): read the differentiated function on these arguments, as the program."""
        if node.keywords:
            raise self.refuse(node, Msg("CodeImport", "call grad_fn with positional arguments"))
        args = [self.expr(a, frame) for a in node.args]
        for a, v in zip(node.args, args):
            if not isinstance(v, _Tensor):
                raise self.refuse(
                    a,
                    Msg("CodeImport", "{code}: grad_fn's arguments must be tensors the program makes").format(
                        code=self.text(a)
                    ),
                )
        b = _Builder()
        for v in args:
            b.source(v)
        inner = {"locals": {}, "builder": b, "self": None}
        if isinstance(g.fn, _Cell):
            result = self.call_func(self.construct(g.fn, node), args, node, inner, g.fn)
        else:
            result = self.call_func(g.fn, args, node, inner, None)
        outs = list(result) if isinstance(result, tuple) else [result]
        self.runs.append(_Run(g, b, args, result, *self.pos(node)))
        aux = tuple(outs[1:])
        grads = _Opaque()
        if g.which == "grad":
            return (grads, aux) if g.has_aux else grads
        return ((_Loss(), *aux) if aux else _Loss()), grads

    def construct(self, cell: _Cell, node) -> _Func:
        for b in cell.cls.node.body:
            if isinstance(b, ast.FunctionDef) and b.name == "construct":
                return _Func(b)
        raise self.refuse(
            node,
            Msg("CodeImport", "{cls} has no construct: calling it computes nothing").format(cls=cell.cls.node.name),
        )

    def method(self, f: _Bound, node, frame):
        if isinstance(f.obj, _Cell):
            if f.name in _NO_OPS:
                return None
            params = [v for v in f.obj.attrs.values() if isinstance(v, _Tensor) and v.kind == "Parameter"]
            for v in f.obj.attrs.values():  # then each layer's, as MindSpore lists a cell's children
                for layer in [v] if isinstance(v, _Layer) else [x for _, x in v.items] if isinstance(v, _Seq) else []:
                    params += list(layer.params.values())
            if f.name == "trainable_params":
                return [p for p in params if p.requires_grad]
            return params
        if f.name == "astype" and isinstance(f.obj, _Array):
            return f.obj
        return f.obj  # .numpy(), .asnumpy(), .item(), .value(): the same value

    def instantiate(self, c: _Class, node, frame) -> _Cell:
        cell = _Cell(c)
        init = next((b for b in c.node.body if isinstance(b, ast.FunctionDef) and b.name == "__init__"), None)
        if init is not None:
            self.call_func(_Func(init), [self.expr(a, frame) for a in node.args], node, frame, cell)
        elif node.args or node.keywords:
            raise self.refuse(node, Msg("CodeImport", "{cls} takes no arguments").format(cls=c.node.name))
        return cell

    def call_func(self, f: _Func, args: list, node, frame, cell):
        d = f.node
        a = d.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.kw_defaults or a.posonlyargs:
            raise self.refuse(
                d,
                Msg("CodeImport", "def {name}: GradViz reads plain arguments (no defaults, * or **)").format(
                    name=d.name
                ),
            )
        names = [x.arg for x in a.args]
        if cell is not None:
            names = names[1:]  # self
        if getattr(node, "keywords", None):
            raise self.refuse(node, Msg("CodeImport", "call {name} with positional arguments").format(name=d.name))
        if len(args) != len(names):
            raise self.refuse(
                node,
                Msg("CodeImport", "{name} takes {n} arguments, {m} given").format(
                    name=d.name, n=len(names), m=len(args)
                ),
            )
        for v in args:  # an argument the function never uses is still one of the graph's tensors
            if isinstance(v, _Tensor):
                frame["builder"].source(v)
        local = {"locals": dict(zip(names, args)), "builder": frame["builder"], "self": cell}
        if cell is not None:
            local["locals"][a.args[0].arg] = cell
        for s in d.body:
            out = self.statement(s, local)
            if out is not None:
                first = out[1][0] if isinstance(out[1], tuple) and out[1] else out[1]
                if isinstance(first, _Sym):
                    first.builder.returned_first.add(first.name)
                return out[1]
        return None

    # -- the session ---------------------------------------------------------------------------
    def session(self, name: str) -> Session:
        if not self.runs:
            raise self.refuse(
                None,
                Msg(
                    "CodeImport",
                    "no differentiation: GradViz reads the call of a function made by mindspore.grad or "
                    "mindspore.value_and_grad (grads = grad_fn(x, y, w, b))",
                ),
            )
        run = self.runs[-1]
        g, b = run.grad, run.builder
        where = (run.line, run.col)
        o = replace(self.base.options) if self.base is not None else Options()
        outs = list(run.result) if isinstance(run.result, tuple) else [run.result]
        params = [t for t in b.tensors.values() if t.kind == "Parameter"]
        if g.weights is not None:
            if g.which != "value_and_grad" or g.positions is not None:
                raise self.at(
                    where,
                    Msg(
                        "CodeImport",
                        "GradViz's nn.Cell path is mindspore.value_and_grad(forward_fn, None, weights=...)",
                    ),
                )
            o.api = "cell"
            for w in g.weights:
                b.source(w)
            for v in run.args:
                if v.kind == "Parameter":
                    raise self.at(
                        where,
                        Msg(
                            "CodeImport", "with weights= grad_fn's arguments are the data; {name} is a Parameter"
                        ).format(name=b.source(v)),
                    )
            params = [t for t in b.tensors.values() if t.kind == "Parameter"]
            trained = {id(w) for w in g.weights}
        else:
            o.api = g.which
            pos = g.positions
            pos = () if pos is None else (pos,) if isinstance(pos, int) else pos
            trained = set()
            for i in pos:
                if not 0 <= i < len(run.args):
                    raise self.at(
                        where, Msg("CodeImport", "grad_position {i} is not one of grad_fn's arguments").format(i=i)
                    )
                t = run.args[i]
                if t.kind != "Parameter":
                    raise self.at(
                        where,
                        Msg(
                            "CodeImport",
                            "grad_position {i} is {name}, a Tensor: GradViz differentiates with respect to Parameters; "
                            "wrap it in Parameter(...)",
                        ).format(i=i, name=b.source(t)),
                    )
                trained.add(id(t))
        for t in params:
            if id(t) in b.owned:
                continue  # a layer's own: fold_layers
            if id(t) not in trained and t.requires_grad and b.sources[id(t)] in [n.name for n in b.graph.nodes]:
                t_node = b.graph[b.sources[id(t)]]
                t_node.requires_grad = False
            elif id(t) in trained and not t.requires_grad:
                raise self.at(
                    where,
                    Msg("CodeImport", "{name} has requires_grad=False but is differentiated").format(
                        name=b.sources[id(t)]
                    ),
                )
        self.fold_layers(b, trained, where)
        # the returned values: the loss, then the auxiliary outputs
        if any(v is None for v in outs):
            raise self.at(where, Msg("CodeImport", "the differentiated function returns nothing"))
        stopped = [isinstance(v, _Stopped) for v in outs[1:]]
        o.stop_gradient = bool(stopped) and all(stopped)
        frame = {"locals": {}, "builder": b, "self": None}
        names = []
        for i, v in enumerate(outs):
            if isinstance(v, _Stopped) and (i == 0 or not o.stop_gradient):
                v = _Sym(b, self.operand(v, None, frame))
            if isinstance(v, _Stopped):
                v = v.value
            if isinstance(v, _Loss):
                raise self.at(where, Msg("CodeImport", "the differentiated function returns a grad_fn's result"))
            names.append(self.operand(v, None, frame) if isinstance(v, (_Tensor, _Sym)) else self._not_tensor(where))
        o.aux_output = len(outs) > 1
        o.has_aux = g.has_aux
        if g.has_aux and len(outs) < 2:
            raise self.at(where, Msg("CodeImport", "has_aux=True needs a second returned value (the auxiliary data)"))
        for n in names:
            out = b.graph.unique_name(f"out_{n}")
            b.graph.nodes.append(Node(out, "Output", inputs={"x": n}))
            b.where[out] = where
        for key, (value, *_) in self.opts.items():
            setattr(o, key, value)
        self.check_draws(b)
        graph = _ordered(b.graph, b)
        _layout(graph)
        data = self.base.graph.dataset() if self.base is not None else None
        if data is not None and any(n.is_data for n in graph.nodes):  # the base's Inputs it feeds stay fed
            graph.nodes.insert(0, replace(data, attrs=dict(data.attrs)))
        elif self.data is not None:  # an exported script's data set
            attrs = {k: getattr(self.data, k) for k in OPS["Dataset"].attr_values({})}
            graph.nodes.insert(0, Node(graph.unique_name("data"), "Dataset", attrs=attrs))
        if self.base is not None:  # nodes the session had stay where they were
            for n in graph.nodes:
                old = self.base.graph.get(n.name)
                if old is not None:
                    n.pos = old.pos
        session = Session(graph, o, name)
        for p in graph.validate():
            line, col = b.where.get(p.node, where) if p.node else where
            self.problems.append(CodeProblem(line, col, p.message))
        for key, opt in OPTIONS.items():
            why = opt.problem(getattr(o, key))
            if why is not None:
                line, col = self.opts.get(key, (None, *where))[1:]
                self.problems.append(CodeProblem(line, col, why))
        return session

    def fold_layers(self, b: _Builder, trained: set, where) -> None:
        """A layer's own tensors (ops.dense's weight and bias) become the layer's: their Parameter
        nodes go, and the layer holds them as graph.owned names them. Each must be trained and
        used by its layer alone."""
        for tid, (sym, pname) in b.owned.items():
            name = b.sources[tid]
            t = b.tensors[name]
            line, col = t.line, t.col
            users = [n.name for n in b.graph.nodes if name in n.inputs.values()]
            if users:
                self.problems.append(
                    CodeProblem(
                        line,
                        col,
                        Msg(
                            "CodeImport",
                            "{name} is {layer}'s own {param}; GradViz's layers hold theirs alone, not used by {users}",
                        ).format(name=name, layer=sym.name, param=pname, users=", ".join(users)),
                    )
                )
            elif tid not in trained or not t.requires_grad:
                self.problems.append(
                    CodeProblem(
                        *where,
                        Msg(
                            "CodeImport",
                            "{name} is {layer}'s own {param}, which GradViz trains: differentiate with respect to it "
                            "(grad_position or weights=)",
                        ).format(name=name, layer=sym.name, param=pname),
                    )
                )
            node = b.graph.get(name)
            if node is not None and not users:
                b.graph.nodes.remove(node)

    def _not_tensor(self, where):
        raise self.at(where, Msg("CodeImport", "the differentiated function must return tensors"))

    def at(self, where, msg) -> _Refuse:
        r = _Refuse(None, msg)
        r.where = where
        return r

    def check_draws(self, b: _Builder) -> None:
        """np.random.randn draws in the program's order; GradViz draws its graph's tensors only, so a
        drawn tensor left out of the graph before a used one would shift the values after it."""
        drawn = ("randn", *INITIALIZERS)
        used = [t.seq for t in b.tensors.values() if t.init in drawn]
        given = {id(t) for t in self.given.values()}  # the session's own: GradViz draws its graph's
        for t in self.all_tensors():
            if id(t) in given:
                continue
            if t.init in drawn and id(t) not in b.sources and used and t.seq < max(used):
                self.problems.append(
                    CodeProblem(
                        t.line,
                        t.col,
                        Msg(
                            "CodeImport",
                            "this np.random.randn tensor is drawn but not used by the differentiated function; "
                            "GradViz draws its graph's tensors only, so the values after it would differ",
                        ),
                    )
                )

    def all_tensors(self):
        seen = {}

        def visit(v, depth=0):
            if depth > 4:
                return
            if isinstance(v, _Tensor):
                seen[id(v)] = v
            elif isinstance(v, _Cell):
                for x in v.attrs.values():
                    visit(x, depth + 1)
            elif isinstance(v, _Layer):
                for x in v.params.values():
                    visit(x, depth + 1)
            elif isinstance(v, _Seq):
                for _, x in v.items:
                    visit(x, depth + 1)
            elif isinstance(v, (list, tuple)):
                for x in v:
                    visit(x, depth + 1)

        for v in self.globals.values():
            visit(v)
        for r in self.runs:
            for v in r.args:
                visit(v)
        return sorted(seen.values(), key=lambda t: t.seq)


_PIPELINE_NAMES = {"n_test", "train_x", "train_y", "test_x", "test_y"}
_PIPELINE_DEFS = {"epoch_order", "test_forward", "test_loop", "train_loop"}
_PIPELINE_MODULES = {"sklearn.datasets", "csv", "os", "mindspore.dataset"}


def _pipeline_key(stmt) -> tuple | None:
    """What part of an exported script's data pipeline a top-level statement is (scripts.py's
    _data_lines and _epochs), or None for one that is not."""
    if isinstance(stmt, ast.Import) and all(a.name in _PIPELINE_MODULES for a in stmt.names):
        return ("import",)
    if isinstance(stmt, ast.Assign):
        names = [n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        if names and all(n.startswith("sample_") or n in _PIPELINE_NAMES for n in names):
            return ("assign",)
    if isinstance(stmt, ast.With) and "sample_file" in ast.dump(stmt.items[0]):
        return ("with",)
    if isinstance(stmt, ast.For) and "sample_dir" in ast.dump(stmt):
        return ("for",)
    if isinstance(stmt, ast.FunctionDef) and stmt.name in _PIPELINE_DEFS:
        return ("def",)
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and _dotted(stmt.value.func) == "train_loop":
        return ("call",)
    return None


def _first_difference(got, want):
    """The innermost statements where `got` differs from `want` (into the bodies of a def, a for,
    an if or a with), so that a problem names the line that differs."""
    while want is not None and type(got) is type(want) and hasattr(got, "body"):
        head = [f for f in got._fields if f not in ("body", "orelse")]
        if any(_dump(getattr(got, f)) != _dump(getattr(want, f, None)) for f in head):
            break
        pairs = list(zip(got.body + getattr(got, "orelse", []), want.body + getattr(want, "orelse", [])))
        diff = next(((g, w) for g, w in pairs if ast.dump(g) != ast.dump(w)), None)
        if diff is None:
            break  # one body is longer: the statement itself
        got, want = diff
    return got, want


def _dump(v) -> str:
    """A field of a statement as text to compare: a node, a list of them, or a value."""
    if isinstance(v, ast.AST):
        return ast.dump(v)
    if isinstance(v, list):
        return "[" + ", ".join(_dump(x) for x in v) + "]"
    return repr(v)


def _const(node):
    """A literal number, string or None written in the program (never evaluated), else None."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        v = node.operand.value
        return -v if isinstance(v, (int, float)) and not isinstance(v, bool) else None
    return None


def _ordered(graph: Graph, b: _Builder) -> Graph:
    """Sources in the order the program makes them (the order their values are drawn), then the
    computed nodes in the order they are computed, then the Outputs."""
    seq = {id(n): b.tensors[n.name].seq for n in graph.nodes if n.is_source} | b.layer_seq
    sources = sorted((n for n in graph.nodes if n.is_source or id(n) in b.layer_seq), key=lambda n: seq[id(n)])
    rest = [n for n in graph.nodes if not n.is_source and n.kind != "Output" and id(n) not in b.layer_seq]
    return Graph(sources + rest + graph.outputs())


def _layout(graph: Graph) -> None:
    """Columns by depth (the longest path from a source), each source one column before its first
    consumer (the target beside the loss, as in the tutorial); rows in graph order within a column."""
    depth: dict[str, int] = {}
    for n in graph.topo_order():
        if not n.is_source:
            depth[n.name] = 1 + max((depth.get(s, 0) for s in n.inputs.values()), default=0)
    for n in graph.nodes:
        if n.is_source:
            used = [depth[m.name] for m in graph.nodes if n.name in m.inputs.values() and m.name in depth]
            depth[n.name] = min(used, default=1) - 1
    rows: dict[int, int] = {}
    for n in graph.nodes:
        d = depth.get(n.name, 0)
        n.pos = (d * _GX, rows.get(d, 0) * _GY)
        rows[d] = rows.get(d, 0) + 1


# -- entry points ----------------------------------------------------------------------------------
def problems_of_text(text: str, base: Session | None = None) -> list[CodeProblem]:
    """What keeps this text from importing (empty when it imports): the editors show these."""
    try:
        import_code(text, base=base)
    except CodeError as e:
        return e.problems
    return []


def import_code(text: str, where: str = "<code>", name: str = "imported", base: Session | None = None) -> Session:
    """The session a MindSpore program describes; CodeError lists every problem at its line.
    Nothing in `text` is run.

    With a base session, the program may be GradViz's own (codegen.generate, the MindSpore
    program tab): `gv_parameters['w']` is the base's Parameter w, train_step's arguments its
    Inputs, `gv_make_optimizer` its optimizer, and the options the code does not set stay the base's."""
    problems: list[CodeProblem] = []
    lines = text.splitlines()
    if len(text.encode("utf-8", "surrogatepass")) > MAX_CODE_BYTES:
        raise CodeError(
            [
                CodeProblem(
                    0,
                    0,
                    Msg("CodeImport", "the program is over {n} MB; GradViz reads programs up to that size").format(
                        n=MAX_CODE_BYTES >> 20
                    ),
                )
            ],
            where,
        )
    for i, line in enumerate(lines, 1):
        if len(line) > MAX_LINE:
            problems.append(
                CodeProblem(
                    i,
                    1,
                    Msg("CodeImport", "the line has {n} characters; at most {max} are read").format(
                        n=len(line), max=MAX_LINE
                    ),
                )
            )
    if problems:
        raise CodeError(problems[:20], where)
    if not text.strip():
        raise CodeError([CodeProblem(0, 0, Msg("CodeImport", "the program is empty"))], where)
    try:
        tree = ast.parse(text, filename=where)
    except SyntaxError as e:
        col = (e.offset or 1) if e.lineno else 0
        raise CodeError(
            [CodeProblem(e.lineno or 0, col, Msg("CodeImport", "syntax error: {error}").format(error=e.msg))], where
        ) from None
    except (ValueError, RecursionError, MemoryError) as e:
        why = Msg("CodeImport", "the program nests too deeply to read") if not isinstance(e, ValueError) else str(e)
        raise CodeError(
            [CodeProblem(0, 0, Msg("CodeImport", "cannot be read: {error}").format(error=why))], where
        ) from None
    r = _Reader(lines, base)
    try:
        r.read(tree)
        session = None
        if not r.torch and not r.problems:
            try:
                session = r.session(name)
                if r.pipeline and not r.problems:
                    r.check_pipeline(session)
            except _Refuse as e:
                wl = getattr(e, "where", None)
                if wl is not None:
                    r.problems.append(CodeProblem(wl[0], wl[1], e.msg))
                elif e.node is not None:
                    r.add(e.node, e.msg)
                else:
                    r.problems.append(CodeProblem(0, 0, e.msg))
    except RecursionError:
        r.problems.append(CodeProblem(0, 0, Msg("CodeImport", "the program nests too deeply to read")))
    except Exception as e:  # noqa: BLE001 - a construct the reader did not foresee: said, never a traceback
        r.problems.append(
            CodeProblem(
                0, 0, Msg("CodeImport", "GradViz could not read this program ({error})").format(error=repr(e)[:120])
            )
        )
    if r.torch:
        raise CodeError(r.torch[:1], where)
    if r.problems:
        raise CodeError(sorted(r.problems, key=lambda p: (p.line, p.col)), where)
    assert session is not None
    return session


def import_file(path: str | os.PathLike) -> Session:
    """The session of a MindSpore program file (regular files only, bounded reads)."""
    try:
        text, where = read_text_file(path, MAX_CODE_BYTES)
    except FileProblem as e:
        raise CodeError([CodeProblem(0, 0, message(e))], "") from None
    stem = os.path.splitext(os.path.basename(os.fspath(path)))[0] or "imported"
    return import_code(text, where, stem)

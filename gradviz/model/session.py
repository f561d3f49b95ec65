"""A session: a graph plus its training options, saved as versioned JSON.

Loading checks everything and reports what is wrong with one error type, SessionError."""

from __future__ import annotations

import json
import uuid
import os
from dataclasses import asdict, dataclass, field, fields, replace
from collections.abc import Callable
from typing import Any

from ..i18n import Msg, message
from ..safe_io import Cancelled, FileProblem, atomic_write_text, read_text_file
from . import options
from .options import _finite, _int, _short_repr
from .formatting import quote, shorten
from .graph import INITS, KINDS, MAX_NODES, PORTS, SOURCE_KINDS, Graph, Node, check_shape, shape_str, too_many_nodes
from .graph import attr_problems, numel, unknown_init

FORMAT = "gradviz-session"
VERSION = 2  # 2: op attributes ("attrs"); version 1 files, which have none, are read as they are
MAX_FILE_BYTES = 64 * 1024 * 1024

# the option table's choices and limits, by the names the loader, the engine and the window use
APIS, MODES, DEVICES = options.APIS, options.MODES, options.DEVICES
MIN_LR = options.OPTIONS["lr"].low
MAX_SEED = options.OPTIONS["seed"].high
MAX_STEPS = options.OPTIONS["steps"].high
MIN_UNTIL_LOSS = options.OPTIONS["until_loss"].low
MIN_SPEED, MAX_SPEED = options.OPTIONS["speed"].low, options.OPTIONS["speed"].high


class SessionError(ValueError):
    """A session that cannot be loaded or an option that is invalid; the message says why."""


@dataclass
class Options:
    """Training options. Those marked 'reset' apply when the run is (re)built."""

    aux_output: bool = False  # return the auxiliary outputs (the tutorial's z) too
    stop_gradient: bool = False  # wrap auxiliary outputs in ops.stop_gradient
    has_aux: bool = False  # differentiate with has_aux=True
    api: str = "value_and_grad"
    optimizer: str = "sgd"
    lr: float = 0.01
    seed: int = 42
    steps: int = 1000  # max steps of a run
    until_loss: float | None = None  # stop once the loss is below this
    mode: str = "pynative"
    device: str = "CPU"
    speed: float = 0.0  # steps per second in the app; 0 = as fast as possible

    def problems(self) -> list[str]:
        """Every invalid option, as messages naming the option (the option table's rules)."""
        return options.problems(asdict(self))

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class Session:
    graph: Graph
    options: Options = field(default_factory=Options)
    name: str = "untitled"

    def copy(self) -> Session:
        return Session(self.graph.copy(), replace(self.options), self.name)

    def problems(self) -> list[str]:
        """Everything that keeps this session from training, graph and options together."""
        out = [p.message for p in self.graph.validate()]
        out += self.options.problems()
        if self.options.aux_output and not self.graph.aux_outputs():
            out.append(Msg("Session", "'return auxiliary outputs' is on but the graph has only one Output"))
        spec = self.graph.data_spec()
        if self.options.aux_output and spec is not None and not spec.problems():
            n_train = spec.split_sizes()[0]
            if n_train % spec.batch_size:  # a short last batch: the recorded outputs change shape
                out.append(
                    Msg(
                        "Session",
                        "'return auxiliary outputs' needs every mini-batch full: the training set's {n} samples "
                        "do not divide into batches of {b}",
                    ).format(n=n_train, b=spec.batch_size)
                )
        return out

    def to_dict(self) -> dict:
        return {
            "format": FORMAT,
            "version": VERSION,
            "name": self.name,
            "graph": self.graph.to_dict(),
            "options": self.options.to_dict(),
        }

    def to_json(self) -> str:
        """Indented, each node's values on one line: json writes indented text number by number
        in Python, slowly, so the values are written apart by its compact C encoder and spliced in."""
        d = self.to_dict()
        token = f"gv-values-{uuid.uuid4().hex}-"
        compact = {}
        for i, n in enumerate(d["graph"]["nodes"]):
            if n.get("values") is not None:
                compact[f'"{token}{i}"'] = json.dumps(n["values"])
                n["values"] = f"{token}{i}"
        text = json.dumps(d, indent=1)
        for key, values in compact.items():
            text = text.replace(key, values, 1)
        return text

    @classmethod
    def from_dict(cls, data: Any, where: str = Msg("Session", "session"), watch=None) -> Session:
        """The session in `data`, checked; watch(fraction), if given, hears how far the check of
        the values is (and may raise to stop it)."""
        try:
            return _parse_session(data, where, watch)
        except SessionError:
            raise
        except (OverflowError, TypeError, ValueError, RecursionError, AttributeError, KeyError) as e:
            raise SessionError(
                _at(where, Msg("Session", "impossible content ({error})").format(error=_short(e)))
            ) from None

    @classmethod
    def from_json(cls, text: str, where: str = Msg("Session", "session")) -> Session:
        return cls.from_dict(_parse_json(text, where), where)


def _parse_json(text: str, where: str) -> Any:
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as e:
        raise SessionError(_at(where, Msg("Session", "not valid JSON ({error})").format(error=_short(e)))) from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


def _at(where: str, problem: str) -> Msg:
    """A problem found at a place: 'session.json: node 2 "w": pos must be two numbers'."""
    return Msg("Session", "{where}: {problem}").format(where=where, problem=problem)


def _short(e: Exception) -> str:
    return shorten(str(e) or type(e).__name__, 120)


def load_session(
    path: str | os.PathLike,
    progress: Callable[[float], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Session:
    """Read and check a session file; SessionError names the file and the problem.

    On a worker thread (the window's): progress(fraction) says how far it is (reading is the
    first half, checking the values the last part), and Cancelled is raised once cancelled()
    says so, between chunks of the file and of the values (not while the JSON is parsed)."""
    report = progress or (lambda _fraction: None)
    stop = cancelled or (lambda: False)

    def check(fraction: float) -> None:
        if stop():
            raise Cancelled()
        report(fraction)

    try:
        text, where = read_text_file(path, MAX_FILE_BYTES, lambda done, total: report(0.5 * done / total), stop)
    except FileProblem as e:
        raise SessionError(message(e)) from None
    if not text.strip():
        raise SessionError(_at(where, Msg("Session", "the file is empty")))
    check(0.5)
    data = _parse_json(text, where)
    del text
    check(0.7)
    session = Session.from_dict(data, where, lambda fraction: check(0.7 + 0.3 * fraction))
    check(1.0)
    return session


def save_session(session: Session, path: str | os.PathLike) -> None:
    """Write the session (FileProblem if it cannot be written; the old file is then kept)."""
    atomic_write_text(path, session.to_json())


# -- parsing ----------------------------------------------------------------------------------
def _parse_session(data: Any, where: str, watch=None) -> Session:
    if not isinstance(data, dict):
        raise SessionError(
            _at(where, Msg("Session", "expected a JSON object, found {type}").format(type=type(data).__name__))
        )
    if data.get("format") != FORMAT:
        raise SessionError(
            _at(where, Msg("Session", 'not a GradViz session (missing "format": "{format}")').format(format=FORMAT))
        )
    version = data.get("version")
    if not _int(version):
        raise SessionError(
            _at(
                where,
                Msg("Session", "the version must be a whole number, found {value}").format(value=_short_repr(version)),
            )
        )
    if version > VERSION or version < 1:
        raise SessionError(
            _at(
                where,
                Msg("Session", "version {value} is not supported (this GradViz reads versions 1 to {version})").format(
                    value=_short_repr(version), version=VERSION
                ),
            )
        )
    name = data.get("name", "untitled")
    if not isinstance(name, str):
        raise SessionError(_at(where, Msg("Session", "name must be text")))
    graph = _parse_graph(data.get("graph"), where, watch)
    options = _parse_options(data.get("options", {}), where)
    session = Session(graph, options, name[:200])
    problems = session.problems()
    if problems:
        first = Msg("Session", "{a}; {b}")
        text = problems[0]
        for p in problems[1:5]:
            text = first.format(a=text, b=p)
        if len(problems) > 5:
            text = Msg("Session", "{problems} (and {n} more)").format(problems=text, n=len(problems) - 5)
        raise SessionError(_at(where, text))
    return session


def _parse_graph(g: Any, where: str, watch=None) -> Graph:
    if not isinstance(g, dict) or not isinstance(g.get("nodes"), list):
        raise SessionError(_at(where, Msg("Session", '"graph" must be an object with a list of "nodes"')))
    raw_nodes = g["nodes"]
    if len(raw_nodes) > MAX_NODES:
        raise SessionError(_at(where, too_many_nodes(len(raw_nodes))))
    tick = None
    if watch is not None:  # how far, as values checked of the values the shapes declare
        total = sum(
            numel(tuple(d["shape"]))
            for d in raw_nodes
            if isinstance(d, dict) and d.get("init") == "values" and check_shape(d.get("shape")) is None
        )
        done = [0]

        def tick(n: int) -> None:
            done[0] += n
            watch(min(1.0, done[0] / max(total, 1)))

    nodes = []
    for i, d in enumerate(raw_nodes):
        nodes.append(_parse_node(d, _at(where, Msg("Session", "node {n}").format(n=i + 1)), tick))
    return Graph(nodes)


def _parse_node(d: Any, where: str, tick=None) -> Node:
    if not isinstance(d, dict):
        raise SessionError(Msg("Session", "{where} must be an object").format(where=where))
    name, kind = d.get("name"), d.get("kind")
    if not isinstance(name, str):
        raise SessionError(_at(where, Msg("Session", "a node needs a name (text)")))
    where = Msg("Session", "{where} {name}").format(where=where, name=quote(name))
    if kind not in KINDS:
        raise SessionError(
            _at(
                where,
                Msg("Session", "unknown kind {kind}; known kinds are {kinds}").format(
                    kind=quote(kind), kinds=", ".join(KINDS)
                ),
            )
        )
    pos = d.get("pos", [0, 0])
    if not (isinstance(pos, list) and len(pos) == 2 and all(_finite(v) for v in pos)):
        raise SessionError(_at(where, Msg("Session", "pos must be two numbers")))
    node = Node(name=name, kind=kind, pos=(float(pos[0]), float(pos[1])))
    if kind in SOURCE_KINDS:
        shape = d.get("shape")
        msg = check_shape(shape)
        if msg:
            raise SessionError(_at(where, msg))
        node.shape = tuple(shape)
        init = d.get("init", "zeros")
        if init not in INITS:
            raise SessionError(_at(where, unknown_init(init)))
        node.init = init
        if init == "values":
            node.values = d.get("values")
            _check_values(node.values, node.shape, where, tick)
        rg = d.get("requires_grad", True)
        if not isinstance(rg, bool):
            raise SessionError(_at(where, Msg("Session", "requires_grad must be true or false")))
        node.requires_grad = rg
    else:
        ins = d.get("inputs", {})
        if not isinstance(ins, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in ins.items()):
            raise SessionError(_at(where, Msg("Session", "inputs must map port names to node names")))
        unknown = set(ins) - set(PORTS[kind])
        if unknown:
            raise SessionError(
                _at(
                    where,
                    Msg("Session", "unknown input port(s) {ports} for {kind}").format(
                        ports=", ".join(quote(u, 40) for u in sorted(unknown)[:5]), kind=kind
                    ),
                )
            )
        node.inputs = dict(ins)
        attrs = d.get("attrs", {})
        problems = attr_problems(kind, attrs)
        if problems:
            raise SessionError(_at(where, problems[0]))
        node.attrs = dict(attrs)
    return node


CHECK_CHUNK = 50_000  # values checked between two ticks (progress, and a chance to cancel)


def _check_values(values: Any, shape: tuple[int, ...], where: str, tick=None) -> None:
    """Check nested-list values against the shape without building anything large first;
    tick(n), if given, is called after every n values checked."""
    seen = [0]

    def walk(v: Any, dims: tuple[int, ...], path: str) -> None:
        if not dims:
            seen[0] += 1
            if tick is not None and seen[0] % CHECK_CHUNK == 0:
                tick(CHECK_CHUNK)
            if not _finite(v):
                raise SessionError(
                    _at(
                        where,
                        Msg("Session", "value {path} is {value}; values must be finite numbers").format(
                            path=path or "", value=_short_repr(v)
                        ),
                    )
                )
            return
        if not isinstance(v, list) or len(v) != dims[0]:
            got = Msg("Session", "a list of {n}").format(n=len(v)) if isinstance(v, list) else repr(v)[:40]
            raise SessionError(
                _at(
                    where,
                    Msg("Session", "values do not match shape {shape} (found {found} at {path})").format(
                        shape=shape_str(shape), found=got, path=path or Msg("Session", "top level")
                    ),
                )
            )
        for i, item in enumerate(v):
            walk(item, dims[1:], f"{path}[{i}]")

    walk(values, tuple(shape), "")


def options_from_dict(d: dict) -> Options:
    return _parse_options(d, Msg("Session", "options"))


def _parse_options(d: Any, where: str) -> Options:
    if not isinstance(d, dict):
        raise SessionError(_at(where, Msg("Session", '"options" must be an object')))
    known = {f.name for f in fields(Options)}
    unknown = set(d) - known
    if unknown:
        raise SessionError(
            _at(
                where,
                Msg("Session", "unknown option(s) {options}").format(
                    options=", ".join(quote(u, 40) for u in sorted(unknown)[:5])
                ),
            )
        )
    opts = Options(**{k: v for k, v in d.items() if k in known})
    if _finite(opts.lr):
        opts.lr = float(opts.lr)
    return opts

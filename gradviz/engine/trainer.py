"""The MindSpore engine: builds the generated program, trains it one step at a time.

Every MindSpore object lives in an Engine, and an Engine must only be used from the thread that
made it. Results leave as numpy copies (StepResult, NodeSnapshot)."""
from __future__ import annotations

import atexit
import importlib.util
import itertools
import math
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field

import numpy as np

from .codegen import BATCH, Program, generate, run_layouts
from .devices import quiet_mindspore, use_device
from ..model.graph import Graph, initial_values
from ..model.layout import Layout, row_slices
from ..model.session import Options, Session, SessionError

_module_ids = itertools.count(1)
SMALL_TENSOR = 128     # elements: up to this size a tensor is read with tolist() (see _read_into)
_gen_dir: str | None = None


@dataclass
class StepResult:
    step: int
    loss: float
    params: np.ndarray  # flat, before this step's update (Engine.param_layout)
    grads: np.ndarray   # flat, at those values (Engine.grad_layout)
    aux: np.ndarray     # flat (Engine.aux_layout)
    step_ms: float
    row: np.ndarray     # [loss, params, grads, aux]: the three above are views of it

    @property
    def finite(self) -> bool:
        # A double-precision sum of float32 values cannot overflow, so it is finite iff every
        # value is; for small tensors Python's sum is the cheapest way to get it (0.4 us).
        g = self.grads
        total = sum(g.tolist()) if g.size <= SMALL_TENSOR else np.add.reduce(g, dtype=np.float64)
        return math.isfinite(self.loss) and math.isfinite(total)


def _read_into(out: np.ndarray, t, small: bool) -> None:
    """Copy a MindSpore tensor into `out` (a flat float32 slice of as many elements).

    For a small tensor `tolist()` is cheaper than `asnumpy()`, whose buffer numpy describes by
    parsing a format string in Python each time (measured here: 5 against 13 us for 15 floats;
    they cross near 150 elements). Both are exact for float32. The tensor's own shape is used:
    MindSpore may return the gradient of a scalar Parameter with shape (1,)."""
    out.reshape(t.shape)[...] = t.tolist() if small else t.asnumpy()


@dataclass
class NodeSnapshot:
    """Value and dL/d(node) of every node at one step (from a PyNative side pass)."""
    step: int
    values: dict[str, np.ndarray] = field(default_factory=dict)
    grads: dict[str, np.ndarray] = field(default_factory=dict)


def _load_program(prog: Program, parameters: dict, make_optimizer) -> object:
    """Import the generated source as a real module: MindSpore's jit parser reads its source."""
    global _gen_dir
    if _gen_dir is None:
        _gen_dir = tempfile.mkdtemp(prefix="gradviz-gen-")
        atexit.register(shutil.rmtree, _gen_dir, True)
    name = f"gradviz_generated_{os.getpid()}_{next(_module_ids)}"
    path = os.path.join(_gen_dir, name + ".py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(prog.source)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    mod.parameters = parameters  # type: ignore[attr-defined]
    mod.make_optimizer = make_optimizer  # type: ignore[attr-defined]
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)  # type: ignore[union-attr]
    except BaseException:
        _unload(mod)
        raise
    return mod


def _unload(mod) -> None:
    sys.modules.pop(mod.__name__, None)
    try:
        os.unlink(mod.__file__)
    except OSError:
        pass


class Engine:
    """One training run of a session on MindSpore. Build a new Engine to apply new options."""

    def __init__(self, session: Session):
        problems = session.problems()
        if problems:
            raise SessionError("; ".join(problems))
        quiet_mindspore()
        use_device(session.options.device)
        import mindspore as ms
        from mindspore import Parameter, Tensor, nn

        self._ms = ms
        self.session = session.copy()
        g: Graph = self.session.graph
        o: Options = self.session.options
        self.shapes = g.check()
        attr = {p.name: (p.name if not hasattr(nn.Cell, p.name) else f"param_{p.name}") for p in g.parameters()}
        self.program = generate(g, o, attr)
        init = initial_values(g, o.seed)
        self.initial = init
        self._inputs = [Tensor(init[n]) for n in self.program.input_names]
        self._params = {n.name: Parameter(Tensor(init[n.name]), name=n.name, requires_grad=n.requires_grad)
                        for n in g.parameters()}
        self.param_layout, self.grad_layout, self.aux_layout = run_layouts(g, self.program, self.shapes)
        self.optimizer = None
        self._module = _load_program(self.program, self._params, self._make_optimizer)
        self.optimizer = self._module.optimizer
        self.graph_mode = o.mode == "graph"
        if self.graph_mode:
            self._one = ms.jit(self._module.recorded_step)
            self._batch = ms.jit(self._module.recorded_steps)
        self._compiled = {"one": not self.graph_mode, "batch": not self.graph_mode}
        self._probe_grad = None
        self.steps_done = 0
        # where params, gradients (grad_columns: training.first_end reads them) and aux are in a row
        self._param_cols, self.grad_columns, self._aux_cols = row_slices(self.param_layout, self.grad_layout)
        self._width = self._aux_cols.start + self.aux_layout.total
        # PyNative: where each gradient and auxiliary output goes in a step's row
        self._slots = []
        i = self.grad_columns.start
        for lay in (self.grad_layout, self.aux_layout):
            for shape, k in zip(lay.shapes, lay.sizes):
                self._slots.append((i, i + k, k <= SMALL_TENSOR))
                i += k
        self._param_list = [self._params[n] for n in self.program.param_names]
        self._param_views: list[np.ndarray] = []
        self._view_ptrs: list[int] | None = None
        self._views_follow = True

    # -- building -------------------------------------------------------------------------------
    def _make_optimizer(self, params):
        from mindspore import nn

        o = self.session.options
        lr = float(o.lr)
        if o.optimizer == "sgd":
            return nn.SGD(params, learning_rate=lr)
        if o.optimizer == "momentum":
            return nn.Momentum(params, learning_rate=lr, momentum=0.9)
        if o.optimizer == "adam":
            return nn.Adam(params, learning_rate=lr)
        raise SessionError(f"unknown optimizer {o.optimizer}")

    def set_lr(self, lr: float) -> None:
        """Change the learning rate in place; compiled graphs see the new value."""
        from mindspore import Tensor, ops

        if not (np.isfinite(lr) and lr > 0):
            raise SessionError(f"learning rate must be a number above 0, not {lr!r}")
        ops.assign(self.optimizer.learning_rate, Tensor(np.float32(lr)))
        self.session.options.lr = float(lr)

    # -- training -------------------------------------------------------------------------------
    def needs_compile(self, batch: bool = False) -> bool:
        """Whether the next step (or batch) compiles first (Graph mode, first call)."""
        return not self._compiled["batch" if batch else "one"]

    @property
    def batch_size(self) -> int:
        """Steps per steps_block() call (Graph mode): BATCH; 1 in PyNative."""
        return BATCH if self.graph_mode else 1

    def _results(self, recs: np.ndarray, t_ms: float) -> list[StepResult]:
        first = self.steps_done + 1
        self.steps_done += len(recs)
        return self.block_results(first, recs, t_ms)

    def block_results(self, first: int, recs: np.ndarray, t_ms: float) -> list[StepResult]:
        """StepResults for rows of consecutive steps from `first` on."""
        pc, gc, ac = self._param_cols, self.grad_columns, self._aux_cols
        return [StepResult(first + i, float(rec[0]), rec[pc], rec[gc], rec[ac], t_ms, rec)
                for i, rec in enumerate(recs)]

    def _params_now(self) -> list[np.ndarray]:
        """The parameters now, flat (PyNative): numpy views of the Parameters' own memory.

        On the CPU `Tensor.asnumpy()` shares the tensor's storage, and optimizers and
        `ops.assign` update Parameters in place, so the views follow every update without a
        call into MindSpore. Each step compares the storage addresses (`data_ptr()`, 0.2 us) and
        takes new views if one moved. Where asnumpy() copies instead (another device), the
        parameters are read afresh every step."""
        params = self._param_list
        if not self._views_follow:
            return [p.asnumpy().reshape(-1) for p in params]
        ptrs = [p.data_ptr() for p in params]
        if ptrs != self._view_ptrs:
            views = [p.asnumpy().reshape(-1) for p in params]
            if [v.__array_interface__["data"][0] for v in views] != ptrs:
                self._views_follow = False  # copies, not views: read afresh from now on
            self._param_views, self._view_ptrs = views, ptrs
        return self._param_views

    def step(self) -> StepResult:
        """One forward, backward and update. The result holds the parameters before the update."""
        t0 = time.perf_counter()
        if self.graph_mode:
            rec = self._one(*self._inputs).asnumpy()[None]
            self._compiled["one"] = True
        else:  # PyNative: each tensor copied into one row (cheaper than extra ops to pack them)
            rec = np.empty((1, self._width), np.float32)
            row = rec[0]
            views = self._params_now()
            if views:  # a copy: the update writes into the views
                np.concatenate(views, out=row[self._param_cols])
            loss, aux, grads = self._module.train_step(*self._inputs)
            row[0] = loss.item()
            for t, (a, b, small) in zip((*grads, *aux), self._slots):
                _read_into(row[a:b], t, small)
        return self._results(rec, (time.perf_counter() - t0) * 1e3)[0]

    def steps_block(self) -> tuple[int, np.ndarray, float]:
        """Graph mode: batch_size steps in one call into MindSpore, as (first step number, one
        row per step, ms per step). The caller decides where the run ends (see
        training.first_end) and calls undo_last_update on that step, which also undoes the
        later ones."""
        t0 = time.perf_counter()
        recs = self._batch(*self._inputs).asnumpy()
        self._compiled["batch"] = True
        first = self.steps_done + 1
        self.steps_done += len(recs)
        return first, recs, (time.perf_counter() - t0) * 1e3 / len(recs)

    def undo_last_update(self, result: StepResult) -> None:
        """Put the parameters back to their values before `result`'s update (written in place),
        and count the steps up to `result` only.

        Used when a run ends at a step, like the seed's loop that breaks before optimizer(grads)."""
        self.steps_done = result.step
        from mindspore import Tensor, ops

        vals = self.param_layout.unflatten(result.params)
        for n, v in vals.items():
            ops.assign(self._params[n], Tensor(np.ascontiguousarray(v, np.float32)))

    def current_params(self) -> dict[str, np.ndarray]:
        """The parameters now (after the last update), as numpy copies."""
        return {n: np.array(self._params[n].asnumpy(), np.float32) for n in self.program.param_names}

    def close(self) -> None:
        """Drop the generated module (it holds the Parameters, optimizer and compiled graphs)."""
        if self._module is not None:
            _unload(self._module)
            self._module = None

    # -- node values -----------------------------------------------------------------------------
    def node_snapshot(self) -> NodeSnapshot:
        """Values and gradients of every node at the current parameters (PyNative side pass).

        The gradients are those of what MindSpore differentiates with the current options, so
        with z returned as a second output (and no stop_gradient / has_aux) they include sum(z)."""
        ms = self._ms
        from mindspore import ops

        o = self.session.options
        names = self.program.node_names
        args = self._inputs + [self._params[n] for n in self.program.param_names]
        vals = self._module.values(*args)
        snap = NodeSnapshot(self.steps_done)
        for n, v in zip(names, vals):
            snap.values[n] = np.array(v.asnumpy(), np.float32)
        if self._probe_grad is None:
            has_aux = bool(self.program.aux_names) and o.has_aux
            pos = tuple(range(len(args), len(args) + len(names)))
            self._probe_grad = ms.grad(self._module.probe, pos, has_aux=has_aux)
        zeros = [ops.zeros(tuple(self.shapes[n]), ms.float32) for n in names]
        out = self._probe_grad(*args, *zeros)
        if self.program.aux_names and o.has_aux:
            out = out[0]
        if len(names) == 1:
            out = (out,)
        for n, gr in zip(names, out):
            snap.grads[n] = np.array(gr.asnumpy(), np.float32)
        return snap

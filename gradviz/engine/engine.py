"""The MindSpore engine: builds the generated program, trains it one step at a time.

Every MindSpore object lives in an Engine, and an Engine must only be used from the thread that
made it. Results leave as numpy copies (StepResult, NodeSnapshot)."""

from __future__ import annotations

import atexit
import ctypes
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

from ..model import datasets, predictions
from ..model.codegen import Program, batch_source, generate, run_layouts
from . import mnist
from .devices import quiet_mindspore, use_device
from ..model.graph import RESERVED_PREFIX as GV
from ..model.graph import Graph, initial_values
from ..model.ops import OPS
from ..model.layout import LOSS_COL, LR_COL, Layout, row_slices
from ..model.recording import RecordingPlan, summarize
from .checkpoints import GRAPH_INTERVAL, INTERVAL, Checkpoints, LrSchedule, TrainingState
from ..model.session import Options, Session, SessionError
from ..model.steps import epoch_and_batch

_module_ids = itertools.count(1)
SMALL_TENSOR = 128  # elements: up to this size a tensor is read with tolist() (see _read_into)
# Graph mode, flat out: steps per compiled call, measured by Engine._tune among these
STEPS_PER_CALL = (1, 2, 4, 8)
WARM_CALLS = 2  # calls of a new size before it is timed (MindSpore picks how to run it)
TUNE_CALLS, TUNE_SECONDS = 8, 0.02  # then at least this many calls and this long
TUNE_GAIN = 0.95  # a larger size is kept where its step is at least 5% faster
MAX_CALL_FLOATS = 1 << 22  # a call's rows, and a block's: at most this many float32 (16 MB)
# Flat out, steps_block() trains a block: calls until BLOCK_STEPS steps or BLOCK_SECONDS
BLOCK_STEPS, BLOCK_SECONDS = 64, 0.01
STAGE_FLOATS = 1 << 20  # a summarised tensor's values a block keeps to summarise at its end, at most
_gen_dir: str | None = None


@dataclass(frozen=True)
class Eval:
    """The evaluation after an epoch over a Dataset node: at the parameters after `step`
    updates (its last step's), the loss and accuracy on the test set and on the training set,
    each computed over the whole set at once (accuracy None where the loss has no class scores)."""

    epoch: int
    step: int
    test_loss: float
    accuracy: float | None
    train_loss: float
    train_accuracy: float | None
    # with class scores: each test example's predicted class and that class's probability
    # (model.predictions), and the confusion counts over the test set (rows true, columns predicted)
    predicted: np.ndarray | None = field(default=None, compare=False, repr=False)
    confidence: np.ndarray | None = field(default=None, compare=False, repr=False)
    confusion: tuple | None = None

    def to_dict(self) -> dict:
        d = {
            "type": "eval",
            "epoch": self.epoch,
            "step": self.step,
            "test_loss": self.test_loss,
            "accuracy": self.accuracy,
            "train_loss": self.train_loss,
            "train_accuracy": self.train_accuracy,
        }
        if self.confusion is not None:
            d["confusion"] = [list(r) for r in self.confusion]
        return d

    def predictions(self) -> dict | None:
        """The test set's predictions as protocol.Evals carries them (None without class scores)."""
        if self.predicted is None:
            return None
        return {"step": self.step, "predicted": self.predicted, "confidence": self.confidence}


@dataclass
class StepResult:
    step: int
    loss: float
    params: np.ndarray  # flat, before this step's update (Engine.param_layout)
    grads: np.ndarray  # flat, at those values (Engine.grad_layout)
    aux: np.ndarray  # flat (Engine.aux_layout)
    step_ms: float
    row: np.ndarray  # [loss, lr, params, grads, aux] (layout.row_slices): views of it above
    # a recorded row (RecordingPlan.reduce: large tensors as their summaries), with whether its
    # gradients were all finite; None: a full row, checked from its gradients
    recorded_finite: bool | None = None

    @property
    def lr(self) -> float:
        """The learning rate in force at this step."""
        return float(self.row[LR_COL])

    @property
    def recorded(self) -> bool:
        """Whether row is already the recorded row (Engine.recorded_block)."""
        return self.recorded_finite is not None

    @property
    def finite(self) -> bool:
        if self.recorded_finite is not None:
            return math.isfinite(self.loss) and self.recorded_finite
        # A double-precision sum of float32 values cannot overflow, so it is finite iff every
        # value is; for small tensors Python's sum is the cheapest way to get it.
        g = self.grads
        total = sum(g.tolist()) if g.size <= SMALL_TENSOR else np.add.reduce(g, dtype=np.float64)
        return math.isfinite(self.loss) and math.isfinite(total)


def _read_into(out: np.ndarray, t, small: bool) -> None:
    """Copy a MindSpore tensor into `out` (a flat float32 slice of as many elements).

    For a small tensor `tolist()` is cheaper than `asnumpy()`, whose buffer numpy describes by
    parsing a format string in Python each time (they cost the same near 150 elements, hence
    SMALL_TENSOR). Both are exact for float32. The tensor's own shape is used:
    MindSpore may return the gradient of a scalar Parameter with shape (1,)."""
    out.reshape(t.shape)[...] = t.tolist() if small else t.asnumpy()


def _shares_storage(t) -> bool:
    """Whether `t` is float32 in host memory that asnumpy() views in place (the CPU)."""
    a = t.asnumpy()
    return a.dtype == np.float32 and a.flags.c_contiguous and a.__array_interface__["data"][0] == t.data_ptr()


def _join_adjacent(cols: list[slice]) -> list[slice]:
    """The same columns in as few slices: neighbours that meet are joined."""
    out: list[slice] = []
    for c in cols:
        if out and out[-1].stop == c.start:
            out[-1] = slice(out[-1].start, c.stop)
        else:
            out.append(c)
    return out


def cell_attributes(params: list[str], layers: list[str] = ()) -> dict[str, str]:
    """The nn.Cell attribute of each Parameter in the `cell` API: its name, or gv_ + its name
    where that would hide one of nn.Cell's own attributes (`training`, `phase`, ...); and of each
    layer node, a child of an nn.SequentialCell named after it (codegen.layer_cell writes no
    such Network where one would hide a SequentialCell's attribute: `append`, `cell_list`)."""
    from mindspore import nn

    cell, seq = nn.Cell(), nn.SequentialCell()
    out = {n: (f"{GV}{n}" if hasattr(seq, n) else n) for n in layers}
    return out | {p: (f"{GV}{p}" if hasattr(cell, p) else p) for p in params}


def _forget_pynative_caches() -> None:
    """Drop what MindSpore's PyNative executor cached for earlier programs.

    With mindspore 2.10, after a program with BCEWithLogits on shape (3,) had been
    differentiated, the same program on shape (1,) got the backward graph of the first, mean
    factor 1/3 included, so its gradients were wrong by a factor of 3 (tests/test_engine.py,
    test_a_new_shape_gets_its_own_gradients). A build starts from a clean executor."""
    from mindspore.common import api

    executor = getattr(api, "_pynative_executor", None)
    if executor is not None and hasattr(executor, "clear_res"):
        executor.clear_res()


def _column_slices(start: int, layout: Layout) -> list[slice]:
    out = []
    for k in layout.sizes:
        out.append(slice(start, start + k))
        start += k
    return out


def _pick(start: int, layout: Layout, names: list[str]) -> list[slice | None]:
    """The columns of each of `names` in a flattened layout from `start`, None where absent."""
    cols = dict(zip(layout.names, _column_slices(start, layout)))
    return [cols.get(n) for n in names]


@dataclass
class NodeSnapshot:
    """Value and dL/d(node) of every node at one step (gv_snapshot: a side pass)."""

    step: int
    values: dict[str, np.ndarray] = field(default_factory=dict)
    grads: dict[str, np.ndarray] = field(default_factory=dict)
    # with several differentiated outputs: {Output name: that output's own share of dL/d(node)}
    parts: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)


def _load_program(prog: Program, parameters: dict, make_optimizer) -> object:
    """Import the generated source as a real module: MindSpore's jit parser reads its source."""
    return _load_source(prog.source, {f"{GV}parameters": parameters, f"{GV}make_optimizer": make_optimizer})


def _load_source(source: str, env: dict) -> object:
    """Import `source` as a module of its own, with `env` set in its globals before it runs."""
    global _gen_dir
    if _gen_dir is None:
        _gen_dir = tempfile.mkdtemp(prefix="gradviz-gen-")
        atexit.register(shutil.rmtree, _gen_dir, True)
    name = f"gradviz_generated_{os.getpid()}_{next(_module_ids)}"
    path = os.path.join(_gen_dir, name + ".py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    mod.__dict__.update(env)
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
        from mindspore import Parameter, Tensor

        self._ms = ms
        _forget_pynative_caches()
        self.session = session.copy()
        g: Graph = self.session.graph
        o: Options = self.session.options
        self.shapes = g.check()
        self.cell_attributes = cell_attributes(  # the `cell` API's names
            [p.name for p in g.parameters()], [n.name for n in g.nodes if OPS[n.kind].layer]
        )
        self.program = generate(g, o, self.cell_attributes)
        # over a Dataset node: each step's mini-batch in the documented order (engine/batches.py);
        # the Inputs below hold the first one, which the node values show. MNIST files are read
        # here, with mindspore.dataset (engine/mnist.py)
        spec = g.data_spec()
        datasets.use_reader("mnist", mnist.read)
        try:
            self.data = datasets.prepare(spec) if spec is not None else None
        except datasets.DataError as e:
            raise SessionError(e.msg) from None
        init = initial_values(g, o.seed, self.data)
        self.initial = init
        self._inputs = [Tensor(init[n]) for n in self.program.input_names]
        self.steps_per_epoch = spec.steps_per_epoch() if spec is not None else 0
        fed = {n.name: n.init for n in g.data_inputs()}
        self._data_inits = [fed.get(n) for n in self.program.input_names]
        self._step_inputs = self._inputs
        self._feed: list | None = None  # [next epoch, next batch, iterator, its last epoch]
        self._staged: tuple | None = None  # recorded_block's staging arrays (_stage), kept between blocks
        self.evals: list[Eval] = []  # one per epoch ended, in order (rewind drops the later ones)
        self._eval_fn = None  # gv_values compiled (_evaluate_on)
        self._plane_fn = None  # and again for the data view's plane (values_at)
        loss_src = g[g.loss_output().inputs["x"]]
        self._loss_node = loss_src.name
        self._scores = None  # the class scores the accuracy reads, and the loss kind
        if OPS[loss_src.kind].role == "loss":
            self._scores = (loss_src.inputs[OPS[loss_src.kind].ports[0]], loss_src.kind)
        # MindSpore names Parameters apart from the node names: the optimizer keys its own state by
        # them, next to attributes such as `learning_rate`, so a node may be called anything
        self._params = {
            n.name: Parameter(Tensor(init[n.name]), name=f"{GV}{n.name}", requires_grad=n.requires_grad)
            for n in g.parameters()
        }
        self.param_layout, self.grad_layout, self.aux_layout = run_layouts(self.program, self.shapes)
        # what leaves the engine of each step: large tensors as summaries (model/recording.py)
        self.plan = RecordingPlan(self.param_layout, self.grad_layout, self.aux_layout)
        self.optimizer = None
        self._module = _load_program(self.program, self._params, self._make_optimizer)
        self.optimizer = self._module.optimizer
        self.graph_mode = o.mode == "graph"
        # Graph mode: steps per compiled call -> (batch module, its jitted gv_recorded_steps, columns)
        self._batches: dict[int, tuple[object, object, list[slice], int]] = {}
        self._steps_per_call = 0  # chosen by _tune on the first steps_block()s; 0 until then
        if self.data is not None:  # a new batch each step: one step per call, the batch its arguments
            self._steps_per_call = 1
        self._copy_outputs: bool | None = None  # read outputs' storage directly (_run_into, _train_into)
        self._snapshot = None  # gv_snapshot as it runs now (_snapshot_fn)
        self._snapshot_refused = False  # PyNative: the compiled side pass failed; PyNative's is kept
        self.updates = 0
        # where params, gradients and aux are in a row
        self._param_cols, self.grad_columns, self._aux_cols = row_slices(self.param_layout, self.grad_layout)
        self._width = self._aux_cols.start + self.aux_layout.total
        # Graph mode: the columns of each output of gv_recorded_step, in its order
        self._out_cols = [slice(LOSS_COL, LOSS_COL + 1)] + [
            c
            for start, lay in (
                (self._param_cols.start, self.param_layout),
                (self.grad_columns.start, self.grad_layout),
                (self._aux_cols.start, self.aux_layout),
            )
            for c in _column_slices(start, lay)
        ]
        # PyNative: where each gradient and auxiliary output goes in a step's row
        self._slots = []
        i = self.grad_columns.start
        for lay in (self.grad_layout, self.aux_layout):
            for k in lay.sizes:
                self._slots.append((i, i + k, k <= SMALL_TENSOR))
                i += k
        # an auxiliary output that returns a Parameter, or a view of one (op table: `view`), shares
        # its memory in PyNative, and the update changes it before it is read: its value is worked
        # out from the parameter as recorded before the update (views are exact in numpy)
        self._aux_views = []
        for cols, src in zip(_column_slices(self._aux_cols.start, self.aux_layout), self.program.aux_sources):
            chain, node = [], g[src]
            while OPS[node.kind].view:
                chain.append(OPS[node.kind])
                node = g[node.inputs[OPS[node.kind].ports[0]]]
            if node.kind == "Parameter":
                pcols = _pick(self._param_cols.start, self.param_layout, [node.name])[0]
                self._aux_views.append((cols, pcols, tuple(self.shapes[node.name]), chain[::-1]))
        self._param_list = [self._params[n] for n in self.program.param_names]
        trained = {id(p) for p in self._param_list}
        self._opt_state = {p.name: p for _, p in self.optimizer.parameters_and_names() if id(p) not in trained}
        self._lr = float(o.lr)
        self.lr_schedule = LrSchedule([(1, self._lr)])
        self.checkpoints = Checkpoints(GRAPH_INTERVAL if o.mode == "graph" else INTERVAL)
        self._param_views: list[np.ndarray] = []
        self._view_ptrs: list[int] | None = None
        self._views_follow = True

    # -- building -------------------------------------------------------------------------------
    def _make_optimizer(self, params):
        from mindspore import nn

        from ..model.optimizers import OPTIMIZERS

        o = self.session.options
        if o.optimizer not in OPTIMIZERS:
            raise SessionError(f"unknown optimizer {o.optimizer}")
        opt = OPTIMIZERS[o.optimizer]
        return getattr(nn, opt.mindspore)(params, **opt.keywords("mindspore", float(o.lr)))

    def set_lr(self, lr: float) -> None:
        """Change the learning rate in place; compiled graphs see the new value."""
        from mindspore import Tensor, ops

        if not (np.isfinite(lr) and lr > 0):
            raise SessionError(f"learning rate must be a number above 0, not {lr!r}")
        ops.assign(self.optimizer.learning_rate, Tensor(np.float32(lr)))
        self.session.options.lr = self._lr = float(lr)
        self.lr_schedule.set(self.updates + 1, self._lr)

    # -- training states -------------------------------------------------------------------------
    def state(self) -> TrainingState:
        """The whole training state now, as numpy copies."""
        return TrainingState(
            self.updates,
            self.current_params(),
            {n: np.array(p.asnumpy(), copy=True) for n, p in self._opt_state.items()},
            self._lr,
        )

    def restore(self, state: TrainingState) -> None:
        """Put the parameters, the optimizer's state and the learning rate back to `state`."""
        from mindspore import Tensor, ops

        # asnumpy() of a shape-() Parameter may come back as (1,): write in the Parameter's shape
        for n, v in state.params.items():
            p = self._params[n]
            ops.assign(p, Tensor(np.ascontiguousarray(v, np.float32).reshape(p.shape)))
        for n, v in state.optimizer.items():
            p = self._opt_state[n]
            ops.assign(p, Tensor(np.ascontiguousarray(v).reshape(p.shape)))
        self.updates = state.updates
        self._lr = self.session.options.lr = float(state.lr)

    def _keep_state(self) -> None:
        if self.checkpoints.due(self.updates):
            self.checkpoints.keep(self.state())

    def rewind(self, updates: int) -> None:
        """Go back to the state after `updates` updates: restore the last kept state at or before
        it and replay the steps from there, each with the learning rate then in force. Training
        on from there repeats the original run (with the same options)."""
        if not 0 <= updates <= self.updates:
            raise ValueError(f"cannot rewind to {updates} updates: the run has made {self.updates}")
        self.restore(self.checkpoints.at_or_before(updates))
        while self.updates < updates:
            lr = self.lr_schedule.at(self.updates + 1)
            if lr != self._lr:
                self._assign_lr(lr)
            self._replay_step()
            self.updates += 1
        self._assign_lr(self.lr_schedule.at(updates + 1))
        self.lr_schedule.truncate(updates + 1)
        self.checkpoints.drop_after(updates)
        self.evals = [e for e in self.evals if e.step <= updates]

    def _assign_lr(self, lr: float) -> None:
        from mindspore import Tensor, ops

        ops.assign(self.optimizer.learning_rate, Tensor(np.float32(lr)))
        self._lr = self.session.options.lr = float(lr)

    def _replay_step(self) -> None:
        self._feed_step()
        if self.graph_mode:
            self._run_into(self._rows(1))
        else:
            loss, _, _ = self._module.train_step(*self._step_inputs)
            loss.item()

    # -- data sets ------------------------------------------------------------------------------
    def _feed_step(self) -> None:
        """Over a Dataset node: the next step's mini-batch into the step's Inputs."""
        if self.data is None:
            return
        from mindspore import Tensor

        from .batches import chunk_batches, chunk_epochs

        d, spe = self.data, self.steps_per_epoch
        epoch, batch = epoch_and_batch(self.updates + 1, spe)
        f = self._feed
        if f is None or (f[0], f[1]) != (epoch, batch) or epoch > f[3]:
            n = chunk_epochs(len(d.train_x), d.spec.batch_size, d.train_x.shape[1] + 1)
            it = chunk_batches(d.train_x, d.train_y, d.spec.batch_size, d.spec.seed, epoch, n)
            for _ in range(batch - 1):
                next(it)
            f = self._feed = [epoch, batch, it, epoch + n - 1]
        _, _, x, y = next(f[2])
        f[0], f[1] = (epoch, batch + 1) if batch < spe else (epoch + 1, 1)
        classes = d.spec.classes()
        # Tensor.from_numpy shares the batch's fresh arrays (never written again); Tensor()
        # would check and copy them, each step
        self._step_inputs = [
            t if init is None else Tensor.from_numpy(datasets.as_input(init, x, y, classes))
            for t, init in zip(self._inputs, self._data_inits)
        ]

    def _after_step(self) -> None:
        """Over a Dataset node: after an epoch's last step (its update made), the evaluation."""
        k = self.updates + 1
        if self.data is not None and k % self.steps_per_epoch == 0:
            self.evals.append(self.evaluate(k // self.steps_per_epoch, k))

    def evaluate(self, epoch: int, step: int) -> Eval:
        """The loss and accuracy on the test set and on the training set at the parameters now."""
        test_loss, acc, predicted, top = self._evaluate_on("test")
        train_loss, train_acc, _, _ = self._evaluate_on("train")
        counts = None
        if predicted is not None:
            counts = predictions.confusion(predicted, self.data.test_y, self.data.spec.classes())
            counts = tuple(tuple(int(c) for c in row) for row in counts)
        return Eval(epoch, step, test_loss, acc, train_loss, train_acc, predicted, top, counts)

    def _evaluate_on(self, part: str) -> tuple[float, float | None, np.ndarray | None, np.ndarray | None]:
        from mindspore import Tensor

        d = self.data
        inputs = [
            t if init is None else Tensor(d.inputs(init, part)) for t, init in zip(self._inputs, self._data_inits)
        ]
        if self._eval_fn is None:  # compiled in both modes: after every epoch, it must cost little
            self._eval_fn = self._ms.jit(self._module.gv_values)
        values = dict(zip(self.program.node_names, self._eval_fn(*inputs, *self._param_list)))
        loss = float(values[self._loss_node].asnumpy())
        if self._scores is None:
            return loss, None, None, None
        scores = values[self._scores[0]].asnumpy().reshape(len(inputs[0]), -1)
        predicted, top = predictions.predict(scores, self._scores[1])
        labels = d.train_y if part == "train" else d.test_y
        return loss, float(np.mean(predicted == labels)), predicted, top

    def values_at(self, fed: dict[str, np.ndarray], params: dict[str, np.ndarray] | None = None) -> dict:
        """Every node's value (numpy) with the Dataset's Inputs given `fed` (any number of
        samples), at these parameters (None, or any left out: the run's now), through the
        compiled gv_values; the training state is not changed (the parameters are its arguments)."""
        from mindspore import Tensor

        inputs = [Tensor(fed[n]) if n in fed else t for n, t in zip(self.program.input_names, self._inputs)]
        args = [
            Tensor(np.ascontiguousarray(params[n], np.float32).reshape(p.shape))
            if params is not None and n in params
            else p
            for n, p in zip(self.program.param_names, self._param_list)
        ]
        if self._plane_fn is None:  # its own compiled graph: the plane's batch size is its own
            self._plane_fn = self._ms.jit(self._module.gv_values)
        return {n: v.asnumpy() for n, v in zip(self.program.node_names, self._plane_fn(*inputs, *args))}

    def plane(self, spec, params: dict[str, np.ndarray] | None = None):
        """The data view's outputs over the plane `spec` (model/plane.py) at these parameters."""
        from ..model import plane

        if self.data is None:
            raise SessionError("the data view needs a Dataset node")
        g = self.session.graph
        return plane.evaluate(g, self.shapes, spec, self.data.spec.classes(), lambda fed: self.values_at(fed, params))

    # -- training -------------------------------------------------------------------------------
    def needs_compile(self, batch: bool = False) -> bool:
        """Whether the next step (or batch) compiles first (Graph mode: the first step; the first
        steps_blocks, which compile one step's call, then measure the other steps per call)."""
        if not self.graph_mode:
            return False
        return not self._steps_per_call if batch and self.data is None else 1 not in self._batches

    @property
    def batch_size(self) -> int:
        """Steps per call into MindSpore within a steps_block(): in Graph mode as measured by
        the first steps_block()s (Engine._tune; 1 until then, and in PyNative)."""
        return self._steps_per_call or 1

    def fix_steps_per_call(self, steps: int) -> None:
        """Graph mode: train `steps` steps per compiled call instead of measuring them (tests
        that need a known call size; steps_block(limit=steps) is then one call)."""
        if not self.graph_mode or steps < 1:
            raise ValueError(f"steps per call are for Graph mode and at least 1, not {steps!r}")
        if self.data is not None and steps != 1:
            raise ValueError("over a Dataset node each call trains one step (its mini-batch is the argument)")
        self._steps_per_call = int(steps)

    # -- Graph mode: recorded steps, several per compiled call ------------------------------------
    def _batch_fn(self, steps: int):
        """gv_recorded_steps of `steps` steps (codegen.batch_source), jitted (compiled on its
        first call); the row columns of what it returns, in its order (one step: runs of
        adjacent columns joined, each copied at once); and how many float32 values it returns."""
        if steps not in self._batches:
            env = {f"{GV}recorded_step": self._module.gv_recorded_step, f"{GV}inputs": tuple(self._inputs)}
            mod = _load_source(batch_source(self.program, steps, arguments=self.data is not None), env)
            cols = [self._out_cols[k] for k in self.program.batch_outputs(steps)]
            need = steps * sum(c.stop - c.start for c in cols)
            if steps == 1:
                cols = _join_adjacent(cols)
            self._batches[steps] = (mod, self._ms.jit(mod.gv_recorded_steps), cols, need)
        return self._batches[steps][1:]

    def _rows(self, steps: int) -> np.ndarray:
        """Rows for `steps` steps (layout.row_slices), the learning rate now in force written:
        it only changes between blocks (a command)."""
        recs = np.empty((steps, self._width), np.float32)
        recs[:, LR_COL] = self._lr
        return recs

    def _run_into(self, recs: np.ndarray) -> None:
        """Graph mode: len(recs) steps in one call into MindSpore, recorded into `recs`. The
        call returns one flat vector (codegen.batch_source); one step's parameters are copied
        here before the call. The learning rate is the caller's (_rows): reading the
        optimizer's rate inside the compiled steps slows them noticeably."""
        steps = len(recs)
        if steps == 1:
            self._params_into(recs[0])
        fn, outs, need = self._batch_fn(steps)
        # the Inputs are compiled in (codegen.batch_source), a Dataset's batches are the arguments
        flat = fn(*self._step_inputs) if self.data is not None else fn()
        if flat.nbytes != 4 * need:
            raise RuntimeError(f"MindSpore returned {flat.nbytes} bytes for {need} float32 values")
        if self._copy_outputs is None:  # the first call: can the output be read in place?
            self._copy_outputs = _shares_storage(flat)
        if not self._copy_outputs:
            src = flat.asnumpy().reshape(-1)
            at = 0
            for cols in outs:
                n = steps * (cols.stop - cols.start)
                recs[:, cols] = src[at : at + n].reshape(steps, -1)
                at += n
            return
        # straight from the output's storage into the rows: a memmove is far cheaper than
        # asnumpy(), where numpy parses the buffer's format each time; on the CPU a tensor's data_ptr() is host
        # memory, filled when the call returns (the host-blocking runtime, prepare_process)
        row_bytes, base, src = 4 * self._width, recs.ctypes.data, flat.data_ptr()
        for cols in outs:
            n = 4 * (cols.stop - cols.start)
            for i in range(steps):
                ctypes.memmove(base + i * row_bytes + 4 * cols.start, src, n)
                src += n

    def _tune(self, limit: float) -> np.ndarray:
        """The first steps_block()s: trains with each candidate number of steps per call
        (STEPS_PER_CALL, smallest first) against the best so far, their calls alternating, and
        keeps a size while its step is TUNE_GAIN faster. Returns every row it trained. The very
        first block is only one step's call, which compiles: its step reaches the window while
        the larger sizes compile in the next block (the first step of a run comes as soon as
        MindSpore's own first call would).

        Why measure: MindSpore runs a compiled graph in the calling thread only while the graph
        has few kernels (about 100 actors with 2.10; the tutorial's step is ~20); beyond that it
        hands each kernel to its actor threads, which on the engine's one core makes a call
        several times slower.
        How many kernels a step has is MindSpore's business (its backward of
        binary_cross_entropy_with_logits alone is 9), so the first calls measure it. Why
        alternate: the first Start is when the window is busiest; measured one after the other,
        a size timed while the window starts to draw looks slow, and the larger size timed next
        wins even where it runs on MindSpore's threads (tests/test_engine.py checks this with a
        fake clock)."""
        rows: list[np.ndarray] = []
        left = limit

        def call(steps: int) -> float:
            nonlocal left
            self._keep_state()
            t0 = time.perf_counter()
            rows.append(self._rows(steps))
            self._run_into(rows[-1])
            dt = time.perf_counter() - t0
            self.updates += steps
            left -= steps
            return dt

        if 1 not in self._batches:  # not compiled yet (no step, no block before)
            call(1)
            return np.concatenate(rows)
        best, measured = 1, False
        for steps in STEPS_PER_CALL[1:]:
            if steps * self._width > MAX_CALL_FLOATS:
                break
            times: dict[int, list[float]] = {best: [], steps: []}
            for i in itertools.count():
                if len(times[steps]) >= TUNE_CALLS and sum(map(sum, times.values())) >= 2 * TUNE_SECONDS:
                    break
                if best + steps > left:  # the run ends before this size is measured
                    while left >= 1:
                        call(1)
                    self._steps_per_call = best if measured else 0
                    return np.concatenate(rows)
                for k in (best, steps):
                    dt = call(k)
                    if i > WARM_CALLS:  # the first call compiles; MindSpore picks how to run it next
                        times[k].append(dt)
            measured = True
            # the fastest call: whatever else runs on the core (the window, another program)
            # only ever makes a call slower, and a call this short often runs undisturbed
            if min(times[steps]) / steps > min(times[best]) / best * TUNE_GAIN:
                break  # no faster: larger calls only amortise the call's cost further
            best = steps
        self._steps_per_call = best
        if not rows:  # no larger size fits in a call (MAX_CALL_FLOATS)
            call(1)
        return np.concatenate(rows)

    def _results(self, recs: np.ndarray, t_ms: float) -> list[StepResult]:
        first = self.updates + 1
        self.updates += len(recs)
        return self.block_results(first, recs, t_ms)

    def block_results(self, first: int, recs: np.ndarray, t_ms: float) -> list[StepResult]:
        """StepResults for rows of consecutive steps from `first` on."""
        pc, gc, ac = self._param_cols, self.grad_columns, self._aux_cols
        return [
            StepResult(first + i, float(rec[LOSS_COL]), rec[pc], rec[gc], rec[ac], t_ms, rec)
            for i, rec in enumerate(recs)
        ]

    def _params_into(self, row: np.ndarray) -> None:
        """Copy the parameters now (before the call that updates them) into a step's row."""
        views = self._params_now()
        if views:  # a copy: the update writes into the views
            np.concatenate(views, out=row[self._param_cols])

    def _params_now(self) -> list[np.ndarray]:
        """The parameters now, flat (PyNative, and Graph mode before a one-step call): numpy views
        of the Parameters' own memory.

        On the CPU `Tensor.asnumpy()` shares the tensor's storage, and optimizers and
        `ops.assign` update Parameters in place, so the views follow every update without a
        call into MindSpore. Each step compares the storage addresses (`data_ptr()`, cheap) and
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
        self._keep_state()
        t0 = time.perf_counter()
        rec = self._rows(1)
        self._train_into(rec)
        self._unalias(rec)
        return self._results(rec, (time.perf_counter() - t0) * 1e3)[0]

    def _train_into(self, recs: np.ndarray) -> None:
        """len(recs) steps (Graph mode: one compiled call; PyNative: one step), recorded into
        `recs` (from _rows)."""
        self._feed_step()
        if self.graph_mode:
            self._run_into(recs)
            self._after_step()
            return
        # PyNative: each tensor copied into one row (cheaper than extra ops to pack them)
        row = recs[0]
        self._params_into(row)
        loss, aux, grads = self._module.train_step(*self._step_inputs)
        row[LOSS_COL] = loss.item()
        if self._copy_outputs is None:  # the first step: can the gradients be read in place?
            self._copy_outputs = all(_shares_storage(t) for t in grads)
        slots = self._slots
        if self._copy_outputs:  # gradients are fresh tensors: a memmove each (see _run_into)
            base = row.ctypes.data
            for t, (a, b, _) in zip(grads, slots):
                if t.nbytes != 4 * (b - a):
                    raise RuntimeError(f"MindSpore returned {t.nbytes} bytes for {b - a} float32 values")
                ctypes.memmove(base + 4 * a, t.data_ptr(), 4 * (b - a))
            grads, slots = (), slots[len(grads) :]
        for t, (a, b, small) in zip((*grads, *aux), slots):  # an auxiliary output may be a view
            _read_into(row[a:b], t, small)
        self._after_step()

    def _unalias(self, recs: np.ndarray) -> None:
        for aux, param, shape, chain in self._aux_views:
            for row in recs:
                v = row[param].reshape(shape)
                for k in chain:
                    v = k.forward(v)
                row[aux] = np.ravel(v)

    def steps_block(self, limit: int | None = None) -> tuple[int, np.ndarray, float]:
        """Flat out: a block of steps in one go, as (first step number, one row per step, ms per
        step): calls of batch_size steps (Graph mode; the first blocks are the steps Engine._tune
        trains while it measures) or single steps (PyNative), until BLOCK_STEPS steps, calls
        begun within BLOCK_SECONDS, MAX_CALL_FLOATS or `limit` steps. The caller decides where
        the run ends (training.first_end) and calls undo_last_update on that step, which also
        undoes the later ones.

        Why blocks: what runs between two calls into MindSpore costs more than its own time
        (with 2.10 on the MLP preset, one step a call, a short end check made each step longer
        by more than twice its own time; the cold caches, presumably), so the rows of a block are
        written in place and checked once."""
        if limit is not None and limit < 1:
            raise ValueError(f"a block needs at least one step left, not {limit}")
        first = self.updates + 1
        t0 = time.perf_counter()
        if self.graph_mode and not self._steps_per_call:
            recs = self._tune(math.inf if limit is None else limit)
        else:
            left = BLOCK_STEPS if limit is None else min(BLOCK_STEPS, limit)
            n = self.batch_size if self.batch_size <= left else 1
            calls = max(1, min(left // n, MAX_CALL_FLOATS // (n * self._width)))
            recs = self._rows(calls * n)
            for c in range(calls):
                self._keep_state()
                self._train_into(recs[c * n : (c + 1) * n])
                self.updates += n
                if time.perf_counter() - t0 >= BLOCK_SECONDS:
                    recs = recs[: (c + 1) * n]
                    break
        self._unalias(recs)
        return first, recs, (time.perf_counter() - t0) * 1e3 / len(recs)

    def recorded_block(self, limit: int | None = None) -> tuple[int, np.ndarray, float]:
        """steps_block's steps as recorded rows (RecordingPlan.reduce of its rows, the same
        numbers): where the outputs can be read in place (the CPU, after the first block), a
        summarised tensor is summarised straight from its Parameter's memory and the call's
        output instead of being copied into a full row first (a 1000x1000 Parameter and its
        gradient: 8 MB a step, in fresh pages each block)."""
        direct = not self.plan.identity and not self._aux_views and self._copy_outputs and self._views_follow
        if not direct or (self.graph_mode and not self._steps_per_call):
            first, rows, ms = self.steps_block(limit)
            return first, self.plan.reduce(rows), ms
        if limit is not None and limit < 1:
            raise ValueError(f"a block needs at least one step left, not {limit}")
        first = self.updates + 1
        t0 = time.perf_counter()
        left = BLOCK_STEPS if limit is None else min(BLOCK_STEPS, limit)
        n = self.batch_size if self.batch_size <= left else 1
        calls = max(1, min(left // n, MAX_CALL_FLOATS // (n * self._width)))  # the blocks of steps_block
        recs = np.empty((calls * n, self.plan.width), np.float32)
        recs[:, LR_COL] = self._lr
        stage = self._stage(calls * n)
        for c in range(calls):
            self._keep_state()
            self._train_recorded(
                recs[c * n : (c + 1) * n], [None if a is None else a[c * n : (c + 1) * n] for a in stage]
            )
            self.updates += n
            if time.perf_counter() - t0 >= BLOCK_SECONDS:
                recs = recs[: (c + 1) * n]
                break
        for a, (dst, shape) in zip(stage, self.plan.tensors):
            if a is not None:  # the block's staged tensors summarised in one go
                recs[:, dst] = summarize(a[: len(recs)], shape)
        return first, recs, (time.perf_counter() - t0) * 1e3 / len(recs)

    def _stage(self, rows: int) -> list[np.ndarray | None]:
        """Per tensor of a recorded row: where a block's steps keep their full values of a
        summarised tensor, to be summarised once at the block's end (None: summarised at once, or
        recorded per element). A summary of one row costs numpy's per-call overhead several
        times over its work on a tensor of a few thousand elements; a tensor past STAGE_FLOATS a
        block is summarised step by step instead of being copied."""
        if self._staged is None or self._staged[0] < rows:  # (rows, arrays), kept between blocks
            sizes = [*self.param_layout.sizes, *self.grad_layout.sizes, *self.aux_layout.sizes]
            self._staged = (
                rows,
                [
                    np.empty((rows, k), np.float32) if shape is not None and rows * k <= STAGE_FLOATS else None
                    for k, (_, shape) in zip(sizes, self.plan.tensors)
                ],
            )
        return [None if a is None else a[:rows] for a in self._staged[1]]

    def _train_recorded(self, out: np.ndarray, stage: list) -> None:
        """len(out) steps (as _train_into), recorded straight into recorded rows `out`; a staged
        tensor (_stage: its rows for these steps) is copied there, summarised by the caller."""
        tensors = self.plan.tensors  # the parameters', then the gradients', then the aux outputs'
        steps = len(out)

        def record(k: int, dst, shape, v: np.ndarray) -> None:  # v: (steps, size)
            if shape is None:
                out[:, dst] = v
            elif stage[k] is not None:
                stage[k][...] = v  # a copy: v is the Parameter's or the call's own memory
            else:
                out[:, dst] = summarize(v, shape)

        self._feed_step()  # over a Dataset node: this step's mini-batch (one step a call then)
        if steps == 1:  # the parameters before the update, from their own memory
            for k, (v, (dst, shape)) in enumerate(zip(self._params_now(), tensors)):
                record(k, dst, shape, v[None])
        if self.graph_mode:
            fn, _, need = self._batch_fn(steps)
            flat = fn(*self._step_inputs) if self.data is not None else fn()
            if flat.nbytes != 4 * need:
                raise RuntimeError(f"MindSpore returned {flat.nbytes} bytes for {need} float32 values")
            src = flat.asnumpy().reshape(-1)  # a view of its storage (_copy_outputs)
            sizes = [1] + self.param_layout.sizes + self.grad_layout.sizes + self.aux_layout.sizes
            cols = [(slice(LOSS_COL, LOSS_COL + 1), None), *tensors]
            at = 0
            for k in self.program.batch_outputs(steps):
                m = steps * sizes[k]
                block, (dst, shape) = src[at : at + m].reshape(steps, -1), cols[k]
                if k == 0:
                    out[:, dst] = block  # the loss
                else:
                    record(k - 1, dst, shape, block)
                at += m
            self._after_step()
            return
        loss, aux, grads = self._module.train_step(*self._step_inputs)
        out[0, LOSS_COL] = loss.item()
        sizes = self.grad_layout.sizes + self.aux_layout.sizes
        first = len(self._param_list)
        for i, (t, k, (dst, shape)) in enumerate(zip((*grads, *aux), sizes, tensors[first:])):
            v = t.asnumpy().reshape(-1)  # the gradients: views of their storage (_copy_outputs)
            if v.size != k:
                raise RuntimeError(f"MindSpore returned {v.size} values for {k}")
            record(first + i, dst, shape, v[None])
        self._after_step()

    def recorded_results(self, first: int, recs: np.ndarray, t_ms: float) -> list[StepResult]:
        """StepResults for recorded rows of consecutive steps from `first` on (recorded_block)."""
        pc, gc, ac = row_slices(*self.plan.layouts[:2])
        finite = self.plan.finite(recs)
        return [
            StepResult(first + i, float(rec[LOSS_COL]), rec[pc], rec[gc], rec[ac], t_ms, rec, bool(ok))
            for i, (rec, ok) in enumerate(zip(recs, finite))
        ]

    def undo_last_update(self, result: StepResult) -> None:
        """Go back to the whole state before `result`'s update (parameters, optimizer state and
        learning rate): `result.step - 1` updates kept, also after a Graph-mode batch that ran
        past it.

        Used when a run ends at a step, like the seed's loop that breaks before optimizer(grads)."""
        self.rewind(result.step - 1)

    def current_params(self) -> dict[str, np.ndarray]:
        """The parameters now (after the last update), as numpy copies."""
        return {n: np.array(self._params[n].asnumpy(), np.float32) for n in self.program.param_names}

    def close(self) -> None:
        """Drop the generated module (it holds the Parameters, optimizer and compiled graphs)."""
        for mod, *_ in self._batches.values():
            _unload(mod)
        self._batches.clear()
        if self._module is not None:
            _unload(self._module)
            self._module = None

    # -- node values -----------------------------------------------------------------------------
    def node_snapshot(self, training: bool = False) -> NodeSnapshot:
        """Values and gradients of every node at the current parameters: the generated
        gv_snapshot, in one flat vector.

        The gradients are those of what MindSpore differentiates with the current options, so
        with z returned as a second output (and no stop_gradient / has_aux) they include sum(z),
        and `parts` holds each differentiated output's own share (MindSpore's gradient of it alone).

        The side pass is compiled with mindspore.jit in Graph mode, and in PyNative from the first
        snapshot taken while training flat out (`training`, the engine process's call); until
        then PyNative runs it as PyNative, so a build, a step, a pause or a run at a set speed
        (nodes after every step) never waits for its compile. Why compile it in PyNative: it is
        the window's view of the run, not the run, and compiled it is about ten times faster
        than as PyNative, with the same bits: taken every NODES_SECONDS while training,
        PyNative's cost a noticeable share of the training's steps. The compile (once per build)
        happens in the first second of training. A graph whose side pass does not compile keeps PyNative's."""
        fn = self._snapshot_fn(training)
        try:
            flat = fn(*self._inputs).asnumpy()
        except Exception:
            if fn is self._module.gv_snapshot or self.graph_mode:
                raise
            self._snapshot_refused = True  # the compiled one failed: PyNative's, from now on
            self._snapshot = self._module.gv_snapshot
            flat = self._snapshot(*self._inputs).asnumpy()
        snap = NodeSnapshot(self.updates)
        snap.parts = {o: {} for o in self.program.part_names}
        i = 0
        for part in (snap.values, snap.grads, *snap.parts.values()):
            for n in self.program.node_names:
                shape = tuple(self.shapes[n])
                k = int(np.prod(shape)) if shape else 1
                part[n] = np.array(flat[i : i + k], np.float32).reshape(shape)
                i += k
        return snap

    @property
    def snapshot_compiled(self) -> bool:
        """Whether node_snapshot runs the side pass compiled (mindspore.jit) now."""
        return self._snapshot is not None and self._snapshot is not self._module.gv_snapshot

    def _snapshot_fn(self, training: bool):
        """gv_snapshot as node_snapshot runs it now: compiled in Graph mode; in PyNative, plain
        until the first snapshot while training flat out, then compiled (unless that failed)."""
        plain = self._module.gv_snapshot
        if self._snapshot is None:
            self._snapshot = self._ms.jit(plain) if self.graph_mode else plain
        if training and self._snapshot is plain and not self._snapshot_refused:
            self._snapshot = self._ms.jit(plain)
        return self._snapshot

    def snapshot_at(self, params: dict[str, np.ndarray]) -> NodeSnapshot:
        """Values and gradients of every node at the given parameters (a past step's, from the
        history); the training state is left exactly as it was. NodeSnapshot.step is the
        current updates, not the given parameters' step."""
        from mindspore import Tensor, ops

        saved = {n: np.array(self._params[n].asnumpy(), copy=True) for n in params}
        try:
            for n, v in params.items():
                p = self._params[n]
                ops.assign(p, Tensor(np.ascontiguousarray(v, np.float32).reshape(p.shape)))
            return self.node_snapshot()
        finally:
            for n, v in saved.items():
                p = self._params[n]
                ops.assign(p, Tensor(np.ascontiguousarray(v, np.float32).reshape(p.shape)))

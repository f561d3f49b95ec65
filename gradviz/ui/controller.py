"""The training controller: owns the engine process, run ids, the history and the run state.

Widgets talk to the controller, never to the engine. A timer drains the engine's replies
(protocol.py's dataclasses, one handler each in _REPLIES) at 30 Hz and emits `ticked` once per
tick with new data; replies about an old run id are dropped. The controller holds the one
RunState (model/runstate.py) and moves it by events; the window only displays it.

The same timer is the engine's watchdog: the engine process sends a heartbeat several times a
second, busy or not, so WATCHDOG_SECONDS without a word means it is stopped or frozen. Then the
state says so and the user chooses: wait, or restart the engine (the session and the history
are kept; the history is shown as a saved run until Reset)."""

from __future__ import annotations

import time

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal

from ..engine import protocol as msg
from ..model.ending import EndReason
from ..model.history import DEFAULT_BUDGET, History
from ..model.layout import LOSS_COL, LR_COL, Layout, row_slices
from ..model.runstate import ENGINE_UP, Event, Phase, RunState
from ..model.session import Session
from ..model.steps import updates_kept
from .engine_client import EngineClient

TICK_MS = 33
LIVE_OPTIONS = msg.LIVE_OPTIONS
WATCHDOG_SECONDS = 2.0
ENGINE_STATES = {
    msg.EngineState.COMPILING: Event.COMPILE,
    msg.EngineState.TRAINING: Event.TRAIN,
    msg.EngineState.PAUSED: Event.PAUSE,
}


class TrainingController(QObject):
    stateChanged = Signal(object)  # the RunState
    devicesChanged = Signal(dict)
    built = Signal()  # a new run is ready: history cleared, layouts known
    ticked = Signal()  # new history data this tick
    nodesChanged = Signal(object)  # protocol.Nodes
    ended = Signal(str, int)  # reason, last step
    # message, details (a traceback, or ""); object, not str: a core Msg must reach the window
    # whole, template and values, to be said in its language (a str signal passes English only)
    errorOccurred = Signal(object, str)
    message = Signal(str)  # status-bar notes
    taskReplied = Signal(object)  # a lesson task's progress, result, failure or cancel (protocol.TASKS)
    pastNodes = Signal(object)  # protocol.NodesAt: the nodes at a past step (time travel)
    rewound = Signal(int)  # the run went back to before this step; the history keeps those before it
    planeArrived = Signal(object)  # protocol.Plane: the data view's outputs over the input plane

    def __init__(self, parent=None, make_client=None):
        super().__init__(parent)
        self._make_client = make_client or EngineClient  # (mode, device) -> an EngineClient
        self.run = RunState()
        self.devices: dict[str, tuple[bool, str]] = {}
        self.engine_device: str | None = None  # the device the engine process is fixed to
        self.run_id = 0
        self.session: Session | None = None
        self.history: History | None = None
        self.history_budget = DEFAULT_BUDGET  # bytes: set_history_budget
        self.info: msg.BuildInfo | None = None  # the last build's
        self.nodes: msg.Nodes | None = None
        self.evals: tuple = ()  # over a Dataset node: the evaluation after each epoch (Eval.to_dict)
        self.predictions: tuple = ()  # and the test set's predictions of each (Eval.predictions)
        self.last_error: str | None = None
        self.last_detail: str = ""
        self.recorded = False  # showing a run read from a file (or kept over a restart)
        # (history, end reason, evaluations): shown once the next build is done
        self._pending_history: tuple[History, str, tuple] | None = None
        self._client: EngineClient | None = None
        self._rate_window: list[tuple[float, int]] = []
        self.abandoned: list[tuple[np.ndarray, np.ndarray]] = []  # (steps, loss) of futures left by a rewind
        self.steps_per_second = 0.0
        self._stepping = False  # a Step was sent: the engine's next "paused" is that step done
        self._task_ids = 0
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self.poll)

    # -- state --------------------------------------------------------------------------------
    @property
    def state(self) -> Phase:
        return self.run.phase

    @property
    def end_reason(self) -> EndReason | None:
        return self.run.end_reason

    def _apply(self, event: Event, reason: EndReason | None = None, step: int | None = None) -> None:
        new = self.run.on(event, reason, step)
        if event in (Event.PAUSE, Event.END) and self.dropped:  # a dropped run's training stopped
            new = new.on(Event.DROP)
        if new != self.run:
            self.run = new
            if new.phase != Phase.TRAINING:
                self.steps_per_second = 0.0
                self._rate_window.clear()
            self.stateChanged.emit(new)

    # -- lifecycle ----------------------------------------------------------------------------
    def start_engine(self, mode: str | None = None, device: str | None = None) -> None:
        """Start a fresh engine process for `mode` on `device` (default: the session's) after
        stopping the old one, if any. The session, if any, is built as soon as the process says
        it is up."""
        self._stop_client(kill=True)
        o = self.session.options if self.session is not None else None
        mode = mode or (o.mode if o else "pynative")
        device = device or (o.device if o else "CPU")
        self._client = self._make_client(mode, device)
        self.engine_device = None
        self._apply(Event.LAUNCH)
        self._timer.start()

    def shutdown(self) -> None:
        """Stop everything: the timer, the engine process and its threads. Within about 2 s."""
        self._timer.stop()
        self._stop_client(kill=False)
        self._apply(Event.STOP)

    def _stop_client(self, kill: bool) -> None:
        if self._client is not None:
            self._client.close(kill=kill)
            self._client = None

    @property
    def engine_running(self) -> bool:
        return self._client is not None and self._client.alive

    @property
    def silent_for(self) -> float:
        """Seconds since the engine was last heard from (0 without an engine)."""
        return self._client.silent_for() if self._client is not None else 0.0

    @property
    def engine_pid(self) -> int | None:
        return self._client.process.pid if self._client is not None else None

    # -- commands -----------------------------------------------------------------------------
    def load(self, session: Session, recorded=None) -> None:
        """Use this session for the next run and build it now (a reset). With `recorded`
        ((layouts, arrays, end reason, evaluations) read from a history file), show that run once built."""
        self.session = session.copy()
        self._pending_history = None
        if recorded is not None:
            layouts, arrays, reason, evals = recorded
            h = History(*layouts, budget=self.history_budget)
            h.append(*arrays)
            self._pending_history = (h, reason, tuple(evals))
        self.reset()

    def reset(self) -> None:
        """Build the session anew: a fresh run from the seed."""
        if self.session is None:
            return
        if self._client is None or self.state in (Phase.ENGINE_LOST, Phase.STOPPED, Phase.NOT_ANSWERING):
            self.start_engine()  # builds once the new process is up
        elif self.state != Phase.STARTING:  # else the Devices reply triggers the build
            self._build()

    def drop_run(self) -> None:
        """No run to show: File > New, a preset or a file replaced the session with a graph that
        has problems. A run still training is paused; its history, nodes and program are
        dropped (the plots, the History slider and the tabs show none); the next load builds anew."""
        self.pause()
        self.session = self.info = self.history = self.nodes = None
        self.abandoned, self.evals, self.predictions = [], (), ()
        self._pending_history = None
        self.built.emit()
        self._apply(Event.DROP)  # "ready": nothing trained, nothing to go on from

    @property
    def dropped(self) -> bool:
        """No run: dropped (drop_run), or none loaded yet."""
        return self.session is None

    def restart(self) -> None:
        """Restart an engine that does not answer: the session is kept, and so is the history,
        shown as a saved run (Reset trains anew)."""
        h = self.history
        if h is not None and h.n and self._pending_history is None:
            self._pending_history = (h, self.end_reason or EndReason.STOPPED, self.evals)
        self.message.emit(self.tr("Restarting the engine; the session and the history are kept"))
        self.start_engine()

    def wait(self) -> None:
        """Keep waiting for an engine that does not answer (the watchdog stays on)."""
        self.message.emit(self.tr("Waiting for the engine to answer…"))

    def _build(self) -> None:
        assert self.session is not None
        dev, mode = self.session.options.device, self.session.options.mode
        c = self._client
        if c is not None and (c.device, c.mode) != (dev, mode):
            # MindSpore fixes the device once per process, and PyNative and Graph mode train
            # fastest with different runtime settings, also fixed per process
            # (devices.prepare_process): either change needs a new process.
            what = dev if c.device != dev else (self.tr("Graph mode") if mode == "graph" else self.tr("PyNative mode"))
            self.message.emit(self.tr("Starting a new engine process for {what}...").format(what=what))
            self.start_engine()
            return
        self.run_id += 1
        self.recorded = False
        self.nodes = None
        self.last_error = None
        self.last_detail = ""
        self._apply(Event.BUILD)
        self._send(msg.SetHistoryBudget(self.history_budget))
        self._send(msg.Build(self.run_id, self.session.to_dict()))

    def start(self) -> None:
        """Train on; pressed while MindSpore starts or the run builds, training begins as soon as
        the run is ready."""
        if self.state in (Phase.READY, Phase.PAUSED, Phase.FINISHED):
            self._stepping = False
            self._send(msg.Start())
        elif self.state in (Phase.STARTING, Phase.BUILDING):
            self._apply(Event.QUEUE_START)

    def pause(self) -> None:
        if self.run.start_queued:
            self._apply(Event.UNQUEUE)
        elif self.run.busy:
            self._stepping = False
            self._send(msg.Pause())

    def step(self) -> None:
        if self.state in (Phase.READY, Phase.PAUSED, Phase.FINISHED):
            self._stepping = True
            self._send(msg.Step())

    def cancel(self) -> None:
        """Cancel a start, build or Graph-mode compile: restart the engine, keep the session."""
        self.message.emit(self.tr("Cancelled: restarting the engine"))
        self.start_engine()

    def set_live_option(self, name: str, value) -> None:
        """Options that change mid-run without a reset (coalesced: only the latest is sent)."""
        assert name in LIVE_OPTIONS
        if self.session is not None:
            setattr(self.session.options, name, value)
        self._send(msg.SetOption(name, value))

    def set_history_budget(self, budget: int) -> None:
        """The memory a run may keep: the history now and from now on (thinned at once if it
        holds more), and the engine's kept training states (a share of it)."""
        self.history_budget = int(budget)
        if self.history is not None:
            self.history.set_budget(self.history_budget)
        self._send(msg.SetHistoryBudget(self.history_budget))

    def run_task(self, command, **fields) -> int | None:
        """Ask the engine for a lesson (a protocol.TASKS class) on the run's session; the replies
        come through taskReplied with the task id returned (None: no run to ask about)."""
        if self.session is None or self._client is None or self.state not in ENGINE_UP:
            return None
        self._task_ids += 1
        self._send(command(self.run_id, self._task_ids, self.session.to_dict(), **fields))
        return self._task_ids

    def cancel_task(self, task_id: int) -> None:
        self._send(msg.Cancel(task_id))

    # -- time travel --------------------------------------------------------------------------
    @property
    def past_values_known(self) -> bool:
        """Whether the history holds every parameter element of past steps (not where a large
        tensor is recorded as a summary, model/recording.py): the nodes then stay at the last step."""
        return self.history is not None and not self.history.param_layout.summaries

    def show_step(self, step: int) -> None:
        """Ask for the node values and gradients at the parameters the history holds for `step`
        (answered by pastNodes)."""
        params = self.past_params(step)
        if params is not None:
            self._send(msg.SnapshotAt(step, params))

    def holds_params(self, step: int) -> bool:
        """Whether past_params(step) has them (cheap: nothing is copied)."""
        h = self.history
        return h is not None and self.past_values_known and h.index(step) is not None

    def past_params(self, step: int) -> dict | None:
        """The parameters the history holds for `step` (those before its update), or None where
        it does not hold them whole (past_values_known) or not that step."""
        h = self.history
        i = h.index(step) if h is not None and self.past_values_known else None
        return None if i is None else h.param_layout.unflatten(h.params[i].copy())

    def request_plane(self, request: int, spec, step: int | None = None) -> bool:
        """Ask for the data view's outputs over the plane `spec` at `step`'s parameters (None:
        the run's now), answered by planeArrived with `request`; False where there is no run to
        ask (or the history does not hold that step's parameters). A saved run has no live
        parameters in the engine, but its history's past steps can be drawn."""
        if self._client is None or self.state not in ENGINE_UP or (self.recorded and step is None):
            return False
        params = None
        if step is not None:
            params = self.past_params(step)
            if params is None:
                return False
        self._send(msg.PlaneAt(self.run_id, request, spec, params, step))
        return True

    def continue_from(self, step: int, lr: float, train: bool = True) -> None:
        """Rewind to the state before `step` with learning rate `lr` and train on from there; the
        history after it is kept as an abandoned branch (a faint curve) until the next reset."""
        if self.state in (Phase.PAUSED, Phase.FINISHED, Phase.DIVERGED) and not self.recorded:
            self._send(msg.ContinueFrom(int(step), float(lr), train))

    def _on_rewound(self, m: msg.Rewound) -> bool:
        h = self.history
        i = int(np.searchsorted(h.steps, m.step))
        if i < h.n:  # from the step before, so the faint branch leaves the kept curve where it forks
            j = max(i - 1, 0)
            self.abandoned.append((h.steps[j:].copy(), h.loss[j:].copy()))
        h.truncate(m.step)
        self._apply(Event.REWIND)
        self.rewound.emit(m.step)
        return True

    def _on_nodes_at(self, m: msg.NodesAt) -> None:
        self.pastNodes.emit(m)

    def _on_plane(self, m: msg.Plane) -> None:
        self.planeArrived.emit(m)

    def _send(self, m) -> None:
        if self._client is not None and not self._client.send(m):
            self.message.emit(self.tr("The engine is not reading its commands"))

    # -- replies ------------------------------------------------------------------------------
    def poll(self) -> None:
        """Drain the engine's replies and watch that it answers; runs on the GUI timer."""
        c = self._client
        if c is None:
            return
        if self.state == Phase.NOT_ANSWERING and c.silent_for() < WATCHDOG_SECONDS:
            self.message.emit(self.tr("The engine answers again"))
            self._apply(Event.ANSWER)
        new_data = False
        replies = c.drain()
        # only the latest node values are shown: older ones still queued are skipped (a large
        # graph's values are megabytes, and showing each cost the window more than they arrive)
        last_nodes = max((i for i, m in enumerate(replies) if type(m) is msg.Nodes), default=-1)
        for i, m in enumerate(replies):
            if type(m) is msg.Nodes and i != last_nodes:
                continue
            handler = _REPLIES.get(type(m))
            if handler is None:
                continue
            rid = getattr(m, "run_id", None)
            if rid is not None and rid != self.run_id:
                continue  # a result of a run that was reset: dropped
            new_data |= bool(handler(self, m))
            if self._client is not c:
                return  # the engine is gone (or was replaced): nothing more from this one
        if self.state in ENGINE_UP and c.silent_for() >= WATCHDOG_SECONDS:
            self._apply(Event.SILENCE)
        if new_data:
            self.ticked.emit()

    def _on_devices(self, m: msg.Devices) -> None:
        self.devices = m.devices
        self.devicesChanged.emit(self.devices)
        if self.session is not None and self.state == Phase.STARTING:
            self._build()

    def _on_device(self, m: msg.Device) -> None:
        self.engine_device = m.name

    def _on_gone(self, _m: msg.Gone) -> None:
        if self.state not in (Phase.STOPPED, Phase.ENGINE_LOST):  # ENGINE_LOST already said why
            code = self._client.process.exitcode
            self._error(
                self.tr(
                    "The engine process stopped unexpectedly (exit code {code}). "
                    "Your session is kept: press Reset to start a fresh engine."
                ).format(code=code)
            )
            self._apply(Event.LOSE)
        self._timer.stop()
        self._stop_client(kill=True)

    def _on_fatal(self, m: msg.Fatal) -> None:
        self._error(m.message, m.detail)
        self._apply(Event.LOSE)

    def _on_built(self, m: msg.Built) -> None:
        info = m.info
        self.info = info
        layouts = [Layout.from_dict(d) for d in (info.param_layout, info.grad_layout, info.aux_layout)]
        self.history = History(*layouts, budget=self.history_budget)
        self.abandoned = []
        self.evals = self.predictions = ()
        kept, self._pending_history = self._pending_history, None
        self.recorded = False
        if kept is not None and [
            lay.to_dict() for lay in (kept[0].param_layout, kept[0].grad_layout, kept[0].aux_layout)
        ] == [lay.to_dict() for lay in layouts]:
            self.history, self.recorded, self.nodes = kept[0], True, None
            self.evals = kept[2]  # the recorded evaluations; no per-example predictions are saved
            self._apply(Event.REVIEW, kept[1], int(kept[0].steps[-1]) if kept[0].n else None)
        else:
            self._apply(Event.BUILT)
        self.built.emit()
        if self.run.start_queued:  # Start was pressed while MindSpore started or the run built
            self.start()

    def _on_state(self, m: msg.State) -> None:
        event = ENGINE_STATES.get(m.state)
        if event is Event.PAUSE and self._stepping:
            event = Event.STEPPED  # the one step asked for is done
        if event is Event.PAUSE or event is Event.STEPPED:
            self._stepping = False
        if event is not None:
            self._apply(event)

    def _on_batch(self, m: msg.Batch) -> bool:
        h = self.history
        if h is None:
            return False
        pc, gc, ac = row_slices(h.param_layout, h.grad_layout)
        if h.n and m.steps[0] <= h.steps[-1]:
            # a step computed again replaces the recorded one: training on after a stop-at-loss
            # end computes its last step again (its update was not kept), this time keeping it
            h.truncate(int(m.steps[0]))
        rows = m.rows
        h.append(m.steps, rows[:, LOSS_COL], rows[:, pc], rows[:, gc], rows[:, ac], m.step_ms, rows[:, LR_COL])
        self._rate(m.steps)
        return True

    def _on_evals(self, m: msg.Evals) -> bool:
        if self.recorded:
            return False
        self.evals = self.evals[: m.kept] + tuple(m.evals)
        # with class scores, every evaluation has its predictions, in the same order
        self.predictions = self.predictions[: m.kept] + tuple(m.predictions)
        return True  # redrawn with the next tick

    def _on_nodes(self, m: msg.Nodes) -> None:
        if self.recorded or self.history is None:
            return  # the engine's values are not those of the recorded run, or of a dropped one
        self.nodes = m
        self.nodesChanged.emit(m)

    def _on_ended(self, m: msg.Ended) -> None:
        self._stepping = False
        self._apply(Event.END, m.reason, m.step)
        if not self.dropped:  # a dropped run's end is nobody's news
            self.ended.emit(m.reason, m.step)

    def _on_error(self, m: msg.Error) -> None:
        self._error(m.message, m.detail)
        self._apply(Event.FAIL)

    def _on_task(self, m) -> None:
        self.taskReplied.emit(m)

    def _error(self, text: str, detail: str = "") -> None:
        self.last_error, self.last_detail = text, detail
        self.errorOccurred.emit(text, detail)

    def _rate(self, steps: np.ndarray) -> None:
        if self.state != Phase.TRAINING:
            return
        now = time.perf_counter()
        self._rate_window.append((now, int(steps[-1])))
        self._rate_window = [(t, s) for t, s in self._rate_window if now - t < 1.0]
        if len(self._rate_window) >= 2:
            (t0, s0), (t1, s1) = self._rate_window[0], self._rate_window[-1]
            if t1 > t0:
                self.steps_per_second = (s1 - s0) / (t1 - t0)

    @property
    def step_count(self) -> int:
        """The last step in the history (model.steps: the number of steps computed)."""
        h = self.history
        return int(h.steps[-1]) if h is not None and h.n else 0

    @property
    def updates(self) -> int:
        """Updates kept by the parameters after the history's last step."""
        return updates_kept(self.step_count, self.end_reason)


_REPLIES = {
    msg.Devices: TrainingController._on_devices,
    msg.Device: TrainingController._on_device,
    msg.Gone: TrainingController._on_gone,
    msg.Fatal: TrainingController._on_fatal,
    msg.Built: TrainingController._on_built,
    msg.State: TrainingController._on_state,
    msg.Batch: TrainingController._on_batch,
    msg.Nodes: TrainingController._on_nodes,
    msg.Ended: TrainingController._on_ended,
    msg.Error: TrainingController._on_error,
    **{r: TrainingController._on_task for r in msg.TASK_REPLIES + tuple(t.result for t in msg.TASKS)},
    msg.NodesAt: TrainingController._on_nodes_at,
    msg.Rewound: TrainingController._on_rewound,
    msg.Evals: TrainingController._on_evals,
    msg.Plane: TrainingController._on_plane,
}

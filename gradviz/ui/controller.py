"""The training controller: owns the engine process, run ids, the history and the run state.

Widgets talk to the controller, never to the engine. A timer drains the engine's messages at
30 Hz and emits `ticked` once per tick with new data; results of an old run id are dropped."""
from __future__ import annotations

import time

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal

from ..model.history import History
from ..model.layout import LOSS_COL, LR_COL, Layout, row_slices
from ..model.session import Session
from .engine_client import EngineClient

TICK_MS = 33
LIVE_OPTIONS = ("lr", "speed", "steps", "until_loss")

# states: starting -> building -> ready -> (compiling) -> running <-> paused -> ended
#         error (engine reported a failure), dead (engine process gone), stopped (shut down)


class TrainingController(QObject):
    stateChanged = Signal(str)
    devicesChanged = Signal(dict)
    built = Signal()               # a new run is ready: history cleared, layouts known
    ticked = Signal()              # new history data this tick
    nodesChanged = Signal(object)  # (step, values, grads)
    ended = Signal(str, int)       # reason, steps
    errorOccurred = Signal(str)
    message = Signal(str)          # status-bar notes

    def __init__(self, parent=None):
        super().__init__(parent)
        self.state = "stopped"
        self.devices: dict[str, tuple[bool, str]] = {}
        self.engine_device: str | None = None  # the device the engine process is fixed to
        self.run_id = 0
        self.session: Session | None = None
        self.history: History | None = None
        self.info: dict = {}
        self.nodes: tuple | None = None
        self.end_reason: str | None = None
        self.last_error: str | None = None
        self.recorded = False          # showing a run read from a file, not one trained here
        self._pending_recorded = None
        self._client: EngineClient | None = None
        self._rate_window: list[tuple[float, int]] = []
        self.steps_per_second = 0.0
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self.poll)

    # -- lifecycle ----------------------------------------------------------------------------
    def start_engine(self, mode: str | None = None, device: str | None = None) -> None:
        """Start a fresh engine process for `mode` on `device` (default: the session's) after
        stopping the old one, if any. The session, if any, is built as soon as the process says
        it is up."""
        self._stop_client(kill=True)
        o = self.session.options if self.session is not None else None
        mode = mode or (o.mode if o else "pynative")
        device = device or (o.device if o else "CPU")
        self._client = EngineClient(mode, device)
        self.engine_device = None
        self._set_state("starting")
        self._timer.start()

    def shutdown(self) -> None:
        """Stop everything: the timer, the engine process and its reader. Within about 2 s."""
        self._timer.stop()
        self._stop_client(kill=False)
        self._set_state("stopped")

    def _stop_client(self, kill: bool) -> None:
        if self._client is not None:
            self._client.close(kill=kill)
            self._client = None

    @property
    def engine_running(self) -> bool:
        return self._client is not None and self._client.alive

    # -- commands -----------------------------------------------------------------------------
    def load(self, session: Session, recorded=None) -> None:
        """Use this session for the next run and build it now (a reset). With `recorded`
        ((layouts, arrays, end reason) read from a history file), show that run once built."""
        self.session = session.copy()
        self._pending_recorded = recorded
        self.reset()

    def reset(self) -> None:
        """Build the session anew: a fresh run from the seed."""
        if self.session is None:
            return
        if self._client is None or self.state in ("dead", "stopped"):
            self.start_engine()  # builds once the new process is up
        elif self.state != "starting":  # else the "devices" message triggers the build
            self._build()

    def _build(self) -> None:
        assert self.session is not None
        dev, mode = self.session.options.device, self.session.options.mode
        c = self._client
        if c is not None and (c.device, c.mode) != (dev, mode):
            # MindSpore fixes the device once per process, and PyNative and Graph mode train
            # fastest with different runtime settings, also fixed per process
            # (devices.prepare_process): either change needs a new process.
            what = dev if c.device != dev else ("Graph mode" if mode == "graph" else "PyNative mode")
            self.message.emit(f"Starting a new engine process for {what}...")
            self.start_engine()
            return
        self.run_id += 1
        self.recorded = False
        self.end_reason = None
        self.nodes = None
        self.last_error = None
        self._rate_window.clear()
        self.steps_per_second = 0.0
        if self.state != "starting":
            self._set_state("building")
        self._send("build", self.run_id, self.session.to_dict())

    def start(self) -> None:
        if self.state in ("ready", "paused", "ended"):
            self._send("start")

    def pause(self) -> None:
        if self.state in ("running", "compiling"):
            self._send("pause")

    def step(self) -> None:
        if self.state in ("ready", "paused", "ended"):
            self._send("step")

    def cancel(self) -> None:
        """Cancel a Graph-mode compile (or any stuck work): restart the engine, keep the session."""
        self.message.emit("Cancelled: restarting the engine")
        self.start_engine()

    def set_live_option(self, name: str, value) -> None:
        """Options that change mid-run without a reset."""
        assert name in LIVE_OPTIONS
        if self.session is not None:
            setattr(self.session.options, name, value)
        self._send("set", name, value)

    def _send(self, *msg) -> None:
        if self._client is not None:
            self._client.send(*msg)

    def _set_state(self, s: str) -> None:
        if s != self.state:
            self.state = s
            self.stateChanged.emit(s)

    # -- messages -----------------------------------------------------------------------------
    def poll(self) -> None:
        """Drain the engine's messages; runs on the GUI timer."""
        if self._client is None:
            return
        new_data = False
        for msg in self._client.drain():
            kind = msg[0]
            if kind == "devices":
                self.devices = msg[1]
                self.devicesChanged.emit(self.devices)
                if self.session is not None and self.state == "starting":
                    self._build()
                continue
            if kind == "device":
                self.engine_device = msg[1]
                continue
            if kind == "died":
                if self.state not in ("stopped", "dead"):  # "dead" already said why
                    code = self._client.process.exitcode
                    self.last_error = (f"The engine process stopped unexpectedly (exit code {code}). "
                                       "Your session is kept: press Reset to start a fresh engine.")
                    self.errorOccurred.emit(self.last_error)
                    self._set_state("dead")
                self._timer.stop()
                self._stop_client(kill=True)
                break
            if kind == "fatal":
                self.last_error = msg[1]
                self.errorOccurred.emit(msg[1])
                self._set_state("dead")
                continue
            if msg[1] is not None and msg[1] != self.run_id:
                continue  # a result of a run that was reset: dropped
            if kind == "built":
                self._on_built(msg[2])
            elif kind == "state":
                self._set_state(msg[2])
            elif kind == "batch":
                _, _, steps, rows, ms = msg
                if self.history is not None:
                    h = self.history
                    pc, gc, ac = row_slices(h.param_layout, h.grad_layout)
                    h.append(steps, rows[:, LOSS_COL], rows[:, pc], rows[:, gc], rows[:, ac], ms, rows[:, LR_COL])
                    self._rate(steps)
                    new_data = True
            elif kind == "nodes":
                if self.recorded:
                    continue  # the engine's values are not those of the recorded run
                self.nodes = (msg[2], msg[3], msg[4])
                self.nodesChanged.emit(self.nodes)
            elif kind == "ended":
                self.end_reason = msg[2]
                self.steps_per_second = 0.0
                self._set_state("ended")
                self.ended.emit(msg[2], msg[3])
            elif kind == "error":
                self.last_error = msg[2]
                self._set_state("error")
                self.errorOccurred.emit(msg[2])
        if new_data:
            self.ticked.emit()

    def _on_built(self, info: dict) -> None:
        self.info = info
        self.history = History(Layout.from_dict(info["param_layout"]), Layout.from_dict(info["grad_layout"]),
                               Layout.from_dict(info["aux_layout"]))
        rec, self._pending_recorded = self._pending_recorded, None
        self.recorded = False
        if rec is not None and [lay.to_dict() for lay in rec[0]] == [self.history.param_layout.to_dict(),
                                                                  self.history.grad_layout.to_dict(),
                                                                  self.history.aux_layout.to_dict()]:
            self.history.append(*rec[1])
            self.recorded, self.end_reason, self.nodes = True, rec[2], None
            self._set_state("ended")
            self.built.emit()
            return
        self._set_state("ready")
        self.built.emit()

    def _rate(self, steps: np.ndarray) -> None:
        now = time.perf_counter()
        self._rate_window.append((now, int(steps[-1])))
        self._rate_window = [(t, s) for t, s in self._rate_window if now - t < 1.0]
        if len(self._rate_window) >= 2:
            (t0, s0), (t1, s1) = self._rate_window[0], self._rate_window[-1]
            if t1 > t0:
                self.steps_per_second = (s1 - s0) / (t1 - t0)

    @property
    def step_count(self) -> int:
        h = self.history
        return int(h.steps[-1]) if h is not None and h.n else 0

"""The main window: assembles the editor, controls, plots and status bar around a document
(the session being edited) and a TrainingController (which owns the engine process)."""
from __future__ import annotations

import json
import os

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QDockWidget, QHBoxLayout, QLabel, QListWidget, QMainWindow, QMenu,
                               QPlainTextEdit, QPushButton, QSizePolicy, QToolBar, QToolButton, QVBoxLayout, QWidget)

from ..model.formatting import fmt_number, shorten
from ..model.ops import TABLE
from ..model.presets import load_preset
from ..model.session import Session
from . import theme
from .controller import LIVE_OPTIONS, TrainingController
from .controls import ControlPanel
from .document import SessionDocument
from .graph_view import GraphScene, GraphView
from .inspector import Inspector
from .files import SessionFiles
from .persistence import AppStore
from .plots import PlotPanel

STATE_TEXT = {"starting": "starting MindSpore…", "building": "building…", "ready": "ready", "compiling": "compiling…",
              "running": "training", "paused": "paused", "ended": "finished", "error": "error",
              "dead": "engine stopped", "stopped": "stopped"}


def _structure_key(session: Session) -> str:
    """The session without node positions and live options: what a run is built from."""
    d = session.to_dict()
    for n in d["graph"]["nodes"]:
        n.pop("pos", None)
    for k in LIVE_OPTIONS:
        d["options"].pop(k, None)
    d.pop("name", None)
    return json.dumps(d, sort_keys=True)


class MainWindow(QMainWindow):
    """The app's window. With a `store` (the real app) it restores the layout and last session,
    keeps recent files, autosaves, and asks before discarding unsaved changes; without one
    (tests, screenshots) it opens the tutorial and never asks."""

    def __init__(self, session: Session | None = None, store: AppStore | None = None, ask=None):
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowTitle("GradViz: MindSpore autodiff, live")
        self.store = store
        self.files = SessionFiles(self, store, ask)
        restored_from_autosave = False
        if session is None and store is not None:
            session, restored_from_autosave = self.files.startup_session()
        session = session or load_preset("tutorial")
        # the engine process imports MindSpore (~1.5 s): start it before building the widgets
        self.controller = TrainingController(self)
        self.controller.start_engine(session.options.mode, session.options.device)
        self.document = SessionDocument(session, self)
        self._built_key: str | None = None
        self._closing = False

        # centre: error banner, palette and graph editor
        self.scene = GraphScene(self.document, self)
        self.graphView = GraphView(self.scene)
        central = QWidget()
        cl = QVBoxLayout(central)
        cl.setContentsMargins(0, 0, 0, 0)
        self.errorBanner = QLabel("")
        self.errorBanner.setObjectName("errorBanner")
        self.errorBanner.setWordWrap(True)
        self.errorBanner.setTextFormat(Qt.TextFormat.PlainText)  # messages quote text from files: never HTML
        self.errorBanner.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)  # never widens the window
        self.errorBanner.setStyleSheet(f"background: #fee2e2; color: {theme.ERROR_COLOR}; padding: 8px; font-size: 12pt;")
        dismiss = QPushButton("Dismiss")
        dismiss.clicked.connect(self.dismiss_error)
        self.bannerRow = QWidget()
        banner_row = QHBoxLayout(self.bannerRow)
        banner_row.setContentsMargins(0, 0, 0, 0)
        banner_row.addWidget(self.errorBanner, 1)
        dismiss.setObjectName("dismissButton")
        banner_row.addWidget(dismiss)
        self.bannerRow.setVisible(False)
        self.errorBanner.setVisible(True)
        cl.addWidget(self.bannerRow)
        cl.addWidget(self.graphView, 1)
        self.setCentralWidget(central)
        self.palette = QToolBar("Add node")
        self.palette.setObjectName("paletteToolbar")
        self._build_palette()
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.palette)

        # docks
        self.controls = ControlPanel(self.document)
        self._dock("Training", self.controls, Qt.DockWidgetArea.LeftDockWidgetArea, "controlsDock")
        self.inspector = Inspector(self.document)
        self._dock("Node", self.inspector, Qt.DockWidgetArea.LeftDockWidgetArea, "inspectorDock")
        self.problemsList = QListWidget()
        self.problemsList.setObjectName("problemsList")
        self.problemsList.setWordWrap(True)
        self.problemsList.setStyleSheet(f"color: {theme.ERROR_COLOR};")
        self._dock("Problems", self.problemsList, Qt.DockWidgetArea.LeftDockWidgetArea, "problemsDock")
        self.codeView = QPlainTextEdit()
        self.codeView.setObjectName("codeView")
        self.codeView.setReadOnly(True)
        self.codeView.setFont(theme.font(10, mono=True))
        self.codeView.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self._dock("MindSpore program", self.codeView, Qt.DockWidgetArea.LeftDockWidgetArea, "codeDock")
        self.plots = PlotPanel()
        self._dock("Plots", self.plots, Qt.DockWidgetArea.BottomDockWidgetArea, "plotsDock")
        self.lossPlot, self.paramPlot, self.gradPlot = self.plots.lossPlot, self.plots.paramPlot, self.plots.gradPlot
        self.tabifyDockWidget(self.findChild(QDockWidget, "inspectorDock"), self.findChild(QDockWidget, "problemsDock"))
        self.tabifyDockWidget(self.findChild(QDockWidget, "inspectorDock"), self.findChild(QDockWidget, "codeDock"))
        self.findChild(QDockWidget, "codeDock").raise_()
        self.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.resizeDocks([self.findChild(QDockWidget, "controlsDock")], [380], Qt.Orientation.Horizontal)
        self.resizeDocks([self.findChild(QDockWidget, "plotsDock")], [380], Qt.Orientation.Vertical)

        # status bar
        self.stepLabel = QLabel("step 0")
        self.stepLabel.setObjectName("stepLabel")
        self.rateLabel = QLabel("")
        self.rateLabel.setObjectName("rateLabel")
        self.lossLabel = QLabel("")
        self.lossLabel.setObjectName("lossLabel")
        self.modeLabel = QLabel("")
        self.modeLabel.setObjectName("modeLabel")
        self.stateLabel = QLabel("")
        self.stateLabel.setObjectName("stateLabel")
        for w in (self.stateLabel, self.stepLabel, self.rateLabel, self.lossLabel, self.modeLabel):
            w.setFont(theme.font(12, bold=w in (self.stepLabel, self.lossLabel)))
            self.statusBar().addPermanentWidget(w)

        self._menus()

        # wiring
        self.scene.nodeSelected.connect(self.inspector.show_node)
        self.scene.nodeSelected.connect(self._node_selected)
        self.document.graphChanged.connect(self._graph_changed)
        self.document.optionsChanged.connect(self._session_changed)
        self.document.modifiedChanged.connect(self._update_title)
        self.controls.presetChosen.connect(self.files.load_preset)
        self.controls.startClicked.connect(self.toggle_start)
        self.controls.stepClicked.connect(self.controller.step)
        self.controls.resetClicked.connect(self.reset)
        self.controls.cancelClicked.connect(self.controller.cancel)
        c = self.controller
        c.stateChanged.connect(self._state_changed)
        c.devicesChanged.connect(self.controls.set_devices)
        c.built.connect(self._on_built)
        c.ticked.connect(self._on_tick)
        c.nodesChanged.connect(self._on_nodes)
        c.ended.connect(self._on_ended)
        c.errorOccurred.connect(self.show_error)
        c.message.connect(self._status_message)
        self.files.watch(self.document)

        self.resize(1600, 1000)
        self._docks_sized = store is not None and store.bytes_value("windowState") is not None
        if store is not None:
            geo, st = store.bytes_value("geometry"), store.bytes_value("windowState")
            if geo is not None:
                self.restoreGeometry(geo)
            if st is not None:
                self.restoreState(st)
            if restored_from_autosave:
                self.document._saved = ""  # restored work is unsaved work
                self.document._check_modified()
                self._status_message("Restored the session autosaved before GradViz last stopped")
        self._update_problems()
        self._update_title()
        QTimer.singleShot(0, self.graphView.fit)
        self._session_changed(None)
        self.files.report_startup_problems()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._docks_sized:  # the training options get the room they need, if the screen has it
            self._docks_sized = True
            screen = self.screen().availableGeometry().height() if self.screen() else 1000
            self.controls.fit_options(max(150, min(screen, self.height()) - 560))

    def _dock(self, title: str, widget: QWidget, area, name: str) -> QDockWidget:
        d = QDockWidget(title, self)
        d.setObjectName(name)
        d.setWidget(widget)
        self.addDockWidget(area, d)
        return d

    def _menus(self) -> None:
        m = self.menuBar().addMenu("&File")
        f = self.files
        for text, key, fn in (("&Open session…", QKeySequence.StandardKey.Open, f.open_dialog),
                              ("&Save session", QKeySequence.StandardKey.Save, f.save),
                              ("Save session &as…", QKeySequence.StandardKey.SaveAs, f.save_dialog),
                              ("Save run with &history (JSON Lines)…", None, f.export_dialog),
                              ("Open run with h&istory…", None, f.open_history_dialog)):
            a = m.addAction(text)
            if key is not None:
                a.setShortcut(key)
            a.triggered.connect(fn)
        self.recentMenu = m.addMenu("Open &recent")
        self.recentMenu.setObjectName("recentMenu")
        self.recentMenu.aboutToShow.connect(f.fill_recent_menu)
        m.addSeparator()
        q = m.addAction("&Quit")
        q.setShortcut(QKeySequence.StandardKey.Quit)
        q.triggered.connect(self.close)
        e = self.menuBar().addMenu("&Edit")
        stack = self.document.undo_stack
        self.undoAction = QAction("&Undo", self)
        self.undoAction.setShortcut(QKeySequence.StandardKey.Undo)
        self.undoAction.triggered.connect(self.document.undo)
        self.redoAction = QAction("&Redo", self)
        self.redoAction.setShortcut(QKeySequence.StandardKey.Redo)
        self.redoAction.triggered.connect(self.document.redo)
        stack.canUndoChanged.connect(self._update_undo_actions)
        stack.canRedoChanged.connect(self._update_undo_actions)
        self._update_undo_actions()
        e.addAction(self.undoAction)
        e.addAction(self.redoAction)
        dl = e.addAction("&Delete selection")
        dl.triggered.connect(self.scene.delete_selection)
        v = self.menuBar().addMenu("&View")
        fit = v.addAction("&Fit graph")
        fit.triggered.connect(self.graphView.fit)
        for d in self.findChildren(QDockWidget):
            v.addAction(d.toggleViewAction())

    # -- session ------------------------------------------------------------------------------
    def _build_palette(self) -> None:
        """Sources and Output as buttons; operations and losses in one menu each (op table roles)."""
        menus = {"op": ("Operation", QMenu(self)), "loss": ("Loss", QMenu(self))}
        for k in TABLE:
            act = QAction(k.name, self)
            act.setObjectName(f"add{k.name}")
            act.setToolTip(f"Add a {k.name} node: {k.description}")
            act.triggered.connect(lambda _=False, kind=k.name: self.add_node(kind))
            if k.role in menus:
                menus[k.role][1].addAction(act)
            else:
                self.palette.addAction(act)
        for title, menu in menus.values():
            button = QToolButton(self)
            button.setObjectName(f"add{title}Menu")
            button.setText(f"{title} ▾")
            button.setToolTip(f"Add a{'n' if title[0] in 'AEIOU' else ''} {title.lower()} node")
            button.setMenu(menu)
            button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
            self.palette.addWidget(button)

    def add_node(self, kind: str) -> str:
        name = self.document.add_node(kind, self.scene.free_spot())
        self.scene.clearSelection()
        item = self.scene.items_by_name.get(name)
        if item is not None:
            item.setSelected(True)
            self.graphView.ensureVisible(item)
        return name

    def show_error(self, text: str) -> None:
        self.errorBanner.setText(f"⚠ {text}")
        self.bannerRow.setVisible(True)
        self.statusBar().showMessage(text.splitlines()[0] if text else "", 8000)

    def dismiss_error(self) -> None:
        self.bannerRow.setVisible(False)

    @property
    def error_shown(self) -> bool:
        return self.bannerRow.isVisible()

    # -- reacting to edits --------------------------------------------------------------------------
    def _session_changed(self, name: str | None) -> None:
        self._update_problems()
        self._update_caption()
        if name in LIVE_OPTIONS:
            self.controller.set_live_option(name, getattr(self.document.options, name))
            self._update_buttons()
            return
        problems = self.document.session.problems()
        if problems:
            self._built_key = None
            self.scene.set_node_data(None, None)
            self._update_buttons()
            return
        key = _structure_key(self.document.session)
        if key != self._built_key:
            self._built_key = key
            if self.controller.history is not None and self.controller.history.n:
                self.statusBar().showMessage("Changed: training restarts from step 0 with the new settings", 5000)
            self.controller.load(self.document.session)
        self._update_buttons()

    def _update_problems(self) -> None:
        self.problemsList.clear()
        for p in self.document.session.problems():
            self.problemsList.addItem(p)
        dock = self.findChild(QDockWidget, "problemsDock")
        if dock is not None:
            dock.setWindowTitle(f"Problems ({self.problemsList.count()})" if self.problemsList.count() else "Problems")
            if self.problemsList.count():
                dock.raise_()
        self.problemsList.setToolTip("Fix these to train" if self.problemsList.count() else "No problems")

    def reset(self) -> None:
        self.dismiss_error()
        if not self.document.session.problems():
            self._built_key = _structure_key(self.document.session)
            self.controller.load(self.document.session)

    def toggle_start(self) -> None:
        if self.controller.state in ("running", "compiling"):
            self.controller.pause()
        else:
            self.controller.start()

    # -- controller events --------------------------------------------------------------------------
    def _on_built(self) -> None:
        c = self.controller
        self.plots.set_history(c.history)
        self.plots.refresh(force=True)
        self.codeView.setPlainText(c.info.get("program", ""))
        self.scene.set_node_data(None, None)
        self._update_buttons()
        self._update_status()

    def _on_tick(self) -> None:
        self.plots.refresh()
        self._update_status()

    def _on_nodes(self, nodes) -> None:
        step, values, grads = nodes
        self.scene.set_node_data(values, grads)
        self._update_status()

    def _on_ended(self, reason: str, steps: int) -> None:
        self.plots.refresh(force=True)
        text = {"max_steps": f"Finished: reached the maximum of {steps} steps.",
                "until_loss": f"Finished at step {steps}: the loss fell below the target.",
                "non_finite": f"Stopped at step {steps}: the loss or a gradient is not finite. The learning rate "
                              "is probably too large: lower it and press Reset."}.get(reason, f"Ended: {reason}")
        if reason == "non_finite":
            self.show_error(text)
        self.statusBar().showMessage(text, 10000)
        self._update_status()

    def _state_changed(self, state: str) -> None:
        running = state in ("running", "compiling")
        if state in ("paused", "ended"):
            self.plots.refresh(force=True)  # everything, heat maps included, at the last step
        self.controls.set_running(running)
        self.inspector.set_locked(running)
        self.scene.locked = running
        self.document.locked = running
        self._update_undo_actions()
        self.palette.setEnabled(not running)
        self.controls.cancelButton.setVisible(state in ("compiling", "building", "starting"))
        self.controls.cancelButton.setText("Cancel compiling" if state == "compiling" else "Cancel")
        self._update_buttons()
        self._update_status()

    def _update_buttons(self) -> None:
        c = self.controller
        s = c.state
        problems = self.document.session.problems()
        start = self.controls.startButton
        start.setText("Pause" if s in ("running", "compiling") else "Start")
        reason = ""
        if problems:
            reason = "Fix the graph first: " + problems[0]
        elif s in ("starting", "building"):
            reason = "Starting MindSpore…" if s == "starting" else ""
        elif s == "ended" and c.recorded:
            reason = "A saved run: press Reset to train it again."
        elif s == "ended" and c.end_reason == "non_finite":
            reason = "Stopped: the loss or a gradient is not finite. Lower the learning rate and press Reset."
        elif s == "ended" and c.end_reason != "max_steps":
            reason = "The run has finished: press Reset to train again."
        elif s in ("ended", "paused", "ready") and c.step_count >= self.document.options.steps:
            reason = "Reached max steps: raise Max steps to go on, or Reset."
        elif s in ("error", "dead"):
            reason = "Press Reset to recover."
        can_start = not reason and s in ("ready", "paused", "ended", "running", "compiling")
        start.setEnabled(can_start)
        start.setToolTip(reason)
        self.controls.stepButton.setEnabled(not reason and s in ("ready", "paused", "ended"))
        self.controls.resetButton.setEnabled(not problems and s not in ("starting",))
        self.controls.reasonLabel.setText(reason)

    def _update_status(self) -> None:
        c = self.controller
        h = c.history
        self.stepLabel.setText(f"step {c.step_count}")
        self.rateLabel.setText(f"{c.steps_per_second:,.0f} steps/s" if c.state == "running" else "")
        if h is not None and h.n:
            self.lossLabel.setText(f"loss at step {int(h.steps[-1])}: {fmt_number(h.loss[-1])}")
        else:
            self.lossLabel.setText("loss —")
        o = self.document.options
        self.modeLabel.setText(f"{'Graph' if o.mode == 'graph' else 'PyNative'} · {c.engine_device or o.device}")
        state = "stopped: not finite" if c.state == "ended" and c.end_reason == "non_finite" else STATE_TEXT.get(c.state, c.state)
        self.stateLabel.setText(state)
        self._update_caption()

    def _update_undo_actions(self, *_args) -> None:
        stack, locked = self.document.undo_stack, self.document.locked
        self.undoAction.setEnabled(stack.canUndo() and not locked)
        self.redoAction.setEnabled(stack.canRedo() and not locked)
        self.undoAction.setToolTip("Pause training to undo" if locked else stack.undoText())

    def _update_caption(self) -> None:
        """Say what the numbers on the nodes are, and what L means with the current options."""
        c, o = self.controller, self.document.options
        if self.document.session.problems():
            first = "Nodes: fix the problems to see values"
        elif c.recorded:
            first = "Nodes: not computed for a saved run (press Reset to train it again)"
        elif c.nodes is None:
            first = "Nodes: values not computed yet"
        else:
            first = f"Nodes: values and gradients at the current parameters (after {c.nodes[0]} updates)"
        aux = self.document.graph.aux_outputs()
        z = aux[0].inputs.get("x", "z") if aux else "z"
        if not (o.aux_output and aux):
            second = "L = loss"
        elif o.stop_gradient:
            second = f"L = loss: {z} is returned through ops.stop_gradient"
        elif o.has_aux:
            second = f"L = loss: {z} is returned as auxiliary data (has_aux=True)"
        else:
            second = f"L = loss + sum({z}): {z} is returned and differentiated too"
        self.graphView.set_caption(f"{first}\n{second}")

    def _node_selected(self, name: str) -> None:
        if name:
            self.findChild(QDockWidget, "inspectorDock").raise_()

    def _graph_changed(self) -> None:
        self._session_changed(None)

    def _status_message(self, text: str) -> None:
        self.statusBar().showMessage(text, 5000)

    def _update_title(self, *_args) -> None:
        name = shorten(os.path.basename(self.document.path) if self.document.path else self.document.session.name)
        mod = " *" if self.document.modified else ""
        self.setWindowTitle(f"GradViz: {name}{mod}")

    # -- closing ------------------------------------------------------------------------------------
    def adopt_run(self, session: Session, recorded) -> None:
        """Show a run read from a file: its session, and its history as it was recorded."""
        self._built_key = _structure_key(session)
        self.controller.load(session, recorded=recorded)
        self.document.replace_session(session)
        QTimer.singleShot(0, self.graphView.fit)

    def closeEvent(self, event) -> None:
        if not self._closing and not self.files.may_discard():
            event.ignore()
            return
        self._closing = True
        self.files.close()
        if self.store is not None:
            self.store.set_value("geometry", self.saveGeometry())
            self.store.set_value("windowState", self.saveState())
            self.store.sync()
        self.controller.shutdown()
        self.statusBar().clearMessage()  # stops the status bar's message timer
        super().closeEvent(event)

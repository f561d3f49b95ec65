"""The main window: assembles the editor, controls, plots and status bar around a document
(the session being edited) and a TrainingController (which owns the engine process)."""

from __future__ import annotations

import os

from PySide6.QtCore import QEvent, QRect, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMainWindow,
    QMenu,
    QPlainTextEdit,
    QScrollArea,
    QTabWidget,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..i18n import QT_TRANSLATE_NOOP
from ..model.codegen import objective_caption
from ..model.formatting import fmt_number, shorten
from ..model.ops import TABLE
from ..model.presets import load_preset
from ..model.runstate import Control, Phase, RunState, permissions
from ..model.shown import NodeData, ShownNodes
from ..model.steps import end_message, kept, loss_at, progress
from ..model.session import Session
from . import language, theme
from .controller import LIVE_OPTIONS, TrainingController
from .controls import ControlPanel
from .document import SessionDocument
from .exports import WindowExports
from .call_view import CallView
from .error_banner import ErrorBanner
from .graph_view import NEW_H, W_NEW, GraphScene, GraphView
from .inspector import Inspector
from .language import tr_msg
from .files import SessionFiles, asker, startup_session
from .persistence import AppStore
from .experiments_panel import ExperimentsPanel
from .lesson_panel import LessonPanel
from .image_view import ImagePanel
from .data_view import DataPanel
from .plots import PlotPanel
from .presentation import Presenter
from .backprop_steps import BackpropSteps
from .shortcuts import Shortcuts
from .live_label import LiveLabel
from .menu_style import style_menus
from .code_in import CodeIn, ProgramEditor, dropped_program
from .status_bar import StatusBar
from .parts import Feedback
from .timetravel import TimeTravel, live_data

BOTTOM = Qt.DockWidgetArea.BottomDockWidgetArea
PRESENT_PLOTS_SHARE = 0.36  # presentation mode: the plots dock's share of the window's height

NOT_ANSWERING_TEXT = QT_TRANSLATE_NOOP(
    "MainWindow",
    "The engine has not answered for {seconds:.0f} s (stopped, or frozen inside MindSpore). "
    "Wait for it, or Restart it: the session and the history are kept.",
)


# the palette's buttons, in the app's language: the kinds that are ideas, not MindSpore's ops
# (the operations and losses keep their MindSpore names)
KIND_LABELS = {
    "Input": QT_TRANSLATE_NOOP("MainWindow", "Input"),
    "Parameter": QT_TRANSLATE_NOOP("MainWindow", "Parameter"),
    "Output": QT_TRANSLATE_NOOP("MainWindow", "Output"),
    "Dataset": QT_TRANSLATE_NOOP("MainWindow", "Dataset"),
}


def _structure_key(session: Session) -> dict:
    """The session without node positions and live options: what a run is built from, compared
    with == (cheap where the values lists are the same ones, as they are after most edits)."""
    d = session.to_dict()
    for n in d["graph"]["nodes"]:
        n.pop("pos", None)
    for k in LIVE_OPTIONS:
        d["options"].pop(k, None)
    d.pop("name", None)
    return d


def _scrolled(widget: QWidget) -> QScrollArea:
    """`widget` in a frameless scroll area that resizes it: a dock's content on a small screen."""
    area = QScrollArea()
    area.setWidget(widget)
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    return area


# saved with the window's dock layout; raised when the docks are arranged or named otherwise, so
# that a layout saved before is not restored
MIN_OPTIONS_HEIGHT = 150  # px: the training options' scroll area, at the least
DOCK_LAYOUT_VERSION = 5  # 5: the Training dock's lesson options first, above its fold


class MainWindow(QMainWindow):
    """The app's window. With a `store` (the real app) it restores the layout and last session,
    keeps recent files, autosaves, and asks before discarding unsaved changes; without one
    (tests, screenshots) it opens the tutorial and never asks."""

    def __init__(self, session: Session | None = None, store: AppStore | None = None, ask=None, make_client=None):
        language.ensure_installed()  # before any text is made, so that every one can switch language
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowTitle(self.tr("GradViz: MindSpore autodiff, live"))
        self.store = store
        ask = ask or asker(self)  # how questions are asked (tests answer them)
        session, restored_from_autosave, startup_problems = self._first_session(session, store, ask)
        # the engine process imports MindSpore (the longest part of start-up): start it before building the widgets
        self.controller = TrainingController(self, make_client)  # make_client: the engine client's factory
        self.controller.start_engine(session.options.mode, session.options.device)
        self.document = SessionDocument(session, self)
        self._built_key: dict | None = None
        self._closing = False
        self._build_status_bar()  # first: the parts' messages go to it (parts.Feedback)
        self.feedback = Feedback(self.statusBar(), self.show_error, self.dismiss_error)
        self.shown = ShownNodes()  # what the nodes show (model/shown.py): the graph and its caption follow it
        # first of all the controller's listeners: the step every label names follows the run
        # before any part reads it (Qt calls a signal's slots in the order they were connected)
        for signal in (self.controller.ticked, self.controller.stateChanged, self.controller.built):
            signal.connect(self._run_moved)
        self.files = self._session_files(store, ask, startup_problems)  # the File menu's work
        self._build_centre()  # the banner, the program's call, the graph editor; the palette in the menu bar's row
        self._build_docks()  # left: training, node, problems, lesson; bottom: plots, lessons, the program
        self._menus()
        self.setAcceptDrops(True)  # a .py file dropped on the window is imported (code_in.py)
        self._build_parts()  # presentation mode and the themes, the Run menu and its keys, backprop
        style_menus(self)  # every menu is made by now: none cuts its Chinese items short
        QApplication.instance().focusChanged.connect(self._focus_changed)  # bound: disconnected with the window
        self._wire()
        self._restore_layout(store, restored_from_autosave)

    @staticmethod
    def _first_session(session: Session | None, store: AppStore | None, ask) -> tuple[Session, bool, list[str]]:
        """The session to open: the one given; else, with a store, an autosave after a crash or
        the last session; else the tutorial. With whether it came from an autosave, and the
        problems to report once the window is up."""
        restored, problems = False, list(store.problems) if store is not None else []
        if session is None and store is not None:
            session, restored, problems = startup_session(store, ask)
        return session or load_preset("tutorial"), restored, problems

    def _session_files(self, store: AppStore | None, ask, startup_problems: list[str]) -> SessionFiles:
        return SessionFiles(
            store,
            ask,
            self.document,
            self.controller,
            self.feedback,
            forget_run=self.forget_run,
            adopt_run=self.adopt_run,
            fit_graph=lambda: self.graphView.fit(),  # made after the files
            sync_controls=lambda: self.controls.sync_from_document(),
            startup_problems=startup_problems,
            parent=self,
        )

    def _build_parts(self) -> None:
        self.presenter = Presenter(  # presentation mode and the themes (View menu)
            self,
            controller=self.controller,
            node_palette=self.palette,
            corner_bar=self.cornerBar,
            call_view=self.callView,
            scene=self.scene,
            graph_view=self.graphView,
            controls=self.controls,
            plots=self.plots,
        )
        self.shortcuts = Shortcuts(  # Run menu, F, F5, Ctrl+E, Help > Keyboard shortcuts
            self,
            controls=self.controls,
            menus=(self.fileMenu, self.editMenu, self.viewMenu),
            fit_action=self.fitAction,
            exports=self.exports,
            set_presentation=self.set_presentation,
            set_theme=self.set_theme,
            status=self.statusBar(),
        )
        self.backprop = BackpropSteps(  # Run > Step through backprop (B, → and ←)
            self,
            scene=self.scene,
            graph_view=self.graphView,
            document=self.document,
            run_menu=self.shortcuts.runMenu,
            status=self.statusBar(),
            bottom_docks=lambda: [d for d in self.findChildren(QDockWidget) if self.dockWidgetArea(d) == BOTTOM],
        )

    def _build_centre(self) -> None:
        self.scene = GraphScene(self.document, self)
        self.graphView = GraphView(self.scene)
        self.shown.observe(self._paint_nodes)
        self.shown.observe(lambda _shown: self._update_caption())
        central = QWidget()
        cl = QVBoxLayout(central)
        cl.setContentsMargins(0, 0, 0, 0)
        self.banner = ErrorBanner()
        # the banner's parts that tests and the watchdog's buttons are read by
        self.errorBanner = self.banner.label
        self.detailsButton, self.waitButton, self.restartButton = (
            self.banner.detailsButton,
            self.banner.waitButton,
            self.banner.restartButton,
        )
        cl.addWidget(self.banner)
        self.callView = CallView()
        cl.addWidget(self.callView)
        cl.addWidget(self.graphView, 1)
        self.setCentralWidget(central)
        self.palette = QToolBar(self.tr("Add node"))
        self.palette.setObjectName("paletteToolbar")
        self._build_palette()
        # in the menu bar's row: the graph keeps the height a toolbar row would take
        add_label = QLabel(self.tr("Add node:"))
        add_label.setContentsMargins(8, 0, 4, 0)
        self.palette.insertWidget(self.palette.actions()[0], add_label)
        self.cornerBar = QWidget()  # the menu bar's row: the palette (presentation mode: the run buttons)
        QHBoxLayout(self.cornerBar).setContentsMargins(0, 0, 0, 0)
        self.cornerBar.layout().addWidget(self.palette)
        self.menuBar().setCornerWidget(self.cornerBar, Qt.Corner.TopRightCorner)

    def _build_docks(self) -> None:
        self.controls = ControlPanel(self.document)
        self._dock(self.tr("Training"), self.controls, Qt.DockWidgetArea.LeftDockWidgetArea, "controlsDock")
        self.inspector = Inspector(self.document)
        # the inspector and its update table scroll on a small screen
        self._dock(self.tr("Node"), _scrolled(self.inspector), Qt.DockWidgetArea.LeftDockWidgetArea, "inspectorDock")
        self.problemsList = QListWidget()
        self.problemsList.setObjectName("problemsList")
        self.problemsList.setWordWrap(True)
        self.problemsList.setStyleSheet(f"color: {theme.ERROR_COLOR};")
        self._dock(self.tr("Problems"), self.problemsList, Qt.DockWidgetArea.LeftDockWidgetArea, "problemsDock")
        self.codeView = QPlainTextEdit()
        self.codeView.setObjectName("codeView")
        self.codeView.setReadOnly(True)
        self.codeView.setFont(theme.font(10, mono=True))
        self.codeView.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        # a tab beside the plots, where the program's lines have the window's width (four tabs
        # under the training options were elided to "N…", "P…" at 1280x720)
        self.programEditor = ProgramEditor(
            self.document, self.codeView, self
        )  # editable: Apply (Ctrl+Enter), code_in.py
        self._dock(self.tr("MindSpore program"), self.programEditor.panel, BOTTOM, "codeDock")
        self.plots = PlotPanel()
        self.plots.named_step = self.named_step  # the heat maps show the step the labels name
        # the history slider above the plots, the update table in the inspector
        self.timeTravel = TimeTravel(
            self.controller,
            self.shown,
            self.plots,
            options=lambda: self.document.options,
            permissions=self.permissions,
            feedback=self.feedback,
            set_lr=self.controls.lrSpin.setValue,
            parent=self,
        )
        plots_box = QWidget()
        pl = QVBoxLayout(plots_box)
        pl.setContentsMargins(0, 0, 0, 0)
        pl.setSpacing(0)
        pl.addWidget(self.timeTravel.bar)
        pl.addWidget(self.plots, 1)
        self.inspector.layout().insertWidget(self.inspector.layout().count() - 1, self.timeTravel.view)
        self._dock(self.tr("Plots"), plots_box, BOTTOM, "plotsDock")
        self.lossPlot, self.paramPlot, self.gradPlot = self.plots.lossPlot, self.plots.paramPlot, self.plots.gradPlot
        self.tabifyDockWidget(self.findChild(QDockWidget, "inspectorDock"), self.findChild(QDockWidget, "problemsDock"))
        self.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.resizeDocks([self.findChild(QDockWidget, "controlsDock")], [380], Qt.Orientation.Horizontal)
        self.resizeDocks([self.findChild(QDockWidget, "plotsDock")], [380], Qt.Orientation.Vertical)
        self.experiments = ExperimentsPanel(self.controller)
        # scrolls in a short dock instead of making the plots taller
        self._dock(
            self.tr("Experiments"),
            _scrolled(self.experiments),
            BOTTOM,
            "experimentsDock",
        )
        self.tabifyDockWidget(self.findChild(QDockWidget, "plotsDock"), self.findChild(QDockWidget, "experimentsDock"))
        self.tabifyDockWidget(self.findChild(QDockWidget, "experimentsDock"), self.findChild(QDockWidget, "codeDock"))
        # a run over a data set of images: its test images and confusion matrix, a tab beside the plots
        images = self._dock(self.tr("Test images"), QWidget(), BOTTOM, "imagesDock")
        self.imagePanel = ImagePanel(self.controller, self.shown, set_available=images.setVisible)
        images.setWidget(self.imagePanel)
        self.tabifyDockWidget(self.findChild(QDockWidget, "plotsDock"), images)
        images.hide()
        # a run over a 2-D data set: the points over the network's output, a tab beside the plots
        data = self._dock(self.tr("Data"), QWidget(), BOTTOM, "dataDock")
        self.dataPanel = DataPanel(
            self.controller,
            self.shown,
            set_available=data.setVisible,
            set_unit_maps=lambda _spec, maps: self.scene.set_unit_maps(maps),
        )
        data.setWidget(self.dataPanel)
        self.dataView = self.dataPanel.view
        self.tabifyDockWidget(images, data)
        data.hide()
        self.findChild(QDockWidget, "plotsDock").raise_()
        # the bottom docks' tabs are their titles, above them: no title bar row (room for the graph)
        self.setTabPosition(BOTTOM, QTabWidget.TabPosition.North)
        for name in ("plotsDock", "experimentsDock", "codeDock", "imagesDock", "dataDock"):
            self.findChild(QDockWidget, name).setTitleBarWidget(QWidget())
        # the guided lesson: a tab beside Node, Problems and the program, under the training
        # options, shown first (a dock of its own beside the graph left it too small at 1280x720)
        self.lesson = LessonPanel(
            self.store,
            self.document,
            self.controller,
            self.shown,
            experiments=self.experiments,
            may_discard=self.files.may_discard,
            fit_graph=self.graphView.fit,
            find=self.findChild,
        )
        self._dock(self.lesson.title(), self.lesson, Qt.DockWidgetArea.LeftDockWidgetArea, "lessonDock")
        self.tabifyDockWidget(self.findChild(QDockWidget, "inspectorDock"), self.findChild(QDockWidget, "lessonDock"))
        self.findChild(QDockWidget, "lessonDock").raise_()
        # their tabs name them, under them: no title bar row (two more lines of the lesson's text)
        for name in ("inspectorDock", "problemsDock", "lessonDock"):
            self.findChild(QDockWidget, name).setTitleBarWidget(QWidget())

    def _build_status_bar(self) -> None:
        # status bar: its passing messages cut with "…" before the permanent labels
        self.setStatusBar(StatusBar(self))
        # the status bar's labels change 30 times a second while training: LiveLabels
        self.stepLabel = LiveLabel(tr_msg(progress(0)))
        self.stepLabel.setObjectName("stepLabel")
        self.rateLabel = LiveLabel("")
        self.rateLabel.setObjectName("rateLabel")
        self.lossLabel = LiveLabel("")
        self.lossLabel.setObjectName("lossLabel")
        self.modeLabel = LiveLabel("")
        self.modeLabel.setObjectName("modeLabel")
        self.stateLabel = LiveLabel("")
        self.stateLabel.setObjectName("stateLabel")
        for w in (self.stateLabel, self.stepLabel, self.rateLabel, self.lossLabel, self.modeLabel):
            w.setFont(theme.font(12, bold=w in (self.stepLabel, self.lossLabel)))
            self.statusBar().addPermanentWidget(w)

    def _wire(self) -> None:
        self.scene.nodeSelected.connect(self.timeTravel.node_selected)
        self.scene.nodeSelected.connect(self.inspector.show_node)
        self.scene.nodeSelected.connect(self._node_selected)
        self.document.graphChanged.connect(self._graph_changed)
        self.document.optionsChanged.connect(self._session_changed)
        self.document.modifiedChanged.connect(self._update_title)
        self.document.sessionReplaced.connect(self._update_title)  # another preset, File > New
        self.controls.presetChosen.connect(self.files.load_preset)
        self.controls.startClicked.connect(self.toggle_start)
        self.controls.stepClicked.connect(lambda: self.timeTravel.show_step(None))  # a new step: the live nodes
        self.controls.stepClicked.connect(self.controller.step)
        self.controls.resetClicked.connect(self.reset)
        self.controls.cancelClicked.connect(self.controller.cancel)
        self.controls.restartClicked.connect(self.restart_engine)
        self.controls.historyBudgetChanged.connect(self.controller.set_history_budget)
        self.banner.waitClicked.connect(self.wait_for_engine)
        self.banner.restartClicked.connect(self.restart_engine)
        c = self.controller
        c.stateChanged.connect(self._state_changed)
        c.devicesChanged.connect(self.controls.set_devices)
        c.built.connect(self._on_built)
        c.ticked.connect(self._on_tick)
        c.nodesChanged.connect(self._on_nodes)
        c.ended.connect(self._on_ended)
        c.errorOccurred.connect(self.show_error)
        c.message.connect(self._status_message)
        self.files.watch()

    def _restore_layout(self, store: AppStore | None, restored_from_autosave: bool) -> None:
        """The size, the docks' layout and the theme a store remembers; then the first refresh."""
        self.resize(self.preferred_size())
        self._docks_sized = False
        if store is not None:
            geo, st = store.bytes_value("geometry"), store.bytes_value("windowState")
            if geo is not None:
                self.restoreGeometry(geo)
            if st is not None:  # a layout of an older arrangement of the docks is not restored
                self._docks_sized = self.restoreState(st, DOCK_LAYOUT_VERSION)
            if store.text("theme") == "dark":
                self.set_theme("dark")
            if restored_from_autosave:
                self.document.mark_unsaved()
                self._status_message(self.tr("Restored the session autosaved before GradViz last stopped"))
        self._update_problems()
        self._update_title()
        QTimer.singleShot(0, self.graphView.fit)
        self._session_changed(None)
        self.files.report_startup_problems()

    def preferred_size(self) -> QSize:
        """1600x1000, or the screen's available area where that is smaller."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        avail = screen.availableGeometry() if screen is not None else QRect(0, 0, 1600, 1000)
        return QSize(min(1600, avail.width()), min(1000, avail.height()))

    def fit_to_screen(self) -> None:
        """Never larger than the screen's available area (a projector at 1280x720 or 1024x768),
        window frame included, and placed inside it."""
        screen = self.screen()
        if screen is None:
            return
        avail = screen.availableGeometry()
        frame = self.frameGeometry().size() - self.geometry().size()  # the title bar and borders
        w = min(self.width(), avail.width() - frame.width())
        h = min(self.height(), avail.height() - frame.height())
        if (w, h) != (self.width(), self.height()):
            self.resize(w, h)
        g = self.frameGeometry()
        x = min(max(g.left(), avail.left()), avail.right() + 1 - g.width())
        y = min(max(g.top(), avail.top()), avail.bottom() + 1 - g.height())
        if (x, y) != (g.left(), g.top()):
            self.move(x, y)

    def moveEvent(self, event) -> None:
        super().moveEvent(event)
        # a window manager adds its frame after the window is shown: the frame's size is known
        # only now, and a window that fitted the screen without it reaches past its bottom edge
        frame = self.frameGeometry().size() - self.geometry().size()
        if frame != self._frame_fitted:
            self._frame_fitted = frame
            self.fit_to_screen()

    _frame_fitted = None  # the frame size the window last fitted the screen with
    _options_fitted = False  # the Training dock's minimum height set (at the first show)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        # a narrow window: the status bar's mode (also in the call and the Training dock) leaves
        # its room to the messages
        self.modeLabel.setVisible(self.width() >= 1200)

    def keyPressEvent(self, event) -> None:
        # Enter or Escape in a field (spin box, combo box, line edit: each passes them on once
        # its value is taken) hands the focus back to the graph, where Space, S and F act again
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape):
            self.graphView.setFocus(Qt.FocusReason.ShortcutFocusReason)
            event.accept()
            return
        super().keyPressEvent(event)

    def _focus_changed(self, old, new) -> None:
        # the focused control disabled (Start disables the options): Qt moves the focus on to the
        # next field, where Space would type; the graph takes it instead
        if new is None or old is None or new is self.graphView:
            return
        if not old.isEnabled() and old.window() is self and new.window() is self:
            self.graphView.setFocus(Qt.FocusReason.OtherFocusReason)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.fit_to_screen()
        if not self._options_fitted:  # the training options get the room they need, if the screen has it
            self._options_fitted = True
            screen = self.screen().availableGeometry().height() if self.screen() else 1000
            # a minimum, also under a restored layout: the options the lessons name stay in view,
            # as far as the screen has room for them (the window's minimum height within it)
            room = min(screen, self.height())
            self.controls.fit_options(0, self._controls_width(), most=MIN_OPTIONS_HEIGHT)
            frame = self.frameGeometry().height() - self.geometry().height()
            most = MIN_OPTIONS_HEIGHT + max(0, room - frame - self.minimumSizeHint().height())
            self.controls.fit_options(max(MIN_OPTIONS_HEIGHT, room - 560), self._controls_width(), most)
        if not self._docks_sized:
            self._docks_sized = True
            self.size_docks()

    def size_docks(self) -> None:
        """Dock sizes for this window size: a small window (a projector at 1280x720) keeps most
        of its room for the graph; presentation mode gives the plots more."""
        share = PRESENT_PLOTS_SHARE if self.presenting else 0.3  # the F5 plots' lines a usable height
        h = int(min(380 * self.presenter.look.scale, self.height() * share))
        bottom = [self.findChild(QDockWidget, n) for n in ("plotsDock", "experimentsDock")]  # tabbed: both
        self.resizeDocks(bottom, [h, h], Qt.Orientation.Vertical)
        self.resizeDocks(
            [self.findChild(QDockWidget, "controlsDock")], [self._controls_width()], Qt.Orientation.Horizontal
        )

    def _controls_width(self) -> int:
        """The Training dock's width for this window size (size_docks; fit_options lays its
        options out at it)."""
        return int(max(self.controls.preferred_width(), min(380, self.width() * 0.22)))

    # -- presentation mode and themes ------------------------------------------------------------
    @property
    def presenting(self) -> bool:
        return self.presenter.look.presenting

    def set_presentation(self, on: bool) -> None:
        """Presentation mode: every text at least 1.5x, thicker curves, more contrast, the
        editing docks and the node palette hidden, the graph refitted. Off puts back exactly
        what was there (the docks' layout, fonts, plots)."""
        look = self.presenter.look
        self.presenter.apply(theme.Look(scale=theme.PRESENTATION_SCALE if on else 1.0, dark=look.dark))
        if on:
            QTimer.singleShot(0, self.size_docks)  # once full screen, with the new fonts
        act = self.shortcuts.presentationAction
        if act.isChecked() != on:
            act.blockSignals(True)
            act.setChecked(on)
            act.blockSignals(False)

    def set_theme(self, name: str) -> None:
        """ "light" or "dark"; kept for the next launch."""
        dark = name == "dark"
        self.presenter.apply(theme.Look(scale=self.presenter.look.scale, dark=dark))
        (self.shortcuts.darkAction if dark else self.shortcuts.lightAction).setChecked(True)
        if self.store is not None:
            self.store.set_value("theme", "dark" if dark else "light")

    def _dock(self, title: str, widget: QWidget, area, name: str) -> QDockWidget:
        d = QDockWidget(title, self)
        d.setObjectName(name)
        d.setWidget(widget)
        self.addDockWidget(area, d)
        return d

    def _menus(self) -> None:
        m = self.menuBar().addMenu(self.tr("&File"))
        f = self.files
        for text, key, fn in (
            (self.tr("&New session"), QKeySequence.StandardKey.New, f.new_session),
            (self.tr("&Open session…"), QKeySequence.StandardKey.Open, f.open_dialog),
            (self.tr("&Save session"), QKeySequence.StandardKey.Save, f.save),
            (self.tr("Save session &as…"), QKeySequence.StandardKey.SaveAs, f.save_dialog),
            (self.tr("Save run with &history (JSON Lines)…"), None, f.export_dialog),
            (self.tr("Open run with h&istory…"), None, f.open_history_dialog),
            (self.tr("Export as &MindSpore script…"), None, f.export_mindspore_dialog),
            (self.tr("Export as &PyTorch script…"), None, f.export_pytorch_dialog),
        ):
            a = m.addAction(text)
            if key is not None:
                a.setShortcut(key)
            a.triggered.connect(fn)
            if fn == f.export_dialog:
                self.saveRunAction = a
                a.setObjectName("saveRunAction")
            elif fn == f.new_session:
                self.newAction = a
                a.setObjectName("newAction")
        self.recentMenu = m.addMenu(self.tr("Open &recent"))
        self.recentMenu.setObjectName("recentMenu")
        self.recentMenu.aboutToShow.connect(lambda: f.fill_recent_menu(self.recentMenu))
        # File > Export (Ctrl+E) and each plot's context menu
        self.exports = WindowExports(
            self,
            graph_view=self.graphView,
            plots=self.plots,
            controller=self.controller,
            time_travel=self.timeTravel,
            files=self.files,
            permissions=self.permissions,
            feedback=self.feedback,
            images=self.imagePanel,
            data=self.dataPanel,
        )
        m.insertMenu(self.recentMenu.menuAction(), self.exports.menu)
        m.addSeparator()
        q = m.addAction(self.tr("&Quit"))
        q.setShortcut(QKeySequence.StandardKey.Quit)
        q.triggered.connect(self.close)
        e = self.menuBar().addMenu(self.tr("&Edit"))
        stack = self.document.undo_stack
        self.undoAction = QAction(self.tr("&Undo"), self)
        self.undoAction.setShortcut(QKeySequence.StandardKey.Undo)
        self.undoAction.triggered.connect(self.document.undo)
        self.redoAction = QAction(self.tr("&Redo"), self)
        self.redoAction.setShortcut(QKeySequence.StandardKey.Redo)
        self.redoAction.triggered.connect(self.document.redo)
        stack.canUndoChanged.connect(self._update_undo_actions)
        stack.canRedoChanged.connect(self._update_undo_actions)
        self._update_undo_actions()
        e.addAction(self.undoAction)
        e.addAction(self.redoAction)
        dl = e.addAction(self.tr("&Delete selection"))
        dl.triggered.connect(self.scene.delete_selection)
        # File > Open Python code…, Edit > Paste code, a dropped .py file
        self.codeIn = CodeIn(
            self.document, self.files, self.feedback, self.forget_run, lambda: self.graphView.fit(), self
        )
        self.importCodeAction, self.pasteCodeAction = self.codeIn.add_actions(m, e, before=self.recentMenu.menuAction())
        v = self.menuBar().addMenu(self.tr("&View"))
        fit = v.addAction(self.tr("&Fit graph"))
        fit.triggered.connect(self.graphView.fit)
        self.fileMenu, self.editMenu, self.viewMenu, self.fitAction = m, e, v, fit
        for d in self.findChildren(QDockWidget):
            v.addAction(d.toggleViewAction())
        self._language_menu(v)

    def _language_menu(self, view: QMenu) -> None:
        """View > Language: follow the system, or a language (each named in itself); kept in the store."""
        menu = view.addMenu(self.tr("&Language"))
        menu.setObjectName("languageMenu")
        group = QActionGroup(self)
        chosen = self.store.text(language.SETTING) if self.store is not None else ""
        for code, name in [("", None), *language.LANGUAGES.items()]:
            a = menu.addAction(name or self.tr("Follow the system"))
            a.setObjectName(f"language_{code or 'system'}")
            a.setCheckable(True)
            a.setChecked(code == chosen)
            group.addAction(a)
            a.triggered.connect(lambda _=False, code=code: self.set_language(code))

    def set_language(self, preference: str) -> None:
        """Switch the language now ("" follows the system) and remember the choice."""
        if self.store is not None:
            self.store.set_value(language.SETTING, preference)
        language.set_language(language.resolve(preference))

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.LanguageChange:
            self._retranslate()

    def _retranslate(self) -> None:
        """Texts made with values, made again in the new language (language.py re-sets the others)."""
        self.statusBar().clearMessage()  # a passing message in the old language
        self._update_problems()
        self._update_buttons()
        self._update_status()
        self.scene.rebuild()
        self.timeTravel.retranslate()
        self.inspector.show_node(self.inspector.name)
        self.callView.lines = []  # made again, nothing highlighted
        self.callView.show_call(self.document.graph, self.document.options, bool(self.document.graph.validate()))

    # -- session ------------------------------------------------------------------------------
    def _build_palette(self) -> None:
        """Sources and Output as buttons; operations and losses in one menu each (op table roles)."""
        menus = {"op": (self.tr("Operation ▾"), QMenu(self)), "loss": (self.tr("Loss ▾"), QMenu(self))}
        for k in TABLE:
            label = self.tr(KIND_LABELS[k.name]) if k.name in KIND_LABELS else k.name
            act = QAction(label, self)
            act.setObjectName(f"add{k.name}")
            act.setToolTip(
                self.tr("Add a {kind} node: {description}").format(kind=label, description=tr_msg(k.description))
            )
            act.triggered.connect(lambda _=False, kind=k.name: self.add_node(kind))
            if k.role in menus:
                menus[k.role][1].addAction(act)
            else:
                self.palette.addAction(act)
        for role, (title, menu) in menus.items():
            button = QToolButton(self)
            button.setObjectName("addOperationMenu" if role == "op" else "addLossMenu")
            button.setText(title)
            button.setToolTip(self.tr("Add an operation node") if role == "op" else self.tr("Add a loss node"))
            button.setMenu(menu)
            button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
            self.palette.addWidget(button)

    def add_node(self, kind: str) -> str:
        view = self.graphView
        shown = view.shown_rect()
        spot = self.scene.free_spot(shown)
        name = self.document.add_node(kind, spot)
        if view.auto_fit and not shown.contains(QRectF(*spot, W_NEW, NEW_H)):  # no room was left in view:
            view.fit(room=W_NEW + 40)  # zoom out once, for this node and the next ones
        self.scene.clearSelection()
        item = self.scene.items_by_name.get(name)
        if item is not None:
            item.setSelected(True)
            if not view.auto_fit:  # zoomed by hand: the view goes to the node
                view.ensureVisible(item)
        return name

    def show_error(self, text: str, detail: str = "") -> None:
        """The banner, with a Details… button when there is a traceback behind the message."""
        text = tr_msg(text)
        self.banner.show_message(f"⚠ {text}", detail=detail)
        self.statusBar().showMessage(text.splitlines()[0] if text else "", 8000)

    def dismiss_error(self) -> None:
        self.banner.dismiss()

    def wait_for_engine(self) -> None:
        self.dismiss_error()
        self.controller.wait()

    def restart_engine(self) -> None:
        self.dismiss_error()
        self.controller.restart()

    @property
    def error_shown(self) -> bool:
        return self.banner.shown

    # -- reacting to edits --------------------------------------------------------------------------
    def _session_changed(self, name: str | None) -> None:
        self._update_problems()
        self._update_caption()
        self.callView.show_call(self.document.graph, self.document.options, bool(self.document.graph.validate()))
        if name in LIVE_OPTIONS:
            self.controller.set_live_option(name, getattr(self.document.options, name))
            self._update_buttons()
            return
        forgotten, self._run_forgotten = self._run_forgotten, False
        problems = self.document.session.problems()
        if problems:
            self._built_key = None
            if forgotten:  # a new session (File > New): nothing of the last run stays shown
                self.controller.drop_run()
            self._show_no_program(problems)
            self.shown.clear()
            self._update_buttons()
            return
        key = _structure_key(self.document.session)
        if key != self._built_key:
            self._built_key = key
            if self.controller.history is not None and self.controller.history.n:
                self.statusBar().showMessage(
                    self.tr("Changed: training restarts from step 0 with the new settings"), 5000
                )
            self.controller.load(self.document.session)
        self._update_buttons()

    def _show_no_program(self, problems: list[str]) -> None:
        """The program tab never shows the code of an earlier graph: it says why there is none."""
        lines = "\n".join(f"#   - {p}" for p in problems)
        self.codeView.setPlainText(
            self.tr(
                "# No MindSpore program: it cannot be generated while the graph has problems.\n"
                "# Fix them (they are listed under Problems) and the program appears here.\n"
                "#\n{problems}"
            ).format(problems=lines)
        )

    def _update_problems(self) -> None:
        self.problemsList.clear()
        for p in self.document.session.problems():
            self.problemsList.addItem(tr_msg(p))
        dock = self.findChild(QDockWidget, "problemsDock")
        if dock is not None:
            n = self.problemsList.count()
            dock.setWindowTitle(self.tr("Problems ({n})").format(n=n) if n else self.tr("Problems"))
            # shown when problems appear, unless a node is being edited (its tab stays in front)
            if n and not self._problem_count and not self.inspector.name:
                dock.raise_()
            self._problem_count = n
        self.problemsList.setToolTip(
            self.tr("Fix these to train") if self.problemsList.count() else self.tr("No problems")
        )

    _problem_count = 0
    _run_forgotten = False  # forget_run was called: the next session change is a new session

    def forget_run(self) -> None:
        """The next session change builds a new run even if it equals the one built (choosing the
        same preset again, opening the same file: a fresh start), or drops the run if the new
        session's graph has problems."""
        self._built_key = None
        self._run_forgotten = True

    def reset(self) -> None:
        self.dismiss_error()
        if not self.document.session.problems():
            self._built_key = _structure_key(self.document.session)
            self.controller.load(self.document.session)

    def toggle_start(self) -> None:
        if self.controller.run.offers_pause:
            self.controller.pause()
        else:
            self.controller.start()

    # -- controller events --------------------------------------------------------------------------
    def _on_built(self) -> None:
        c = self.controller
        self.plots.set_history(c.history)
        self.plots.set_data_set(c.session is not None and c.session.graph.dataset() is not None)
        self.plots.set_evals(c.evals)  # none for a new run; a saved run's own
        self.plots.refresh(force=True)
        self.codeView.setPlainText(c.info.program if c.info is not None else "")
        self.shown.clear()
        self._update_buttons()
        self._update_status()

    def _on_tick(self) -> None:
        self.plots.set_evals(self.controller.evals)  # redraws only when they changed
        self.plots.refresh()
        # not the caption: it is drawn over the graph, whose whole view would repaint 30 times a
        # second (the graph costs the training most of all); it follows the nodes instead
        self._update_status(caption=False)

    def _run_moved(self, *_args) -> None:
        """Tell model.shown the run's last step and whether it trains (see ShownNodes.named_step)."""
        c = self.controller
        self.shown.run_moved(c.step_count, c.state in (Phase.TRAINING, Phase.COMPILING))

    def named_step(self) -> int:
        """The step the status bar, the caption, the heat maps and the History label name."""
        return self.shown.named_step

    def _on_nodes(self, nodes) -> None:
        # shown unless the nodes show a past step (or are held until the history has their
        # step); the caption follows what they show
        self._run_moved()
        shown = self.shown.live_arrived(live_data(nodes))
        self._update_status(caption=not shown)

    def _paint_nodes(self, shown: ShownNodes) -> None:
        """The graph shows what model.shown says: new numbers on the nodes, and their step."""
        if shown.data is not self._painted:
            self._painted = shown.data
            d = shown.data
            if d is None:
                self.scene.set_node_data(None, None)
            else:
                self.scene.set_node_data(d.values, d.grads, d.parts, step=d.updates)
        self.graphView.set_shown_step(shown.updates)

    _painted: NodeData | None = None

    def _on_ended(self, reason: str, step: int) -> None:
        self.plots.refresh(force=True)  # a divergence's banner comes with its state (_state_changed)
        self.statusBar().showMessage(tr_msg(end_message(reason, step, self.document.options.steps)), 10000)
        self._update_status()

    def _state_changed(self, run: RunState) -> None:
        self.shown.stopped()  # after time travel's own listener: it may show the last step instead
        if run.phase in (Phase.PAUSED, Phase.FINISHED, Phase.DIVERGED):
            self.plots.refresh(force=True)  # everything, heat maps included, at the last step
        if run.phase == Phase.NOT_ANSWERING:
            self.banner.show_message(
                "⚠ " + self.tr(NOT_ANSWERING_TEXT).format(seconds=self.controller.silent_for), owner="watchdog"
            )
        elif run.notice:
            self.banner.show_message("⚠ " + tr_msg(run.notice), owner="run")
        elif self.banner.owner in ("watchdog", "run") and self.error_shown:
            self.dismiss_error()  # the engine answers again or was restarted; or the run it spoke of is gone
        self._update_buttons()
        self._update_status()

    def permissions(self):
        """What each control allows now (model/runstate.py); the window only displays it."""
        c, o, h = self.controller, self.document.options, self.controller.history
        problems = self.document.session.problems()
        return permissions(
            c.run,
            problem=problems[0] if problems else "",
            steps=c.step_count,
            max_steps=o.steps,
            until_loss=o.until_loss,
            last_loss=float(h.loss[-1]) if h is not None and h.n else float("nan"),
        )

    def _update_buttons(self) -> None:
        run, perms = self.controller.run, self.permissions()
        self.controls.show_run(run, perms)
        editable = perms.ok(Control.EDIT)
        self.inspector.set_locked(not editable)
        self.scene.locked = not editable
        self.document.locked = not editable
        self._update_undo_actions()
        self.palette.setEnabled(editable)
        self.palette.setToolTip("" if editable else tr_msg(perms.why(Control.EDIT)))
        self.saveRunAction.setEnabled(perms.ok(Control.SAVE_RUN))
        self.saveRunAction.setToolTip(
            tr_msg(perms.why(Control.SAVE_RUN)) or self.tr("Save the run with every step, as JSON Lines")
        )

    def _update_status(self, caption: bool = True) -> None:
        c = self.controller
        h = c.history
        step = self.named_step()
        self.stepLabel.setText(tr_msg(progress(step)))
        self.stepLabel.setToolTip(tr_msg(kept(c.updates)))
        rate = self.tr("{rate:,.0f} steps/s").format(rate=c.steps_per_second)
        self.rateLabel.setText(rate if c.state == Phase.TRAINING else "")
        i = h.index_at_or_before(step) if h is not None and step > 0 else None
        if i is not None:
            self.lossLabel.setText(tr_msg(loss_at(int(h.steps[i]), fmt_number(h.loss[i]))))
        else:
            self.lossLabel.setText(self.tr("loss —"))
        o = self.document.options
        mode = self.tr("Graph") if o.mode == "graph" else self.tr("PyNative")
        self.modeLabel.setText(f"{mode} · {c.engine_device or o.device}")
        self.stateLabel.setText(tr_msg(c.run.label))
        if caption:
            self._update_caption()

    def _update_undo_actions(self, *_args) -> None:
        stack, locked = self.document.undo_stack, self.document.locked
        self.undoAction.setEnabled(stack.canUndo() and not locked)
        self.redoAction.setEnabled(stack.canRedo() and not locked)
        self.undoAction.setToolTip(self.tr("Pause training to undo") if locked else stack.undoText())

    def _update_caption(self) -> None:
        """Say what the numbers on the nodes are, and what L means with the current options."""
        c, o, shown = self.controller, self.document.options, self.shown
        live = shown.updates if shown.data is not None else None
        first = tr_msg(shown.caption(bool(self.document.session.problems()), c.recorded, live, c.step_count))
        second = tr_msg(objective_caption(self.document.graph, o))
        self.graphView.set_caption(f"{first}\n{second}")

    def _node_selected(self, name: str) -> None:
        if name:
            dock = self.findChild(QDockWidget, "inspectorDock")
            dock.raise_()
            if name != self._node_shown:  # another node: its fields from the top
                dock.widget().verticalScrollBar().setValue(0)
        self._node_shown = name

    _node_shown = ""

    def _graph_changed(self) -> None:
        self._session_changed(None)

    def _status_message(self, text: str) -> None:
        self.statusBar().showMessage(tr_msg(text), 5000)

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

    def dragEnterEvent(self, event) -> None:
        if dropped_program(event.mimeData()) is not None:
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        path = dropped_program(event.mimeData())
        if path is not None:
            event.acceptProposedAction()
            QTimer.singleShot(0, lambda: self.codeIn.open_file(path))  # not inside the drag's own event

    def closeEvent(self, event) -> None:
        if not self._closing and not self.files.may_discard():
            event.ignore()
            return
        self._closing = True
        self.files.close()
        if self.presenting:  # the layout kept is the normal one
            self.set_presentation(False)
        self.presenter.apply(theme.Look())  # the look is the application's: back to normal
        if self.store is not None:
            self.store.set_value("geometry", self.saveGeometry())
            self.store.set_value("windowState", self.saveState(DOCK_LAYOUT_VERSION))
            self.store.sync()
        self.controller.shutdown()
        self.statusBar().clearMessage()  # stops the status bar's message timer
        super().closeEvent(event)

"""On a projector: the window fits 1920x1080, 1280x720 and 1024x768 screens (tests/screens.json,
three offscreen screens), nothing is cut off, the graph refits when its view is resized with its
numbers legible at 1280x720, presentation mode enlarges every text 1.5x and puts everything back
exactly, and the lecture's keys work wherever the focus is except in a text field."""

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtGui import QFont, QFontMetricsF, QGuiApplication, QKeySequence, QPen
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QDockWidget, QLabel, QTableWidget, QTabBar

import standin
from conftest import READY, wait_state
from gradviz.model.presets import load_preset
from gradviz.ui import graph_view, theme
from gradviz.ui.main_window import MainWindow
from gradviz.ui.persistence import AppStore

SIZES = ("1920x1080", "1280x720", "1024x768")
LEGIBLE_PX = 9.0  # a digit's height on screen: legible from the back of a classroom on a projector


def _screen(size: str):
    return next(s for s in QGuiApplication.screens() if s.name().endswith(size))


@pytest.fixture
def open_on(qtbot):
    """Opens a MainWindow on the screen of a size ("1280x720"), as a projector would show it."""
    windows = []

    def opener(size: str, session=None, ready: bool = False, store=None) -> MainWindow:
        s = _screen(size)
        w = MainWindow(session, store=store, make_client=standin.client)
        qtbot.addWidget(w)
        w.setScreen(s)
        w.move(s.availableGeometry().topLeft())
        with qtbot.waitExposed(w):
            w.show()
        windows.append(w)
        if ready:
            qtbot.waitUntil(lambda: w.controller.state == "ready", timeout=READY)
        qtbot.waitUntil(lambda: w.graphView.caption != "", timeout=5000)
        return w

    yield opener
    for w in windows:
        w.close()
        assert not w.controller.engine_running
    assert theme.Look() == theme.LOOK  # a closed window leaves the look as it found it


def _settle(qtbot, w) -> None:
    """Let deferred layout and refits run (zero-time timers, posted events)."""
    qtbot.wait(0)
    QGuiApplication.processEvents()
    qtbot.wait(0)


def _digit_px(w: MainWindow) -> float:
    """How tall a digit of the nodes' numbers is on screen, in pixels."""
    f = graph_view._font(graph_view.VALUE_PT, bold=True, mono=True)
    return QFontMetricsF(f).tightBoundingRect("0123456789").height() * w.graphView.zoom


def _graph_in_view(w: MainWindow) -> bool:
    v = w.graphView
    return v.mapToScene(v.viewport().rect()).boundingRect().contains(v.scene().itemsBoundingRect())


# -- window size -------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_the_window_fits_the_screen_in_both_modes(qtbot, open_on, size):
    w = open_on(size)
    avail = w.screen().availableGeometry()
    assert w.screen().name().endswith(size)
    assert avail.contains(w.frameGeometry()), (w.frameGeometry(), avail)
    # what the layouts need never makes the window grow past the screen, in either mode
    assert w.minimumSizeHint().width() <= avail.width() and w.minimumSizeHint().height() <= avail.height()
    normal = w.geometry()
    w.shortcuts.presentationAction.trigger()
    _settle(qtbot, w)
    assert w.presenting and w.isFullScreen()
    assert w.frameGeometry() == w.screen().geometry()  # presentation mode: the whole screen
    hint = w.minimumSizeHint()
    assert hint.width() <= w.screen().geometry().width() and hint.height() <= w.screen().geometry().height()
    w.shortcuts.presentationAction.trigger()
    _settle(qtbot, w)
    assert not w.presenting and not w.isFullScreen() and w.geometry() == normal


def test_a_window_restored_larger_than_the_screen_is_made_to_fit(qtbot, open_on, tmp_path):
    """A layout saved on a large monitor, opened on a 1280x720 projector."""
    store = AppStore(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat), tmp_path / "data")
    big = open_on("1920x1080", store=store)
    big.resize(1800, 1000)
    store.set_value("geometry", big.saveGeometry())
    w = MainWindow(store=store)
    qtbot.addWidget(w)
    s = _screen("1280x720")
    w.setScreen(s)
    w.move(s.availableGeometry().topLeft())
    with qtbot.waitExposed(w):
        w.show()
    try:
        assert s.availableGeometry().contains(w.frameGeometry()), w.frameGeometry()
    finally:
        w.close()


def test_a_frame_the_window_manager_adds_after_showing_still_fits(qtbot, open_on, monkeypatch):
    """Under a window manager the title bar arrives after the window is shown (openbox on a
    1280x720 Xvfb screen): the window then reached past the screen's bottom, its status bar cut off."""
    w = open_on("1280x720")
    avail = w.screen().availableGeometry()
    w.resize(avail.width(), avail.height())  # fitted before the frame was known
    bare = w.frameGeometry
    monkeypatch.setattr(w, "frameGeometry", lambda: bare().adjusted(-2, -40, 2, 2))  # a title bar, borders
    assert not avail.contains(w.frameGeometry())
    w.move(w.pos() + QPoint(1, 0))  # the window manager reparents the window: Qt sends a move
    _settle(qtbot, w)
    # the size with its frame fits (move() places the frame itself, which a stand-in frame cannot show)
    assert w.frameGeometry().size() == avail.size(), (w.frameGeometry(), avail)


# -- nothing cut off ---------------------------------------------------------------------------------
def _check_nothing_cut_off(w: MainWindow) -> None:
    """Every spin box and combo box at least as wide as its text and arrows; the options panel
    no wider than its dock; every plot's title (with its key) inside its plot."""
    c = w.controls
    for box in c.findChildren(QAbstractSpinBox) + c.findChildren(QComboBox):
        if box.isVisibleTo(w):
            assert box.width() >= box.minimumSizeHint().width(), box.objectName()
    if c.isVisibleTo(w):
        assert c.preferred_width() <= c.width() + 1 or c._scroll.horizontalScrollBar().maximum() == 0
        assert c._scroll.horizontalScrollBar().maximum() == 0  # nothing off to the side
    for p in (w.lossPlot, w.paramPlot, w.gradPlot):
        item = p.getPlotItem()
        title = item.titleLabel.item.boundingRect().width()
        assert title <= item.width(), p.objectName()
        assert item.legend is None  # the key is in the title row, over no line
    for bar in w.findChildren(QTabBar):  # the docks' tabs and the Experiments' tabs: no "N…"
        if bar.isVisibleTo(w):
            for i in range(bar.count()):
                text = bar.tabText(i).replace("&", "")
                assert bar.tabRect(i).width() >= bar.fontMetrics().horizontalAdvance(text), text
    heat = w.plots.heat
    for label in [w.plots.heat_caption] + [t[0] for t in w.plots.heat_titles]:
        margin = label.item.document().documentMargin()  # blank space around the text
        r = label.item.mapRectToScene(label.item.boundingRect().adjusted(margin, margin, -margin, -margin))
        assert heat.sceneRect().adjusted(-1, -1, 1, 1).contains(r), (label.text, r, heat.sceneRect())


@pytest.mark.parametrize("size", ("1280x720", "1024x768"))
def test_nothing_is_cut_off_on_a_small_screen(qtbot, open_on, size):
    w = open_on(size, ready=True)
    w.controller.step()
    qtbot.waitUntil(lambda: w.controller.step_count == 1, timeout=30_000)
    _settle(qtbot, w)
    _check_nothing_cut_off(w)
    w.set_presentation(True)
    _settle(qtbot, w)
    _check_nothing_cut_off(w)
    # the run buttons and the three options moved out of the hidden Training dock, in view
    for b in (w.controls.startButton, w.controls.stepButton, w.controls.resetButton, w.controls.auxOutputCheck):
        assert b.isVisible() and w.rect().contains(b.mapTo(w, b.rect().bottomRight())), b.objectName()
        assert b.width() >= b.minimumSizeHint().width()


def test_a_long_status_message_stops_short_of_the_permanent_labels(qtbot, open_on):
    """At 1024x768 a passing message longer than its room is cut with "…" a gap before the
    permanent labels (QStatusBar clipped it against "finished", mid-letter), and said whole in
    its tooltip and by currentMessage()."""
    from PySide6.QtCore import QEvent, QPoint
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QApplication, QToolTip

    from gradviz.ui.status_bar import GAP

    w = open_on("1024x768")
    bar = w.statusBar()
    message = "Finished at step 40: reached the maximum of 40 steps (40 updates kept). " * 3
    bar.showMessage(message)
    _settle(qtbot, w)
    labels = [lb for lb in (w.stateLabel, w.stepLabel, w.rateLabel, w.lossLabel, w.modeLabel) if lb.isVisible()]
    first = min(lb.x() for lb in labels)
    for lb in labels:  # the permanent labels whole, in the bar
        assert bar.rect().contains(lb.geometry()) and lb.width() >= lb.sizeHint().width(), lb.objectName()
    # no ink of the message in the gap before the first label
    image = bar.grab().toImage()
    background = image.pixelColor(2, bar.height() // 2)
    inked = [
        (x, y)
        for x in range(first - GAP + 2, first - 2)
        for y in range(bar.height())
        if image.pixelColor(x, y) != background
    ]
    assert not inked, inked[:5]
    shown = bar.shown_message()
    assert shown.endswith("…") and message.startswith(shown[:-1].rstrip())
    assert bar.fontMetrics().horizontalAdvance(shown) <= bar.message_rect().width()
    assert bar.message_rect().right() < first - GAP + 1
    assert bar.currentMessage() == message
    at = QPoint(20, bar.height() // 2)
    QApplication.sendEvent(bar, QHelpEvent(QEvent.Type.ToolTip, at, bar.mapToGlobal(at)))
    assert QToolTip.text() == message
    QToolTip.hideText()
    bar.clearMessage()


# -- the graph fits its view ------------------------------------------------------------------------
def test_the_graph_refits_when_the_window_is_resized(qtbot, open_on):
    w = open_on("1920x1080")
    _settle(qtbot, w)
    big = w.graphView.zoom
    assert _graph_in_view(w)
    w.resize(1000, 700)
    _settle(qtbot, w)
    assert w.graphView.zoom < big * 0.8 and _graph_in_view(w)
    w.resize(1600, 1000)
    _settle(qtbot, w)
    assert w.graphView.zoom == pytest.approx(big, rel=0.02) and _graph_in_view(w)
    # zoomed by hand: the view keeps the zoom; F fits again, and resizing refits again
    w.graphView.zoom_by(2.0)
    w.resize(1200, 800)
    _settle(qtbot, w)
    assert w.graphView.zoom == pytest.approx(2.0 * big, rel=0.02)
    w.shortcuts.fitAction.trigger()
    _settle(qtbot, w)  # (the scroll bars a zoomed view had go)
    assert _graph_in_view(w) and w.graphView.auto_fit


def test_the_graph_refits_when_z_is_returned_and_its_nodes_grow(qtbot, open_on):
    w = open_on("1280x720")
    _settle(qtbot, w)
    before = w.scene.itemsBoundingRect()
    w.document.set_option("aux_output", True)  # b, matmul and z show the parts of their gradient
    _settle(qtbot, w)
    assert w.scene.itemsBoundingRect().height() > before.height()
    assert _graph_in_view(w)
    rects = [i.sceneBoundingRect() for i in w.scene.items_by_name.values()]
    assert not any(a.intersects(b) for i, a in enumerate(rects) for b in rects[i + 1 :])  # no overlaps


@pytest.mark.parametrize(
    "preset, aux, px",
    [
        ("tutorial", False, LEGIBLE_PX),
        ("tutorial", True, 8.5),  # z returned: three nodes show the parts of their gradient
        ("linreg", False, LEGIBLE_PX),
        ("mlp", False, 6.5),  # eight layers in a row: the widest graph
    ],
)
def test_node_numbers_are_legible_at_1280x720(qtbot, open_on, preset, aux, px):
    session = load_preset(preset)
    session.options.aux_output = aux
    w = open_on("1280x720", session)
    _settle(qtbot, w)
    assert _graph_in_view(w)
    normal = _digit_px(w)
    assert normal >= px, (preset, aux, normal, w.graphView.zoom)
    w.set_presentation(True)
    _settle(qtbot, w)
    assert _graph_in_view(w)
    # presentation mode gives the graph the window's width: its numbers stay legible
    assert _digit_px(w) >= min(normal * 0.95, px), (_digit_px(w), normal)


def test_presentation_mode_enlarges_the_graph_on_a_large_screen(qtbot, open_on):
    w = open_on("1920x1080")
    _settle(qtbot, w)
    normal = _digit_px(w)
    w.set_presentation(True)
    _settle(qtbot, w)
    assert _digit_px(w) >= 1.4 * normal, (_digit_px(w), normal)


def test_compact_presets_have_no_overlapping_nodes(qapp):
    """The presets' layouts leave room for the widest and tallest state of every node."""
    from gradviz.ui.document import SessionDocument
    from gradviz.ui.graph_view import GraphScene

    for name in ("tutorial", "linreg", "linreg_seed", "mlp"):
        for aux in (False, True):
            s = load_preset(name)
            s.options.aux_output = aux and bool(s.graph.aux_outputs())
            scene = GraphScene(SessionDocument(s))
            rects = {n: i.sceneBoundingRect().adjusted(8, 0, -8, 0) for n, i in scene.items_by_name.items()}
            names = list(rects)
            for i, a in enumerate(names):
                for b in names[i + 1 :]:
                    assert not rects[a].intersects(rects[b]), (name, aux, a, b)


# -- presentation mode --------------------------------------------------------------------------------
def _fonts(w: MainWindow) -> dict:
    """Point sizes of a sample of every kind of text in the window."""
    c, p = w.controls, w.plots
    axis = w.lossPlot.getAxis("bottom")
    out = {
        "app": QGuiApplication.font().pointSizeF(),
        "start button": c.startButton.font().pointSizeF(),
        "option": c.auxOutputCheck.font().pointSizeF(),
        "combo": c.apiCombo.font().pointSizeF(),
        "call": w.callView.font().pointSizeF(),
        "banner": w.errorBanner.font().pointSizeF(),
        "status": w.stepLabel.font().pointSizeF(),
        "lessons": w.experiments.font().pointSizeF(),
        "inspector title": w.inspector.title.font().pointSizeF(),
        "menu": w.menuBar().font().pointSizeF(),
        "tick": axis.style["tickFont"].pointSizeF(),
        "axis label": float(axis.labelStyle["font-size"].rstrip("pt")) if "font-size" in axis.labelStyle else 11.0,
        "caption": theme.font(graph_view.CAPTION_PT).pointSizeF(),
        "title": float(w.lossPlot.getPlotItem().titleLabel.text.split("font-size:")[1].split("pt")[0]),
    }
    title = p.paramPlot.getPlotItem().titleLabel.text  # the title, then its key: a mark and a name per tensor
    out["key"] = float(title.split("font-size:")[-1].split("pt")[0])  # its last name, or its "+2"
    for label, _n, _g in p.heat_titles[:1]:
        out["heat title"] = float(str(label.opts["size"]).rstrip("pt"))
    out["heat state"] = float(str(p.heat_caption.opts["size"]).rstrip("pt"))
    for tab_label in w.experiments.findChildren(QLabel)[:3]:
        out[f"lesson {tab_label.objectName() or id(tab_label)}"] = tab_label.font().pointSizeF()
    return out


def _pens(w: MainWindow) -> list:
    return [QPen(w.plots.loss_curve.opts["pen"])] + [QPen(item.opts["pen"]) for item, _o, _s in w.plots.param_curves]


def test_presentation_mode_enlarges_every_text_and_puts_everything_back(qtbot, open_on):
    w = open_on("1280x720", ready=True)
    w.controller.step()
    qtbot.waitUntil(lambda: w.controller.step_count == 1, timeout=30_000)
    _settle(qtbot, w)
    act = w.shortcuts.presentationAction
    assert act.objectName() == "presentationAction" and act.isCheckable()
    assert act.shortcut() == QKeySequence("F5") and act in w.viewMenu.actions()
    fonts, pens = _fonts(w), _pens(w)
    state, geometry = w.saveState(), w.geometry()
    visible = {d.objectName(): d.isVisible() for d in w.findChildren(QDockWidget)}
    widths = [pen.widthF() for pen in pens]
    act.trigger()
    _settle(qtbot, w)
    assert act.isChecked() and w.presenting
    big = _fonts(w)
    for k, v in fonts.items():
        assert big[k] >= 1.5 * v - 1e-9, (k, v, big[k])
    assert all(p.widthF() >= max(1.5 * wd, 2.0) for p, wd in zip(_pens(w), widths))  # thicker curves
    for name in ("controlsDock", "inspectorDock", "problemsDock", "codeDock"):
        assert not w.findChild(QDockWidget, name).isVisible(), name
    assert not w.palette.isVisible() and not w.statusBar().isVisible()
    assert w.findChild(QDockWidget, "plotsDock").isVisible()
    act.trigger()
    _settle(qtbot, w)
    assert not act.isChecked() and not w.presenting
    assert _fonts(w) == fonts
    assert _pens(w) == pens
    assert {d.objectName(): d.isVisible() for d in w.findChildren(QDockWidget)} == visible
    qtbot.waitUntil(lambda: w.saveState() == state, timeout=3000)  # the dock layout, once laid out again
    assert w.geometry() == geometry
    assert w.palette.isVisible() and w.statusBar().isVisible()
    # the run buttons and options are back in the Training dock, in their places
    c = w.controls
    assert c.startButton.parentWidget() is c and c.auxOutputCheck.parentWidget() is c.stopGradientCheck.parentWidget()
    assert c.auxOutputCheck.parentWidget().layout().indexOf(c.auxOutputCheck) == 1  # after its heading


def test_presentation_mode_keeps_working_controls(qtbot, open_on):
    """The moved buttons and options still drive the run, and widgets made while presenting
    come out at the presentation size and go back to normal with the rest."""
    w = open_on("1280x720", ready=True)
    w.set_presentation(True)
    _settle(qtbot, w)
    w.controls.auxOutputCheck.click()
    assert w.document.options.aux_output and "return loss, z" in w.callView.text()
    wait_state(qtbot, w, "ready")
    qtbot.mouseClick(w.controls.stepButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: w.controller.step_count == 1, timeout=30_000)
    made = QLabel("made while presenting")
    made.setFont(theme.font(11))
    w.inspector.layout().addWidget(made)
    assert made.font().pointSizeF() == pytest.approx(16.5)
    w.set_presentation(False)
    assert made.font().pointSizeF() == pytest.approx(11.0)


def test_dark_theme_is_kept_for_the_next_launch(qtbot, open_on, tmp_path):
    store = AppStore(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat), tmp_path / "data")
    w = open_on("1920x1080", store=store)
    light_bg = w.scene.backgroundBrush().color().name()
    w.shortcuts.darkAction.trigger()
    assert theme.LOOK.dark and store.text("theme") == "dark"
    assert w.scene.backgroundBrush().color().name() == theme.SCENE_BG != light_bg
    assert w.lossPlot.backgroundBrush().color().name() == theme.PLOT_BG
    w.files.ask = lambda *a: None
    w.close()
    assert not theme.LOOK.dark  # closing leaves the application's look as it was
    w2 = open_on("1920x1080", store=AppStore(store.settings, store.folder))
    assert theme.LOOK.dark and w2.shortcuts.darkAction.isChecked()
    w2.shortcuts.lightAction.trigger()
    assert not theme.LOOK.dark and w2.scene.backgroundBrush().color().name() == light_bg


# -- keyboard -----------------------------------------------------------------------------------------
def _press(qtbot, widget, key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    widget.setFocus()
    qtbot.keyClick(widget, key, modifier)


def test_space_starts_and_pauses_wherever_the_focus_is(qtbot, win):
    win.activateWindow()
    qtbot.waitUntil(lambda: QGuiApplication.focusWindow() is not None, timeout=5000)
    win.controls.maxStepsSpin.setValue(100_000)
    win.controls.speedSpin.setValue(50.0)
    for target in (win.graphView, win.controls.auxOutputCheck, win.controls.stepButton, win.lossPlot):
        _press(qtbot, target, Qt.Key.Key_Space)
        wait_state(qtbot, win, "training")
        _press(qtbot, target, Qt.Key.Key_Space)
        wait_state(qtbot, win, "paused")
    assert not win.document.options.aux_output  # Space did not tick the focused check box


def test_step_reset_and_fit_keys(qtbot, win):
    win.activateWindow()
    _press(qtbot, win.graphView, Qt.Key.Key_S)
    qtbot.waitUntil(lambda: win.controller.step_count == 1, timeout=30_000)
    wait_state(qtbot, win, "paused")
    _press(qtbot, win.controls.auxOutputCheck, Qt.Key.Key_S)
    qtbot.waitUntil(lambda: win.controller.step_count == 2, timeout=30_000)
    wait_state(qtbot, win, "paused")
    win.graphView.zoom_by(3.0)
    _press(qtbot, win.lossPlot, Qt.Key.Key_F)
    _settle(qtbot, win)
    assert win.graphView.auto_fit and _graph_in_view(win)
    _press(qtbot, win.graphView, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: win.controller.step_count == 0 and win.controller.state == "ready", timeout=30_000)


def test_keys_type_in_text_fields(qtbot, win):
    win.activateWindow()
    win.scene.items_by_name["x"].setSelected(True)
    name = win.inspector.nameEdit
    c = win.controls
    with qtbot.assertNotEmitted(c.startClicked), qtbot.assertNotEmitted(c.stepClicked):
        name.clear()
        for key in (Qt.Key.Key_S, Qt.Key.Key_Space, Qt.Key.Key_F):
            _press(qtbot, name, key)
        assert name.text() == "s f"
        win.graphView.zoom_by(2.0)
        _press(qtbot, c.lrSpin, Qt.Key.Key_Space)  # editing a spin box
        _press(qtbot, win.codeView, Qt.Key.Key_Space)  # the program's text
        _press(qtbot, win.codeView, Qt.Key.Key_S)
        _press(qtbot, win.codeView, Qt.Key.Key_F)
    assert not win.graphView.auto_fit  # F in the name field and the program did not fit the graph
    # the same keys outside a text field do press the buttons (the check above could fail)
    with qtbot.waitSignal(c.stepClicked, timeout=1000):
        _press(qtbot, win.graphView, Qt.Key.Key_S)


def test_a_disabled_button_s_key_says_why(qtbot, win):
    win.activateWindow()
    win.document.set_option("steps", 1)
    _press(qtbot, win.graphView, Qt.Key.Key_S)
    wait_state(qtbot, win, "finished")
    assert not win.controls.stepButton.isEnabled()
    _press(qtbot, win.graphView, Qt.Key.Key_S)
    assert win.statusBar().currentMessage() == win.controls.stepButton.toolTip() != ""


def test_every_shortcut_is_in_the_menus_and_the_keyboard_dialog(qtbot, win):
    s = win.shortcuts
    expected = {
        "Space": s.startAction,
        "S": s.stepAction,
        "Ctrl+R": s.resetAction,
        "F": s.fitAction,
        "F5": s.presentationAction,
        "Ctrl+E": s.exportAction,
    }
    menus = [a for top in win.menuBar().actions() if top.menu() for a in top.menu().actions()]
    for key, action in expected.items():
        assert action.shortcut() == QKeySequence(key), key
        assert action in menus, key
    file_keys = {a.shortcut().toString() for a in win.fileMenu.actions()}
    assert {"Ctrl+O", "Ctrl+S", "Ctrl+E"} <= file_keys
    d = s.show_keys()
    table = d.findChild(QTableWidget, "keysTable")
    listed = {table.item(r, 0).text(): table.item(r, 1).text() for r in range(table.rowCount())}
    for key in ("Space", "S", "Ctrl+R", "F", "F5", "Ctrl+O", "Ctrl+S", "Ctrl+E", "Ctrl+Z"):
        assert QKeySequence(key).toString(QKeySequence.SequenceFormat.NativeText) in listed, key
    d.close()


def test_ctrl_e_opens_the_export_menu(qtbot, win):
    win.activateWindow()
    menu = win.shortcuts.exportMenu
    assert win.exports.jsonlAction in menu.actions() and len(menu.actions()) >= 3
    with qtbot.waitExposed(menu):
        _press(qtbot, win.graphView, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert menu.isVisible()
    menu.close()


def test_widget_fonts_scale_from_their_own_size():
    """A font set by pixels scales too; an unset one follows the application font."""
    from gradviz.ui.presentation import _scaled_font

    f = QFont("DejaVu Sans")
    f.setPixelSize(20)
    assert _scaled_font(f, 1.5).pixelSize() == 30
    f2 = QFont("DejaVu Sans")
    f2.setPointSizeF(11)
    assert _scaled_font(f2, 1.5).pointSizeF() == 16.5


def _wheel(widget, steps: int = 1) -> None:
    """A mouse-wheel turn over the middle of `widget`, as a real mouse sends it."""
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    centre = QPointF(widget.rect().center())
    event = QWheelEvent(
        centre,
        QPointF(widget.mapToGlobal(centre.toPoint())),
        QPoint(0, 0),
        QPoint(0, 120 * steps),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, event)


def test_the_wheel_changes_a_field_only_while_it_has_the_focus(qtbot, win):
    """Scrolling over the panels never changes the experiment: every spin box and combo box in
    the window takes the wheel only when focused (clicked or tabbed to)."""
    win.activateWindow()
    qtbot.waitUntil(lambda: QGuiApplication.focusWindow() is not None, timeout=5000)
    fields = win.findChildren(QAbstractSpinBox) + win.findChildren(QComboBox)
    assert len(fields) > 10
    win.graphView.setFocus()

    def values():
        return [f.text() if isinstance(f, QAbstractSpinBox) else f.currentIndex() for f in fields]

    before = values()
    for f in fields:
        assert f.focusPolicy() == Qt.FocusPolicy.StrongFocus, f.objectName()
        _wheel(f)
        _wheel(f, -1)
        _wheel(f, -1)
    assert values() == before
    assert win.document.options.seed == 42 and win.controls.lrSpin.value() == pytest.approx(0.01)
    # focused, the wheel does change it (so the turns above did reach the fields)
    seed = win.controls.seedSpin
    seed.setFocus()
    qtbot.waitUntil(seed.hasFocus, timeout=5000)
    _wheel(seed)
    assert win.document.options.seed == 43


def test_enter_or_escape_in_a_field_hands_the_focus_back_to_the_graph(qtbot, win):
    """After typing a learning rate, Enter (or Escape) leaves the field: Space then starts."""
    win.activateWindow()
    qtbot.waitUntil(lambda: QGuiApplication.focusWindow() is not None, timeout=5000)
    c = win.controls
    for field, key in ((c.lrSpin, Qt.Key.Key_Return), (c.seedSpin, Qt.Key.Key_Escape), (c.modeCombo, Qt.Key.Key_Enter)):
        field.setFocus()
        qtbot.waitUntil(field.hasFocus, timeout=5000)
        qtbot.keyClick(field, key)
        assert win.graphView.hasFocus(), field.objectName()
    c.lrSpin.setFocus()
    c.lrSpin.selectAll()
    qtbot.keyClicks(c.lrSpin, "0.05")
    qtbot.keyClick(c.lrSpin, Qt.Key.Key_Return)
    assert win.document.options.lr == pytest.approx(0.05)
    with qtbot.waitSignal(c.startClicked, timeout=1000):
        qtbot.keyClick(QGuiApplication.focusObject(), Qt.Key.Key_Space)


def test_space_pauses_after_start_disabled_the_focused_option(qtbot, win):
    """Start disables the options: Qt moved the focus from the disabled one on to the learning
    rate, where the next Space typed instead of pausing. The graph takes the focus."""
    win.activateWindow()
    qtbot.waitUntil(lambda: QGuiApplication.focusWindow() is not None, timeout=5000)
    c = win.controls
    c.maxStepsSpin.setValue(100_000)
    c.speedSpin.setValue(50.0)
    c.presetCombo.setFocus()
    qtbot.waitUntil(c.presetCombo.hasFocus, timeout=5000)
    qtbot.keyClick(c.presetCombo, Qt.Key.Key_Space)
    wait_state(qtbot, win, "training")
    assert not c.presetCombo.isEnabled() and win.graphView.hasFocus()
    qtbot.keyClick(QGuiApplication.focusObject(), Qt.Key.Key_Space)
    wait_state(qtbot, win, "paused")
    assert c.lrSpin.value() == pytest.approx(0.01)


def test_a_combo_box_too_narrow_for_its_text_cuts_it_with_an_ellipsis(qtbot):
    """At 1024x768 the API box read "mindspore.grac" (clipped mid-letter): a narrow box draws
    its text cut with "…", exactly as a box whose text is the cut one; a wide box draws it whole."""
    from gradviz.ui.fields import ComboBox

    box = ComboBox()
    qtbot.addWidget(box)
    box.addItem("mindspore.value_and_grad")
    box.show()
    for width, cut in ((130, True), (400, False)):
        box.resize(width, box.sizeHint().height())
        drawn = box.shown_text()
        assert drawn.endswith("…") == cut and box.fontMetrics().horizontalAdvance(drawn) <= width, drawn
        picture = box.grab().toImage()
        box.setItemText(0, drawn)  # what the box should look like
        assert box.grab().toImage() == picture, (width, drawn)
        box.setItemText(0, "mindspore.value_and_grad")
    # wide enough, it looks exactly as Qt's own box: with an item chosen, and with none (the
    # placeholder, muted, as the preset box shows after File > New)
    plain = QComboBox()
    qtbot.addWidget(plain)
    plain.addItem("mindspore.value_and_grad")
    plain.show()
    for b in (box, plain):
        b.setPlaceholderText("—")
        b.resize(400, box.sizeHint().height())
    for index in (0, -1):
        box.setCurrentIndex(index)
        plain.setCurrentIndex(index)
        assert box.grab().toImage() == plain.grab().toImage(), index
    assert box.shown_text() == "—"

"""Readable from the back row: the graph view settles at every size (a fitted view never shows
scroll bars that would resize it and refit it again), and presentation mode gives the nodes'
numbers, the selected node's spotlight card, the caption and the Lesson panel the room they need."""

import pytest
from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDockWidget, QLabel

from conftest import wait_state
from gradviz.model.presets import load_preset
from gradviz.ui import language, theme
from gradviz.ui.document import SessionDocument
from gradviz.ui.graph_view import GraphScene, GraphView
from test_presentation import _graph_in_view, _settle, open_on  # noqa: F401 (a fixture)


def _digits_px(font) -> float:
    """How tall a font's digits are, in px at zoom 1."""
    from PySide6.QtGui import QFontMetricsF

    return QFontMetricsF(font).tightBoundingRect("0123456789").height()


LONG_CAPTION = (
    "Nodes: step 21 (parameters after 20 updates), what the next step computes (the plots end at step 20)\n"
    "L = loss + sum(z): z is returned and differentiated too"
)


class _Resizes(QObject):
    """Counts a viewport's resize events; past `limit` in a row it stops the view refitting, so
    that a resize that never settles fails the test instead of hanging it."""

    def __init__(self, view: GraphView, limit: int = 50):
        super().__init__(view)
        self.view, self.limit, self.count = view, limit, 0
        view.viewport().installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.count += 1
            if self.count > self.limit:
                self.view.auto_fit = False
        return False


@pytest.fixture
def both_languages(qapp):
    yield ("en", "zh_CN")
    language.set_language("en")


def test_every_resize_of_the_graph_view_settles(qtbot, both_languages):
    """Widths from 300 to 1300 px at a short and a taller height, with z returned or not, in
    both languages: one resize is one resize of the viewport, no scroll bar, the whole graph in view."""
    for lang in both_languages:
        language.set_language(lang)
        for aux in (False, True):
            s = load_preset("tutorial")
            s.options.aux_output = aux
            doc = SessionDocument(s)
            scene = GraphScene(doc)  # the view does not own its scene: kept here
            view = GraphView(scene)
            qtbot.addWidget(view)
            view.set_caption(LONG_CAPTION)
            view.resize(600, 300)
            with qtbot.waitExposed(view):
                view.show()
            resizes = _Resizes(view)
            unsettled = []
            for height in (200, 260):
                for width in range(300, 1301, 9):
                    resizes.count = 0
                    view.auto_fit = True
                    view.resize(width, height)
                    QGuiApplication.processEvents()
                    if (
                        resizes.count > 1
                        or view.horizontalScrollBar().isVisible()
                        or view.verticalScrollBar().isVisible()
                    ):
                        unsettled.append((width, height, resizes.count))
            assert not unsettled, (lang, aux, unsettled[:10])
            shown = view.mapToScene(view.viewport().rect()).boundingRect()
            assert shown.contains(scene.itemsBoundingRect())
            view.close()


def test_a_chinese_caption_s_box_holds_its_whole_line(qtbot, both_languages):
    """The caption's box is as tall as its line is laid out: in Chinese the line takes the
    fallback font's taller height, and at the Latin font's height the underscores fell outside
    the box and were cut ("has aux=True")."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QFontMetricsF

    from gradviz.ui import graph_view, theme

    language.set_language("zh_CN")  # the bundled Chinese font, the Latin fonts' fallback
    scene = GraphScene(SessionDocument(load_preset("tutorial")))
    view = GraphView(scene)
    qtbot.addWidget(view)
    view.resize(900, 400)
    view.set_caption("节点：第 1 步\nL = loss：z 作为辅助数据返回（has_aux=True）")
    box, flags = view._caption_box()
    fm = QFontMetricsF(theme.font(graph_view.CAPTION_PT))
    line = fm.boundingRect(QRectF(0, 0, 1e5, 1e5), flags, view.shown_caption())
    assert line.height() > fm.height() + 1  # the Chinese line is taller than the Latin font's
    assert box.height() - 10 >= line.height() - 0.5, (box, line)  # 5 px above and below the text


# -- presentation mode at 1024x768 --------------------------------------------------------------------
@pytest.fixture
def presenting(qtbot, open_on):  # noqa: F811
    """A window on the 1024x768 projector, z returned, one step trained, in presentation mode."""
    return present_after_a_step(qtbot, open_on("1024x768", ready=True), aux=True)


def present_after_a_step(qtbot, w, aux: bool = False):
    """`w` (z returned with `aux`) after one step trained, in presentation mode."""
    if aux:
        w.document.set_option("aux_output", True)
        wait_state(qtbot, w, "ready")
    w.controller.step()
    qtbot.waitUntil(lambda: w.controller.step_count == 1 and w.controller.nodes is not None, timeout=30_000)
    w.set_presentation(True)
    _settle(qtbot, w)
    return w


def test_the_caption_is_one_line_and_says_the_rest_on_hover(qtbot, presenting):
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QFontMetricsF, QHelpEvent
    from PySide6.QtWidgets import QApplication, QToolTip

    from gradviz.ui import graph_view, theme

    v = presenting.graphView
    assert "\n" in v.caption and "sum(z)" in v.caption  # two parts: the step, and what L is
    shown = v.shown_caption()
    fm = QFontMetricsF(theme.font(graph_view.CAPTION_PT))
    assert "\n" not in shown and shown.endswith(v.caption.split("\n")[-1])  # what L is, whole
    box = v._caption_box()[0]
    assert box.height() < 1.5 * fm.height() and box.right() <= v.viewport().width()
    at = QPoint(20, int(box.center().y()))
    QApplication.sendEvent(v.viewport(), QHelpEvent(QEvent.Type.ToolTip, at, v.viewport().mapToGlobal(at)))
    assert QToolTip.text() == v.caption
    QToolTip.hideText()


def test_the_lesson_panel_stays_in_presentation_mode(qtbot, presenting):
    """As the teacher's guide says: a tab beside the plots, where the graph keeps the window's
    width; back under the training options after F5."""
    w = presenting
    dock = w.findChild(QDockWidget, "lessonDock")
    assert not dock.isHidden() and w.dockWidgetArea(dock) == Qt.DockWidgetArea.BottomDockWidgetArea
    assert dock in w.tabifiedDockWidgets(w.findChild(QDockWidget, "plotsDock"))
    dock.raise_()
    _settle(qtbot, w)
    assert dock.isVisible() and w.lesson.isVisible() and w.rect().contains(dock.geometry())
    assert dock.titleBarWidget() is not None  # its tab is its title, as for the plots
    w.set_presentation(False)
    _settle(qtbot, w)
    assert w.dockWidgetArea(dock) == Qt.DockWidgetArea.LeftDockWidgetArea and not dock.isHidden()
    assert dock.titleBarWidget() is not None  # beside Node and Problems its tab is its title too


def test_every_node_number_is_24_px_tall_in_presentation_mode(qtbot, presenting):
    """At 1024x768 with z returned: each node's value and gradient (an Output's: what flows back
    in) is drawn with digits at least 24 px tall on screen, as much of it as fits the node."""
    from PySide6.QtGui import QFontMetricsF

    from gradviz.ui import graph_view

    w = presenting
    zoom = w.graphView.zoom
    assert _graph_in_view(w)
    for name, item in w.scene.items_by_name.items():
        font = item.number_font()
        assert _digits_px(font) * zoom >= 24.0, (name, _digits_px(font) * zoom)
        lines = item.compact_lines()
        band = (item.height() - graph_view.HEADER - graph_view.BOTTOM) / len(lines)
        assert _digits_px(font) <= band, name  # the lines do not run into each other
        for what, v in lines:
            assert v is not None, (name, what)
            text = item.compact_text(v)
            assert text and QFontMetricsF(font).horizontalAdvance(text) <= item.width - 2 * graph_view.PAD, text
            assert "e…" not in text and "e-…" not in text, text  # an exponent is never cut off
    b = w.scene.items_by_name["b"]
    text = b.compact_text(b.grad)  # its first element, then "…"
    assert text.startswith((f"[{b.grad[0]:.3f}", f"[{b.grad[0]:.2f}")) and text.endswith("…]"), text
    w.set_presentation(False)
    _settle(qtbot, w)
    b = w.scene.items_by_name["b"]  # normal mode at 1024x768: still compact, at a readable size
    assert b.compact() and 11.0 <= _digits_px(b.number_font()) * w.graphView.zoom < 24.0


def test_the_selected_node_is_shown_large_in_a_spotlight_card(qtbot, presenting):
    """At 1024x768 with z returned: select b and the card shows its value, ∂L/∂b and its two
    parts (from out_loss, and the 1s from out_z that sum(z) adds), in 28 px digits, inside the view."""
    import numpy as np
    from PySide6.QtWidgets import QFrame

    w = presenting
    card = w.graphView.findChild(QFrame, "spotlightCard")
    assert card is not None and not card.isVisible()  # nothing selected
    b = w.scene.items_by_name["b"]
    b.setSelected(True)
    _settle(qtbot, w)
    assert card.isVisible() and card.node_name == "b"
    rows = card.rows()
    assert [label for label, _ in rows] == ["value", "∂L/∂b", "= out_loss", "+ out_z"]

    def numbers(text):
        return np.array([float(t) for t in text.strip("[]").split(",")], np.float64)

    value, grad, from_loss, from_z = (numbers(t) for _, t in rows)
    np.testing.assert_allclose(value, np.asarray(b.value, np.float64), atol=5e-4)
    np.testing.assert_allclose(from_z, np.ones(3))  # ∂ sum(z) / ∂b
    np.testing.assert_allclose(grad, from_loss + from_z, atol=2e-3)  # ∂L/∂b is the sum of its parts
    vp = w.graphView.viewport()
    assert vp.rect().contains(vp.mapFromGlobal(card.mapToGlobal(card.rect().topLeft())))
    assert vp.rect().contains(vp.mapFromGlobal(card.mapToGlobal(card.rect().bottomRight())))
    for number in card.number_labels():
        assert _digits_px(number.font()) >= 28.0, (number.text(), _digits_px(number.font()))
        assert number.width() >= number.sizeHint().width(), number.text()  # not cut
    # the node it shows stays in view: the card is in the other half
    at = w.graphView.mapFromScene(b.sceneBoundingRect().center())
    assert not card.geometry().contains(at)
    b.setSelected(False)
    _settle(qtbot, w)
    assert not card.isVisible()
    b.setSelected(True)
    w.set_presentation(False)
    _settle(qtbot, w)
    assert w.scene.items_by_name["b"].isSelected()
    # normal mode at 1024x768: the nodes are still compact, and the card's numbers smaller
    assert card.isVisible() and all(_digits_px(n.font()) < 28.0 for n in card.number_labels())


def test_a_spotlight_row_label_never_cuts_a_name(qtbot, open_on):  # noqa: F811
    """With the Cell API, x's gradient row says it was not requested by
    weights=network.trainable_params(): the label wraps between whole names and shows every
    piece whole, out of presentation mode and in it."""
    from PySide6.QtGui import QFontMetrics
    from PySide6.QtWidgets import QFrame

    w = open_on("1024x768", ready=True)
    w.document.set_option("api", "cell")
    wait_state(qtbot, w, "ready")
    w.controller.step()
    qtbot.waitUntil(lambda: w.controller.step_count == 1 and w.controller.nodes is not None, timeout=30_000)
    card = w.graphView.findChild(QFrame, "spotlightCard")
    w.scene.items_by_name["x"].setSelected(True)
    for presenting in (False, True):
        w.set_presentation(presenting)
        _settle(qtbot, w)
        assert card.isVisible() and card.node_name == "x", presenting
        label = card.findChild(QLabel, "spotlightLabel1")
        shown = label.text().replace("\u200b", " ")
        assert shown.endswith("= network.trainable_params()") and label.wordWrap()
        fm = QFontMetrics(label.font())
        assert all(fm.horizontalAdvance(piece) <= label.contentsRect().width() for piece in shown.split()), presenting


def _value_px(w) -> dict:
    """{node: how tall a digit of its value text is on screen}: the font the node draws its
    numbers in, times the view's zoom (a matrix's full drawing writes its max and min smaller)."""
    from gradviz.ui import graph_view

    zoom = w.graphView.zoom
    out = {}
    for name, item in w.scene.items_by_name.items():
        if item.shape_ is None and item.node.kind != "Output":
            continue  # a Dataset node: no numbers of its own
        font = item.number_font()
        if not item.compact() and item._matrix():
            font = graph_view._font(graph_view.NOTE_PT + 1, mono=True, bold=True)
        out[name] = _digits_px(font) * zoom
    return out


@pytest.mark.parametrize("preset", ["tutorial", "mlp", "moons", "digits"])
def test_node_values_are_11_px_tall_at_1024x768(qtbot, open_on, preset):  # noqa: F811
    """Level of detail: at 1024x768 in normal mode the view's zoom would draw the full nodes'
    numbers 4-7 px tall; the nodes show their name, value and gradient large instead, each
    value's digits at least 11 px on screen, and the selected node's card shows the rest."""
    from PySide6.QtWidgets import QFrame

    w = open_on("1024x768", load_preset(preset))
    _settle(qtbot, w)
    assert _graph_in_view(w)
    px = _value_px(w)
    small = {n: round(v, 1) for n, v in px.items() if v < 11.0}
    assert not small, (preset, w.graphView.zoom, small)
    for item in w.scene.items_by_name.values():  # the lines still fit their node
        band = (item.height() - 38) / len(item.compact_lines())
        assert _digits_px(item.number_font()) <= band, item.name
    for item in w.scene.items_by_name.values():  # an Output's role: larger than its info line
        if item.node.kind == "Output":
            from gradviz.ui import graph_view

            role_px = _digits_px(graph_view._font(item.role_pt(), bold=True)) * w.graphView.zoom
            assert role_px >= 1.3 * _digits_px(graph_view._font(graph_view.INFO_PT)) * w.graphView.zoom
    card = w.graphView.findChild(QFrame, "spotlightCard")
    item = next(iter(w.scene.items_by_name.values()))
    item.setSelected(True)
    _settle(qtbot, w)
    assert card.isVisible() and card.node_name == item.name
    item.setSelected(False)
    _settle(qtbot, w)
    assert not card.isVisible()


def test_the_tutorial_s_values_are_24_px_tall_in_presentation_mode_at_1024x768(qtbot, open_on):  # noqa: F811
    w = open_on("1024x768", load_preset("tutorial"))
    w.set_presentation(True)
    _settle(qtbot, w)
    assert _graph_in_view(w)
    small = {n: round(v, 1) for n, v in _value_px(w).items() if v < 24.0}
    assert not small, (w.graphView.zoom, small)


def test_a_large_view_draws_the_full_nodes(qtbot, open_on):  # noqa: F811
    """At 1920x1080 the tutorial's full nodes (heat maps, labels) are large enough: not compact."""
    w = open_on("1920x1080", load_preset("tutorial"))
    _settle(qtbot, w)
    assert not any(i.compact() for i in w.scene.items_by_name.values()), w.graphView.zoom


@pytest.mark.parametrize("size", ["1280x720", "1024x768"])
def test_the_plots_keys_stay_in_their_plots_and_every_plot_is_in_view(qtbot, open_on, size):  # noqa: F811
    """digits: six parameter tensors. Each plot's key takes at most one line (the entries that do
    not fit are "+n", the plot's tooltip names them all), its title row leaves the lines most of
    the plot's height, and every plot (the accuracy plot too) lies inside the window."""
    from PySide6.QtCore import QPoint, QRect

    w = open_on(size, load_preset("digits"), ready=True)
    w.controller.step()
    qtbot.waitUntil(lambda: w.controller.step_count == 1 and w.controller.nodes is not None, timeout=30_000)
    w.plots.refresh(force=True)
    # an evaluation's note under the accuracy plot's title: cut to one line, the plot in view
    ev = {"type": "eval", "epoch": 4, "step": 1, "test_loss": 0.3123, "accuracy": 0.9}
    w.plots.set_evals(({**ev, "train_loss": 0.3, "train_accuracy": 0.912},))
    _settle(qtbot, w)
    p = w.plots
    assert p.accuracyPlot.isVisible()
    assert "epoch&nbsp;4" in p.accuracyPlot.getPlotItem().titleLabel.text
    assert "test loss 0.3123" in p.accuracyPlot.toolTip()  # what the cut note leaves out
    for plot in (p.lossPlot, p.paramPlot, p.gradPlot, p.accuracyPlot):
        at = plot.mapTo(w, QPoint(0, 0))
        assert w.rect().contains(QRect(at, plot.size())), (plot.objectName(), at, plot.size(), w.size())
        item = plot.getPlotItem()
        title_h = item.titleLabel.mapRectToScene(item.titleLabel.boundingRect()).height()
        vb = item.vb.mapRectToScene(item.vb.boundingRect())
        assert title_h <= 0.4 * plot.height(), (plot.objectName(), title_h, plot.height())
        assert vb.height() >= 0.4 * plot.height(), (plot.objectName(), vb.height(), plot.height())
    for plot in (p.paramPlot, p.gradPlot):
        shown, _own_line, _note, first = plot.gv_fit
        assert shown >= 1, plot.objectName()  # a normal plot's key names one entry at least
        names = [n for n, _c, _d in plot.gv_key]
        text = plot.getPlotItem().titleLabel.text
        if first:  # the one name shown, cut to fit
            assert shown == 1 and names[0].startswith(first.rstrip("…")) and first in text
        else:
            assert all(n in text for n in names[:shown])
        assert not any(f">{n}<" in text for n in names[shown:])
        if shown < len(names):
            assert f"+{len(names) - shown}" in text
        for n in names:
            if n != "‖grad‖":
                assert n in plot.toolTip()


@pytest.mark.parametrize("size", ["1280x720", "1024x768"])
@pytest.mark.parametrize("presenting", [False, True], ids=["window", "presenting"])
def test_the_plots_row_folds_what_does_not_fit_and_cuts_no_title(qtbot, open_on, size, presenting):  # noqa: F811
    """moons after an evaluation: five panels (loss, parameters, gradients, heat maps, accuracy).
    Every panel shown lies inside the window with its title on one line (no "Param/eters"); a
    panel the row has no room for is folded, named on the row's "more" button (at the desk, not
    while presenting), and choosing it there shows it (another one folds in its place). The loss
    and accuracy plots are always shown."""
    from PySide6.QtCore import QPoint, QRect

    from gradviz.ui import plots as plots_mod

    w = open_on(size, load_preset("moons"), ready=True)
    if presenting:
        w.set_presentation(True)
    w.controller.step()
    qtbot.waitUntil(lambda: w.controller.step_count == 1 and w.controller.nodes is not None, timeout=30_000)
    ev = {"type": "eval", "epoch": 20, "step": 1, "test_loss": 0.0123, "accuracy": 1.0}
    w.plots.set_evals(({**ev, "train_loss": 0.01, "train_accuracy": 0.997},))
    w.plots.refresh(force=True)
    _settle(qtbot, w)
    p = w.plots
    panels = {"lossPlot": p.lossPlot, "paramPlot": p.paramPlot, "gradPlot": p.gradPlot, "heatMaps": p.heatPanel}
    panels["accuracyPlot"] = p.accuracyPlot

    def check() -> set:
        shown = {n for n, x in panels.items() if x.isVisible()}
        assert {"lossPlot", "accuracyPlot"} <= shown, shown
        for name in shown:
            x = panels[name]
            at = x.mapTo(w, QPoint(0, 0))
            assert w.rect().contains(QRect(at, x.size())), (name, at, x.size(), w.size())
            if name != "heatMaps":  # the bold title on one line, in the room beside its y axis
                assert plots_mod._html_width(x, plots_mod._head_html(x)) <= plots_mod._fit_room(x), name
        folded = set(panels) - shown
        button = p.foldedPlotsButton
        assert button.isVisible() == (bool(folded) and not presenting)  # for the desk, as the plots' options
        assert {a.data() for a in button.menu().actions()} == folded
        return folded

    folded = check()
    if size == "1024x768":
        assert folded, "five panels do not fit a 1024-pixel window"
    for name in sorted(folded):
        action = next(a for a in p.foldedPlotsButton.menu().actions() if a.data() == name)
        action.trigger()
        _settle(qtbot, w)
        assert panels[name].isVisible(), name
        assert name not in check()


@pytest.mark.parametrize("switch", [False, True], ids=["started-in-chinese", "switched"])
def test_a_plot_s_key_is_drawn_inside_its_title_in_chinese_at_1024x768(qtbot, open_on, switch):  # noqa: F811
    """The tutorial's plots in Chinese, the language chosen before the window opened or switched
    while it is open: each title row (title and key) is drawn no wider than the room over the
    plot's lines (a fixed allowance for the y axis, narrower than the real one, let "参数 ━ w ━ b"
    run past the edge: b's name was cut off)."""
    if not switch:
        language.set_language("zh_CN")
    try:
        w = open_on("1024x768", load_preset("tutorial"), ready=True)
        if switch:
            language.set_language("zh_CN")
        _settle(qtbot, w)
        for plot in (w.plots.lossPlot, w.plots.paramPlot, w.plots.gradPlot):
            item = plot.getPlotItem()
            label, vb = item.titleLabel, item.vb
            assert label.item.boundingRect().width() <= vb.width() + 1, (plot.objectName(), label.text)
            # the plot item no wider than its widget: a title wider than the room widened it past
            # the widget's edge, where its right end was cut off
            assert item.width() <= plot.viewport().width() + 1, (
                plot.objectName(),
                item.width(),
                plot.width(),
                plot.gv_fit,
                label.text,
            )
            assert vb.width() >= 100, plot.objectName()  # no plot squeezed for another's key
    finally:
        language.set_language("en")


def _tick_label_rects(plot, side: str = "left"):
    """An axis's tick labels as pyqtgraph draws them (AxisItem.paint: a QPicture painter with
    the tick font): their rectangles, in px."""
    from PySide6.QtGui import QPainter, QPicture

    axis = plot.getPlotItem().getAxis(side)
    picture = QPicture()
    p = QPainter(picture)
    try:
        if axis.style["tickFont"]:
            p.setFont(axis.style["tickFont"])
        specs = axis.generateDrawSpecs(p)
    finally:
        p.end()
    return [(rect, text) for rect, _flags, text in specs[2]] if specs else []


@pytest.mark.parametrize("size", ["1280x720", "1024x768"])
def test_presentation_mode_s_plots_have_room_and_their_tick_labels_do_not_overlap(qtbot, open_on, size):  # noqa: F811
    """F5 on a projector: each plot's lines get a usable height, and no two y tick labels overlap
    (the short Gradients plot wrote "0.6", "0.4" and "0.2" over each other)."""
    w = open_on(size, ready=True)
    for k in (1, 2, 3):
        wait_state(qtbot, w, "ready", "paused")
        w.controller.step()
        qtbot.waitUntil(lambda k=k: w.controller.step_count == k and w.controller.nodes is not None, timeout=30_000)
    w.set_presentation(True)
    _settle(qtbot, w)
    w.plots.refresh(force=True)
    _settle(qtbot, w)
    for plot in (w.plots.lossPlot, w.plots.paramPlot, w.plots.gradPlot):
        vb = plot.getPlotItem().vb
        assert vb.height() >= 80, (plot.objectName(), vb.height(), plot.height())  # it was 59 px
        rects = _tick_label_rects(plot)
        assert len(rects) >= 2, (plot.objectName(), rects)
        for i, (a, ta) in enumerate(rects):
            for b, tb in rects[i + 1 :]:
                assert not a.intersects(b), (plot.objectName(), ta, tb, a, b)
    # the ranges a classroom saw overlap: the gradients' after 30 steps, the parameters', the loss'
    w.plots.set_follow(False)
    for lo, hi in ((0.15, 0.7), (-2.2, 2.2), (1.15, 1.36), (0.0, 1.0)):
        for plot in (w.plots.lossPlot, w.plots.paramPlot, w.plots.gradPlot):
            plot.getPlotItem().vb.setYRange(lo, hi, padding=0)
            _settle(qtbot, w)
            rects = _tick_label_rects(plot)
            assert rects, (plot.objectName(), lo, hi)
            for i, (a, ta) in enumerate(rects):
                for b, tb in rects[i + 1 :]:
                    assert not a.intersects(b), (plot.objectName(), lo, hi, ta, tb)
    w.set_presentation(False)


@pytest.mark.parametrize("size", ["1280x720", "1024x768"])
@pytest.mark.parametrize("presenting", [False, True], ids=["window", "presenting"])
def test_the_step_axis_labels_stand_apart(qtbot, open_on, size, presenting):  # noqa: F811
    """The plots' x axes over the step ranges a run of 300 to 100,000 steps follows: every two
    tick labels at least a digit's width apart, and at least two of them (at 1024x768 the loss
    plot read "100200300", its labels run together)."""
    from PySide6.QtGui import QFontMetricsF

    from gradviz.ui.plots import _nice_ceil

    w = open_on(size, load_preset("moons"), ready=True)
    if presenting:
        w.set_presentation(True)
    _settle(qtbot, w)
    w.plots.set_follow(False)
    for steps in (300, 1000, 2000, 30_000, 100_000):
        hi = _nice_ceil(1.1 * steps)  # the range the plots follow a run with
        for plot in (w.plots.lossPlot, w.plots.paramPlot, w.plots.gradPlot):
            plot.getPlotItem().vb.setXRange(0, hi, padding=0)
            _settle(qtbot, w)
            axis = plot.getPlotItem().getAxis("bottom")
            digit = QFontMetricsF(axis.style["tickFont"]).horizontalAdvance("0")
            rects = sorted(_tick_label_rects(plot, "bottom"), key=lambda r: r[0].left())
            assert len(rects) >= 2, (plot.objectName(), hi, rects)
            for r, t in rects:  # inside the plot's widget, where nothing cuts it
                at = axis.mapRectToScene(r)
                assert plot.viewport().rect().contains(at.toAlignedRect()), (plot.objectName(), hi, t, at)
            for (a, ta), (b, tb) in zip(rects, rects[1:]):
                assert b.left() - a.right() >= digit, (plot.objectName(), size, hi, ta, tb, a, b)


@pytest.mark.parametrize("size", ["1280x720", "1024x768"])
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_heat_maps_show_whole_titles_and_scroll_when_the_row_is_short(qtbot, open_on, size, lang):  # noqa: F811
    """moons' three matrices, the heat maps chosen on the "Also" button: each map's title is its
    tensor's whole name ("∂L/∂" may stand on a line of its own; "∂L/∂fc1_w" was cut at the
    column's edge), inside the column and clear of its neighbour's; the caption inside the
    column on two lines at most; each map at least HEAT_MAP_MIN high (squeezed, they were lines a
    pixel high), the column scrolling with a visible bar where it is taller than its room."""
    from gradviz.ui import plots as plots_mod

    language.set_language(lang)
    try:
        w = open_on(size, load_preset("moons"), ready=True)
        w.controller.step()
        qtbot.waitUntil(lambda: w.controller.step_count == 1 and w.controller.nodes is not None, timeout=30_000)
        p = w.plots
        if "heatMaps" in p.folded:
            p.unfold("heatMaps")
        _settle(qtbot, w)
        w.plots.refresh(force=True)
        _settle(qtbot, w)
        assert p.heatPanel.isVisible()
        view = p.heatPanel.viewport().rect()
        names = {n for _l, n, _g in p.heat_titles}
        assert names == {"fc1_weight", "fc2_weight", "logits_weight"}
        rects = {}
        for label, name, grads in p.heat_titles:
            text = label.text.replace("<br>", "")
            assert text == ("∂L/∂" if grads else "") + name, (label.text, name)
            assert label.text.count("<br>") <= 1 and (not grads or label.text.startswith("∂L/∂"))
            doc = label.item.document()
            m = doc.documentMargin()
            r = label.item.mapRectToScene(label.item.boundingRect().adjusted(m, m, -m, -m))
            r = QRectF(r.left(), r.top(), doc.idealWidth() - 2 * m, r.height())  # the lines as drawn
            assert r.left() >= 0 and r.right() <= view.width() + 1, (label.text, r, view)
            rects[(name, grads)] = r
        for name in names:
            assert not rects[(name, False)].intersects(rects[(name, True)]), name
        cap = p.heat_caption
        assert cap.item.document().lineCount() <= 2 or cap.text.count("<br>") == 1
        m = cap.item.document().documentMargin()
        assert cap.item.mapRectToScene(cap.item.boundingRect()).right() - m <= view.width() + 1, cap.text
        k = theme.LOOK.scale
        for img, _kind, _at, _shape in p.images:
            vb = img.getViewBox()
            assert vb.height() >= plots_mod.HEAT_MAP_MIN * k - 1, (vb.height(), p.heat.height(), view)
        if p.heat.height() > p.heatPanel.viewport().height():
            assert p.heatPanel.verticalScrollBar().isVisible()
    finally:
        language.set_language("en")


def test_a_plot_s_key_names_a_line_or_is_left_out(qtbot, open_on):  # noqa: F811
    """At 1024x768 in both languages each plot's key names one line at least, or there is no
    key: never a bare "+2" after the title (Chinese's short "参数" left room for "+2" and for
    no name); the plot's tooltip names the lines."""
    try:
        for lang in ("en", "zh_CN"):
            language.set_language(lang)
            w = open_on("1024x768", load_preset("tutorial"), ready=True)
            _settle(qtbot, w)
            for plot in (w.plots.paramPlot, w.plots.gradPlot):
                shown, _own_line, _note, _first = plot.gv_fit
                assert shown != 0, (lang, plot.objectName(), plot.getPlotItem().titleLabel.text)
                text = plot.getPlotItem().titleLabel.text
                if shown < 0:
                    assert "+" not in text.split("</span>", 1)[1], (lang, text)
                assert all(n in plot.toolTip() for n, _c, _d in plot.gv_key if n != "‖grad‖")
            w.close()
    finally:
        language.set_language("en")


def test_compact_nodes_draw_large_tensors_as_heat_maps_and_the_dataset_as_its_split(qtbot, open_on):  # noqa: F811
    # digits at 1024x768: compact nodes; a tensor too large to write out is a picture, not its
    # first element ("[0, …]"); the Dataset node says its source and split (1,797 images, 20% test)
    from PySide6.QtGui import QColor, QImage, QPainter

    w = open_on("1024x768", load_preset("digits"), ready=True)
    w.controller.step()
    qtbot.waitUntil(lambda: w.controller.step_count == 1 and w.controller.nodes is not None, timeout=30_000)
    _settle(qtbot, w)
    items = w.scene.items_by_name
    qtbot.waitUntil(lambda: items["fc1"].value is not None)
    assert all(i.compact() for i in items.values())
    assert items["fc1"]._compact_heat() and items["x"]._compact_heat()
    assert not items["loss"]._compact_heat()  # a scalar keeps its number
    assert items["data"].data_lines() == ("digits", "1,438 train · 359 test · batch 64", False)
    item = items["fc1"]
    img = QImage(int(item.width), int(item.height()), QImage.Format.Format_RGB32)
    img.fill(0xFFFFFF)
    p = QPainter(img)
    item.paint(p, None)
    p.end()
    px = [QColor(img.pixel(x, y)) for x in range(img.width()) for y in range(30, img.height() - 10)]
    blue = sum(c.blue() - c.red() > 60 for c in px)  # the heat maps' negative cells (the text is dark or orange)
    assert blue > 30, blue


@pytest.mark.parametrize("size", ["1280x720", "1024x768"])
@pytest.mark.parametrize("presenting", [False, True], ids=["window", "presenting"])
def test_the_colour_bars_numbers_are_inside_the_heat_maps_column(qtbot, open_on, size, presenting):  # noqa: F811
    """Every number of every colour bar is drawn inside the heat maps' column, the last bar's
    "-S" too (centred on the bar's end, it stood half a line below the column and was cut in
    presentation mode at 1280x720), before any step and after one."""
    from test_display import _bar_texts

    w = open_on(size, load_preset("tutorial"), ready=True)
    if presenting:
        w.set_presentation(True)
    p = w.plots
    if "heatMaps" in p.folded:  # chosen on the "Also" button where the row has no room for them
        p.unfold("heatMaps")
    for stepped in (False, True):
        if stepped:
            w.controller.step()
            qtbot.waitUntil(lambda: w.controller.step_count == 1, timeout=30_000)
        w.plots.refresh(force=True)
        _settle(qtbot, w)
        assert p.heatPanel.isVisible() and p.heat_bars
        inside = QRectF(p.heat.rect())
        for bar in p.heat_bars:
            axis = bar.getAxis("right")
            for rect, text in _bar_texts(bar):
                at = p.heat.mapFromScene(axis.mapRectToScene(rect)).boundingRect()
                assert inside.contains(QRectF(at).adjusted(1, 1, -1, -1)), (stepped, text, at, inside)
        if p.heat.height() > p.heatPanel.viewport().height():
            assert p.heatPanel.verticalScrollBar().isVisible()

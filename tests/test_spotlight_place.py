"""Presentation mode on a projector (1024x768, 1280x720): the selected node's spotlight card
never covers the node it describes, and every node's numbers stay 24 px tall. Where no spot beside
the fitted graph holds the card and the graph, refitted to the rest of the view, keeps its numbers
at that size, the room is kept for it and it covers no node; where that would shrink the numbers
(a large card at 1024x768), the card covers as few nodes as it can. Once nothing is selected the
graph gets its whole view back."""

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QFrame

from gradviz.model.presets import load_preset
from test_presentation import _graph_in_view, _settle, open_on  # noqa: F401 (a fixture)
from test_readable import _value_px, present_after_a_step


def _card_rect(w) -> QRect:
    """The card's rect in the graph view's viewport coordinates."""
    v = w.graphView
    card = v.findChild(QFrame, "spotlightCard")
    return QRect(v.viewport().mapFrom(v, card.pos()), card.size())


def _node_rects(w) -> dict:
    v = w.graphView
    return {n: v.mapFromScene(i.sceneBoundingRect()).boundingRect() for n, i in w.scene.items_by_name.items()}


@pytest.mark.parametrize("size", ["1024x768", "1280x720"])
@pytest.mark.parametrize("preset, aux", [("tutorial", True), ("tutorial", False), ("moons", False)])
def test_the_card_keeps_the_numbers_size(qtbot, open_on, size, preset, aux):  # noqa: F811
    # z returned: the card's tallest, a row for each part of ∂L/∂b
    w = present_after_a_step(qtbot, open_on(size, load_preset(preset), ready=True), aux=aux)
    v = w.graphView
    zoom = v.zoom
    card = v.findChild(QFrame, "spotlightCard")
    covered = []
    base = {n: min(24.0, px) - 0.05 for n, px in _value_px(w).items()}  # nothing selected
    for name, item in w.scene.items_by_name.items():
        w.scene.clearSelection()
        item.setSelected(True)
        _settle(qtbot, w)
        assert card.isVisible() and card.node_name == name, name
        at = _card_rect(w)
        assert v.viewport().rect().contains(at), (name, at, v.viewport().rect())  # inside the view
        assert _graph_in_view(w), name  # the whole graph still in view
        small = {n: round(px, 1) for n, px in _value_px(w).items() if px < base[n]}
        assert not small, (name, v.card_room, small)  # the numbers keep their size (24 px, the tutorial's)
        rects = _node_rects(w)
        over = [(name, other) for other, r in rects.items() if at.intersects(r)]
        if v.card_room != (0, 0):  # room was kept for it: beside the graph, over no node
            assert not over, over
        elif over:  # no room that keeps the numbers' size: over the fewest nodes it can
            covered.append(name)
    w.scene.clearSelection()
    _settle(qtbot, w)
    assert not card.isVisible() and v.card_room == (0, 0) and v.zoom == pytest.approx(zoom)  # the room back


def test_the_card_s_room_is_kept_while_its_numbers_change(qtbot, open_on):  # noqa: F811
    """Training with a node selected: the graph does not jump at every step (the card keeps the
    room it was given while it still fits it)."""
    w = open_on("1024x768", load_preset("tutorial"), ready=True)
    w.controller.step()
    qtbot.waitUntil(lambda: w.controller.nodes is not None, timeout=30_000)
    w.set_presentation(True)
    _settle(qtbot, w)
    w.scene.items_by_name["b"].setSelected(True)
    _settle(qtbot, w)
    v = w.graphView
    room, zoom = v.card_room, v.zoom
    for k in range(2, 6):
        w.controller.step()
        qtbot.waitUntil(lambda k=k: w.controller.step_count == k, timeout=30_000)
        _settle(qtbot, w)
        assert v.card_room == room and v.zoom == zoom
    w.set_presentation(False)
    _settle(qtbot, w)
    assert v.card_room == (0, 0)  # out of presentation mode: the card in a corner, as before

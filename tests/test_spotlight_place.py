"""Presentation mode on a projector (1024x768, 1280x720): the selected node's spotlight card never
covers a node of the graph, the node it describes included, whichever node is selected; where no
spot beside the fitted graph holds it, the graph refits to the rest of the view, and gets its
whole view back once nothing is selected."""

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QFrame

from conftest import wait_state
from gradviz.model.presets import load_preset
from test_presentation import _graph_in_view, _settle, open_on  # noqa: F401 (a fixture)


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
def test_the_spotlight_card_never_covers_a_node(qtbot, open_on, size, preset, aux):  # noqa: F811
    w = open_on(size, load_preset(preset), ready=True)
    if aux:  # z returned: the card's tallest, a row for each part of ∂L/∂b
        w.document.set_option("aux_output", True)
        wait_state(qtbot, w, "ready")
    w.controller.step()
    qtbot.waitUntil(lambda: w.controller.step_count == 1 and w.controller.nodes is not None, timeout=30_000)
    w.set_presentation(True)
    _settle(qtbot, w)
    v = w.graphView
    zoom = v.zoom
    card = v.findChild(QFrame, "spotlightCard")
    covered = []
    for name, item in w.scene.items_by_name.items():
        w.scene.clearSelection()
        item.setSelected(True)
        _settle(qtbot, w)
        assert card.isVisible() and card.node_name == name, name
        at = _card_rect(w)
        assert v.viewport().rect().contains(at), (name, at, v.viewport().rect())  # inside the view
        assert _graph_in_view(w), name  # the whole graph still in view
        covered += [(name, other) for other, r in _node_rects(w).items() if at.intersects(r)]
    assert not covered, covered
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
    assert room != (0, 0)  # at 1024x768 no spot beside the fitted graph holds it
    for k in range(2, 6):
        w.controller.step()
        qtbot.waitUntil(lambda k=k: w.controller.step_count == k, timeout=30_000)
        _settle(qtbot, w)
        assert v.card_room == room and v.zoom == zoom
    w.set_presentation(False)
    _settle(qtbot, w)
    assert v.card_room == (0, 0)  # out of presentation mode: the card in a corner, as before

"""The transforms' views in the Experiments dock (Hessian, Jacobian, VJP and JVP): what they ask
of the engine, and MindSpore's numbers against float64 numpy written here."""

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget

from gradviz.model.graph import initial_values
from gradviz.model.presets import load_preset

from conftest import wait_nodes_at, wait_state

TASK = 60_000  # ms: a transform builds an Engine and compiles jacrev/jacfwd in the engine process


def show(win, tab):
    win.findChild(QDockWidget, "experimentsDock").raise_()
    win.experiments.setCurrentIndex(win.experiments.indexOf(tab))


def load(qtbot, win, session):
    win.document.replace_session(session)
    wait_state(qtbot, win, "ready")
    wait_nodes_at(qtbot, win, 0)


def compute(qtbot, tab):
    before = tab.result
    qtbot.mouseClick(tab.computeButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not tab.task.busy, timeout=TASK)
    assert tab.result is not before, tab.task.status.text()
    return tab.result.result


def test_the_views_are_filled_from_the_build_and_say_what_they_cannot_do(qtbot, win):
    """The engine stand-in runs no lessons: the choices, the element's name, a bad vector."""
    s = load_preset("tutorial")
    s.options.aux_output = True
    load(qtbot, win, s)
    h, j, p = win.experiments.hessian, win.experiments.jacobian, win.experiments.vjp
    assert [h.paramCombo.itemText(i) for i in range(h.paramCombo.count())] == ["w", "b"]
    assert j.nodeCombo.currentText() == "z" and "matmul" in [
        j.nodeCombo.itemText(i) for i in range(j.nodeCombo.count())
    ]
    h.elementSpin.setValue(4)
    assert h.elementLabel.text() == "w[1,1]" and h.elementSpin.maximum() == 14
    h.paramCombo.setCurrentText("b")
    assert h.elementSpin.maximum() == 2
    p.vEdit.setText("1, x")
    qtbot.mouseClick(p.computeButton, Qt.MouseButton.LeftButton)
    assert "v: give numbers separated by commas" in p.task.status.text() and not p.task.busy
    show(win, j)
    qtbot.mouseClick(j.computeButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not j.task.busy, timeout=10_000)
    assert "stand-in" in j.task.status.text()


@pytest.mark.real_engine
def test_the_transforms_of_the_tutorial_in_the_window(qtbot, win):
    s = load_preset("tutorial")
    s.options.aux_output = True
    load(qtbot, win, s)
    v = {k: np.asarray(a, np.float64) for k, a in initial_values(s.graph, s.options.seed).items()}
    z = v["x"] @ v["w"] + v["b"]
    db = 1 / (1 + np.exp(-z)) / 3 + 1  # y = 0; z returned too: ∂L/∂z = ∂loss/∂z + 1
    j = win.experiments.jacobian
    show(win, j)
    j.nodeCombo.setCurrentText("z")
    j.paramCombo.setCurrentText("b")
    r = compute(qtbot, j)
    np.testing.assert_allclose(r.jacrev, np.eye(3), atol=1e-6)
    np.testing.assert_allclose(r.chain, db, rtol=1e-5)
    assert "agrees" in j.verdict.text() and "1.326" in j.summary.text()
    assert "both need 3 passes" in j.summary.text() and j.image.image.shape == (3, 3)
    h = win.experiments.hessian
    show(win, h)
    h.paramCombo.setCurrentText("w")
    h.elementSpin.setValue(4)
    r = compute(qtbot, h)
    sig = 1 / (1 + np.exp(-z))
    assert r.second_ref == pytest.approx(v["x"][1] ** 2 * sig[1] * (1 - sig[1]) / 3, rel=1e-5)
    assert "DISAGREES" in h.verdict.text() and h.marks.isVisible()  # no second derivative of BCE
    assert "binary_cross_entropy_with_logits" in h.marks.text() and h.image.image.shape == (15, 15)
    p = win.experiments.vjp
    show(win, p)
    p.nodeCombo.setCurrentText("z")
    p.paramCombo.setCurrentText("w")
    p.vEdit.setText("1, 0, 0")
    r = compute(qtbot, p)
    np.testing.assert_allclose(r.vjp, np.outer(v["x"], [1, 0, 0]), atol=1e-6)
    np.testing.assert_allclose(r.jvp, np.full(3, v["x"].sum()), rtol=1e-6)
    np.testing.assert_allclose(r.grad_vjp, np.outer(v["x"], db), rtol=1e-5)
    assert "agrees" in p.verdict.text()

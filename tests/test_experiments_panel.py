"""The Experiments dock in the real window: the four variants, the gradient check, mode cost and the
loss landscape, each computed in the engine process; numbers against independent float64 numpy
(tests/reference.py), cancel, stale results, and training on after a lesson."""

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget

from gradviz.engine import protocol as msg
from gradviz.model.graph import Node, initial_values
from gradviz.model.presets import load_preset
from reference import forward, grads_for, replay

from conftest import wait_nodes_at, wait_state

TASK = 60_000  # ms: a lesson builds Engines (and Graph mode compiles) in the engine process


def show_lessons(win, tab):
    win.findChild(QDockWidget, "experimentsDock").raise_()
    win.experiments.setCurrentWidget(
        win.experiments.widget(
            [
                win.experiments.variants,
                win.experiments.gradcheck,
                win.experiments.modecost,
                win.experiments.landscape,
                win.experiments.parity,
            ].index(tab)
        )
    )


def load(qtbot, win, session):
    win.document.replace_session(session)
    wait_state(qtbot, win, "ready")
    wait_nodes_at(qtbot, win, 0)


def steps(qtbot, win, n):
    for _ in range(n):
        k = win.controller.step_count + 1
        qtbot.mouseClick(win.controls.stepButton, Qt.MouseButton.LeftButton)
        wait_nodes_at(qtbot, win, k)


def wait_result(qtbot, tab, timeout=TASK):
    qtbot.waitUntil(lambda: not tab.task.busy, timeout=timeout)
    assert tab.result is not None, tab.task.status.text()
    return tab.result


def check_training_matches_numpy(win, session, n):
    """The history's first n steps against the float64 replay of the session."""
    h = win.controller.history
    assert h.n == n
    for k, loss, g, _ in replay(session, n):
        assert h.loss[k - 1] == pytest.approx(loss, rel=1e-5)
        grads = h.grad_layout.unflatten(h.grads[k - 1])
        for p in grads:
            np.testing.assert_allclose(grads[p], g[p], rtol=1e-4, atol=1e-6)


@pytest.mark.real_engine
def test_variants_side_by_side_and_training_goes_on(qtbot, win):
    s = load_preset("tutorial")
    steps(qtbot, win, 2)
    show_lessons(win, win.experiments.variants)  # shown: computed at once
    m = wait_result(qtbot, win.experiments.variants)
    found = {v.name: v for v in m.variants}
    assert list(found) == ["loss", "return_z", "stop_gradient", "has_aux"]
    _, plain, _ = grads_for(s)
    s_z = load_preset("tutorial")
    s_z.options.aux_output = True
    _, with_z, _ = grads_for(s_z)
    for name, ref in (("loss", plain), ("return_z", with_z), ("stop_gradient", plain), ("has_aux", plain)):
        for p in ("w", "b"):
            np.testing.assert_allclose(found[name].grads[p], ref[p], rtol=1e-5, atol=1e-6)
    tab = win.experiments.variants
    # every element in full, 3 decimals; the column that differs is highlighted
    b_text = tab.cells[("return_z", "b")].text()
    for x in with_z["b"]:
        assert f"{x:.3f}" in b_text
    assert "1.016" in b_text and "0.016" in tab.cells[("loss", "b")].text()
    for name in found:
        for p in ("w", "b"):
            highlighted = "#fed7aa" in tab.cells[(name, p)].styleSheet()
            assert highlighted == (name == "return_z"), (name, p)
    head = tab.findChild(object, "variantHead_has_aux").text()
    assert "mindspore.grad(function, (2, 3), has_aux=True)" in head and "((dw, db), (z,))" in head
    assert "return loss, ops.stop_gradient(z)" in tab.findChild(object, "variantHead_stop_gradient").text()
    assert tab.whyLabel.text() == m.why and "loss + sum(z)" in m.why and m.why.endswith(".") and "\n" not in m.why
    # the run's own engine trains on as before
    steps(qtbot, win, 2)
    check_training_matches_numpy(win, s, 4)


@pytest.mark.real_engine
def test_variants_say_why_not_with_one_output(qtbot, win):
    load(qtbot, win, load_preset("linreg"))
    show_lessons(win, win.experiments.variants)
    tab = win.experiments.variants
    qtbot.waitUntil(lambda: not tab.task.busy and tab.task.status.text() != "", timeout=TASK)
    assert tab.result is None and not tab.cells
    assert "only one Output" in tab.task.status.text()


@pytest.mark.real_engine
def test_variants_of_an_edited_graph(qtbot, win):
    """linreg with its prediction returned as a second output: the +1 per element of pred."""
    s = load_preset("linreg")
    s.graph.nodes.append(Node("out_pred", "Output", inputs={"x": "pred"}, pos=(900.0, 100.0)))
    load(qtbot, win, s)
    show_lessons(win, win.experiments.variants)
    m = wait_result(qtbot, win.experiments.variants)
    found = {v.name: v for v in m.variants}
    _, plain, _ = grads_for(s)
    s.options.aux_output = True
    _, with_pred, _ = grads_for(s)
    for p in ("weight", "bias"):
        np.testing.assert_allclose(found["loss"].grads[p], plain[p], rtol=1e-5)
        np.testing.assert_allclose(found["return_z"].grads[p], with_pred[p], rtol=1e-5)
        np.testing.assert_allclose(found["has_aux"].grads[p], plain[p], rtol=1e-5)
    np.testing.assert_allclose(with_pred["bias"] - plain["bias"], 1.0)  # pred = w x + bias: +1 each
    assert found["return_z"].function_returns == "return loss, pred"
    assert "sum(pred)" in m.why


@pytest.mark.real_engine
@pytest.mark.parametrize("preset", ["tutorial", "mlp"])
def test_gradient_check_at_the_runs_current_parameters(qtbot, win, preset):
    s = load_preset(preset)
    if preset == "tutorial":
        s.options.aux_output = True
    load(qtbot, win, s)
    tab = win.experiments.gradcheck
    show_lessons(win, tab)
    qtbot.mouseClick(tab.checkButton, Qt.MouseButton.LeftButton)
    m = wait_result(qtbot, tab)
    assert m.updates == 0 and "initial parameters" in tab.verdict.text()
    steps(qtbot, win, 3)
    qtbot.mouseClick(tab.checkButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: tab.result is not m, timeout=TASK)
    m = wait_result(qtbot, tab)
    assert m.updates == 3
    _, _, _, params = list(replay(s, 4))[-1]  # the parameters after 3 updates, float64
    _, g, _ = grads_for(s, params)  # at the run's Inputs (over a Dataset node, its first batch)
    for p, r in m.check.params.items():
        np.testing.assert_allclose(r.autodiff, g[p], rtol=1e-4, atol=1e-6)
        np.testing.assert_allclose(r.numeric, g[p], rtol=1e-4, atol=1e-6)  # float64 differences at float32 params
        err = np.abs(np.asarray(r.autodiff, np.float64) - r.numeric)
        np.testing.assert_allclose(r.abs_error, err)
        assert r.ok and r.checked == np.size(g[p])
        assert tab.images[p].image.shape == np.atleast_2d(g[p]).shape
    assert tab.verdict.text().startswith("PASS") and "after 3 updates" in tab.verdict.text()
    assert f"eps = {m.check.eps:g}" in tab.settings.text() and f"tolerance {m.check.tolerance:g}" in tab.settings.text()
    steps(qtbot, win, 1)
    check_training_matches_numpy(win, s, 4)


@pytest.mark.real_engine
def test_mode_cost_measures_both_modes(qtbot, win):
    tab = win.experiments.modecost
    show_lessons(win, tab)
    tab.stepsSpin.setValue(10)
    seen = []
    win.controller.taskReplied.connect(seen.append)
    qtbot.mouseClick(tab.measureButton, Qt.MouseButton.LeftButton)
    m = wait_result(qtbot, tab)
    c = m.cost
    assert c.steps == 10 and c.pynative_ms > 0 and c.graph_ms > 0 and c.graph_compile_s > 0
    assert c.max_rel_difference < 1e-5
    assert any(isinstance(r, msg.TaskProgress) and r.task_id == m.task_id for r in seen)
    text = tab.table.text()
    assert f"{c.pynative_ms:.3f} ms/step" in text and f"{c.graph_ms:.3f} ms/step" in text
    assert f"{c.graph_compile_s * 1e3:.0f} ms" in text
    steps(qtbot, win, 2)
    check_training_matches_numpy(win, load_preset("tutorial"), 2)


@pytest.mark.real_engine
def test_landscape_over_two_elements_with_the_path_live(qtbot, win):
    s = load_preset("linreg")
    load(qtbot, win, s)
    tab = win.experiments.landscape
    show_lessons(win, tab)
    assert tab.planeCombo.currentIndex() == 0  # 3 elements: two of them by default
    tab.xCombo.setCurrentText("weight[0]")
    tab.yCombo.setCurrentText("bias[1]")
    tab.spanSpin.setValue(2.0)
    tab.gridSpin.setValue(5)
    qtbot.mouseClick(tab.computeButton, Qt.MouseButton.LeftButton)
    m = wait_result(qtbot, tab)
    assert tuple(m.labels) == ("weight[0]", "bias[1]")
    init = {k: np.asarray(v, np.float64) for k, v in initial_values(s.graph, s.options.seed).items()}
    axis = np.linspace(-2, 2, 5)
    for r, b in enumerate(axis):
        for c, a in enumerate(axis):
            vals = {k: v.copy() for k, v in init.items()}
            vals["weight"][0] = np.float32(init["weight"][0]) + a
            vals["bias"][1] = np.float32(init["bias"][1]) + b
            assert m.loss[r, c] == pytest.approx(float(forward(s.graph, vals)["loss"]), rel=1e-9)
    steps(qtbot, win, 3)
    qtbot.waitUntil(lambda: len(tab.path) == 3)
    h = win.controller.history
    x, y = tab.pathCurve.getData()
    np.testing.assert_allclose(x, h.params[:, 0], rtol=1e-6)  # the layout: weight, bias[0], bias[1]
    np.testing.assert_allclose(y, h.params[:, 2], rtol=1e-6)
    for k, _, _, params in replay(s, 3):
        assert x[k - 1] == pytest.approx(params["weight"][0], rel=1e-5)
        assert y[k - 1] == pytest.approx(params["bias"][1], rel=1e-5)


@pytest.mark.real_engine
def test_landscape_directions_on_the_tutorial_and_cancel(qtbot, win):
    tab = win.experiments.landscape
    show_lessons(win, tab)
    assert tab.planeCombo.currentIndex() == 1  # 18 elements: two random filter-normalised directions
    seen = []
    win.controller.taskReplied.connect(seen.append)
    tab.gridSpin.setValue(201)  # 40,401 points: seconds, so that Cancel lands in the middle
    qtbot.mouseClick(tab.computeButton, Qt.MouseButton.LeftButton)
    first = tab.task.task_id
    qtbot.waitUntil(lambda: any(isinstance(r, msg.TaskProgress) and r.task_id == first for r in seen), timeout=TASK)
    qtbot.mouseClick(tab.task.cancelButton, Qt.MouseButton.LeftButton)
    assert not tab.task.busy and tab.task.status.text() == "Cancelled"
    # a step after the Cancel is answered only once the engine has dropped the task
    steps(qtbot, win, 1)
    qtbot.waitUntil(lambda: any(r.task_id == first and not isinstance(r, msg.TaskProgress) for r in seen), timeout=TASK)
    ends = [r for r in seen if r.task_id == first and not isinstance(r, msg.TaskProgress)]
    assert [type(r) for r in ends] == [msg.TaskCancelled]
    assert tab.result is None and tab.image.image is None
    # a smaller grid, computed, then trained on: L there is the loss at those parameters
    tab.gridSpin.setValue(7)
    qtbot.mouseClick(tab.computeButton, Qt.MouseButton.LeftButton)
    m = wait_result(qtbot, tab)
    assert m.updates == 1 and tuple(m.labels) == ("direction 1", "direction 2")
    assert "at the parameters after 1 update:" in tab.note.text()  # model.steps' words, no "1 updates"
    s = load_preset("tutorial")
    for r, c in ((0, 0), (3, 3), (6, 2)):
        flat = m.center + m.alphas[c] * m.u + m.betas[r] * m.v
        vals = {"x": np.ones(5), "y": np.zeros(3), "w": flat[:15].reshape(5, 3), "b": flat[15:]}
        assert m.loss[r, c] == pytest.approx(float(forward(s.graph, vals)["loss"]), rel=1e-9)
    steps(qtbot, win, 2)
    qtbot.waitUntil(lambda: len(tab.path) == 3)
    h = win.controller.history
    coef, *_ = np.linalg.lstsq(np.stack([m.u, m.v], 1), (h.params.astype(np.float64) - m.center).T, rcond=None)
    np.testing.assert_allclose(tab.path, coef.T, rtol=1e-6, atol=1e-9)
    check_training_matches_numpy(win, s, 3)


@pytest.mark.real_engine
def test_a_reset_drops_a_task_in_flight(qtbot, win):
    tab = win.experiments.landscape
    show_lessons(win, tab)
    seen = []
    win.controller.taskReplied.connect(seen.append)
    tab.gridSpin.setValue(201)
    qtbot.mouseClick(tab.computeButton, Qt.MouseButton.LeftButton)
    first = tab.task.task_id
    qtbot.waitUntil(lambda: any(isinstance(r, msg.TaskProgress) and r.task_id == first for r in seen), timeout=TASK)
    win.reset()  # a Build cancels the task; whatever it says about the old run is dropped
    wait_state(qtbot, win, "ready")
    assert not tab.task.busy and tab.result is None
    steps(qtbot, win, 1)
    assert not any(r.task_id == first and not isinstance(r, msg.TaskProgress) for r in seen)
    check_training_matches_numpy(win, load_preset("tutorial"), 1)


@pytest.mark.real_engine
def test_graph_mode_trains_on_after_a_variant_computation(qtbot, win):
    win.controls.modeCombo.setCurrentIndex(win.controls.modeCombo.findData("graph"))
    wait_state(qtbot, win, "ready", timeout=TASK)
    wait_nodes_at(qtbot, win, 0)
    steps(qtbot, win, 2)
    show_lessons(win, win.experiments.variants)
    wait_result(qtbot, win.experiments.variants)
    steps(qtbot, win, 2)
    check_training_matches_numpy(win, load_preset("tutorial"), 4)


@pytest.mark.real_engine
def test_pytorch_parity_reproduces_the_seed_or_says_how_to_install_pytorch(qtbot, win):
    """With PyTorch (the optional extra) the seed's linear regression from its MindSpore values
    ends at step 300 in both frameworks, as numpy's replay does; without it the tab says how to
    install it (CI runs without PyTorch, so both paths are real somewhere)."""
    from gradviz.experiments.parity import torch_available

    s = load_preset("linreg_seed")
    load(qtbot, win, s)
    tab = win.experiments.parity
    show_lessons(win, tab)
    qtbot.mouseClick(tab.compareButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not tab.task.busy, timeout=TASK)
    if not torch_available():  # this process and the engine process it spawned see the same packages
        assert tab.result is None and "pip install -e '.[torch]'" in tab.task.status.text()
        return
    r = tab.result.result
    k = next(k for k, loss, _, _ in replay(s, 1000) if loss < s.options.until_loss)
    assert r.ok and len(r.steps) == k == 300
    assert r.mindspore_end == ("until_loss", k) == r.pytorch_end
    assert "they agree" in tab.summary.text() and "at step 300" in tab.summary.text()
    assert len(tab.curves["loss"].getData()[0]) == 300


def test_the_parity_view_reads_the_lessons_parity_as_it_travels(qtbot):
    """No engine: a Parity as experiments.parity makes it, shown by the view (PyTorch need not be here)."""
    from gradviz.experiments.parity import Parity
    from gradviz.ui.controller import TrainingController
    from gradviz.ui.experiments_panel import ParityTab

    tab = ParityTab(TrainingController())
    qtbot.addWidget(tab)
    d = np.array([0.0, 1e-7, 3e-6])
    p = Parity(np.arange(1, 4), d, d / 2, d / 4, ("max_steps", 3), ("max_steps", 3))
    tab.show_result(msg.ParityResult(1, 2, p))
    assert "ended by max_steps at step 3" in tab.summary.text() and "difference 3e-06" in tab.summary.text()
    assert "they agree" in tab.summary.text() and len(tab.curves["loss"].getData()[0]) == 3


def test_the_variants_table_cuts_no_name_in_its_code(qtbot):
    """No engine: the four variants of the Cell API's long call, as experiments.variants makes
    them, in a table 700 px wide. Each column's code wraps between words only and is at least
    as wide as its widest word ("mindspore.value_and_grad(" was cut off at the column's edge);
    the table claims that width, and the scroll area around it scrolls sideways."""
    from PySide6.QtGui import QTextDocument, QTextOption
    from PySide6.QtWidgets import QLabel, QScrollArea

    from gradviz.experiments.variants import Variant
    from gradviz.ui.controller import TrainingController
    from gradviz.ui.experiments_panel import VariantsTab

    call = "mindspore.value_and_grad(forward_fn, None, weights=network.trainable_params(), has_aux={aux})"
    g = {"w": np.zeros((5, 3)), "b": np.zeros(3)}
    rows = [
        ("loss", "return loss", "False", "loss"),
        ("return_z", "return loss, z", "False", "loss + sum(z)"),
        ("stop_gradient", "return loss, ops.stop_gradient(z)", "False", "loss"),
        ("has_aux", "return loss, z", "True", "loss"),
    ]
    variants = tuple(Variant(n, call.format(aux=a), "(loss, (dw, db))", f, g, d, ("z",)) for n, f, a, d in rows)
    tab = VariantsTab(TrainingController())
    area = QScrollArea()
    area.setWidget(tab)
    area.setWidgetResizable(True)
    qtbot.addWidget(area)
    area.resize(700, 400)
    area.show()
    tab.show_result(msg.VariantsResult(1, 2, variants, "why"))

    def widest_word(head) -> float:
        doc = QTextDocument()
        doc.setDefaultFont(head.font())
        doc.setDocumentMargin(0)
        opt = doc.defaultTextOption()
        opt.setWrapMode(QTextOption.WrapMode.WordWrap)  # as a QLabel wraps: between words
        doc.setDefaultTextOption(opt)
        doc.setHtml(head.text())
        doc.setTextWidth(1)  # its lines as short as wrapping between words makes them
        return doc.idealWidth()

    heads = [tab.findChild(QLabel, f"variantHead_{name}") for name, *_ in rows]
    assert all("weights=network.trainable_params()," in h.text() for h in heads)
    # no layout makes a column narrower than its widest word: the table (and the dock) scrolls
    assert all(h.minimumWidth() >= widest_word(h) > 250 for h in heads), [h.minimumWidth() for h in heads]
    qtbot.waitUntil(lambda: area.minimumWidth() > 0, timeout=5000)  # the table claimed its width
    assert all(h.width() >= widest_word(h) for h in heads)
    tab.graph_changed()  # the controller has no run (as after File > New): the old table goes
    assert tab.result is None and not tab.cells and tab.grid.count() == 0

"""The guided lesson: its plan (Qt-free) against the tutorial and the generated program, its
Chinese catalogue, and the Lesson panel in the real window: each step's set-up, the numbers its
text quotes against independent float64 numpy (tests/reference.py), Next/Previous bounds,
entering a step while training, and the step remembered across restarts."""

import ast
import dataclasses
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QSettings, Qt, QTranslator
from PySide6.QtGui import QFontMetricsF, QKeySequence, QTextDocument
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDockWidget, QMessageBox, QScrollArea, QWidget

from gradviz.model import lesson_plan as plan
from gradviz.model.codegen import generate, grad_call, returned_values
from gradviz.model.scripts import mindspore_script
from gradviz.model.presets import load_preset
from gradviz.model.session import Options
from gradviz.ui.lesson_panel import BREAK, JOIN
from reference import grads_for, replay

import standin
from conftest import wait_nodes_at, wait_state

ROOT = Path(__file__).resolve().parents[1]
TS = ROOT / "resources" / "i18n" / "lesson_zh_CN.ts"
QM = ROOT / "resources" / "i18n" / "lesson_zh_CN.qm"
SEEDS = ROOT.parent / "shared" / "seeds"  # the project's seed documents, where this checkout has them
STEP = {s.id: s for s in plan.PLAN}


# -- the plan ---------------------------------------------------------------------------------------
def test_the_plan_follows_the_tutorial_then_the_pytorch_comparison():
    assert plan.IDS == ("function", "grad", "return_z", "stop_gradient", "has_aux", "cell", "train", "pytorch")
    for s in plan.PLAN:
        session = plan.setup_session(s)
        assert session.problems() == [], s.id
        assert plan.matches(s, session)
        assert set(s.options) <= set(plan.CONTROLLED)
        for p in s.paras:  # every placeholder is a figure of the step
            for name in re.findall(r"{(\w+)}", p.text + p.waiting):
                assert name in s.figures, (s.id, name)
    assert plan.index_of("cell") == 5 and plan.index_of("nonsense") is None
    moved = plan.setup_session(STEP["return_z"])
    moved.graph["b"].pos = (5.0, 5.0)  # moving a node changes no step
    assert plan.matches(STEP["return_z"], moved) and not plan.matches(STEP["stop_gradient"], moved)


def _calls(source: str) -> list[ast.Call]:
    """Every `grad_fn = <call>` in a piece of code."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "grad_fn":
            out.append(node.value)
    return out


def _defs(source: str) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef)}


@pytest.mark.parametrize("step_id", ["grad", "return_z", "stop_gradient", "has_aux"])
def test_the_tutorials_grad_call_and_return_are_what_gradviz_runs(step_id):
    """The tutorial's `mindspore.grad(F, (2, 3)[, has_aux=True])` and F's return statement against
    the call and the return of the program the app generates for the step's set-up."""
    step = STEP[step_id]
    s = plan.setup_session(step)
    seed_call = _calls(step.code[0].text)[-1]
    ours = ast.parse(grad_call(s.graph, s.options)).body[0].value
    assert ast.unparse(seed_call.func) == ast.unparse(ours.func) == "mindspore.grad"
    assert ast.unparse(seed_call.args[1]) == ast.unparse(ours.args[1]) == "(2, 3)"
    kw = {k.arg: ast.literal_eval(k.value) for k in seed_call.keywords}
    assert kw.get("has_aux", False) == {k.arg: ast.literal_eval(k.value) for k in ours.keywords}["has_aux"]
    # the function differentiated: defined in this step's code or an earlier one's
    name = seed_call.args[0].id
    earlier = "\n".join(c.text for t in plan.PLAN[: plan.index_of(step_id) + 1] for c in t.code if c.text)
    fn = _defs(earlier)[name]
    ret = next(n for n in fn.body if isinstance(n, ast.Return))
    ours_returns = ast.parse(", ".join(returned_values(s.graph, s.options)), mode="eval").body
    assert ast.dump(ret.value) == ast.dump(ours_returns)
    # its loss line is the generated function's
    loss_line = next(ast.unparse(n) for n in fn.body if ast.unparse(n).startswith("loss = "))
    assert f"    {loss_line}\n" in generate(s.graph, s.options).source


@pytest.mark.parametrize("step_id", ["cell", "pytorch"])
def test_the_cell_calls_are_what_gradviz_runs(step_id):
    """value_and_grad(forward_fn, None, weights=<net>.trainable_params()) in the tutorial, in the
    comparison and in the generated program."""
    step = STEP[step_id]
    s = plan.setup_session(step)
    seed_call = _calls(step.code[-1].text)[-1]
    ours = ast.parse(grad_call(s.graph, s.options)).body[0].value
    assert ast.unparse(seed_call.func).split(".")[-1] == ast.unparse(ours.func).split(".")[-1] == "value_and_grad"
    assert [ast.unparse(a) for a in seed_call.args] == [ast.unparse(a) for a in ours.args] == ["forward_fn", "None"]
    seed_w = next(k.value for k in seed_call.keywords if k.arg == "weights")
    our_w = next(k.value for k in ours.keywords if k.arg == "weights")
    assert seed_w.func.attr == our_w.func.attr == "trainable_params"


def test_the_comparisons_training_is_the_presets():
    """The comparison's loss, optimizer, learning rate and stop-at-loss are the set-up of step 8."""
    o = plan.setup_session(STEP["pytorch"]).options
    g = plan.setup_session(STEP["pytorch"]).graph
    assert [n.kind for n in g.nodes if n.kind in ("MSE", "BCEWithLogits")] == ["MSE"]
    assert o.optimizer == "sgd"
    for code, lr_key in ((plan.SEED_MINDSPORE, "learning_rate"), (plan.SEED_PYTORCH, "lr")):
        tree = ast.parse(code)
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func).endswith(".SGD")]
        assert [ast.literal_eval(k.value) for c in calls for k in c.keywords if k.arg == lr_key] == [o.lr]
        stops = [n for n in ast.walk(tree) if isinstance(n, ast.Compare) and isinstance(n.ops[0], ast.Lt)]
        assert [ast.literal_eval(c.comparators[0]) for c in stops] == [o.until_loss]
        assert "nn.MSELoss()" in code


def _seed_lines(prefix: str) -> list[str]:
    docs = sorted(SEEDS.glob(f"{prefix}_*.txt"))
    if not docs:
        pytest.skip(f"the seed documents are not next to this checkout ({SEEDS})")
    return [line.rstrip() for line in docs[0].read_text(encoding="utf-8").splitlines()]


def _is_subsequence(lines: list[str], within: list[str]) -> bool:
    it = iter(within)
    return all(any(line == w for w in it) for line in lines)


def test_the_code_shown_is_the_tutorials_verbatim():
    """Each line of the tutorial's code the lesson shows is a line of the tutorial (seed 001) or of
    the comparison (seed 000), in the same order; left out are blank lines, prints, comments."""
    tutorial, comparison = _seed_lines("001"), _seed_lines("000")
    for s in plan.PLAN:
        for c in s.code:
            if not c.text:
                continue
            lines = [line.rstrip() for line in c.text.splitlines() if line.strip()]
            source = comparison if c.text in (plan.SEED_PYTORCH, plan.SEED_MINDSPORE) else tutorial
            assert _is_subsequence(lines, source), (s.id, c.title)


def test_the_training_code_is_the_exported_program():
    s = plan.setup_session(STEP["train"])
    s.options.lr = 0.05  # derived from the session: follows its options
    ((title, code),) = plan.code(STEP["train"], s)
    assert mindspore_script(s).endswith(code)
    assert code.startswith("optimizer = nn.SGD(network.trainable_params(), learning_rate=0.05)\n")
    assert "    optimizer(grads)\n" in code


def test_figures_wait_until_known_and_quote_every_element():
    step = STEP["return_z"]
    empty = plan.Observed(None, None, {}, np.zeros(0), np.zeros(0), Options())
    assert plan.figures(step, empty) == {"db": None, "db_loss": None, "db_z": None}
    s = plan.setup_session(step)
    loss, g, v = grads_for(s)
    seen = plan.Observed(
        {k: np.asarray(x) for k, x in v.items()},
        g,
        {"out_loss": {"b": g["b"] - 1}, "out_z": {"b": np.ones(3)}},
        np.array([1, 2]),
        np.array([loss, loss / 2]),
        s.options,
    )
    f = plan.figures(step, seen)
    assert f["db"][1] == "[" + ", ".join(f"{x:.3f}" for x in g["b"]) + "]"
    assert f["db_z"][1] == "[1.000, 1.000, 1.000]"
    assert plan.figures(STEP["pytorch"], seen)["until_loss"] is None  # off in the tutorial
    t = plan.figures(STEP["pytorch"], dataclasses.replace(seen, options=plan.setup_session(STEP["pytorch"]).options))
    assert t["until_loss"][1] == "0.001" and t["lr"][1] == "0.01"
    assert t["last_step"][0] == 2 and t["last_loop"][0] == 1 and t["first_loss"][0] == loss


# -- the Chinese catalogue ------------------------------------------------------------------------------
def _plan_strings() -> set[str]:
    out = set()
    for s in plan.STEPS.values():  # every lesson's
        out.add(s.title)
        out |= {p.text for p in s.paras} | {p.waiting for p in s.paras if p.waiting}
        out |= {c.title for c in s.code}
    return out


def _panel_strings() -> set[str]:
    tree = ast.parse((ROOT / "gradviz" / "ui" / "lesson_panel.py").read_text(encoding="utf-8"))
    return {
        n.args[0].value
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "tr" and n.args
    }


def _catalogue() -> dict[tuple[str, str], ET.Element]:
    root = ET.parse(TS).getroot()
    return {
        (ctx.findtext("name"), m.findtext("source")): m.find("translation")
        for ctx in root.iter("context")
        for m in ctx.iter("message")
    }


def test_every_lesson_string_has_a_finished_chinese_translation():
    cat = _catalogue()
    wanted = [("Lesson", t) for t in _plan_strings()] + [("LessonPanel", t) for t in _panel_strings()]
    assert len(wanted) > 40
    translator = QTranslator()
    assert translator.load(str(QM)), "compile the catalogue: pyside6-lrelease resources/i18n/lesson_zh_CN.ts"
    for context, source in wanted:
        t = cat.get((context, source))
        assert t is not None, f"not in {TS.name}: {source!r} (run pyside6-lupdate)"
        assert t.get("type") not in ("unfinished", "vanished", "obsolete") and t.text, source
        assert sorted(re.findall(r"{\w+}", t.text)) == sorted(re.findall(r"{\w+}", source)), source
        if re.search(r"[A-Za-z]{3,}", re.sub(r"{\w+}", "", source)):  # words: Chinese words too
            assert re.search(r"[\u4e00-\u9fff]", t.text), source
        assert translator.translate(context, source) == t.text, f"the .qm is older than the .ts: {source!r}"
    assert len(cat) == len(wanted), "the catalogue holds strings the lesson no longer has"


# -- the panel in the window ----------------------------------------------------------------------------
def plain(label) -> str:
    """A label's text as read: no-break spaces as spaces, without the marks where a name may wrap."""
    d = QTextDocument()
    d.setHtml(label.text())
    return d.toPlainText().replace("\xa0", " ").replace(BREAK, "").replace(JOIN, "")


def vec(a) -> str:
    return "[" + ", ".join(f"{x:.3f}" for x in np.ravel(a)) + "]"


def enter(qtbot, win, button):
    """Click Next or Previous and wait until the step's run is built and its nodes computed."""
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "ready", "paused", "finished")
    wait_nodes_at(qtbot, win, win.controller.updates)
    qtbot.waitUntil(lambda: all(v is not None for k, v in win.lesson.numbers.items() if k in NODE_FIGURES))


NODE_FIGURES = {"loss", "db", "db_loss", "db_z", "z"}

# what the call view shows at each step, written out here from the tutorial
CALLS = {
    "function": ("return loss", "mindspore.grad(function, (2, 3), has_aux=False)", "(dw, db)"),
    "grad": ("return loss", "mindspore.grad(function, (2, 3), has_aux=False)", "(dw, db)"),
    "return_z": ("return loss, z", "mindspore.grad(function, (2, 3), has_aux=False)", "(dw, db)"),
    "stop_gradient": (
        "return loss, ops.stop_gradient(z)",
        "mindspore.grad(function, (2, 3), has_aux=False)",
        "(dw, db)",
    ),
    "has_aux": ("return loss, z", "mindspore.grad(function, (2, 3), has_aux=True)", "((dw, db), (z,))"),
    "cell": (
        "return loss",
        "mindspore.value_and_grad(forward_fn, None, weights=network.trainable_params(), has_aux=False)",
        "(loss, (dw, db))",
    ),
    "pytorch": (
        "return loss",
        "mindspore.value_and_grad(forward_fn, None, weights=network.trainable_params(), has_aux=False)",
        "(loss, (dweight, dbias))",
    ),
}
CALLS["train"] = CALLS["cell"]


def check_setup(win, step_id):
    p, doc = win.lesson, win.document
    assert p.step.id == step_id and p.stepIndicator.text() == f"{plan.index_of(step_id) + 1} / 8"
    want = plan.setup_session(STEP[step_id])
    assert doc.session.name == want.name == STEP[step_id].preset
    assert [n.kind for n in doc.graph.nodes] == [n.kind for n in want.graph.nodes]
    for k in plan.CONTROLLED:
        assert getattr(doc.options, k) == getattr(want.options, k), (step_id, k)
    assert win.controller.session.options.api == want.options.api  # what the run was built from
    ret, call, returns = CALLS[step_id]
    lines = win.callView.lines
    assert lines[0] == f"def function(...): {ret}" and lines[1] == f"grad_fn = {call}"
    assert lines[2] == f"grad_fn(...) returns {returns}" and lines[3] == "# PyNative: no mindspore.jit"
    assert p.codeView.toPlainText() == "\n".join(
        text if len(STEP[step_id].code) == 1 else f"# {title}\n{text}"
        for title, text in plan.code(STEP[step_id], doc.session)
    )
    assert p.note_kind == "" and not p.noteLabel.isVisible()


@pytest.mark.real_engine
def test_the_lesson_walks_the_tutorial_with_numpys_numbers(qtbot, win):
    p = win.lesson
    dock = win.findChild(QDockWidget, "lessonDock")
    assert dock.widget() is p and dock.windowTitle() == "Lesson"
    view = next(a for a in win.menuBar().actions() if a.text() == "&View").menu()
    assert dock.toggleViewAction() in view.actions()
    p.go(0)
    wait_state(qtbot, win, "ready")
    wait_nodes_at(qtbot, win, 0)
    assert not p.prevButton.isEnabled() and not p.previous() and p.index == 0
    check_setup(win, "function")
    s = load_preset("tutorial")
    loss, g, v = grads_for(s)
    assert p.numbers["loss"][0] == pytest.approx(loss, rel=1e-6)
    assert f"loss = {p.numbers['loss'][1]}" in plain(p.textLabel) and p.numbers["loss"][1].startswith(f"{loss:.3f}")

    enter(qtbot, win, p.nextButton)
    check_setup(win, "grad")
    np.testing.assert_allclose(p.numbers["db"][0], g["b"], rtol=1e-5)
    assert f"∂loss/∂b = {vec(g['b'])}" in plain(p.textLabel)

    enter(qtbot, win, p.nextButton)  # z returned: every element of ∂L/∂b grows by exactly 1
    check_setup(win, "return_z")
    np.testing.assert_allclose(p.numbers["db"][0], g["b"] + 1, rtol=1e-5)
    np.testing.assert_allclose(p.numbers["db_loss"][0], g["b"], rtol=1e-5)
    np.testing.assert_allclose(p.numbers["db_z"][0], np.ones(3), rtol=1e-6)
    assert f"∂L/∂b = {vec(g['b'] + 1)}: {vec(g['b'])} from the loss plus {vec(np.ones(3))}" in plain(p.textLabel)
    assert p.links["variants"].isVisible() and not p.links["parity"].isVisible()
    p.links["variants"].click()
    assert win.experiments.currentWidget().widget() is win.experiments.variants

    for step_id in ("stop_gradient", "has_aux"):  # the loss's own gradient again
        enter(qtbot, win, p.nextButton)
        check_setup(win, step_id)
        np.testing.assert_allclose(p.numbers["db"][0], g["b"], rtol=1e-5)
        assert f"∂L/∂b = {vec(g['b'])}" in plain(p.textLabel)
    np.testing.assert_allclose(p.numbers["z"][0], v["z"], rtol=1e-5)
    assert f"z = {vec(v['z'])}" in plain(p.textLabel)

    enter(qtbot, win, p.nextButton)
    check_setup(win, "cell")
    assert p.numbers["loss"][0] == pytest.approx(loss, rel=1e-6)
    np.testing.assert_allclose(p.numbers["db"][0], g["b"], rtol=1e-5)

    enter(qtbot, win, p.nextButton)
    check_setup(win, "train")
    assert "Press Start (or Step) and watch the loss plot fall." in plain(p.textLabel)
    for k in (1, 2, 3):
        qtbot.mouseClick(win.controls.stepButton, Qt.MouseButton.LeftButton)
        wait_nodes_at(qtbot, win, k)
    ref = {k: lo for k, lo, _, _ in replay(plan.setup_session(STEP["train"]), 3)}
    assert p.numbers["first_loss"][0] == pytest.approx(ref[1], rel=1e-6)
    assert p.numbers["last_step"][0] == 3 and p.numbers["last_loss"][0] == pytest.approx(ref[3], rel=1e-6)
    assert f"step 3 has loss {p.numbers['last_loss'][1]}" in plain(p.textLabel)

    enter(qtbot, win, p.nextButton)  # the comparison: trains until the loss is below 0.001
    check_setup(win, "pytorch")
    assert not p.nextButton.isEnabled() and not p.next() and not p.go(8) and p.index == 7
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "finished", timeout=60_000)
    rows = list(replay(plan.setup_session(STEP["pytorch"]), 1000))
    end = next(k for k, lo, _, _ in rows if lo < 0.001)
    assert p.numbers["last_step"][0] == end and p.numbers["last_loop"][0] == end - 1
    assert p.numbers["first_loss"][0] == pytest.approx(rows[0][1], rel=1e-6)
    assert p.numbers["last_loss"][0] == pytest.approx(rows[end - 1][1], abs=1e-5)
    assert f"step {end} (loop:{end - 1}) has loss {p.numbers['last_loss'][1]}" in plain(p.textLabel)

    enter(qtbot, win, p.prevButton)  # back to the tutorial
    check_setup(win, "train")


@pytest.mark.real_engine
def test_entering_a_step_while_training_pauses_or_restarts_and_says_so(qtbot, win):
    p = win.lesson
    p.go(plan.index_of("train"))
    wait_state(qtbot, win, "ready")
    win.controls.speedSpin.setValue(20)  # the speed is the teacher's: no step sets it

    def train():
        qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: win.controller.state == "training" and win.controller.step_count >= 2)

    train()
    p.setupButton.click()  # the same set-up: the run is only paused
    wait_state(qtbot, win, "paused")
    assert p.note_kind == "paused" and "paused" in p.noteLabel.text() and p.noteLabel.isVisibleTo(p)
    assert win.controller.step_count >= 2 and win.document.options.speed == 20
    train()
    assert p.previous() and p.step.id == "cell"  # the same set-up as training: paused again
    wait_state(qtbot, win, "paused")
    assert p.note_kind == "paused"
    train()
    assert p.previous() and p.step.id == "has_aux"  # another run: stopped, rebuilt from step 0
    wait_state(qtbot, win, "ready")
    wait_nodes_at(qtbot, win, 0)
    assert p.note_kind == "restarted" and "step 0" in p.noteLabel.text()
    assert win.controller.step_count == 0 and win.document.options.has_aux
    win.controls.stopGradientCheck.click()  # the user changes an option: the step no longer holds
    assert p.note_kind == "differs" and "Set up again" in p.noteLabel.text()
    p.setupButton.click()
    assert p.note_kind == "" and not win.document.options.stop_gradient and win.document.options.has_aux


@pytest.fixture
def store_file(tmp_path):
    return tmp_path / "settings.conf"


def _stored_window(qtbot, store_file, real_engine: bool = False):
    from gradviz.ui.main_window import MainWindow
    from gradviz.ui.persistence import AppStore

    store = AppStore(QSettings(str(store_file), QSettings.Format.IniFormat), store_file.parent / "data")
    make_client = None if real_engine else standin.client  # the lessons' tasks need MindSpore
    w = MainWindow(store=store, ask=lambda *a: QMessageBox.StandardButton.Discard, make_client=make_client)
    qtbot.addWidget(w)
    return w


def test_the_step_is_remembered_across_restarts_and_reads_in_chinese(qtbot, store_file):
    w = _stored_window(qtbot, store_file)
    assert w.lesson.index == 0
    assert w.lesson.go(plan.index_of("return_z"))
    w.close()
    assert QSettings(str(store_file), QSettings.Format.IniFormat).value("lessonStep") == "return_z"

    w = _stored_window(qtbot, store_file)  # the step and the session both come back; nothing re-applied
    p = w.lesson
    assert p.step.id == "return_z" and p.stepIndicator.text() == "3 / 8"
    assert w.document.options.aux_output and p.note_kind == ""
    assert p.titleLabel.text() == "Returning z: why the gradients change"

    translator = QTranslator()
    assert translator.load(str(QM))
    app = QApplication.instance()
    app.installTranslator(translator)  # Qt tells every widget: the panel retranslates itself
    try:
        qtbot.waitUntil(lambda: p.titleLabel.text() == "同时返回 z：梯度为什么变了")
        assert p.nextButton.text() == "下一步 ▶" and w.findChild(QDockWidget, "lessonDock").windowTitle() == "课程"
        assert "L = loss + sum(z)" in plain(p.textLabel) and "微分函数" in plain(p.textLabel)
        assert p.links["variants"].text() == "显示“四种写法”标签页"
    finally:
        app.removeTranslator(translator)
    qtbot.waitUntil(lambda: p.titleLabel.text() == "Returning z: why the gradients change")
    w.close()
    assert not w.controller.engine_running


def test_a_session_of_ones_own_is_replaced_only_if_the_user_agrees(qtbot, store_file):
    w = _stored_window(qtbot, store_file)
    answers = []
    w.files.ask = lambda *a: answers.append(a[0]) or QMessageBox.StandardButton.Cancel
    w.files.load_preset("mlp")  # not modified yet: no question
    w.document.set_option("seed", 7)  # an option is no one's work: still no question
    assert not w.document.modified
    w.document.rename_node("h", "hidden")  # an edit of the graph is
    assert w.document.modified and not w.lesson.go(plan.index_of("grad"))
    assert answers == ["Unsaved changes"] and w.lesson.index == 0 and w.lesson.note_kind == "kept"
    assert w.document.session.name == "mlp" and w.document.graph.get("hidden") is not None
    w.files.ask = lambda *a: QMessageBox.StandardButton.Discard
    assert w.lesson.go(plan.index_of("grad")) and w.document.session.name == "tutorial"
    asked = []
    w.files.ask = lambda *a: asked.append(a[0]) or QMessageBox.StandardButton.Cancel
    assert w.lesson.go(plan.index_of("return_z")) and not w.document.modified
    assert w.lesson.go(plan.index_of("pytorch"))  # a lesson's own set-up is no one's work: no question
    assert asked == [] and w.document.session.name == "linreg_seed"
    w.files.ask = lambda *a: QMessageBox.StandardButton.Discard
    w.close()


def test_options_a_lesson_sets_or_the_user_changes_never_ask_to_save(qtbot, store_file):
    """Only an edit of the graph is unsaved work: the lesson's set-ups, Graph mode and the
    learning rate (which the guide asks for) leave Previous, Next and the presets unasked."""
    w = _stored_window(qtbot, store_file)
    asked = []
    w.files.ask = lambda *a: asked.append(a[0]) or QMessageBox.StandardButton.Cancel
    p = w.lesson
    assert p.go(plan.index_of("return_z")) and p.next() and p.next()
    w.controls.modeCombo.setCurrentIndex(w.controls.modeCombo.findData("graph"))
    w.controls.lrSpin.setValue(0.5)
    assert w.document.options.mode == "graph" and w.document.options.lr == 0.5
    assert not w.document.modified and not w.windowTitle().endswith("*")
    assert p.next() and p.next() and p.previous()  # cell, train, and back
    w.controls.lrSpin.setValue(0.2)
    w.files.load_preset("mlp")
    assert asked == [] and w.document.session.name == "mlp"
    w.document.move_nodes({"h": (10.0, 10.0)})  # the graph's own layout is the user's work
    w.files.load_preset("tutorial")
    assert asked == ["Unsaved changes"] and w.document.session.name == "mlp"
    w.files.ask = lambda *a: QMessageBox.StandardButton.Discard
    w.close()


def _lines(label) -> list[list[str]]:
    """The lines a word-wrapped QLabel draws, per paragraph: from the document it lays out and paints."""
    doc = label.findChild(QTextDocument)
    paras, block = [], doc.begin()
    while block.isValid():
        layout = block.layout()
        lines = [layout.lineAt(i) for i in range(layout.lineCount())]
        paras.append(
            [(block.text()[ln.textStart() : ln.textStart() + ln.textLength()], ln.naturalTextWidth()) for ln in lines]
        )
        block = block.next()
    return paras


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)])
@pytest.mark.parametrize("chinese", [False, True])
def test_the_lesson_text_keeps_a_long_name_whole_and_inside_the_label(qtbot, store_file, size, chinese):
    """binary_cross_entropy_with_logits(z, is wider than the Lesson dock: Qt's word wrap never
    breaks a word, so it ran off the label's edge and was cut mid-name; then it wrapped after an
    underscore ("binary_cross_entropy_with_ / logits"). It is drawn whole now, a little smaller,
    every line fits, and what is copied from the text is the name as written."""
    w = _stored_window(qtbot, store_file, real_engine=True)
    w.resize(*size)
    with qtbot.waitExposed(w):
        w.show()
    p = w.lesson
    assert p.step.id == "function"
    translator = QTranslator()
    app = QApplication.instance()
    if chinese:
        assert translator.load(str(QM))
        app.installTranslator(translator)
    try:
        if chinese:
            qtbot.waitUntil(lambda: "求得" in plain(p.textLabel))
        label = p.textLabel
        name = "binary_cross_entropy_with_logits(z, y)"
        assert name in plain(label)
        qtbot.waitUntil(lambda: label.findChild(QTextDocument) is not None and any(_lines(label)))
        width = label.contentsRect().width()
        assert QFontMetricsF(label.font()).horizontalAdvance(name.split()[0]) > width  # the name needs a break
        paras = _lines(label)
        for para in paras:
            for text, wide in para:  # none runs off the label's edge
                assert wide <= width + 0.5, (text, wide, width)
            for (a, _), (b, _) in zip(para, para[1:]):  # no break between two characters of a name...
                left, right = a[-1:], b[:1]
                if left == BREAK:  # ...but before its "("
                    assert b[:1] == "(", (a, b)
                else:
                    assert not (re.match(r"[A-Za-z0-9_]", left) and re.match(r"[A-Za-z0-9_(]", right)), (a, b)
        drawn = [text for para in paras for text, _ in para]
        assert any(name.split("(")[0] in t for t in drawn)  # the name on one line
        # copied (Ctrl+C), the text holds the name as written
        label.setSelection(0, label.findChild(QTextDocument).characterCount() - 1)
        label.setFocus()
        QTest.keySequence(label, QKeySequence.StandardKey.Copy)
        copied = QApplication.clipboard().text()
        assert name in copied and BREAK not in copied
    finally:
        app.removeTranslator(translator)
    w.close()


NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*[A-Za-z0-9_]")


@pytest.mark.parametrize("chinese", [False, True])
def test_lesson_lines_break_inside_a_name_only_when_it_is_wider_than_the_line(qtbot, chinese):
    """has_aux, ops.stop_gradient, ∂L/∂b: a line breaks before or after a whole name (they wrapped
    as "has_ / aux", "∂L/ / ∂b"); only a name wider than the label breaks inside, rather than run
    off its edge."""
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QLabel

    from gradviz.ui import theme
    from gradviz.ui.lesson_panel import breakable

    translator = QTranslator()
    app = QApplication.instance()
    if chinese:
        assert translator.load(str(QM))
        app.installTranslator(translator)
    try:
        texts = [QCoreApplication.translate(plan.CONTEXT, p.text) for step in plan.PLAN for p in step.paras]
    finally:
        app.removeTranslator(translator)
    assert any("has_aux" in t for t in texts) and any("stop_gradient" in t for t in texts)
    label = QLabel()
    qtbot.addWidget(label)
    label.setFont(theme.font(12))
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    fm = QFontMetricsF(label.font())
    split = 0
    for width in (190, 245, 330):
        label.setFixedWidth(width)
        with qtbot.waitExposed(label):
            label.show()
        for text in texts:
            label.setText(breakable(text.replace("{", "").replace("}", ""), label))
            label.repaint()  # lays the text out
            for para in _lines(label):
                for (a, _), (b, _) in zip(para, para[1:]):
                    a, b = a.replace(BREAK, "").replace(JOIN, ""), b.replace(BREAK, "").replace(JOIN, "")
                    assert not (re.search(r"∂[A-Za-z0-9_]+/$", a) and b.startswith("∂")), (a, b)  # ∂L/ | ∂b
                    if re.search(r"[A-Za-z0-9_.]$", a) and re.match(r"[A-Za-z0-9_]", b):  # inside a name
                        split += 1
                        whole = re.search(r"[A-Za-z0-9_.]+$", a).group() + NAME.match(b).group()
                        assert fm.horizontalAdvance(whole) > label.contentsRect().width(), (whole, width, a, b)
    assert split  # the narrowest label does split its longest name


def _fully_in_view(widget) -> bool:
    """Shown and not clipped by a scroll area, a dock or the window."""
    return widget.isVisible() and widget.visibleRegion().boundingRect().size() == widget.size()


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)])
def test_every_control_a_step_names_is_in_view_and_training_is_watchable(qtbot, store_file, size):
    """At first launch on a projector: for every step, the controls its text names are in view
    (the learning rate was below the Training dock's fold), the lesson's code is not cut off, the
    Four variants fit their dock or scroll with a visible bar, and a step that asks to watch
    training runs at a pace a class can follow, not flat out."""
    w = _stored_window(qtbot, store_file, real_engine=True)
    w.resize(*size)
    with qtbot.waitExposed(w):
        w.show()
    p = w.lesson
    assert w.document.options.speed == 0  # as fast as possible, until a step asks to watch
    for i, step in enumerate(plan.PLAN):
        assert p.go(i)
        for name in step.controls:
            control = w.findChild(QWidget, name)
            qtbot.waitUntil(lambda c=control: _fully_in_view(c), timeout=2000)
        code = p.codeView
        assert code.horizontalScrollBar().maximum() == 0, step.id  # every line of the code in view
        if step.speed:
            assert 0 < w.document.options.speed <= 30, step.id
    assert p.go(plan.index_of("return_z"))
    wait_state(qtbot, w, "ready")
    p.follow("variants")
    grid = w.experiments.variants
    qtbot.waitUntil(lambda: grid.result is not None, timeout=30_000)
    last = w.findChild(QWidget, f"variantHead_{grid.result.variants[-1].name}")
    area = last.parentWidget()
    while not isinstance(area, QScrollArea):
        area = area.parentWidget()
    qtbot.waitUntil(lambda: last.isVisible())
    dock_area = w.findChild(QDockWidget, "experimentsDock").widget()
    bars = [a.horizontalScrollBar() for a in (area, dock_area)]

    def fits_or_scrolls() -> bool:
        seen = last.visibleRegion().boundingRect()
        return (seen.left(), seen.width()) == (0, last.width()) or any(_fully_in_view(b) for b in bars)

    qtbot.waitUntil(fits_or_scrolls, timeout=2000)
    w.controls.speedSpin.setValue(5)  # a speed set by hand is the teacher's: Set up again keeps it
    assert p.go(plan.index_of("train")) and w.document.options.speed == 5
    w.close()


def test_a_new_step_is_shown_from_its_title(qtbot, store_file):
    """The step's text scrolls in a short Lesson dock; Next shows the next step from its top, not
    at the scroll position the last one was left at (it opened mid-paragraph)."""
    from PySide6.QtWidgets import QScrollArea

    w = _stored_window(qtbot, store_file)
    w.resize(1024, 768)
    with qtbot.waitExposed(w):
        w.show()
    p = w.lesson
    bar = p.findChild(QScrollArea, "lessonScroll").verticalScrollBar()
    assert p.next()
    qtbot.waitUntil(lambda: bar.maximum() > 0, timeout=5000)  # the step is longer than the dock
    bar.setValue(bar.maximum())
    assert p.next()
    assert bar.value() == 0
    bar.setValue(bar.maximum())
    assert p.previous()
    assert bar.value() == 0

"""The data-set presets' lessons (moons, digits): each step's set-up is its preset, every figure
its text quotes is known to the plan and filled from what the app computed, and the window shows
the lesson of the session's preset (the tutorial keeps its own)."""

import re

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget

from gradviz.model import lesson_plan as plan
from gradviz.model.presets import load_preset
from gradviz.model.session import Options
from conftest import wait_state


@pytest.mark.parametrize("key", ["moons", "digits"])
def test_each_data_lesson_sets_up_its_preset_and_names_only_known_figures(key):
    steps = plan.LESSONS[key]
    assert len(steps) >= 4 and len({s.id for s in steps}) == len(steps)
    for s in steps:
        assert s.preset == key and s.id in plan.STEPS and plan.lesson_of_step(s.id) == key
        session = plan.setup_session(s)
        assert session.problems() == [] and plan.matches(s, session), s.id
        for p in s.paras:
            for name in re.findall(r"{(\w+)}", p.text + p.waiting):
                assert name in s.figures, (s.id, name)
        for _title, code in plan.code(s, session):  # the exported program's own lines
            assert code.strip() and code in _script(session)
    assert plan.lesson_for(load_preset(key)) == key
    assert len(plan.STEPS) == sum(len(v) for v in plan.LESSONS.values())  # ids unique across lessons


def _script(session):
    from gradviz.model.scripts import mindspore_script

    return mindspore_script(session)


def test_the_lesson_of_a_session_is_its_presets_or_none_for_ones_own():
    assert plan.lesson_for(load_preset("tutorial")) == "tutorial"
    assert plan.lesson_for(load_preset("linreg_seed")) == "tutorial"  # the tutorial's last step
    assert plan.lesson_for(load_preset("mlp")) is None
    assert plan.index_of("digits_test_loop") == 2 and plan.index_of("cell") == 5


def test_data_and_evaluation_figures_quote_the_run():
    s = load_preset("digits")
    spec = s.graph.data_spec()
    n_test = round(1797 * 0.2)  # the split the Dataset node documents
    n_train = 1797 - n_test
    spe = -(-n_train // 64)
    evals = (
        {"epoch": 1, "step": spe, "test_loss": 0.5, "accuracy": 0.9025, "train_loss": 0.4, "train_accuracy": 0.875},
    )
    seen = plan.Observed(None, None, {}, np.arange(1, spe + 1), np.ones(spe), s.options, evals, spec.describe())
    f = plan.figures(plan.STEPS["digits_test_loop"], seen)
    assert f["test"][1] == f"{n_test:,}" and f["epoch"][1] == "1" and f["spe"][1] == str(spe)
    assert f["test_acc"][1] == "90.2%" and f["train_acc"][1] == "87.5%" and f["test_loss"][1] == "0.5000"
    f = plan.figures(plan.STEPS["digits_data"], seen)
    assert (f["samples"][0], f["train"][0], f["batch"][0]) == (1797, n_train, 64)
    assert plan.figures(plan.STEPS["digits_train"], seen)["epochs"][0] == -(-s.options.steps // spe)
    before = plan.Observed(None, None, {}, np.zeros(0), np.zeros(0), Options())
    assert all(v is None for v in plan.figures(plan.STEPS["moons_train"], before).values())


def _load(qtbot, win, name):
    win.files.load_preset(name)
    qtbot.waitUntil(lambda: win.controller.state == "ready" and win.controller.session.name == name, timeout=30_000)


def test_the_window_shows_the_lesson_of_the_presets_session(qtbot, win):
    p = win.lesson
    assert p.lesson == "tutorial" and p.stepIndicator.text() == "1 / 8"
    _load(qtbot, win, "moons")
    assert p.lesson == "moons" and p.step.id == "moons_data" and p.stepIndicator.text() == "1 / 4"
    assert p.titleLabel.text() == "Two moons: the data" and p.note_kind == ""
    assert p.numbers["train"][0] == 320 and p.numbers["test"][0] == 80 and p.numbers["spe"][0] == 20
    # every step's set-up works; the last one trains and quotes the evaluation after epoch 1
    for i in range(1, 4):
        assert p.go(i) and p.step.id == plan.LESSONS["moons"][i].id
        if p.step.id == "moons_units":  # the mini maps' step points to the Data tab
            data = win.findChild(QDockWidget, "dataDock")
            assert data.visibleRegion().isEmpty() and not p.links["data"].isHidden()
            qtbot.mouseClick(p.links["data"], Qt.MouseButton.LeftButton)
            qtbot.waitUntil(lambda d=data: not d.visibleRegion().isEmpty())
    assert p.step.id == "moons_train" and not p.nextButton.isEnabled()
    wait_state(qtbot, win, "ready")
    win.controls.maxStepsSpin.setValue(20)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.state == "finished" and len(win.controller.evals) == 1, timeout=30_000)
    p.refresh()
    e = win.controller.evals[0]
    assert p.numbers["epoch"][0] == 1 and p.numbers["test_acc"][1] == f"{100 * e['accuracy']:.1f}%"
    _load(qtbot, win, "digits")
    assert p.lesson == "digits" and p.stepIndicator.text() == "1 / 4"
    for i in range(1, 4):
        assert p.go(i)
    assert "def train_loop():" in p.codeView.toPlainText()
    assert p.go(2) and p.codeView.toPlainText().startswith("def test_loop():")
    # test_loop's step points to the Test images tab: its link brings that dock to the front
    images = win.findChild(QDockWidget, "imagesDock")
    win.findChild(QDockWidget, "plotsDock").raise_()
    link = p.links["images"]
    assert not link.isHidden() and p.links["data"].isHidden()
    qtbot.mouseClick(link, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not images.visibleRegion().isEmpty())
    _load(qtbot, win, "tutorial")
    assert p.lesson == "tutorial" and p.step.id == "function"

"""A session over a Dataset node in the window (the engine stand-in): it trains in mini-batches,
the Node tab edits the Dataset node's attributes, and a bad one is refused naming the field."""

import pytest
from PySide6.QtCore import Qt

from conftest import wait_state


def _load(qtbot, win, name):
    win.files.load_preset(name)
    qtbot.waitUntil(lambda: win.controller.state == "ready" and win.controller.session.name == name, timeout=30_000)


def test_a_dataset_session_trains_in_the_window(qtbot, win):
    _load(qtbot, win, "moons")
    assert "data" in win.scene.items_by_name
    win.controls.maxStepsSpin.setValue(45)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.state == "finished" and win.controller.step_count == 45, timeout=30_000)
    assert len(win.controller.history.loss) == 45
    # an evaluation after each of the two epochs ended, drawn on the accuracy and loss plots
    qtbot.waitUntil(lambda: len(win.plots.evals) == 2, timeout=10_000)
    plots = win.plots
    assert plots.accuracyPlot.isVisible() and win.findChild(type(plots.accuracyPlot), "accuracyPlot")
    x, acc = plots.test_accuracy_curve.getData()
    assert list(x) == [20.0, 40.0] and all(0 <= a <= 1 for a in acc)
    assert list(plots.test_loss_curve.getData()[0]) == [20.0, 40.0]
    assert [e["epoch"] for e in win.controller.evals] == [1, 2]
    assert "epoch 2:" in plots.accuracyPlot.gv_note
    # a past step shows the last evaluation at or before it
    win.timeTravel.bar.slider.setValue(25)
    qtbot.waitUntil(lambda: win.timeTravel.past is not None and win.timeTravel.shown == 25, timeout=10_000)
    assert "epoch 1:" in plots.accuracyPlot.gv_note
    win.timeTravel.bar.slider.setValue(10)
    qtbot.waitUntil(lambda: win.timeTravel.shown == 10, timeout=10_000)
    assert plots.accuracyPlot.gv_note == ""


def test_a_saved_dataset_run_reads_back_with_its_epochs_and_evaluations(qtbot, win, tmp_path):
    import json

    from gradviz.formats.run_reader import read_history

    _load(qtbot, win, "moons")
    win.controls.maxStepsSpin.setValue(25)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.state == "finished" and len(win.controller.evals) == 1, timeout=30_000)
    path = tmp_path / "run.jsonl"
    job = win.files.export_history(str(path))
    qtbot.waitUntil(lambda: job.done, timeout=30_000)
    assert job.error is None
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    assert recs[0]["inputs"] == {} and recs[0]["dataset"]["steps_per_epoch"] == 20
    assert [r["type"] for r in recs[20:23]] == ["step", "eval", "step"] and recs[21]["step"] == 20
    assert (recs[22]["epoch"], recs[22]["batch"]) == (2, 1)
    run = read_history(path)
    assert run.session.graph.dataset() is not None and list(run.arrays[0]) == list(range(1, 26))
    assert [(e["epoch"], e["step"]) for e in run.evals] == [(1, 20)]
    assert run.evals[0]["accuracy"] == recs[21]["accuracy"] and run.evals[0]["test_loss"] == recs[21]["test_loss"]


def test_an_opened_run_shows_its_saved_evaluations(qtbot, win, tmp_path):
    _load(qtbot, win, "moons")
    win.controls.maxStepsSpin.setValue(45)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.state == "finished" and len(win.controller.evals) == 2, timeout=30_000)
    saved = [v for e in win.controller.evals for v in (e["step"], e["accuracy"], e["test_loss"])]
    path = tmp_path / "run.jsonl"
    job = win.files.export_history(str(path))
    qtbot.waitUntil(lambda: job.done, timeout=30_000)
    win.files.load_preset("tutorial")  # something else is shown before the run is opened
    qtbot.waitUntil(lambda: win.controller.state == "ready" and win.controller.evals == (), timeout=30_000)
    job = win.files.open_history_file(str(path))
    qtbot.waitUntil(lambda: job.done and win.controller.recorded, timeout=30_000)
    # the file keeps float32's digits
    got = [v for e in win.controller.evals for v in (e["step"], e["accuracy"], e["test_loss"])]
    assert got == pytest.approx(saved, rel=1e-6)
    qtbot.waitUntil(lambda: len(win.plots.evals) == 2, timeout=10_000)
    x, acc = win.plots.test_accuracy_curve.getData()
    assert list(x) == [20.0, 40.0] and list(acc) == pytest.approx(saved[1::3], rel=1e-6)


def test_a_session_without_a_dataset_has_no_accuracy_plot(qtbot, win):
    assert not win.plots.accuracyPlot.isVisible()


def test_the_node_tab_edits_the_dataset_node(qtbot, win):
    from PySide6.QtWidgets import QComboBox, QDoubleSpinBox

    _load(qtbot, win, "moons")
    insp = win.inspector
    insp.show_node("data")
    source = insp.findChild(QComboBox, "inspectorAttr_source")
    batch = insp.findChild(QDoubleSpinBox, "inspectorAttr_batch_size")
    assert source.currentText() == "moons" and batch.value() == 16 and batch.decimals() == 0
    batch.setValue(32)
    source.setCurrentText("circles")
    qtbot.mouseClick(insp.applyButton, Qt.MouseButton.LeftButton)
    g = win.document.graph
    assert g["data"].attrs["batch_size"] == 32 and g["data"].attrs["source"] == "circles"
    assert g.check()["x"] == (32, 2)  # the Inputs it feeds follow the batch size
    win.document.undo()
    assert win.document.graph["data"].attrs["batch_size"] == 16
    wait_state(qtbot, win, "ready")


def test_a_batch_larger_than_the_training_set_is_named(qtbot, win):
    from PySide6.QtWidgets import QDoubleSpinBox

    _load(qtbot, win, "moons")
    win.inspector.show_node("data")
    win.inspector.findChild(QDoubleSpinBox, "inspectorAttr_batch_size").setValue(400)
    qtbot.mouseClick(win.inspector.applyButton, Qt.MouseButton.LeftButton)
    problems = [p.message for p in win.document.graph.validate() if p.node == "data"]
    assert problems == [
        'Dataset "data": batch_size must be a whole number from 1 to the training set\'s 320 samples, not 400'
    ]


def test_the_node_tab_chooses_the_file_and_names_a_bad_one(qtbot, win, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QComboBox, QLineEdit, QPushButton

    _load(qtbot, win, "moons")
    insp = win.inspector
    win.scene.items_by_name["data"].setSelected(True)
    path = insp.findChild(QLineEdit, "inspectorAttr_path")
    button = insp.findChild(QPushButton, "inspectorAttrChoose_path")
    assert path.text() == "" and not button.isEnabled() and not path.isEnabled()  # moons reads no file
    insp.findChild(QComboBox, "inspectorAttr_source").setCurrentText("csv")
    assert button.isEnabled() and path.isEnabled()

    def choose(source):
        insp.findChild(QComboBox, "inspectorAttr_source").setCurrentText(source)
        qtbot.mouseClick(insp.findChild(QPushButton, "inspectorAttrChoose_path"), Qt.MouseButton.LeftButton)
        assert insp.name == "data"

    bad, good = tmp_path / "bad.csv", tmp_path / "good.csv"
    bad.write_text("a,b,label\n1,2,0\n3,x,1\n")
    good.write_text("a,b,label\n" + "".join(f"{i % 7},{i % 3},{i % 2}\n" for i in range(60)))
    asked = []
    chosen = iter([str(bad), str(good), str(tmp_path)])
    monkeypatch.setattr(insp, "ask_path", lambda folder, start: asked.append(folder) or next(chosen))
    choose("csv")
    g = win.document.graph
    assert g["data"].attrs["path"] == str(bad) and g["data"].attrs["source"] == "csv"
    shown = [win.problemsList.item(i).text() for i in range(win.problemsList.count())]
    assert shown[0] == "Dataset \"data\": bad.csv, line 3: column b holds 'x', not a number"
    assert win.lesson.lesson == "moons" and win.lesson.codeView.toPlainText() == ""  # no program yet
    choose("csv")
    assert win.document.graph["data"].attrs["path"] == str(good) and win.problemsList.count() == 0
    assert not win.document.session.problems() and win.document.graph.check()["x"] == (16, 2)
    wait_state(qtbot, win, "ready")
    choose("mnist")  # a folder is asked for
    assert asked == [False, False, True]
    assert "has no file train-images-idx3-ubyte" in win.problemsList.item(0).text()
    for _ in range(3):  # each choice is one undoable edit
        win.document.undo()
    assert (
        win.document.graph["data"].attrs.get("path", "") == "" and win.document.graph["data"].attrs["source"] == "moons"
    )

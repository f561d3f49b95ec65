"""The image view of a run over a data set of images: the engine's predictions and confusion
counts after each epoch, checked against a float64 numpy forward pass written here; the panel
(the engine stand-in) only for image data, following the shown step, marking wrong predictions,
counting as numpy does."""

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QDockWidget

from gradviz.model.presets import load_preset
from gradviz.ui import theme


def _counts(predicted, labels, classes=10):
    out = np.zeros((classes, classes), int)
    for t, p in zip(labels, predicted):
        out[t, p] += 1
    return out


def _digits_test_set(session):
    from sklearn.datasets import load_digits

    a = session.graph["data"].attrs
    d = load_digits()
    x = (d.data / 16.0).astype(np.float32).astype(np.float64)
    perm = np.random.RandomState(a["seed"]).permutation(len(x))
    test = perm[len(x) - round(len(x) * a["test_fraction"]) :]
    return x[test], d.target[test]


@pytest.mark.real_engine
def test_the_engines_predictions_and_confusion_are_numpys():
    from gradviz.engine.engine import Engine

    s = load_preset("digits")
    tx, ty = _digits_test_set(s)
    e = Engine(s)
    try:
        for _ in range(e.steps_per_epoch):
            e.step()
        (ev,) = e.evals
        p = e.current_params()
    finally:
        e.close()
    h = tx
    names = [n.name for n in s.graph.nodes if n.kind == "Dense"]
    for i, n in enumerate(names):
        h = h @ p[f"{n}_weight"].T.astype(np.float64) + p[f"{n}_bias"].astype(np.float64)
        if i < len(names) - 1:
            h = np.maximum(h, 0)
    z = np.exp(h - h.max(1, keepdims=True))
    prob = z / z.sum(1, keepdims=True)
    want = prob.argmax(1)
    top2 = np.sort(prob, 1)[:, -2:]
    clear = top2[:, 1] - top2[:, 0] > 1e-4  # float32 against float64: a near tie may go either way
    assert clear.sum() >= len(ty) - 2
    assert ev.predicted.shape == (len(ty),) and np.array_equal(ev.predicted[clear], want[clear])
    np.testing.assert_allclose(ev.confidence, prob.max(1), atol=1e-4)
    assert np.array_equal(np.array(ev.confusion), _counts(ev.predicted, ty))
    assert np.abs(np.array(ev.confusion) - _counts(want, ty)).sum() <= 2 * (~clear).sum()
    assert ev.accuracy == pytest.approx(np.mean(ev.predicted == ty))
    assert ev.to_dict()["confusion"] == _counts(ev.predicted, ty).tolist()


def _load(qtbot, win, name):
    win.files.load_preset(name)
    qtbot.waitUntil(lambda: win.controller.state == "ready" and win.controller.session.name == name, timeout=30_000)


def _dock_shown(win) -> bool:
    return win.findChild(QDockWidget, "imagesDock").toggleViewAction().isChecked()


def test_the_image_view_is_only_for_image_data(qtbot, win):
    assert not _dock_shown(win) and not win.imagePanel.available  # the tutorial: no data set
    _load(qtbot, win, "moons")
    assert not _dock_shown(win)  # 2-D points
    _load(qtbot, win, "digits")
    assert _dock_shown(win) and win.imagePanel.available
    assert len(win.imagePanel.grid.labels) == 359 and win.imagePanel.grid.images.shape == (359, 8, 8)
    _load(qtbot, win, "tutorial")
    assert not _dock_shown(win)


def test_the_image_view_follows_training_and_the_shown_step(qtbot, win):
    from gradviz.engine import protocol as msg

    _load(qtbot, win, "digits")
    panel, c = win.imagePanel, win.controller
    win.findChild(QDockWidget, "imagesDock").raise_()
    assert panel.grid.predicted is None and panel.matrix.counts is None
    win.controls.maxStepsSpin.setValue(50)  # two epochs of 23 steps and a few more
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: c.state == "finished" and len(c.predictions) == 2, timeout=60_000)
    qtbot.waitUntil(lambda: panel.eval is not None and panel.eval["epoch"] == 2, timeout=10_000)
    labels = panel.grid.labels
    pred = c.predictions[1]["predicted"]
    assert np.array_equal(panel.grid.predicted, pred)
    assert np.array_equal(panel.matrix.counts, _counts(pred, labels))
    rows = _counts(pred, labels)
    np.testing.assert_allclose(panel.matrix.per_class, np.diag(rows) / rows.sum(1))
    wrong = np.flatnonzero(pred != labels)
    assert len(wrong) and f"{len(wrong)} of 359 wrong" in panel.title.text()
    # a wrong one has a red frame, a right one none
    img = panel.grid.grab().toImage()
    red = QColor(theme.ERROR_COLOR)

    def framed(i):
        r = panel.grid.image_rect(int(np.flatnonzero(panel.grid.shown == i)[0]))
        return img.pixelColor(int(r.x() - 2 * theme.LOOK.scale), int(r.center().y())) == red

    right = np.flatnonzero(pred == labels)
    assert framed(wrong[0]) and not framed(right[0])
    panel.onlyWrong.setChecked(True)
    assert list(panel.grid.shown) == list(wrong)
    panel.onlyWrong.setChecked(False)
    # time travel: a step of the second epoch shows the first epoch's evaluation, the first none
    win.timeTravel.bar.slider.setValue(30)
    qtbot.waitUntil(lambda: win.timeTravel.shown == 30, timeout=10_000)
    assert panel.eval["epoch"] == 1
    assert np.array_equal(panel.grid.predicted, c.predictions[0]["predicted"])
    assert np.array_equal(panel.matrix.counts, _counts(c.predictions[0]["predicted"], labels))
    win.timeTravel.bar.slider.setValue(10)
    qtbot.waitUntil(lambda: win.timeTravel.shown == 10, timeout=10_000)
    assert panel.eval is None and panel.grid.predicted is None and panel.matrix.counts is None
    # Continue from here: the later evaluations are dropped, and come again as training goes on
    win.timeTravel.bar.slider.setValue(30)
    qtbot.waitUntil(lambda: win.timeTravel.shown == 30, timeout=10_000)
    win.timeTravel.continue_here()
    qtbot.waitUntil(lambda: c.state == "finished" and len(c.predictions) == 2, timeout=60_000)
    qtbot.waitUntil(lambda: panel.eval is not None and panel.eval["epoch"] == 2, timeout=10_000)
    # a reset drops the run's results
    win.reset()
    qtbot.waitUntil(lambda: c.state == "ready" and c.step_count == 0, timeout=30_000)
    assert c.predictions == () and panel.eval is None and panel.matrix.counts is None
    assert isinstance(c.info, msg.BuildInfo) and c.info.test_images is not None


def test_a_saved_run_keeps_the_confusion_counts_and_the_reader_checks_them(qtbot, win, tmp_path):
    import json

    from gradviz.formats.run_reader import read_history
    from gradviz.model.session import SessionError

    _load(qtbot, win, "digits")
    c = win.controller
    win.controls.maxStepsSpin.setValue(23)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: c.state == "finished" and len(c.predictions) == 1, timeout=60_000)
    path = tmp_path / "run.jsonl"
    job = win.files.export_history(str(path))
    qtbot.waitUntil(lambda: job.done, timeout=30_000)
    assert job.error is None
    lines = path.read_text().splitlines()
    recs = [json.loads(line) for line in lines]
    (ev,) = [r for r in recs if r["type"] == "eval"]
    assert ev["confusion"] == _counts(c.predictions[0]["predicted"], win.imagePanel.grid.labels).tolist()
    # opened again, the run shows its saved counts (the file keeps no per-image predictions)
    job = win.files.open_history_file(str(path))
    qtbot.waitUntil(lambda: job.done and c.recorded and win.imagePanel.matrix.counts is not None, timeout=30_000)
    assert np.array_equal(win.imagePanel.matrix.counts, ev["confusion"])
    assert win.imagePanel.grid.predicted is None
    at = next(i for i, r in enumerate(recs) if r["type"] == "eval")
    for bad in ([[1, 2], [3]], [[-1]], "many"):
        recs[at]["confusion"] = bad
        path.write_text("\n".join(json.dumps(r) for r in recs) + "\n")
        with pytest.raises(SessionError, match=f'line {at + 1}: "confusion" must be a square list of lists'):
            read_history(path)


@pytest.mark.real_engine
def test_gradviz_run_writes_the_confusion_counts_in_its_eval_records(tmp_path):
    import json

    from gradviz.cli import main

    out = tmp_path / "run.jsonl"
    assert main(["run", "--preset", "digits", "--epochs", "1", "--batch-size", "256", "--out", str(out)]) == 0
    (ev,) = [r for r in map(json.loads, out.read_text().splitlines()) if r["type"] == "eval"]
    counts = np.array(ev["confusion"])
    assert counts.shape == (10, 10) and counts.sum() == 359
    _, ty = _digits_test_set(load_preset("digits"))
    assert np.array_equal(counts.sum(1), np.bincount(ty, minlength=10))  # each row is a true class
    assert np.trace(counts) / 359 == pytest.approx(ev["accuracy"])


def test_the_test_images_export_as_a_picture_only_for_image_data(qtbot, win, tmp_path):
    import os

    from PySide6.QtGui import QImage

    actions = win.exports.picture_actions
    win.exports.update_actions()
    assert not actions[("imagePanel", "png")].isEnabled()
    _load(qtbot, win, "digits")
    c = win.controller
    win.controls.maxStepsSpin.setValue(23)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: c.state == "finished" and len(c.predictions) == 1, timeout=60_000)
    win.exports.update_actions()
    assert actions[("imagePanel", "png")].isEnabled()
    data, size = win.exports.picture("imagePanel", "png")  # its tab behind the plots'
    img = QImage.fromData(data)
    assert size == win.imagePanel.size() and img.width() == 2 * size.width()
    if os.environ.get("GRADVIZ_KEEP_PICTURES"):
        img.save(os.environ["GRADVIZ_KEEP_PICTURES"])
    red = QColor(theme.ERROR_COLOR).rgb()
    assert any(img.pixel(x, y) == red for x in range(0, img.width(), 3) for y in range(0, img.height(), 3))


def test_the_image_view_speaks_the_windows_language(qtbot, win):
    from PySide6.QtCore import QLocale

    from gradviz.ui import language

    _load(qtbot, win, "digits")
    c, panel = win.controller, win.imagePanel
    win.controls.maxStepsSpin.setValue(23)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: c.state == "finished" and panel.eval is not None, timeout=60_000)
    before = QLocale()
    try:
        language.set_language("zh_CN")
        assert "张错" in panel.title.text() and panel.onlyWrong.text() == "只看错的"
        assert win.findChild(QDockWidget, "imagesDock").windowTitle() == "测试图像"
    finally:
        language.set_language("en")
        QLocale.setDefault(before)
    assert " wrong, accuracy " in panel.title.text()


def test_predictions_read_logits_and_probabilities_as_the_loss_does():
    from gradviz.model import predictions

    z = np.array([[2.0, -1.0, 0.5], [0.0, 3.0, 3.5]])
    pred, top = predictions.predict(z, "SoftmaxCrossEntropy")  # logits: their softmax
    e = np.exp(z)
    assert list(pred) == [0, 2] and np.allclose(top, (e / e.sum(1, keepdims=True)).max(1))
    pred, top = predictions.predict(np.array([[-0.4], [1.2]]), "BCEWithLogits")  # one logit: its sigmoid
    assert list(pred) == [0, 1] and np.allclose(top, [1 - 1 / (1 + np.exp(0.4)), 1 / (1 + np.exp(-1.2))])
    pred, top = predictions.predict(np.array([[0.2], [0.7]]), "MSE")  # a prediction: as it is
    assert list(pred) == [0, 1] and np.allclose(top, [0.8, 0.7])
    counts = predictions.confusion([0, 1, 1, 2], [0, 1, 2, 2], 4)
    assert counts.tolist() == [[1, 0, 0, 0], [0, 1, 0, 0], [0, 1, 1, 0], [0, 0, 0, 0]]
    acc = predictions.per_class_accuracy(counts)
    assert acc[:3].tolist() == [1.0, 1.0, 0.5] and np.isnan(acc[3])

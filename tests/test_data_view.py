"""The data view in the window (the engine stand-in, whose plane is float64 numpy; MindSpore's
own plane is checked in tests/test_plane.py): it appears for a 2-D data set and not for images,
draws the network's output at the step the History slider shows, refreshes live while training
with one request in flight at a time, drops the answers of a run since reset, and puts a mini
map per unit on the hidden nodes."""

import numpy as np
import pytest
from PySide6.QtCore import QObject, QPointF, Qt, Signal
from PySide6.QtWidgets import QDockWidget, QWidget

from gradviz.engine import protocol as msg
from gradviz.model import datasets, plane
from reference import moons_forward


def _load(qtbot, win, name):
    win.files.load_preset(name)
    qtbot.waitUntil(lambda: win.controller.state == "ready" and win.controller.session.name == name, timeout=30_000)


def _train(qtbot, win, steps):
    win.controls.maxStepsSpin.setValue(steps)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.state == "finished" and win.controller.step_count == steps, timeout=30_000)


def test_the_data_view_appears_for_moons_and_not_for_digits(qtbot, win):
    dock = win.findChild(QDockWidget, "dataDock")
    assert not dock.isVisible()  # the tutorial has no data set
    _load(qtbot, win, "moons")
    view = win.findChild(QWidget, "dataView")
    assert dock.isVisible() and view is win.dataPanel.view
    qtbot.waitUntil(lambda: win.dataPanel.pictures >= 1, timeout=10_000)
    assert view.property("shownStep") == 0 and view.probs.shape == (100, 100, 2)
    info = win.controller.info.plane
    assert len(info["train_y"]) == 320 and len(info["test_y"]) == 80
    # the points lie inside the plane, with a margin
    x0, x1, y0, y1 = info["bounds"]
    allx = np.concatenate([info["train_x"], info["test_x"]])
    assert x0 < allx[:, 0].min() and allx[:, 0].max() < x1 and y0 < allx[:, 1].min() and allx[:, 1].max() < y1
    # a mini map per unit on each hidden node, none on the others
    items = win.scene.items_by_name
    assert [n for n, i in items.items() if i.unit_maps is not None] == ["fc1", "h1", "fc2", "h2"]
    assert items["h1"].unit_maps.units == 8 and items["h1"].unit_maps.maps.shape == (24, 24, 8)
    _load(qtbot, win, "digits")
    assert not dock.isVisible() and not win.dataPanel.available
    assert all(i.unit_maps is None for i in win.scene.items_by_name.values())


def test_the_picture_is_numpys_forward_at_the_step_the_slider_shows(qtbot, win):
    _load(qtbot, win, "moons")
    _train(qtbot, win, 30)
    view = win.dataView
    # finished: the last step is shown, at its parameters (29 updates), as on the graph
    qtbot.waitUntil(lambda: view.shownStep == 29 and win.graphView.shownStep == 29, timeout=10_000)
    for step in (12, 3):
        win.timeTravel.bar.slider.setValue(step)
        qtbot.waitUntil(lambda s=step: view.shownStep == s - 1 and win.graphView.shownStep == s - 1, timeout=10_000)
        params = win.controller.past_params(step)
        want, hidden = moons_forward(view.spec.points(100), params)
        np.testing.assert_allclose(view.probs.reshape(-1, 2), want, rtol=1e-6, atol=1e-7)  # float32 of float64
        maps = win.scene.items_by_name["h2"].unit_maps.maps
        _, hidden = moons_forward(view.spec.points(24), params)
        np.testing.assert_allclose(maps.reshape(-1, 8), hidden["h2"], rtol=1e-6, atol=1e-7)
    assert "step 3 (parameters after 2 updates)" in win.dataPanel.title.text()
    # Continue from here: back to the live run, trained on from step 3
    win.controls.maxStepsSpin.setValue(40)
    qtbot.mouseClick(win.timeTravel.bar.continueButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.state == "finished" and win.controller.step_count == 40, timeout=30_000)
    qtbot.waitUntil(lambda: view.shownStep == 39, timeout=10_000)


def test_it_refreshes_live_while_training_with_one_request_in_flight(qtbot, win):
    _load(qtbot, win, "moons")
    panel, c = win.dataPanel, win.controller
    qtbot.waitUntil(lambda: panel.pictures >= 1, timeout=10_000)
    events = []
    ask = c.request_plane

    def counted(*a, **k):
        sent = ask(*a, **k)
        if sent:
            events.append("ask")
        return sent

    c.request_plane = counted
    # the answer is counted before the panel takes it (the panel may ask again at once, where the
    # answer came later than its refresh interval)
    c.planeArrived.disconnect(panel._on_plane)
    c.planeArrived.connect(lambda m: events.append("answer"))
    c.planeArrived.connect(panel._on_plane)
    c.set_live_option("speed", 0.0)
    win.controls.maxStepsSpin.setValue(1_000_000)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: c.state == "training", timeout=10_000)
    first = panel.pictures
    qtbot.waitUntil(lambda: panel.pictures >= first + 3 and c.step_count > 100, timeout=20_000)
    assert c.state == "training"
    win.controls.startButton.click()  # pause
    qtbot.waitUntil(lambda: c.state == "paused", timeout=10_000)
    # never a second request before the first is answered, and far fewer than one per step
    assert events[0] == "ask"
    assert all(a != b for a, b in zip(events, events[1:])), "".join(e[1] for e in events)
    assert 3 <= events.count("ask") < c.step_count / 5
    assert panel.dropped == 0


def test_a_reset_drops_the_answers_of_the_run_before(qtbot, win):
    _load(qtbot, win, "moons")
    panel, c = win.dataPanel, win.controller
    qtbot.waitUntil(lambda: panel.pictures >= 1, timeout=10_000)
    drained = []  # every Plane the engine sent, before the controller reads it
    drain = c._client.drain
    c._client.drain = lambda: [m for m in drain() if not isinstance(m, msg.Plane) or drained.append(m) or True]
    emitted = []
    c.planeArrived.connect(lambda m: emitted.append((m.run_id, m.request)))
    old = c.run_id
    assert c.request_plane(999, panel.spec)  # answered before the engine reads the Build below
    c.reset()
    qtbot.waitUntil(lambda: c.run_id == old + 1 and c.state == "ready" and panel.pictures >= 1, timeout=10_000)
    qtbot.waitUntil(lambda: any(m.run_id == old and m.request == 999 for m in drained), timeout=10_000)
    assert emitted and all(run == old + 1 for run, _ in emitted)  # the old run's answer never reached the view
    assert panel.view.shownStep == 0 and panel.dropped == 0


def test_hovering_a_mini_map_enlarges_it(qtbot, win):
    _load(qtbot, win, "moons")
    qtbot.waitUntil(lambda: win.dataPanel.pictures >= 1, timeout=10_000)
    maps = win.scene.items_by_name["h1"].unit_maps
    centre = maps.map_rect(5).center()
    bounds = win.scene.itemsBoundingRect()
    maps.hover_at(centre)
    assert maps.hovered == 5 and maps.enlarged.scene() is win.scene
    assert maps.enlarged.boundingRect().width() > 3 * maps.map_rect(5).width()  # enlarged
    assert "h1 unit 5" in maps.enlarged.caption and maps.enlarged.image is maps.images[5]
    maps.hover_at(QPointF(-50, -50))
    assert maps.hovered is None and maps.enlarged.scene() is None
    assert win.scene.itemsBoundingRect() == bounds  # the graph's fit and export are as before


def test_the_data_view_is_exported_as_a_picture(qtbot, win, tmp_path):
    _load(qtbot, win, "moons")
    qtbot.waitUntil(lambda: win.dataPanel.pictures >= 1, timeout=10_000)
    action = win.exports.picture_actions[("dataPanel", "png")]
    win.exports.update_actions()
    assert action.isEnabled()
    path = tmp_path / "data.png"
    assert win.exports.save_picture("dataPanel", str(path))
    from PySide6.QtGui import QImage

    img = QImage(str(path))
    assert img.width() == 2 * win.dataPanel.width() and img.height() == 2 * win.dataPanel.height()


@pytest.mark.real_engine
def test_mindspore_draws_it_live_while_training(qtbot, win):
    _load(qtbot, win, "moons")
    panel, c = win.dataPanel, win.controller
    qtbot.waitUntil(lambda: panel.pictures >= 1, timeout=30_000)
    win.controls.maxStepsSpin.setValue(1_000_000)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: c.state == "training" and panel.pictures >= 2, timeout=30_000)
    first, shown = panel.pictures, panel.view.shownStep
    qtbot.waitUntil(lambda: panel.pictures >= first + 4 and panel.view.shownStep > shown, timeout=20_000)
    assert c.state == "training"
    win.controls.startButton.click()  # pause
    # paused: the last step is shown, at its parameters
    qtbot.waitUntil(lambda: c.state == "paused" and panel.view.shownStep == c.step_count - 1, timeout=10_000)
    assert panel.dropped == 0


class _Controller(QObject):
    """What the panel reads of the controller, with the requests it sends recorded."""

    built, ticked, rewound, planeArrived = Signal(), Signal(), Signal(int), Signal(object)
    stateChanged = Signal(object)

    def __init__(self, session):
        super().__init__()
        self.session, self.evals, self.updates, self.sent, self.state = session, (), 0, [], "ready"
        info = plane.plane_info(session.graph, session.graph.check(), datasets.prepare(session.graph.data_spec()))
        self.info = type("Info", (), {"plane": info})()

    def holds_params(self, step):
        return False

    def request_plane(self, request, spec, step=None):
        self.sent.append(request)
        return True


def test_live_requests_wait_for_the_answer_and_come_at_least_twice_a_second(qtbot):
    from gradviz.model.presets import load_preset
    from gradviz.model.shown import ShownNodes
    from gradviz.ui.data_view import REFRESH_SECONDS, DataPanel

    assert REFRESH_SECONDS <= 0.5  # two pictures a second, while the engine answers in time
    now = [100.0]
    c = _Controller(load_preset("moons"))
    panel = DataPanel(c, ShownNodes(), set_available=lambda _on: None, clock=lambda: now[0])
    qtbot.addWidget(panel)
    c.built.emit()
    assert c.sent == [1]  # the first picture, at once

    def answer(request, updates):
        spec = panel.spec
        probs = np.full((spec.resolution, spec.resolution, 2), 0.5, np.float32)
        c.planeArrived.emit(msg.Plane(1, request, spec, updates, probs, {}))

    for _ in range(5):
        c.updates += 7
        c.ticked.emit()
    assert c.sent == [1]  # one in flight: nothing more until it is answered
    answer(1, 35)
    assert panel.view.shownStep == 35 and c.sent == [1]  # the run has not moved on since
    c.updates += 7
    c.ticked.emit()
    assert c.sent == [1]  # it has now, but the last request was too recent
    now[0] += REFRESH_SECONDS / 2
    c.ticked.emit()
    assert c.sent == [1]
    now[0] += REFRESH_SECONDS / 2
    c.ticked.emit()
    assert c.sent == [1, 2]  # due: the run moved on
    answer(99, 3)  # not the request in flight: dropped
    assert panel.dropped == 1 and panel.view.shownStep == 35
    answer(2, 42)
    now[0] += REFRESH_SECONDS
    c.ticked.emit()
    assert panel.view.shownStep == 42 and panel.pictures == 2 and c.sent == [1, 2]  # the run has not moved on
    c.updates += 1
    c.ticked.emit()
    assert c.sent == [1, 2, 3]


def test_an_opened_run_draws_its_saved_steps(qtbot, win, tmp_path):
    _load(qtbot, win, "moons")
    _train(qtbot, win, 25)
    path = tmp_path / "run.jsonl"
    job = win.files.export_history(str(path))
    qtbot.waitUntil(lambda: job.done, timeout=30_000)
    win.files.load_preset("tutorial")
    qtbot.waitUntil(lambda: win.controller.state == "ready" and not win.dataPanel.available, timeout=30_000)
    job = win.files.open_history_file(str(path))
    qtbot.waitUntil(lambda: job.done and win.controller.recorded, timeout=30_000)
    assert win.dataPanel.available
    win.timeTravel.bar.slider.setValue(7)
    qtbot.waitUntil(lambda: win.dataView.shownStep == 6, timeout=10_000)
    want, _ = moons_forward(win.dataView.spec.points(100), win.controller.past_params(7))
    np.testing.assert_allclose(win.dataView.probs.reshape(-1, 2), want, rtol=1e-6, atol=1e-7)

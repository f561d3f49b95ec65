"""Exports for slides: pictures (PNG, SVG), the history (CSV, JSON Lines) and an animated GIF,
from File > Export in the real window and from `gradviz screenshot`. Every file is decoded as
a viewer would (Pillow, an XML parser, run_reader); numbers are checked against float64 numpy
(tests/reference.py)."""

import csv
import errno
import io
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageSequence
from PySide6.QtCore import QCoreApplication, QEvent, Qt

from gradviz.cli import main
from gradviz.formats.frames import MIN_FRAMES, TooFewSteps, frame_steps, gif_bytes
from gradviz.formats.run_reader import read_history
from gradviz.formats.svg import flatten_cosmetic_strokes
from gradviz.formats.table import header, write_csv
from gradviz.model.history import History
from gradviz.model.layout import Layout
from gradviz.model.presets import load_preset
from reference import grads_for, replay

ROOT = Path(__file__).resolve().parents[1]
SVG = "{http://www.w3.org/2000/svg}"
PLOTS = ("lossPlot", "paramPlot", "gradPlot")


def train_to(qtbot, win, steps: int) -> None:
    win.controls.maxStepsSpin.setValue(steps)
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: win.controller.state == "finished" and win.controller.step_count == steps, timeout=30_000)
    qtbot.waitUntil(lambda: win.controller.nodes is not None and win.controller.nodes.updates == steps, timeout=30_000)


def wait_job(qtbot, job) -> None:
    qtbot.waitUntil(lambda: job.done, timeout=30_000)


def svg_texts(path) -> list[str]:
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    return ["".join(t.itertext()).strip() for t in root.iter(f"{SVG}text")]


@pytest.fixture
def denied(tmp_path, monkeypatch):
    """A folder in which nothing can be created, even by root (the system refuses, as for a
    read-only or foreign folder)."""
    folder = tmp_path / "denied"
    folder.mkdir()
    real_open = os.open

    def refuse(path, *args, **kwargs):
        if os.fspath(path).startswith(str(folder)):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    return folder


def _matrix(text):
    if not text:
        return np.eye(3)
    a, b, c, d, e, f = (float(v) for v in text[len("matrix(") : -1].split(","))
    return np.array([[a, c, e], [b, d, f], [0, 0, 1]])


def scaled_cosmetic_strokes(path) -> int:
    """Paths and polylines with a non-scaling stroke drawn through a transform that scales: the
    ones a viewer without vector-effect (PowerPoint, resvg) draws as wide bands."""
    root = ET.parse(path).getroot()
    bad = 0

    def walk(node, ctm):
        nonlocal bad
        ctm = ctm @ _matrix(node.get("transform"))
        if node.get("vector-effect") == "non-scaling-stroke" and not np.allclose(ctm[:2, :2], np.eye(2), atol=1e-6):
            bad += 1
        for child in node:
            walk(child, ctm)

    walk(root, np.eye(3))
    return bad


# -- Qt-free: the table, the frames, the SVG clean-up -------------------------------------------------
def small_history() -> History:
    h = History(Layout(["w", "b"], [(2, 2), (2,)]), Layout(["w", "b"], [(2, 2), (2,)]), Layout(["z"], [(2,)]))
    rng = np.random.default_rng(0)
    p, g, z = rng.normal(size=(3, 6)), rng.normal(size=(3, 6)), rng.normal(size=(3, 2))
    g[1, 0] = np.nan  # written as nan, not dropped
    h.append([1, 2, 3], [0.5, 0.25, np.inf], p, g, z, [1.0, 2.0, 3.0], lr=[0.1, 0.1, 0.05])
    return h


def test_csv_has_one_column_per_element_named_in_the_header():
    h = small_history()
    assert header(h) == (
        ["step", "loss", "lr", "w[0,0]", "w[0,1]", "w[1,0]", "w[1,1]", "b[0]", "b[1]"]
        + ["grad_w[0,0]", "grad_w[0,1]", "grad_w[1,0]", "grad_w[1,1]", "grad_b[0]", "grad_b[1]"]
        + ["z[0]", "z[1]", "step_ms"]
    )
    out = io.StringIO()
    assert write_csv(out, h) == 3
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows[0] == header(h) and len(rows) == 4 and all(len(r) == 18 for r in rows)
    assert out.getvalue().startswith('step,loss,lr,"w[0,0]","w[0,1]"')  # a comma in a name is quoted
    body = np.array([[float(v) for v in r] for r in rows[1:]])
    assert list(body[:, 0]) == [1, 2, 3]
    expected = np.column_stack([h.loss, h.lr, h.params, h.grads, h.aux, h.step_ms]).astype(np.float32)
    np.testing.assert_array_equal(body[:, 1:].astype(np.float32), expected)  # float32 round trip, nan and inf too
    assert rows[2][9] == "nan" and rows[3][1] == "inf"


def test_csv_leaves_an_unrecorded_learning_rate_empty():
    h = History(Layout(["b"], [()]), Layout(["b"], [()]), Layout([], []))
    h.append([1], [0.5], [[1.0]], [[2.0]], np.zeros((1, 0)), [1.0])  # a file written before lr was
    out = io.StringIO()
    write_csv(out, h)
    assert out.getvalue().splitlines() == ["step,loss,lr,b,grad_b,step_ms", "1,0.5,,1.0,2.0,1.0"]


def test_frame_steps_spread_across_the_run():
    assert frame_steps(np.arange(1, 101), 20) == [round(1 + 99 * k / 19) for k in range(20)]
    assert frame_steps(np.arange(5, 17), 20) == list(range(5, 17))  # fewer steps than frames: every step
    assert frame_steps(np.arange(1, 11), 3) == list(range(1, 11))  # never fewer than MIN_FRAMES
    with pytest.raises(TooFewSteps, match="at least 10 steps of history; this run has 9"):
        frame_steps(np.arange(1, 10))


def test_gif_has_every_frame_and_loops():
    frames = [np.full((8, 12, 3), 20 * k, np.uint8) for k in range(MIN_FRAMES)]
    im = Image.open(io.BytesIO(gif_bytes(frames)))
    assert im.format == "GIF" and im.size == (12, 8) and im.n_frames == MIN_FRAMES and im.info["loop"] == 0
    got = [np.asarray(f.convert("RGB")) for f in ImageSequence.Iterator(im)]
    for k, f in enumerate(got):
        np.testing.assert_array_equal(f, frames[k])


def test_cosmetic_strokes_are_drawn_in_pixels_with_the_same_geometry():
    qt_like = (
        b'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 100 100">'
        b'<g stroke="#000" stroke-width="2" transform="matrix(4,0,0,-100,10,90)">'
        b'<polyline fill="none" vector-effect="non-scaling-stroke" points="1,0.5 2,0.25 " />'
        b'<path vector-effect="non-scaling-stroke" d="M0,0 L1,0.5 C1,1 2,1 2,0 Z " />'
        b'<path vector-effect="none" d="M0,0 L1,1 " />'
        b"</g></svg>"
    )
    out = ET.fromstring(flatten_cosmetic_strokes(qt_like))
    g = out.find(f"{SVG}g")
    poly, path, plain = list(g)
    assert poly.get("points").split() == ["14,40", "18,65"]  # (4x + 10, -100y + 90)
    assert path.get("d").split() == ["M10,90", "L14,40", "C14,-10", "18,-10", "18,90", "Z"]
    assert plain.get("d") == "M0,0 L1,1 " and plain.get("transform") is None  # a scaling stroke: as it was
    ctm = _matrix(g.get("transform")) @ _matrix(poly.get("transform"))
    np.testing.assert_allclose(ctm, np.eye(3), atol=1e-12)  # drawn in pixels: the same place


# -- in the window -------------------------------------------------------------------------------------
@pytest.mark.real_engine
def test_pictures_of_the_window_the_graph_and_every_plot(qtbot, win, tmp_path):
    train_to(qtbot, win, 5)
    ex = win.exports
    for what in ("window", "graph", *PLOTS):
        for fmt in ("png", "svg"):
            path = tmp_path / f"{what}.{fmt}"
            assert ex.save_picture(what, str(path)), win.errorBanner.text()
            assert win.statusBar().currentMessage().endswith(f"to {path}")  # where, with the full path
            if fmt == "png":
                with Image.open(path) as im:
                    im.load()
                    pixels = np.asarray(im.convert("L"))
                assert im.format == "PNG" and pixels.std() > 10  # a picture, not a blank
                if what == "window":
                    assert im.size == (win.width(), win.height())
                elif what == "graph":  # the whole scene, sharp, however the view is zoomed
                    rect = win.scene.itemsBoundingRect()
                    assert im.size[0] >= 2 * rect.width() and im.size[1] >= 2 * rect.height()
                else:
                    assert im.size[0] >= 1440 and im.size[1] >= 900  # a plot big enough for a slide
            else:
                texts = svg_texts(path)
                assert scaled_cosmetic_strokes(path) == 0
                if what == "graph":
                    assert {"x", "w", "b", "matmul", "loss"} <= set(texts)
                    assert any(t.startswith("Nodes: step 5 (parameters after 4 updates)") for t in texts)  # the caption
                elif what == "window":
                    assert "Start" in texts and "Loss" in texts
                else:
                    title = {"lossPlot": "Loss", "paramPlot": "Parameters", "gradPlot": "Gradients"}[what]
                    ticks = [t for t in texts if t.lstrip("-").replace(".", "", 1).isdigit()]
                    assert title in texts and "step" in texts and len(ticks) >= 4  # title, axis, ticks as text
    graph = ET.parse(tmp_path / "graph.svg").getroot()
    assert graph.get("viewBox").split()[:2] == ["0", "0"]


def test_plot_context_menu_exports_svg_instead_of_pyqtgraphs_failing_exporter(qtbot, win, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    train_to(qtbot, win, 3)
    for name in PLOTS:
        plot = getattr(win.plots, name)
        entries = plot.scene().contextMenu
        assert [a.objectName() for a in entries] == [
            f"plotExport_{name}_png",
            f"plotExport_{name}_svg",
            f"plotExport_{name}_csv",
        ]
        path = tmp_path / f"{name}.svg"
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, p=str(path): (p, ""))
        entries[1].trigger()
        assert path.exists() and not win.error_shown
        assert ET.parse(path).getroot().tag == f"{SVG}svg"


@pytest.mark.real_engine
def test_csv_export_holds_the_history_and_agrees_with_numpy(qtbot, win, tmp_path):
    win.controls.auxOutputCheck.click()  # return z too: its elements get columns of their own
    qtbot.waitUntil(lambda: win.controller.state == "ready", timeout=30_000)
    steps = 6
    train_to(qtbot, win, steps)
    path = tmp_path / "history.csv"
    wait_job(qtbot, win.exports.save_csv(str(path)))
    assert win.statusBar().currentMessage() == f"Wrote {steps} steps as CSV to {path}"
    rows = list(csv.reader(path.open()))
    head = rows[0]
    labels = [f"w[{i},{j}]" for i in range(5) for j in range(3)] + ["b[0]", "b[1]", "b[2]"]
    assert head == ["step", "loss", "lr", *labels, *[f"grad_{x}" for x in labels], "z[0]", "z[1]", "z[2]", "step_ms"]
    col = {name: k for k, name in enumerate(head)}
    data = np.array([[float(v) for v in r] for r in rows[1:]])
    h = win.controller.history
    assert data.shape == (steps, len(head)) and list(data[:, 0]) == list(h.steps)
    np.testing.assert_array_equal(data[:, col["w[0,0]"] : col["b[2]"] + 1].astype(np.float32), h.params)
    session = win.controller.session
    for k, loss, g, params in replay(session, steps):
        row = data[k - 1]
        assert row[col["loss"]] == pytest.approx(loss, rel=1e-5)
        assert row[col["lr"]] == pytest.approx(session.options.lr, rel=1e-6)
        for name, shape in (("w", (5, 3)), ("b", (3,))):
            cols = [col[f"{name}[{','.join(map(str, i))}]"] for i in np.ndindex(*shape)]
            np.testing.assert_allclose(row[cols].reshape(shape), params[name], rtol=1e-4, atol=1e-5)
            grads = [col[f"grad_{name}[{','.join(map(str, i))}]"] for i in np.ndindex(*shape)]
            np.testing.assert_allclose(row[grads].reshape(shape), g[name], rtol=1e-4, atol=1e-6)
        z = grads_for(session, params)[2]["z"]
        np.testing.assert_allclose(row[[col["z[0]"], col["z[1]"], col["z[2]"]]], z, rtol=1e-4, atol=1e-5)


def test_json_lines_export_reads_back_as_the_history(qtbot, win, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    assert not win.exports.jsonlAction.isEnabled()
    assert win.exports.jsonlAction.toolTip() == "Nothing to save yet: train at least one step."
    train_to(qtbot, win, 4)
    path = tmp_path / "run.jsonl"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a: (str(path), ""))
    assert win.exports.jsonlAction.isEnabled()
    win.exports.jsonlAction.trigger()  # File > Export > History as JSON Lines
    qtbot.waitUntil(lambda: path.exists() and not win.files.jobs, timeout=30_000)
    session, layouts, (steps, loss, params, grads, aux, ms, lr), reason, _ = read_history(path)
    h = win.controller.history
    assert reason == "max_steps" and layouts[0] == h.param_layout
    np.testing.assert_array_equal(steps, h.steps)
    for got, want in ((loss, h.loss), (params, h.params), (grads, h.grads), (lr, h.lr)):
        np.testing.assert_array_equal(np.asarray(got, np.float32), want)


def test_animated_gif_of_the_run(qtbot, win, tmp_path):
    win.resize(800, 560)
    steps = 12
    train_to(qtbot, win, steps)
    tt = win.timeTravel
    qtbot.waitUntil(lambda: tt.shown == steps and tt.at_last)  # finished: the nodes show the last step
    path = tmp_path / "run.gif"
    rec = win.exports.save_gif(str(path), frames=10)
    qtbot.waitUntil(lambda: rec.done, timeout=60_000)
    assert rec.error == "" and tt.shown == steps and tt.at_last  # the cursor went back
    wait_job(qtbot, win.exports.gif_job)
    assert win.statusBar().currentMessage().endswith(f"to {path}")
    with Image.open(path) as im:
        assert im.format == "GIF" and im.n_frames == 10 and im.size == (win.width(), win.height())
        frames = [np.asarray(f.convert("RGB"), np.int16) for f in ImageSequence.Iterator(im)]
    for a, b in zip(frames, frames[1:]):
        assert np.abs(a - b).sum() > 0  # the cursor, the slider and the nodes move
    assert len(rec.steps) == 10 and rec.steps[0] == 1 and rec.steps[-1] == steps and rec.steps == sorted(set(rec.steps))


@pytest.mark.real_engine
def test_export_problems_are_said_and_lose_nothing(qtbot, win, tmp_path, denied, monkeypatch):
    ex = win.exports
    train_to(qtbot, win, 3)
    assert ex.save_gif(str(tmp_path / "x.gif")) is None
    assert "at least 10 steps of history; this run has 3" in win.errorBanner.text()
    assert not ex.save_picture("window", str(tmp_path / "x.jpg"))
    assert "a picture is written as .png or .svg" in win.errorBanner.text()
    assert not ex.save_picture("graph", str(denied / "g.png"))
    assert win.errorBanner.text() == (
        f"⚠ Could not export Graph. {denied / 'g.png'}: cannot be written in {denied} (permission denied)"
    )
    assert list(denied.iterdir()) == []
    kept = tmp_path / "kept.png"
    kept.write_bytes(b"precious")

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    assert not ex.save_picture("window", str(kept))
    assert "no space left on the device" in win.errorBanner.text()
    wait_job(qtbot, ex.save_csv(str(tmp_path / "h.csv")))
    assert "Could not export the history as CSV" in win.errorBanner.text()
    monkeypatch.undo()
    assert kept.read_bytes() == b"precious" and sorted(p.name for p in tmp_path.iterdir()) == ["denied", "kept.png"]


def test_ctrl_e_opens_the_export_menu(qtbot, win):
    a = win.findChild(type(win.exports.action), "exportAction")
    assert a is win.exports.action and a.shortcut().toString() == "Ctrl+E"
    names = [x.objectName() for x in win.exports.menu.actions() if x.objectName()]
    assert names[:2] == ["export_window_png", "export_window_svg"] and "exportGifAction" in names
    qtbot.keyClick(win, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(win.exports.menu.isVisible, timeout=5_000)
    win.exports.menu.close()
    csv_action = win.exports.csvAction
    csv_action.setText("")
    QCoreApplication.sendEvent(win.exports.menu, QEvent(QEvent.Type.LanguageChange))  # as a new translator does
    assert csv_action.text() == "History as CSV (one column per element)…"


# -- the command line ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--size", "0x10", "--out", "{d}/a.png"], 'argument --size: "0x10" is not a window size'),
        (["--size", "1280", "--out", "{d}/a.png"], 'argument --size: "1280" is not a window size'),
        (["--out", "{d}/a.jpg"], "unknown extension; use .png, .svg or .gif"),
        (["--out", "{d}/missing/a.png"], "the folder"),
        (["--out", "{d}/denied/a.png"], "denied/a.png: cannot be written in"),
        (["--lang", "fr", "--out", "{d}/a.png"], 'argument --lang: "fr" is not one of zh, en'),
        (["--frames", "12", "--out", "{d}/a.png"], "--frames is for an animated GIF"),
        (["--frames", "5", "--out", "{d}/a.gif"], "--frames must be from 10 to 200"),
        (["--steps", "5", "--out", "{d}/a.gif"], "--steps 10 or more"),
        (["--steps", "-1", "--out", "{d}/a.png"], "--steps must be 0 or more"),
        (["--tab", "dataa", "--out", "{d}/a.png"], 'argument --tab: "dataa" is not one of plots, experiments'),
    ],
)
def test_screenshot_refuses_bad_options_in_one_line(tmp_path, denied, capsys, args, needle):
    code = main(["screenshot", *[a.format(d=tmp_path) for a in args]])
    err = capsys.readouterr().err
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("gradviz screenshot: error: ")
    assert list(tmp_path.iterdir()) == [denied] and list(denied.iterdir()) == []  # nothing written


def test_screenshot_tabs_are_the_windows_docks(qapp):
    from PySide6.QtWidgets import QDockWidget

    from gradviz.cli import SCREENSHOT_TABS
    from gradviz.ui.main_window import MainWindow
    from gradviz.ui.screenshot import TAB_DOCKS

    import standin

    assert tuple(TAB_DOCKS) == SCREENSHOT_TABS
    w = MainWindow(make_client=standin.client)
    try:
        assert all(w.findChild(QDockWidget, d) is not None for d in TAB_DOCKS.values())
    finally:
        w.close()


def _screenshot(tmp_path, *args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "main.py", "screenshot", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )


def test_screenshot_svg_at_a_projectors_size(tmp_path):
    out = tmp_path / "shot.svg"
    r = _screenshot(tmp_path, "--steps", "5", "--aux-output", "--size", "1280x720", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"wrote {out} (1280x720)"
    root = ET.parse(out).getroot()
    assert root.get("viewBox") == "0 0 1280 720"
    texts = svg_texts(out)
    assert "Loss" in texts and "out_z" in texts and scaled_cosmetic_strokes(out) == 0


def test_screenshot_gif_across_the_run(tmp_path):
    out = tmp_path / "run.gif"
    r = _screenshot(tmp_path, "--steps", "12", "--size", "800x600", "--frames", "10", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"wrote {out} (800x600, 10 frames)"
    with Image.open(out) as im:
        assert im.n_frames == 10 and im.size == (800, 600)
        frames = [np.asarray(f.convert("RGB"), np.int16) for f in ImageSequence.Iterator(im)]
    assert all(np.abs(a - b).sum() > 0 for a, b in zip(frames, frames[1:]))


def test_screenshot_lang_draws_the_window_in_that_language(qapp, tmp_path):
    """--lang zh: the window is in Chinese when it is grabbed (and English again with --lang en)."""
    from gradviz.ui import language
    from gradviz.ui.screenshot import take_screenshot

    from gradviz.ui.main_window import MainWindow

    seen = []
    real_close = MainWindow.close

    def close(self):  # the screenshot is written: what the window said
        seen.append((language.current(), self.menuBar().actions()[0].text()))
        return real_close(self)

    try:
        MainWindow.close = close
        for lang in ("zh", "en"):
            out = tmp_path / f"{lang}.png"
            assert take_screenshot(load_preset("tutorial"), 1, str(out), "png", size=(1024, 768), lang=lang) == 0
            assert out.stat().st_size > 0
    finally:
        MainWindow.close = real_close
        language.set_language(language.SOURCE)
    (zh_lang, zh_menu), (en_lang, en_menu) = seen
    assert zh_lang == "zh_CN" and en_lang == "en"
    assert en_menu == "&File" and zh_menu != en_menu and any("\u4e00" <= ch <= "\u9fff" for ch in zh_menu)

"""Code in, in the window: File > Open Python code…, a dropped .py file, Edit > Paste code."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl
from PySide6.QtGui import QDropEvent, QGuiApplication
from PySide6.QtWidgets import QListWidget, QPlainTextEdit, QPushButton

from test_code_import import canon, fixture

from gradviz.model.code_import import import_code


def _write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def _opened(qtbot, job):
    qtbot.waitUntil(lambda: job.done, timeout=5000)
    return job.error is None


def test_open_python_code_opens_the_programs_graph(win, qtbot, tmp_path):
    assert win.importCodeAction.objectName() == "importCodeAction"
    assert _opened(qtbot, win.codeIn.open_file(_write(tmp_path, "seed.py", fixture("seed_mindspore"))))
    assert canon(win.document.session) == canon(import_code(fixture("seed_mindspore")))
    assert win.document.options.until_loss == 0.001 and win.document.graph.get("weight") is not None


def test_code_that_cannot_be_imported_changes_nothing(win, qtbot, tmp_path):
    before = win.document.session.to_dict()
    assert not _opened(qtbot, win.codeIn.open_file(_write(tmp_path, "torch.py", fixture("seed_pytorch"))))
    assert "GradViz reads MindSpore" in win.errorBanner.text() and "torch.py:3:1" in win.errorBanner.text()
    assert win.document.session.to_dict() == before


def test_a_dropped_py_file_is_imported(win, qtbot, tmp_path):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(_write(tmp_path, "logits.py", fixture("tutorial_with_logits")))])
    event = QDropEvent(
        QPoint(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier
    )
    win.dropEvent(event)
    qtbot.waitUntil(lambda: win.document.options.aux_output and win.document.options.api == "grad", timeout=3000)


def test_paste_code_lists_problems_at_their_lines_and_imports_once_there_are_none(win, qtbot):
    assert win.pasteCodeAction.shortcut().toString() == "Ctrl+Shift+V"
    QGuiApplication.clipboard().setText(fixture("tutorial_has_aux").replace("ops.matmul", "ops.conv2d"))
    win.pasteCodeAction.trigger()
    dialog = win.codeIn.dialog
    assert dialog.objectName() == "importCodeDialog" and dialog.isVisible()
    edit = dialog.findChild(QPlainTextEdit, "importCodeEdit")
    problems = dialog.findChild(QListWidget, "importCodeProblems")
    button = dialog.findChild(QPushButton, "importCodeButton")
    assert problems.count() == 1 and not button.isEnabled()
    item = problems.item(0).text()
    assert item.startswith("line 19, column 9: ops.conv2d is not an op GradViz knows; it knows: ops.matmul")
    problems.itemClicked.emit(problems.item(0))
    assert edit.textCursor().blockNumber() == 18
    edit.setPlainText(fixture("tutorial_has_aux"))  # checked as you type, a moment after the last key
    qtbot.waitUntil(lambda: button.isEnabled(), timeout=3000)
    assert problems.count() == 0
    button.click()
    assert not dialog.isVisible()
    o = win.document.options
    assert (o.aux_output, o.has_aux, o.api) == (True, True, "grad") and win.document.graph.get("z") is not None


def test_the_program_tab_applies_an_edit_as_one_undoable_step(win, qtbot):
    qtbot.waitUntil(lambda: "def function(x, y, w, b):" in win.codeView.toPlainText(), timeout=5000)
    assert not win.codeView.isReadOnly()
    before = win.document.session.to_dict()
    text = win.codeView.toPlainText()
    win.codeView.setPlainText(
        text.replace("    z = matmul + b\n", "    z = matmul - b\n", 1).replace("return loss\n", "return loss, z\n", 1)
    )
    win.activateWindow()
    win.codeView.setFocus()
    qtbot.keyClick(win.codeView, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert win.document.graph["z"].kind == "Sub" and win.document.options.aux_output
    assert win.document.graph["z"].pos == tuple(next(n["pos"] for n in before["graph"]["nodes"] if n["name"] == "z"))
    qtbot.waitUntil(lambda: "    z = matmul - b\n" in win.codeView.toPlainText(), timeout=5000)  # regenerated
    win.document.undo()
    assert win.document.session.to_dict() == before


def test_the_program_tab_of_a_network_of_layers_applies_an_edit(win, qtbot):
    """digits through the Cell API: the course's Network in the program tab; an activation
    changed in its nn.SequentialCell changes that node, as one step that undo takes back."""
    from gradviz.model.presets import load_preset

    s = load_preset("digits")
    s.options.api = "cell"
    win.document.replace_session(s)
    qtbot.waitUntil(
        lambda: "self.dense_relu_sequential = nn.SequentialCell(" in win.codeView.toPlainText(), timeout=5000
    )
    before = win.document.session.to_dict()
    win.codeView.setPlainText(win.codeView.toPlainText().replace('("relu2", nn.ReLU()),', '("relu2", nn.Tanh()),'))
    assert win.programEditor.apply()
    assert win.document.graph["relu2"].kind == "Tanh" and win.document.graph.dataset() is not None
    qtbot.waitUntil(lambda: '("relu2", nn.Tanh()),' in win.codeView.toPlainText(), timeout=5000)  # regenerated
    win.document.undo()
    assert win.document.session.to_dict() == before


def test_a_program_tab_edit_with_problems_marks_them_and_changes_nothing(win, qtbot):
    qtbot.waitUntil(lambda: "def function(x, y, w, b):" in win.codeView.toPlainText(), timeout=5000)
    before = win.document.session.to_dict()
    text = win.codeView.toPlainText()
    win.codeView.setPlainText(text.replace("ops.matmul(x, w)", "ops.conv2d(x, w)", 1))
    line = 1 + next(i for i, t in enumerate(win.codeView.toPlainText().splitlines()) if "ops.conv2d" in t)
    assert not win.programEditor.apply()
    assert win.programEditor.problems.text().startswith(f"line {line}, column 14: ops.conv2d is not an op")
    (mark,) = win.codeView.extraSelections()
    assert mark.cursor.blockNumber() == line - 1
    assert win.document.session.to_dict() == before and not win.document.undo_stack.canUndo()


def test_both_editors_colour_and_number_their_lines(win, qtbot):
    from PySide6.QtWidgets import QWidget

    qtbot.waitUntil(lambda: "def function(x, y, w, b):" in win.codeView.toPlainText(), timeout=5000)
    QGuiApplication.clipboard().setText(fixture("tutorial_function"))
    dialog = win.codeIn.paste_dialog()
    for edit in (win.codeView, dialog.findChild(QPlainTextEdit, "importCodeEdit")):
        block = edit.document().findBlockByNumber(
            next(i for i, t in enumerate(edit.toPlainText().splitlines()) if t.startswith("def function"))
        )
        formats = block.layout().formats()
        assert any(f.start == 0 and f.length == 3 for f in formats)  # "def"
        numbers = edit.findChild(QWidget, "lineNumbers")
        assert numbers is not None and numbers.width() > 0 and edit.viewportMargins().left() == numbers.width()
    dialog.reject()


@pytest.mark.real_engine
def test_the_seeds_imported_program_trains_in_the_app_like_its_loop(win, qtbot, tmp_path):
    from conftest import wait_state
    from test_code_import import _train_linreg

    assert _opened(qtbot, win.codeIn.open_file(_write(tmp_path, "seed.py", fixture("seed_mindspore"))))
    wait_state(qtbot, win, "ready")
    want = _train_linreg(import_code(fixture("seed_mindspore")))
    qtbot.mouseClick(win.controls.startButton, Qt.MouseButton.LeftButton)
    wait_state(qtbot, win, "finished")
    h = win.controller.history
    assert abs(h.n - len(want)) <= 2 and h.loss[h.n - 1] < 0.001
    np.testing.assert_allclose(h.loss[:10], want[:10], rtol=1e-4)


@pytest.mark.parametrize("name", ["tutorial_function", "tutorial_with_logits", "seed_mindspore", "course_digits"])
def test_an_imported_programs_nodes_do_not_overlap(win, qtbot, tmp_path, name):
    """The imported graph is laid out in columns wide enough for its widest node, each input
    beside the node that first uses it."""
    from gradviz.ui.graph_view import NodeItem

    assert _opened(qtbot, win.codeIn.open_file(_write(tmp_path, f"{name}.py", fixture(name))))
    boxes = {i.name: i.sceneBoundingRect() for i in win.scene.items() if isinstance(i, NodeItem)}
    assert len(boxes) == len(win.document.graph.nodes)
    names = sorted(boxes)
    overlaps = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :] if boxes[a].intersects(boxes[b])]
    assert overlaps == []

"""What the window redraws while training: status labels whose new texts repaint them alone."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from gradviz.ui import theme
from gradviz.ui.live_label import LiveLabel


class _LayoutRequests(QObject):
    def __init__(self):
        super().__init__()
        self.count = 0

    def eventFilter(self, obj, ev):  # noqa: N802 (Qt's name)
        self.count += ev.type() == QEvent.Type.LayoutRequest
        return False


@pytest.fixture
def row(qtbot):
    box = QWidget()
    qtbot.addWidget(box)
    lay = QHBoxLayout(box)
    label, beside = LiveLabel("step 99 · 98 updates"), QLabel("loss 1.342")
    label.setFont(theme.font(12, bold=True))
    lay.addWidget(label)
    lay.addWidget(beside)
    lay.addStretch(1)
    with qtbot.waitExposed(box):
        box.show()
    return box, label, beside


def test_a_new_text_that_fits_relays_out_nothing(row):
    box, label, beside = row
    spy = _LayoutRequests()
    box.installEventFilter(spy)
    where = beside.geometry()
    for k in range(11, 40):  # what the status bar shows while training
        label.setText(f"step {k} · {k - 1} updates")
        QCoreApplication.processEvents()
    label.setText("step 9 · 8 updates")  # narrower: the label keeps its width
    QCoreApplication.processEvents()
    assert spy.count == 0 and beside.geometry() == where
    label.setText("step 1,000,000 · 999,999 updates")  # wider: it grows, once
    QCoreApplication.processEvents()
    assert spy.count == 1 and beside.x() > where.x()
    fm = label.fontMetrics()
    assert label.width() >= fm.horizontalAdvance(label.text()) and label.height() >= fm.height()


def test_a_font_and_back_leave_the_label_as_it_was(row):
    """Presentation mode enlarges the font and puts it back: the label is exactly as wide as
    before (the window's saved layout with it), and as wide as the text needs at each size."""
    _box, label, _beside = row
    size = label.size()
    label.setFont(theme.font(18, bold=True))
    QCoreApplication.processEvents()
    assert label.width() >= label.fontMetrics().horizontalAdvance(label.text()) > size.width()
    assert label.height() > size.height()
    label.setFont(theme.font(12, bold=True))
    QCoreApplication.processEvents()
    assert label.size() == size


def test_an_empty_label_is_as_wide_as_qlabel_makes_one(qtbot):
    label = LiveLabel("")
    qtbot.addWidget(label)
    assert label.width() == QLabel("").sizeHint().width() and label.height() == QLabel("").sizeHint().height()


def test_least_text_sets_the_least_width(qtbot):
    label = LiveLabel("1", least_text="step 100,000 of 100,000")
    qtbot.addWidget(label)
    assert label.width() >= label.fontMetrics().horizontalAdvance("step 100,000 of 100,000")

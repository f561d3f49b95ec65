"""A long file operation (opening or saving a run) on a worker thread, with a progress dialog
and Cancel, so the window stays responsive whatever the file's size.

The work is a function work(progress, cancelled) that touches no Qt object: progress(fraction)
reports how far it is, cancelled() says whether to stop (it then raises safe_io.Cancelled). Its
result or exception is handed to `done(job)` on the GUI thread."""

from __future__ import annotations

import threading
from typing import Any
from collections.abc import Callable

from PySide6.QtCore import QTimer, QCoreApplication, QObject, Qt, Signal
from PySide6.QtWidgets import QProgressDialog

SHOW_AFTER_MS = 300  # quick operations finish without a dialog flashing up
STEPS = 1000


class FileJob(QObject):
    _progressed = Signal(int)
    _finished = Signal()

    def __init__(
        self,
        parent,
        label: str,
        work: Callable[[Callable[[float], None], Callable[[], bool]], Any],
        done: Callable[[FileJob], None],
    ):
        super().__init__(parent)
        self.result: Any = None
        self.error: BaseException | None = None
        self.done = False
        self._work, self._done = work, done
        self._cancel = threading.Event()
        self._last = -1
        self._showing = False  # inside dialog.setValue (which processes events when modal)
        self.dialog = QProgressDialog(label, QCoreApplication.translate("FileJob", "Cancel"), 0, STEPS, parent)
        self.dialog.setObjectName("fileProgress")
        self.dialog.setWindowTitle("GradViz")
        self.dialog.setWindowModality(Qt.WindowModality.WindowModal)
        self.dialog.setMinimumDuration(SHOW_AFTER_MS)
        self.dialog.setAutoReset(False)
        self.dialog.setAutoClose(False)
        self.dialog.canceled.connect(self.cancel)
        self.dialog.setValue(0)
        # through a method of this object (GUI thread): a progress still queued when the job
        # finishes must not reach the dialog after _finish deleted it (that crashed, in
        # QProgressDialog::setValue, about one run in five of a history saved and opened)
        self._progressed.connect(self._show_progress)
        self._finished.connect(self._finish, Qt.ConnectionType.QueuedConnection)
        self._thread = threading.Thread(target=self._run, name="gradviz-file", daemon=True)

    def start(self) -> FileJob:
        self._thread.start()
        return self

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def cancel(self) -> None:
        self._cancel.set()

    def wait(self) -> None:
        """Cancel and wait for the thread (closing the window)."""
        self.cancel()
        self._thread.join()

    def _progress(self, fraction: float) -> None:
        v = int(max(0.0, min(1.0, fraction)) * STEPS)
        if v != self._last:
            self._last = v
            self._progressed.emit(v)

    def _show_progress(self, value: int) -> None:
        if self.dialog is None or self._showing:
            return
        self._showing = True  # a modal dialog's setValue runs the event loop, _finish included
        try:
            self.dialog.setValue(value)
        finally:
            self._showing = False

    def _run(self) -> None:
        try:
            self.result = self._work(self._progress, self._cancel.is_set)
        except BaseException as e:  # handed to the GUI thread, which reports it
            self.error = e
        self._finished.emit()

    def _finish(self) -> None:
        if self._showing:  # called from inside the dialog's setValue: finish once it has returned
            QTimer.singleShot(0, self._finish)
            return
        self._thread.join()
        dialog, self.dialog = self.dialog, None
        dialog.canceled.disconnect(self.cancel)
        dialog.reset()
        dialog.close()
        dialog.deleteLater()
        self.done = True
        self._done(self)

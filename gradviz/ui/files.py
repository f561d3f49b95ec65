"""Opening, saving and autosaving sessions and runs for the main window.

Asks before unsaved changes are discarded (only in the real app, which has a store), keeps the
recent files, and reports every problem through the window's error banner: a file that cannot be
opened leaves the current session untouched."""
from __future__ import annotations

import io

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QFileDialog, QMessageBox

from ..model.presets import load_preset
from ..formats.run_reader import read_history
from ..model.session import Session, SessionError, atomic_write_text, load_session, save_session

AUTOSAVE_MS = 2000
B = QMessageBox.StandardButton


class SessionFiles(QObject):
    def __init__(self, window, store, ask=None):
        super().__init__(window)
        self.w = window
        self.store = store
        if ask is not None:
            self.ask = ask  # how questions are asked (tests answer them)
        self._autosave = QTimer(self)
        self._autosave.setSingleShot(True)
        self._autosave.setInterval(AUTOSAVE_MS)
        self._autosave.timeout.connect(self.write_autosave)
        self._closed = False

    def ask(self, title: str, text: str, buttons) -> QMessageBox.StandardButton:
        """A question for the user."""
        return QMessageBox.question(self.w, title, text, buttons)

    def watch(self, document) -> None:
        document.graphChanged.connect(self._schedule_autosave)
        document.optionsChanged.connect(self._schedule_autosave)

    @property
    def document(self):
        return self.w.document

    # -- start-up and closing ----------------------------------------------------------------
    def startup_session(self) -> tuple[Session | None, bool]:
        """After a crash, offer the autosaved session; else the session of the last clean exit.
        Returns (session or None, restored from the autosave)."""
        text = self.store.read_autosave()
        if text:
            try:
                s = Session.from_json(text, "the autosaved session")
            except SessionError:
                s = None
            if s is not None and self.ask("Restore session?", "GradViz did not close cleanly last time. Restore "
                                          "the session you were editing?", B.Yes | B.No) == B.Yes:
                return s, True
        text = self.store.value("lastSession")
        if isinstance(text, str) and text:
            try:
                return Session.from_json(text, "the last session"), False
            except SessionError:
                pass
        return None, False

    def close(self) -> None:
        """A clean exit: remember the session, and leave no autosave to restore next time."""
        self._closed = True
        self._autosave.stop()
        if self.store is not None:
            self.store.set_value("lastSession", self.document.session.to_json())
            self.store.clear_autosave()

    def may_discard(self) -> bool:
        """True if the current session may be replaced: saved, unchanged, or the user agrees."""
        if self.store is None or not self.document.modified:
            return True
        answer = self.ask("Unsaved changes", "The current session has unsaved changes. Save them first?",
                          B.Save | B.Discard | B.Cancel)
        if answer == B.Save:
            return self.save()
        return answer == B.Discard

    # -- sessions ------------------------------------------------------------------------------
    def load_preset(self, name: str) -> None:
        if not self.may_discard():
            self.w.controls.sync_from_document()  # put the preset combo back
            return
        try:
            session = load_preset(name)
        except SessionError as e:
            self.w.show_error(str(e))
            return
        self.document.replace_session(session)
        QTimer.singleShot(0, self.w.graphView.fit)

    def open_session_file(self, path: str) -> bool:
        """Open a session; on any problem the current session is untouched and a message says why."""
        if not self.may_discard():
            return False
        try:
            session = load_session(path)
        except SessionError as e:
            self.w.show_error(f"Could not open the session. {e}")
            return False
        self.document.replace_session(session, path)
        if self.store is not None:
            self.store.add_recent(path)
        QTimer.singleShot(0, self.w.graphView.fit)
        return True

    def save(self) -> bool:
        if self.document.path:
            return self.save_session_file(self.document.path)
        return self.save_dialog()

    def save_session_file(self, path: str) -> bool:
        try:
            save_session(self.document.session, path)
        except OSError as e:
            self.w.show_error(f"Could not save {path}: {e.strerror or e}")
            return False
        self.document.mark_saved(path)
        if self.store is not None:
            self.store.add_recent(path)
        self.w.statusBar().showMessage(f"Saved {path}", 4000)
        return True

    def fill_recent_menu(self) -> None:
        menu = self.w.recentMenu
        menu.clear()
        files = self.store.recent_files() if self.store else []
        for f in files:
            a = menu.addAction(f)
            a.triggered.connect(lambda _=False, path=f: self.open_session_file(path))
        if not files:
            menu.addAction("(none yet)").setEnabled(False)

    def _schedule_autosave(self, *_args) -> None:
        if self.store is not None and not self._closed:
            self._autosave.start()

    def write_autosave(self) -> None:
        """Keep a copy of the session being edited, so that a crash loses nothing."""
        if self.store is None:
            return
        try:
            self.store.write_autosave(self.document.session.to_json())
        except OSError as e:
            self.w.statusBar().showMessage(f"Autosave failed: {e.strerror or e}", 5000)

    # -- runs with their history -----------------------------------------------------------------
    def export_history(self, path: str) -> bool:
        """Save the run as JSON Lines, the `gradviz run` format, with the session it was trained with."""
        c = self.w.controller
        h = c.history
        if h is None or not h.n:
            self.w.show_error("There is no history to export yet: train a few steps first.")
            return False
        run = c.session  # the session this history was trained with (not later edits)
        buf = io.StringIO()
        h.export(buf, dict(run.options.to_dict(), source="app"), c.info.get("inputs", {}),
                 c.end_reason or "stopped", session=run.to_dict(), program=c.info.get("program"))
        try:
            atomic_write_text(path, buf.getvalue())
        except OSError as e:
            self.w.show_error(f"Could not export to {path}: {e.strerror or e}")
            return False
        self.w.statusBar().showMessage(f"Exported {h.n} steps to {path}", 4000)
        return True

    def open_history_file(self, path: str) -> bool:
        """Open a run saved with its history: its session, and its plots as they were."""
        if not self.may_discard():
            return False
        try:
            session, layouts, arrays, reason = read_history(path)
        except SessionError as e:
            self.w.show_error(f"Could not open the run. {e}")
            return False
        self.w.adopt_run(session, (layouts, arrays, reason))
        return True

    # -- dialogs ---------------------------------------------------------------------------------
    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.w, "Open session", "", "GradViz sessions (*.json);;All files (*)")
        if path:
            self.open_session_file(path)

    def save_dialog(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self.w, "Save session", self.document.path or "session.json",
                                              "GradViz sessions (*.json)")
        return bool(path) and self.save_session_file(path)

    def export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self.w, "Save run with history", "history.jsonl", "JSON Lines (*.jsonl)")
        if path:
            self.export_history(path)

    def open_history_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.w, "Open run with history", "", "JSON Lines (*.jsonl);;All files (*)")
        if path:
            self.open_history_file(path)

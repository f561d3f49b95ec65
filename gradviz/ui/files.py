"""Opening, saving and autosaving sessions and runs for the main window.

Asks before unsaved changes are discarded (only in the real app, which has a store), keeps the
recent files, and reports every problem through the window's error banner: a file that cannot be
opened leaves the current session untouched. Sessions and runs (any size) are opened, and runs
saved, on a worker thread with a progress dialog and Cancel (jobs.FileJob); cancelling changes
nothing."""

from __future__ import annotations

import copy
import importlib.util

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, QTimer
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox, QWidget

from ..formats.run_reader import read_history
from ..safe_io import Cancelled, FileProblem, SafeOutput, atomic_write_text
from ..model.ending import EndReason
from ..model.scripts import script
from ..model.formatting import show_path
from ..model.presets import load_preset
from ..formats.records import write_history
from ..model.graph import Graph
from ..model.session import Options, Session, SessionError, load_session, save_session
from .jobs import FileJob
from .language import tr_msg
from .parts import Feedback
from .persistence import move_aside

AUTOSAVE_MS = 2000
B = QMessageBox.StandardButton


def asker(parent: QWidget) -> Callable:
    """The app's way to ask a question: a message box over `parent`."""
    return lambda title, text, buttons: QMessageBox.question(parent, title, text, buttons)


def startup_session(store, ask) -> tuple[Session | None, bool, list[str]]:
    """After a crash, offer the autosaves of windows that are gone (newest first); else the
    session of the last clean exit. Returns (session or None, restored from an autosave, the
    problems to report). An autosave that cannot be read is renamed aside and reported."""
    problems = list(store.problems)
    for path in store.orphaned_autosaves():
        try:
            where = QCoreApplication.translate("SessionFiles", "the autosave {name}").format(name=show_path(path.name))
            s = Session.from_json(store.read_autosave(path), where)
        except (FileProblem, SessionError) as e:
            try:
                kept = move_aside(path)
                problems.append(
                    QCoreApplication.translate("SessionFiles", "{problem} It was kept as {kept}.").format(
                        problem=tr_msg(e), kept=show_path(kept)
                    )
                )
            except OSError as err:
                problems.append(
                    QCoreApplication.translate(
                        "SessionFiles", "{problem} It could not be moved aside ({error})."
                    ).format(problem=tr_msg(e), error=err.strerror or err)
                )
            continue
        if (
            ask(
                QCoreApplication.translate("SessionFiles", "Restore session?"),
                QCoreApplication.translate(
                    "SessionFiles", "GradViz did not close cleanly last time. Restore the session you were editing?"
                ),
                B.Yes | B.No,
            )
            == B.Yes
        ):
            try:  # this window's autosave holds it from now on
                store.write_autosave(s.to_json())
                if path != store.autosave_path:
                    store.clear_autosave(path)
            except FileProblem:
                pass  # the orphan stays where it was
            return s, True, problems
        store.clear_autosave(path)  # read, offered and declined
    text = store.text("lastSession")
    if text:
        try:
            return (
                Session.from_json(text, QCoreApplication.translate("SessionFiles", "the last session")),
                False,
                problems,
            )
        except SessionError:
            pass
    return None, False, problems


class SessionFiles(QObject):
    """The File menu's work on `document` and the runs of `controller`. `parent` is the widget
    the dialogs belong to; `forget_run()` makes the next session change a fresh run,
    `adopt_run(session, recorded)` shows a run read from a file, `fit_graph()` refits the graph,
    `sync_controls()` puts the controls back as the document is."""

    def __init__(
        self,
        store,
        ask,
        document,
        controller,
        feedback: Feedback,
        *,
        forget_run: Callable[[], None],
        adopt_run: Callable[[Session, tuple], None],
        fit_graph: Callable[[], None],
        sync_controls: Callable[[], None],
        startup_problems: list[str] | None = None,
        parent: QWidget,
    ):
        super().__init__(parent)
        self.store, self.document, self.c, self.feedback = store, document, controller, feedback
        self.ask = ask  # how questions are asked (tests answer them)
        self._forget_run, self._adopt_run, self._fit_graph, self._sync_controls = (
            forget_run,
            adopt_run,
            fit_graph,
            sync_controls,
        )
        self._dialogs = parent
        self._autosave = QTimer(self)
        self._autosave.setSingleShot(True)
        self._autosave.setInterval(AUTOSAVE_MS)
        self._autosave.timeout.connect(self.write_autosave)
        self._closed = False
        self._autosave_failed = False
        self.jobs: list[FileJob] = []
        self.startup_problems: list[str] = startup_problems or []

    def watch(self) -> None:
        """Autosave the document's edits from now on (once the window is made)."""
        self.document.graphChanged.connect(self._schedule_autosave)
        self.document.optionsChanged.connect(self._schedule_autosave)

    # -- start-up and closing ----------------------------------------------------------------
    def report_startup_problems(self) -> None:
        if self.startup_problems:
            self.feedback.show_error(" ".join(self.startup_problems))

    def close(self) -> None:
        """A clean exit: remember the session, and leave no autosave to restore next time."""
        self._closed = True
        self._autosave.stop()
        for job in list(self.jobs):
            job.wait()
        if self.store is not None:
            self.store.set_value("lastSession", self.document.session.to_json())
            self.store.clear_autosave()
            self.store.release()

    def may_discard(self) -> bool:
        """True if the current session may be replaced: saved, unchanged, or the user agrees."""
        if self.store is None or not self.document.modified:
            return True
        answer = self.ask(
            self.tr("Unsaved changes"),
            self.tr("The current session has unsaved changes. Save them first?"),
            B.Save | B.Discard | B.Cancel,
        )
        if answer == B.Save:
            return self.save()
        return answer == B.Discard

    # -- sessions ------------------------------------------------------------------------------
    def new_session(self) -> bool:
        """File > New: an empty graph with the default options (nothing of the previous session
        leaks into it), on the same device and at the same speed."""
        if not self.may_discard():
            return False
        o = self.document.options
        self._forget_run()
        self.document.replace_session(Session(Graph(), Options(device=o.device, speed=o.speed)))
        QTimer.singleShot(0, self._fit_graph)
        return True

    def load_preset(self, name: str) -> None:
        if not self.may_discard():
            self._sync_controls()  # put the preset combo back
            return
        try:
            session = load_preset(name)
        except SessionError as e:
            self.feedback.show_error(tr_msg(e))
            return
        self._forget_run()  # the same preset again is a fresh run too
        self.document.replace_session(session)
        QTimer.singleShot(0, self._fit_graph)

    def open_session_file(self, path: str) -> FileJob | None:
        """Open a session, read and checked on a worker (a session may hold a million values);
        on any problem, or Cancel, the current session is untouched and a message says why."""
        if not self.may_discard():
            return None

        def work(progress, cancelled):
            return load_session(path, progress, cancelled)

        def done(job: FileJob) -> None:
            if not self._open_failed(
                job,
                path,
                self.tr("Could not open the session. {problem}"),
                self.tr("Could not open the session {path}: not enough memory"),
                self.tr("Could not open the session {path}: {error}"),
            ):
                self._forget_run()
                self.document.replace_session(job.result, path)
                self._remember(path)
                QTimer.singleShot(0, self._fit_graph)

        return self.job(self.tr("Opening the session {path}…").format(path=show_path(path, 80)), work, done)

    def save(self) -> bool:
        if self.document.path:
            return self.save_session_file(self.document.path)
        return self.save_dialog()

    def save_session_file(self, path: str) -> bool:
        try:
            save_session(self.document.session, path)
        except FileProblem as e:
            self.feedback.show_error(self.tr("Could not save the session. {problem}").format(problem=tr_msg(e)))
            return False
        self.document.mark_saved(path)
        self._remember(path)
        self.feedback.status.showMessage(self.tr("Saved {path}").format(path=show_path(path)), 4000)
        return True

    def _remember(self, path: str) -> None:
        problem = self.store.add_recent(path) if self.store is not None else None
        if problem:
            self.feedback.show_error(problem)

    def fill_recent_menu(self, menu: QMenu) -> None:
        menu.clear()
        files = self.store.recent_files() if self.store else []
        for f in files:
            a = menu.addAction(f)
            a.triggered.connect(lambda _=False, path=f: self.open_session_file(path))
        if not files:
            menu.addAction(self.tr("(none yet)")).setEnabled(False)

    def _schedule_autosave(self, *_args) -> None:
        if self.store is not None and not self._closed:
            self._autosave.start()

    def write_autosave(self) -> None:
        """Keep a copy of the session being edited, so that a crash loses nothing. A failure is
        said once in the status bar (again only after an autosave has worked in between)."""
        if self.store is None:
            return
        try:
            self.store.write_autosave(self.document.session.to_json())
        except FileProblem as e:
            if not self._autosave_failed:
                self._autosave_failed = True
                self.feedback.status.showMessage(self.tr("Autosave failed: {problem}").format(problem=tr_msg(e)), 15000)
            return
        self._autosave_failed = False

    # -- runs with their history, on a worker thread -------------------------------------------
    def job(self, label: str, work, done) -> FileJob:
        """Run `work` on a worker thread with progress and Cancel; `done(job)` on the GUI thread."""

        def finished(job: FileJob) -> None:
            self.jobs.remove(job)
            done(job)

        job = FileJob(self._dialogs, label, work, finished)
        self.jobs.append(job)
        return job.start()

    def export_history(self, path: str) -> FileJob | None:
        """Save the run as JSON Lines, the `gradviz run` format, with the session it was trained
        with. The history is copied first (training may go on); the file is written on a worker."""
        c = self.c
        h = c.history
        if h is None or not h.n:
            self.feedback.show_error(self.tr("There is no history to export yet: train a few steps first."))
            return None
        run = c.session  # the session this history was trained with (not later edits)
        snapshot = copy.deepcopy(h)
        args = (
            dict(run.options.to_dict(), source="app"),
            copy.deepcopy(c.info.inputs) if c.info is not None else {},
            c.end_reason or EndReason.STOPPED,
        )
        kw = {
            "session": run.to_dict(),
            "program": c.info.program if c.info is not None else None,
            "evals": tuple(c.evals),
        }

        def work(progress, cancelled):
            with SafeOutput(path) as out:
                write_history(_Counted(out, snapshot.n + 2, progress, cancelled), snapshot, *args, **kw)
            return snapshot.n

        def done(job: FileJob) -> None:
            if isinstance(job.error, Cancelled):
                self.feedback.status.showMessage(self.tr("Saving cancelled: nothing was written"), 6000)
            elif isinstance(job.error, FileProblem):
                self.feedback.show_error(self.tr("Could not save the run. {problem}").format(problem=tr_msg(job.error)))
            elif job.error is not None:
                self.feedback.show_error(self.tr("Could not save the run: {error}").format(error=repr(job.error))[:300])
            else:
                self.feedback.status.showMessage(
                    self.tr("Saved {n} steps to {path}").format(n=job.result, path=show_path(path)), 6000
                )

        return self.job(self.tr("Saving the run to {path}…").format(path=show_path(path, 80)), work, done)

    def _open_failed(self, job: FileJob, path: str, bad_file: str, no_memory: str, failed: str) -> bool:
        """Say why opening `path` came to nothing (Cancel, a bad file, too little memory, anything
        else), with these messages; False if it was opened."""
        if isinstance(job.error, Cancelled):
            self.feedback.status.showMessage(self.tr("Opening cancelled: nothing was changed"), 6000)
        elif isinstance(job.error, SessionError):
            self.feedback.show_error(bad_file.format(problem=tr_msg(job.error)))
        elif isinstance(job.error, MemoryError):
            self.feedback.show_error(no_memory.format(path=show_path(path)))
        elif job.error is not None:
            self.feedback.show_error(failed.format(path=show_path(path), error=repr(job.error))[:300])
        return job.error is not None

    def open_history_file(self, path: str) -> FileJob | None:
        """Open a run saved with its history: its session, and its plots as they were. Read and
        checked on a worker; on any problem, or Cancel, the current session stays as it was."""
        if not self.may_discard():
            return None

        def work(progress, cancelled):
            return read_history(path, progress, cancelled)

        def done(job: FileJob) -> None:
            if not self._open_failed(
                job,
                path,
                self.tr("Could not open the run. {problem}"),
                self.tr("Could not open the run {path}: not enough memory"),
                self.tr("Could not open the run {path}: {error}"),
            ):
                run = job.result
                self._adopt_run(run.session, (run.layouts, run.arrays, run.reason, run.evals))

        return self.job(self.tr("Opening the run {path}…").format(path=show_path(path, 80)), work, done)

    # -- dialogs ---------------------------------------------------------------------------------
    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self._dialogs, self.tr("Open session"), "", self.tr("GradViz sessions (*.json);;All files (*)")
        )
        if path:
            self.open_session_file(path)

    def save_dialog(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(
            self._dialogs,
            self.tr("Save session"),
            self.document.path or "session.json",
            self.tr("GradViz sessions (*.json)"),
        )
        return bool(path) and self.save_session_file(path)

    def export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self._dialogs, self.tr("Save run with history"), "history.jsonl", self.tr("JSON Lines (*.jsonl)")
        )
        if path:
            self.export_history(path)

    def export_script(self, path: str, framework: str) -> bool:
        """Write the session as a standalone MindSpore or PyTorch script (model.scripts)."""
        session = self.document.session
        attrs = None
        if framework == "mindspore" and session.options.api == "cell":
            # the nn.Cell attribute names come from the engine (the window never imports MindSpore)
            info = self.c.info
            attrs = info.cell_attributes if info is not None else None
            names = {p.name for p in session.graph.parameters()}
            if attrs is None or set(attrs) != names:
                self.feedback.show_error(
                    self.tr("Could not export yet: wait until the engine has built this session, then try again.")
                )
                return False
        try:
            text = script(session, framework, attrs)
            atomic_write_text(path, text, [self.document.path] if self.document.path else [])
        except (FileProblem, ValueError) as e:
            self.feedback.show_error(self.tr("Could not export the script. {problem}").format(problem=tr_msg(e)))
            return False
        note = self.tr("Wrote {path}: run it with python {path}").format(path=show_path(path))
        if framework == "pytorch" and importlib.util.find_spec("torch") is None:
            note += self.tr(" (PyTorch is not installed here: pip install -e '.[torch]')")
        self.feedback.status.showMessage(note, 10000)
        return True

    def _export_script_dialog(self, framework: str) -> None:
        title = "MindSpore" if framework == "mindspore" else "PyTorch"
        path, _ = QFileDialog.getSaveFileName(
            self._dialogs,
            self.tr("Export as {framework} script").format(framework=title),
            f"gradviz_{framework}.py",
            self.tr("Python scripts (*.py)"),
        )
        if path:
            self.export_script(path, framework)

    def export_mindspore_dialog(self) -> None:
        self._export_script_dialog("mindspore")

    def export_pytorch_dialog(self) -> None:
        self._export_script_dialog("pytorch")

    def open_history_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self._dialogs, self.tr("Open run with history"), "", self.tr("JSON Lines (*.jsonl);;All files (*)")
        )
        if path:
            self.open_history_file(path)


class _Counted:
    """A text stream that passes lines on, reports progress and stops when cancelled."""

    def __init__(self, out, total: int, progress, cancelled):
        self.out, self.total, self.progress, self.cancelled = out, max(total, 1), progress, cancelled
        self.n = 0

    def write(self, text: str) -> None:
        self.out.write(text)
        self.n += 1
        if self.n % 2000 == 0:
            if self.cancelled():
                raise Cancelled()
            self.progress(self.n / self.total)

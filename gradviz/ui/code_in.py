"""Code in: File > Open Python code…, a .py file dropped on the window, and Edit > Paste code.

The program is read by gradviz/model/code_import.py, which never runs it; an import that is
refused changes nothing, and its problems are listed at their lines. An import opens as a new
session the way a session file does (asking before unsaved work is discarded)."""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QRect, Qt, QTimer
from PySide6.QtGui import (
    QAction,
    QColor,
    QKeySequence,
    QPainter,
    QPalette,
    QShortcut,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from ..model.code_import import CodeError, CodeProblem, import_code, import_file
from ..model.formatting import show_path
from ..model.session import Session
from .language import tr_msg
from .parts import Feedback

CHECK_MS = 250  # the pasted code is checked this long after the last key


def problem_text(p: CodeProblem) -> str:
    """A problem as the dialog lists it: `line 7, column 20: message`."""
    if p.line <= 0:
        return tr_msg(p.message)
    return QCoreApplication.translate("CodeIn", "line {line}, column {col}: {message}").format(
        line=p.line, col=p.col, message=tr_msg(p.message)
    )


class ImportCodeDialog(QDialog):
    """Paste (or type) a MindSpore program; its problems are listed as you type and Import is
    enabled once there are none."""

    def __init__(self, parent=None, text: str = ""):
        super().__init__(parent)
        self.setObjectName("importCodeDialog")
        self.setWindowTitle(self.tr("Paste MindSpore code"))
        self.resize(820, 620)
        self.session: Session | None = None
        lay = QVBoxLayout(self)
        lay.addWidget(
            QLabel(self.tr("Paste a MindSpore program: GradViz reads it (it never runs it) and opens its graph."))
        )
        self.edit = QPlainTextEdit(self)
        self.edit.setObjectName("importCodeEdit")
        self.edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        font = self.edit.font()
        font.setFamily("monospace")
        font.setStyleHint(font.StyleHint.Monospace)
        self.edit.setFont(font)
        code_editor(self.edit)
        lay.addWidget(self.edit, 3)
        self.problems = QListWidget(self)
        self.problems.setObjectName("importCodeProblems")
        self.problems.setWordWrap(True)
        self.problems.itemActivated.connect(self._go_to)
        self.problems.itemClicked.connect(self._go_to)
        lay.addWidget(self.problems, 1)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.importButton = self.buttons.addButton(self.tr("&Import"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.importButton.setObjectName("importCodeButton")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(CHECK_MS)
        self._timer.timeout.connect(self.check)
        self.edit.textChanged.connect(self._timer.start)
        self.edit.setPlainText(text)
        self.check()

    def check(self) -> None:
        """Read the text now: list its problems, or keep its session and enable Import."""
        self._timer.stop()
        self.problems.clear()
        self.session = None
        try:
            self.session = import_code(self.edit.toPlainText(), "pasted")
        except CodeError as e:
            for p in e.problems:
                item = QListWidgetItem(problem_text(p))
                item.setData(Qt.ItemDataRole.UserRole, p.line)
                self.problems.addItem(item)
        self.importButton.setEnabled(self.session is not None)

    def _go_to(self, item: QListWidgetItem) -> None:
        line = item.data(Qt.ItemDataRole.UserRole) or 0
        if line > 0:
            block = self.edit.document().findBlockByNumber(line - 1)
            cursor = QTextCursor(block)
            self.edit.setTextCursor(cursor)
            self.edit.setFocus()

    def accept(self) -> None:
        self.check()
        if self.session is not None:
            super().accept()


class CodeIn(QObject):
    """The window's ways in for code: each opens the imported session as a new session in
    `document`, after `files`' question for unsaved work (its worker reads a file);
    `forget_run()` makes that a fresh run, `fit_graph()` refits the graph; `parent` is the
    widget the dialogs belong to."""

    def __init__(
        self,
        document,
        files,
        feedback: Feedback,
        forget_run: Callable[[], None],
        fit_graph: Callable[[], None],
        parent: QWidget,
    ):
        super().__init__(parent)
        self.document, self.files, self.feedback = document, files, feedback
        self._forget_run, self._fit_graph, self._dialogs = forget_run, fit_graph, parent
        self.dialog: ImportCodeDialog | None = None

    def add_actions(self, file_menu, edit_menu, before=None) -> tuple[QAction, QAction]:
        """File > Open Python code… (before `before`) and Edit > Paste code…, which it returns."""
        a = file_menu.addAction(self.tr("Open &Python code…"))
        if before is not None:
            file_menu.removeAction(a)
            file_menu.insertAction(before, a)
        a.setObjectName("importCodeAction")
        a.triggered.connect(self.open_dialog)
        p = edit_menu.addAction(self.tr("&Paste code…"))
        p.setObjectName("pasteCodeAction")
        p.setShortcut(QKeySequence("Ctrl+Shift+V"))
        p.triggered.connect(self.paste_dialog)
        return a, p

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self._dialogs, self.tr("Open Python code"), "", self.tr("Python programs (*.py);;All files (*)")
        )
        if path:
            self.open_file(path)

    def open_file(self, path: str):
        """Read the program at `path` into a new session, on a worker (a program may be 1 MB);
        its problems in the error banner, the session untouched. Returns the job (None if the
        user kept the unsaved session)."""
        if not self.files.may_discard():
            return None

        def work(progress, cancelled):
            return import_file(path)

        def done(job) -> None:
            e = job.error
            if isinstance(e, CodeError):
                lines = [tr_msg(p.at(e.where)) if e.where else tr_msg(p.message) for p in e.problems]
                self.feedback.show_error(
                    self.tr("Could not import the code: {problem}").format(problem=lines[0]), "\n".join(lines)
                )
            elif isinstance(e, MemoryError):
                self.feedback.show_error(
                    self.tr("Could not import the code {path}: not enough memory").format(path=show_path(path))
                )
            elif e is not None:
                self.feedback.show_error(
                    self.tr("Could not import the code {path}: {error}").format(path=show_path(path), error=repr(e))[
                        :300
                    ]
                )
            else:
                self._open(job.result)

        return self.files.job(self.tr("Reading the code {path}…").format(path=show_path(path, 80)), work, done)

    def paste_dialog(self) -> ImportCodeDialog:
        """Edit > Paste code: the dialog, with the clipboard's text in it."""
        from PySide6.QtGui import QGuiApplication

        text = QGuiApplication.clipboard().text() if QGuiApplication.clipboard() is not None else ""
        self.dialog = ImportCodeDialog(self._dialogs, text)
        self.dialog.accepted.connect(lambda: self.adopt(self.dialog.session))
        self.dialog.open()
        return self.dialog

    def adopt(self, session: Session | None) -> bool:
        if session is None or not self.files.may_discard():
            return False
        self._open(session)
        return True

    def _open(self, session: Session) -> None:
        self._forget_run()
        self.document.replace_session(session)
        QTimer.singleShot(0, self._fit_graph)


def dropped_program(mime) -> str | None:
    """The local .py file a drag carries, if it carries exactly one."""
    if not mime.hasUrls():
        return None
    paths = [u.toLocalFile() for u in mime.urls() if u.isLocalFile()]
    if len(paths) == 1 and paths[0].lower().endswith(".py"):
        return paths[0]
    return None


class ProgramEditor(QObject):
    """The MindSpore program tab, editable: Apply (Ctrl+Enter) reads the edited program on the
    session (code_import with base=session) and takes its graph and options as one undoable
    step, or marks the problems at their lines and leaves the graph as it was. Editing the graph
    regenerates the program, as before."""

    def __init__(self, document, view: QPlainTextEdit, parent=None):
        super().__init__(parent)
        self.document, self.view = document, view
        view.setReadOnly(False)
        code_editor(view)
        self.panel = QWidget()
        lay = QVBoxLayout(self.panel)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(view, 1)
        row = QHBoxLayout()
        self.problems = QLabel()
        self.problems.setObjectName("codeProblems")
        self.problems.setWordWrap(True)
        self.problems.setTextFormat(Qt.TextFormat.PlainText)
        row.addWidget(self.problems, 1)
        self.applyButton = QPushButton(self.tr("Apply"))
        self.applyButton.setObjectName("codeApplyButton")
        self.applyButton.setToolTip(self.tr("Read the edited program into the graph and options (Ctrl+Enter)"))
        self.applyButton.clicked.connect(self.apply)
        row.addWidget(self.applyButton)
        lay.addLayout(row)
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            sc = QShortcut(QKeySequence(keys), view)
            sc.setContext(Qt.ShortcutContext.WidgetShortcut)
            sc.activated.connect(self.apply)

    def apply(self) -> bool:
        doc = self.document
        self.view.setExtraSelections([])
        if doc.locked:
            self.problems.setText(self.tr("Pause or reset training to apply the program"))
            return False
        try:
            session = import_code(self.view.toPlainText(), "program", doc.session.name, base=doc.session)
        except CodeError as e:
            self.mark(e.problems)
            return False
        self.problems.setText("")
        doc.edit_session(self.tr("Apply the program"), Session(session.graph, session.options, doc.session.name))
        return True

    def mark(self, problems: list[CodeProblem]) -> None:
        """Each problem's line highlighted, and the problems listed under the program."""
        marks = []
        for p in problems:
            if p.line <= 0:
                continue
            sel = QTextEdit.ExtraSelection()
            sel.format.setBackground(QColor(255, 80, 80, 60))
            sel.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
            sel.cursor = QTextCursor(self.view.document().findBlockByNumber(p.line - 1))
            marks.append(sel)
        self.view.setExtraSelections(marks)
        self.problems.setText("\n".join(problem_text(p) for p in problems[:5]))


# -- syntax colouring and line numbers, for both code editors ----------------------------------------
_COLOURS = {"keyword": "#3b7dd8", "string": "#2e8b57", "comment": "#8a8a8a", "number": "#c05a00"}
_RULES = [
    ("keyword", r"\b(?:" + "|".join(keyword.kwlist) + r")\b"),
    ("number", r"\b\d+(?:\.\d*)?(?:[eE][-+]?\d+)?\b"),
    ("string", r"'[^'\\]*(?:\\.[^'\\]*)*'|\"[^\"\\]*(?:\\.[^\"\\]*)*\""),
    ("comment", r"#[^\n]*"),
]


class PythonColours(QSyntaxHighlighter):
    """Keywords, numbers, strings, comments and triple-quoted docstrings, in colour."""

    def __init__(self, document):
        super().__init__(document)
        self.formats = {}
        for name, colour in _COLOURS.items():
            f = QTextCharFormat()
            f.setForeground(QColor(colour))
            self.formats[name] = f
        self.rules = [(re.compile(pattern), self.formats[name]) for name, pattern in _RULES]

    def highlightBlock(self, text: str) -> None:
        for pattern, fmt in self.rules:  # later rules win: a # inside a string is read as a comment, rarely
            for m in pattern.finditer(text):
                self.setFormat(m.start(), m.end() - m.start(), fmt)
        # a docstring across lines: state 1 while inside one
        start, inside = 0, self.previousBlockState() == 1
        while True:
            at = text.find('"""', start)
            if inside:
                end = len(text) if at < 0 else at + 3
                self.setFormat(start, end - start, self.formats["string"])
                if at < 0:
                    break
                inside, start = False, end
            else:
                if at < 0:
                    break
                inside, start = True, at
        self.setCurrentBlockState(1 if inside else 0)


class LineNumbers(QWidget):
    """A code editor's line numbers, in a margin at its left."""

    def __init__(self, edit: QPlainTextEdit):
        super().__init__(edit)
        self.setObjectName("lineNumbers")
        self.edit = edit
        edit.blockCountChanged.connect(self._fit)
        edit.updateRequest.connect(self._scrolled)
        edit.installEventFilter(self)
        self._fit()

    def width_needed(self) -> int:
        digits = len(str(max(1, self.edit.blockCount())))
        return 8 + self.edit.fontMetrics().horizontalAdvance("9") * max(2, digits)

    def _fit(self, *_args) -> None:
        self.edit.setViewportMargins(self.width_needed(), 0, 0, 0)
        self._place()

    def _place(self) -> None:
        r = self.edit.contentsRect()
        self.setGeometry(QRect(r.left(), r.top(), self.width_needed(), r.height()))

    def _scrolled(self, rect, dy) -> None:
        if dy:
            self.scroll(0, dy)
        else:
            self.update(0, rect.y(), self.width(), rect.height())

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Resize:
            self._place()
        return False

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        pal = self.edit.palette()
        p.fillRect(event.rect(), pal.color(QPalette.ColorRole.AlternateBase))
        p.setPen(pal.color(QPalette.ColorRole.PlaceholderText))
        p.setFont(self.edit.font())
        block = self.edit.firstVisibleBlock()
        top = self.edit.blockBoundingGeometry(block).translated(self.edit.contentOffset()).top()
        h = self.edit.fontMetrics().height()
        while block.isValid() and top <= event.rect().bottom():
            if block.isVisible():
                p.drawText(0, int(top), self.width() - 4, h, Qt.AlignmentFlag.AlignRight, str(block.blockNumber() + 1))
            top += self.edit.blockBoundingRect(block).height()
            block = block.next()
        p.end()


def code_editor(edit: QPlainTextEdit) -> QPlainTextEdit:
    """Colour and number an editor's lines (kept on it, so they live as long as it does)."""
    edit.colours = PythonColours(edit.document())
    edit.lineNumbers = LineNumbers(edit)
    return edit

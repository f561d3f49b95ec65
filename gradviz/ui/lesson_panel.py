"""The Lesson panel: walks MindSpore's functional-autodiff tutorial step by step (the plan,
its set-ups and its texts are model/lesson_plan.py; this module shows them and applies them).

Entering a step (Next, Previous, Set up again) puts the window where the tutorial is: the step's
preset and options through the document, as the controls would. A run that is training is
paused first, and the note under the text says so; a set-up that changes what the run is built
from restarts it from step 0 (the window does that for any such change), one that does not
leaves the paused run as it was. A graph that is the user's own work (edited, and not one
of the lesson's graphs) is only replaced after the window's usual question; options never are.

The numbers in the texts come from the running app (the node values and gradients of the last
snapshot, the history), filled in whenever those change. The step is remembered in the app's
settings (key "lessonStep", the step's id); the panel never applies a step on its own, so a
restored session is not overwritten at start-up."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QClipboard, QFont, QFontMetricsF, QGuiApplication
from PySide6.QtWidgets import (
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..model import lesson_plan as plan
from ..model.shown import ShownNodes
from . import theme
from .controller import LIVE_OPTIONS

STORE_KEY = "lessonStep"
NOTE_COLOR = "#92400e"
WAITING = "…"


def tr(text: str) -> str:
    """A text of the plan (context "Lesson"), in the app's language."""
    return QCoreApplication.translate(plan.CONTEXT, text)


BREAK = "\u200b"  # zero-width space: where a line may break, drawn as nothing
JOIN = "\u2060"  # word joiner: where a line must not break (after the "/" of ∂L/∂b), drawn as nothing
# a tag or an entity (left as they are), or a name (dotted: ops.stop_gradient) with what sticks
# to it up to the next space ("(z,")
_NAME = re.compile(r"<[^>]*>|&#?\w+;|(∂[A-Za-z0-9_]+/∂[A-Za-z0-9_]+|[A-Za-z_][A-Za-z0-9_.]*[A-Za-z0-9_])(\([^\s<&]*)?")


SMALLEST_NAME = 0.8  # a name wider than a rich-text line is drawn down to this much smaller, whole


def _fitting_size(font: QFont, name: str, width: float, fits: float) -> float:
    """The point size, from `fits` times the font's down to SMALLEST_NAME times it, at which the
    name is no wider than `width`: hinted glyphs do not narrow in proportion to the size."""
    small = QFont(font)
    size = round(font.pointSizeF() * fits, 1)
    while size > font.pointSizeF() * SMALLEST_NAME:
        small.setPointSizeF(size)
        if QFontMetricsF(small).horizontalAdvance(name) <= width:
            break
        size = round(size - 0.1, 1)
    return size


def breakable(text: str, label: QLabel) -> str:
    """Text (plain or HTML) for a word-wrapped label whose lines break before or after a whole
    name, never inside one: Qt's word wrap never breaks a word, so "binary_cross_entropy_with_logits(z,"
    may break before its "(". A name wider than the label itself is drawn a little smaller
    (rich text, down to SMALLEST_NAME) or, narrower still, breaks after its underscores rather
    than run off the edge. Tags and entities are left as they are."""
    font = label.font()
    fm = QFontMetricsF(font)
    width = label.contentsRect().width()
    rich = label.textFormat() == Qt.TextFormat.RichText

    def mark(m: re.Match) -> str:
        name, stuck = m.group(1), m.group(2) or ""
        if name is None:
            return m.group()
        joined = name.replace("/∂", "/" + JOIN + "∂")  # ∂L/∂b is one name too: Qt breaks after a "/"
        if fm.horizontalAdvance(name + stuck) <= width:
            return joined + stuck
        wide = fm.horizontalAdvance(name)
        if wide > width:
            fits = width / wide * 0.98  # (rounding of the smaller size)
            if rich and fits >= SMALLEST_NAME and font.pointSizeF() > 0:
                joined = f"<span style='font-size:{_fitting_size(font, name, width, fits):.1f}pt'>{joined}</span>"
            else:
                joined = joined.replace("_", "_" + BREAK)
        return joined + BREAK + stuck if stuck else joined

    return _NAME.sub(mark, text)


class LessonPanel(QWidget):
    """objectName "lessonPanel". `index` is the step shown; `numbers` the figures its text quotes
    now ({placeholder: (number, as quoted) or None}); `note_kind` what entering it did, or that
    the session no longer is the step's."""

    stepChanged = Signal(int)

    def __init__(
        self,
        store,
        document,
        controller,
        shown: ShownNodes,
        experiments,
        may_discard: Callable[[], bool],
        fit_graph: Callable[[], None],
        find: Callable[[type, str], QObject | None],
        parent=None,
    ):
        """`shown`: what the nodes show (the numbers the texts quote); `experiments`: the panel
        whose tabs a step links to; `may_discard`: the window's question before replacing the
        user's work; `find(type, name)`: a widget of the window by its object name (the controls
        a step names, the docks it shows)."""
        super().__init__(parent)
        self.setObjectName("lessonPanel")
        self.store, self.document, self.c, self.shown = store, document, controller, shown
        self.experiments = experiments
        self._may_discard, self._fit_graph, self._find = may_discard, fit_graph, find
        self.numbers: dict = {}
        self._placed: dict[QScrollArea, int] = {}  # area -> the scroll show_controls left it at
        self._placing = False
        self.note_kind = ""  # "paused", "restarted", "kept", "differs" or ""
        stored = store.text(STORE_KEY) if store is not None else ""
        # the lesson of the step remembered, else the session's; the tutorial's by default
        self.lesson = plan.lesson_of_step(stored) or plan.lesson_for(document.session) or "tutorial"
        self.index = plan.index_of(stored) or 0 if plan.lesson_of_step(stored) == self.lesson else 0

        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        nav = QHBoxLayout()
        self.prevButton = QPushButton()
        self.prevButton.setObjectName("lessonPrevious")
        self.nextButton = QPushButton()
        self.nextButton.setObjectName("lessonNext")
        self.stepIndicator = QLabel()
        self.stepIndicator.setObjectName("lessonStepIndicator")
        self.stepIndicator.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.stepIndicator.setFont(theme.font(13, bold=True))
        # Set up again: a small button in the same row (a row of its own took the room of two
        # lines of text under the training options at 1280x720); its name is its tooltip
        self.setupButton = QToolButton()
        self.setupButton.setObjectName("lessonSetup")
        self.setupButton.setText("⟲")
        for b in (self.prevButton, self.nextButton, self.setupButton):
            b.setFont(theme.font(11, bold=True))
        nav.addWidget(self.prevButton)
        nav.addWidget(self.stepIndicator, 1)
        nav.addWidget(self.setupButton)
        nav.addWidget(self.nextButton)
        outer.addLayout(nav)

        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(0, 0, 0, 0)
        self.titleLabel = self._label("lessonTitle", 13, bold=True)
        self.textLabel = self._label("lessonText", 12)
        self.textLabel.setTextFormat(Qt.TextFormat.RichText)
        self._unwrapped: dict[str, str] = {}  # the title's and the text's own text, before breakable
        for label in (self.titleLabel, self.textLabel):
            label.installEventFilter(self)  # a new width: the lines break anew
        self.noteLabel = self._label("lessonNote", 11)
        self.noteLabel.setStyleSheet(f"color: {NOTE_COLOR}; background: #fef3c7; padding: 4px;")
        self.linkRow = QVBoxLayout()  # one under another: narrow docks, longer Chinese texts
        self.links: dict[str, QPushButton] = {}
        for key in plan.LINKS:
            b = QPushButton()
            b.setObjectName(f"lessonLink_{key}")
            b.clicked.connect(lambda _=False, k=key: self.follow(k))
            self.links[key] = b
            self.linkRow.addWidget(b)
        lay.addWidget(self.titleLabel)
        lay.addWidget(self.textLabel)
        lay.addWidget(self.noteLabel)
        self.codeTitle = self._label("lessonCodeTitle", 11, bold=True)
        lay.addWidget(self.codeTitle)
        self.codeView = QPlainTextEdit()
        self.codeView.setObjectName("lessonCode")
        self.codeView.setReadOnly(True)
        self.codeView.setFont(theme.font(10.5, mono=True))
        # wrapped at the dock's width: a long line of the tutorial was cut off in the narrow dock
        self.codeView.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.codeView.setMinimumHeight(120)
        lay.addWidget(self.codeView, 1)
        scroll = QScrollArea()  # on a small screen the text scrolls; the buttons stay in view
        scroll.setObjectName("lessonScroll")
        self._scroll = scroll
        scroll.setWidget(body)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setMinimumHeight(40)
        outer.addWidget(scroll, 1)
        # the step's links under the text, outside its scroll: in view whatever the text's length
        outer.addLayout(self.linkRow)

        self.prevButton.clicked.connect(self.previous)
        self.nextButton.clicked.connect(self.next)
        self.setupButton.clicked.connect(self.set_up)
        c = controller
        # pastNodes reaches the time travel first (it connected first): its step is the one shown
        for signal in (c.nodesChanged, c.pastNodes, c.ended, c.built, c.stateChanged):
            signal.connect(self.refresh)
        document.graphChanged.connect(self._session_edited)
        document.optionsChanged.connect(self._session_edited)
        clipboard = QGuiApplication.clipboard()
        clipboard.dataChanged.connect(self._copied)  # bound methods: disconnected with the panel
        clipboard.selectionChanged.connect(self._selected)
        if not plan.matches(self.step, document.session):  # e.g. a session restored at start-up
            self.note_kind = "differs"
        self.retranslate()

    @staticmethod
    def _label(name: str, size: float, bold: bool = False) -> QLabel:
        w = QLabel()
        w.setObjectName(name)
        w.setFont(theme.font(size, bold=bold))
        w.setWordWrap(True)
        w.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        w.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)  # never widens the dock
        return w

    def _set_wrapped(self, label: QLabel, text: str) -> None:
        """`text` in the title or the text label, its names kept whole where they fit (breakable)."""
        self._unwrapped[label.objectName()] = text
        shown = breakable(text, label)
        if label.text() != shown:
            label.setText(shown)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Resize and any(obj is a.viewport() for a in self._placed):
            if not self._placing:  # once, after the area's contents are laid out too
                self._placing = True
                QTimer.singleShot(0, self, self._place_again)
            return False
        if event.type() == QEvent.Type.Resize and event.size().width() != event.oldSize().width():
            text = self._unwrapped.get(obj.objectName())
            if text is not None:
                self._set_wrapped(obj, text)
        return False

    def _copied(self) -> None:
        self._unmark(QClipboard.Mode.Clipboard)

    def _selected(self) -> None:
        self._unmark(QClipboard.Mode.Selection)

    def _unmark(self, mode: QClipboard.Mode) -> None:
        """Text copied from the title or the text (Ctrl+C, Copy, or selected on X11) without the
        line-break marks (breakable): a name pasted into Python is the name."""
        clipboard = QGuiApplication.clipboard()
        text = clipboard.text(mode)
        if BREAK not in text and JOIN not in text:
            return
        for label in (self.titleLabel, self.textLabel):
            # the selection as Qt copies it (QTextDocumentFragment.toPlainText): only ours is changed
            copied = label.selectedText().replace("\u2029", "\n").replace("\u2028", "\n").replace("\xa0", " ")
            if copied and copied == text:
                clipboard.setText(text.replace(BREAK, "").replace(JOIN, ""), mode)
                return

    @property
    def steps(self) -> tuple[plan.Step, ...]:
        """The steps of the lesson shown (plan.LESSONS: the tutorial's, or a data-set preset's)."""
        return plan.LESSONS[self.lesson]

    @property
    def step(self) -> plan.Step:
        return self.steps[self.index]

    def title(self) -> str:
        return self.tr("Lesson")

    # -- moving ------------------------------------------------------------------------------------
    def next(self) -> bool:
        return self.go(self.index + 1)

    def previous(self) -> bool:
        return self.go(self.index - 1)

    def go(self, index: int) -> bool:
        """Enter step `index` and set it up; False (and nothing changes) outside the plan or when
        the user keeps a session the set-up would replace."""
        if not 0 <= index < len(self.steps):
            return False
        old = self.index
        self.index = index
        if not self.set_up():
            self.index = old
            self.retranslate()
            return False
        if self.store is not None:
            self.store.set_value(STORE_KEY, self.step.id)
        self._scroll.verticalScrollBar().setValue(0)  # a new step is read from its title down
        self.stepChanged.emit(index)
        return True

    def set_up(self) -> bool:
        """Put the window where the step is (see the module's docstring); False if the user kept
        a session it would have replaced."""
        step = self.step
        doc, c = self.document, self.c
        target = plan.setup_session(step)
        want = plan.setup_options(step)
        same_graph = plan.same_graph(step, doc.session)
        new_run = not same_graph or any(getattr(doc.options, k) != v for k, v in want.items() if k not in LIVE_OPTIONS)
        # a graph of the plan is no one's work, whatever options were changed on it
        own_work = (
            not same_graph and doc.modified and not any(plan.same_graph(s, doc.session) for s in plan.STEPS.values())
        )
        if own_work and not self._may_discard():  # the user's own work: the window's usual question
            self._set_note("kept")
            return False
        was_busy = c.run.busy
        if was_busy:
            c.pause()
        self._setting_up = True
        try:
            # a step that asks to watch training slows "as fast as possible" down to a pace a class
            # can follow (a speed set by hand is kept)
            speed = step.speed if step.speed and not doc.options.speed else doc.options.speed
            if same_graph:
                # the options that need a new run first, then the live ones (the window sends those
                # to the running engine): each group is heard as one change
                doc.set_options(**{k: v for k, v in want.items() if k not in LIVE_OPTIONS})
                doc.set_options(**{k: v for k, v in want.items() if k in LIVE_OPTIONS}, speed=speed)
            else:
                target.options.device, target.options.speed = doc.options.device, speed
                doc.replace_session(target)
                QTimer.singleShot(0, self._fit_graph)
        finally:
            self._setting_up = False
        self._set_note("restarted" if was_busy and new_run else "paused" if was_busy else "")
        self.retranslate()
        # once the docks are laid out for the step (a pass later: the first finds the Training dock
        # squeezed while the Lesson dock takes the new step's text)
        QTimer.singleShot(0, lambda: QTimer.singleShot(0, self.show_controls))
        return True

    def show_controls(self, only: set | None = None) -> None:
        """The last resort for a dock made smaller than the window lays it out (the Training
        dock keeps the options the lessons name above its fold): each scroll area that holds
        controls the step's text names (those in `only`, if given) is scrolled to the top where
        that shows them all, else just far enough to show them. Until the user scrolls it, an
        area that is resized (its dock laid out anew, a pass later on a loaded machine) is
        placed again."""
        # the docks as the step's session lays them out, not a viewport caught in between
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        spans: dict[QScrollArea, tuple[int, int]] = {}  # area -> (top, bottom) of its named controls
        for name in self.step.controls:
            widget = self._find(QWidget, name)
            area = widget.parentWidget() if widget is not None else None
            while area is not None and not isinstance(area, QScrollArea):
                area = area.parentWidget()
            if area is None or area.widget() is None or (only is not None and area not in only):
                continue
            top = widget.mapTo(area.widget(), QPoint(0, 0)).y()
            was = spans.get(area, (top, top + widget.height()))
            spans[area] = (min(was[0], top), max(was[1], top + widget.height()))
        if only is None:
            self._placed.clear()
        for area, (top, bottom) in spans.items():
            bar, room = area.verticalScrollBar(), area.viewport().height()
            pad = min(12, max(0, (room - (bottom - top)) // 2))
            # the top where it shows them all; else the least scroll that shows the last of
            # them, never past the first
            value = 0 if bottom <= room else max(0, min(top - pad, bottom + pad - room))
            bar.setValue(value)  # within the bar's range
            area.viewport().installEventFilter(self)  # once: Qt keeps one filter per object
            self._placed[area] = bar.value()

    def _place_again(self) -> None:
        """Areas were resized: place the step's controls again in those the user has not
        scrolled since."""
        self._placing = False
        kept = {a for a, v in self._placed.items() if a.verticalScrollBar().value() == v}
        if kept:
            self.show_controls(kept)

    _setting_up = False

    def _session_edited(self, *_args) -> None:
        """The user changed the graph or an option: say when the step's set-up no longer holds."""
        if self._setting_up:
            return
        lesson = plan.lesson_for(self.document.session)
        if lesson is not None and lesson != self.lesson:  # another preset's session: its own lesson
            self.lesson, self.index, self.note_kind = lesson, 0, ""
            if self.store is not None:
                self.store.set_value(STORE_KEY, self.step.id)
            self.retranslate()
            self.stepChanged.emit(0)
        if plan.matches(self.step, self.document.session):
            if self.note_kind == "differs":
                self._set_note("")
        elif self.note_kind != "differs":
            self._set_note("differs")
        self._show_code()

    def _set_note(self, kind: str) -> None:
        self.note_kind = kind
        self._show_note()

    def note_text(self) -> str:
        """What entering the step did, or that the session no longer is the step's."""
        k = self.note_kind
        if k == "restarted":
            return self.tr("Training was stopped: this step's set-up starts a new run from step 0.")
        if k == "paused":
            return self.tr("Training was paused for this step: press Start to go on.")
        if k == "kept":
            return self.tr("Not set up: the current session was kept.")
        if k == "differs":
            return self.tr(
                "The graph or the options now differ from this step: press ⟲ (Set up again) to put them back."
            )
        return ""

    def _show_note(self) -> None:
        text = self.note_text()
        self.noteLabel.setText(text)
        self.noteLabel.setVisible(bool(text))

    # -- links ---------------------------------------------------------------------------------------
    def follow(self, key: str) -> None:
        """Show the part of the window a step points to."""
        ex = self.experiments
        if key in ("program", "data", "images"):
            dock = self._find(QDockWidget, {"program": "codeDock", "data": "dataDock", "images": "imagesDock"}[key])
        else:
            tab = {"variants": ex.variants, "parity": ex.parity}[key]
            for i in range(ex.count()):
                page = ex.widget(i)
                if page is tab or (isinstance(page, QScrollArea) and page.widget() is tab):
                    ex.setCurrentIndex(i)
            dock = self._find(QDockWidget, "experimentsDock")
        dock.show()
        dock.raise_()

    # -- showing -------------------------------------------------------------------------------------
    def observed(self) -> plan.Observed:
        c, shown = self.c, self.shown
        n, h = c.nodes, c.history
        steps = h.steps[: h.n] if h is not None else np.zeros(0)
        loss = h.loss[: h.n] if h is not None else np.zeros(0)
        if shown.at_last and shown.past is not None:  # the numbers the nodes show: the plots' last step
            n = shown.past
        elif shown.live and shown.data is not None:  # live: those shown (model.shown may hold newer ones)
            n = shown.data
        spec = self.document.graph.data_spec()
        last = steps[-1] if len(steps) else 0
        return plan.Observed(
            n.values if n is not None else None,
            n.grads if n is not None else None,
            (n.parts or {}) if n is not None else {},
            steps,
            loss,
            self.document.options,
            tuple(e for e in c.evals if e["step"] <= last),
            spec.describe() if spec is not None and not spec.problems() else None,
        )

    def refresh(self, *_args) -> None:
        """Fill the text's numbers from what the app computed last."""
        step = self.step
        self.numbers = plan.figures(step, self.observed())
        paras = []
        for p in step.paras:
            names = [k for k in step.figures if "{" + k + "}" in p.text]
            missing = any(self.numbers[k] is None for k in names)
            if missing and p.waiting:
                text = html.escape(tr(p.waiting))
                shown = {k: self._fig(k) for k in step.figures if "{" + k + "}" in p.waiting}
            else:
                text = html.escape(tr(p.text))
                shown = {k: self._fig(k) for k in names}
            paras.append(text.format(**shown))
        self._set_wrapped(self.textLabel, "".join(f"<p style='margin-bottom:6px'>{p}</p>" for p in paras))

    def _fig(self, name: str) -> str:
        v = self.numbers.get(name)
        # a tensor never breaks inside its brackets
        return f"<b>{html.escape(v[1]).replace(', ', ',&nbsp;')}</b>" if v is not None else WAITING

    def retranslate(self) -> None:
        """Every text in the app's language (also after View > Language)."""
        step, n = self.step, len(self.steps)
        self.prevButton.setText(self.tr("◀ Previous"))
        self.nextButton.setText(self.tr("Next ▶"))
        self.setupButton.setToolTip(self.tr("Set up again: put the graph and the options back as this step sets them"))
        self.prevButton.setEnabled(self.index > 0)
        self.nextButton.setEnabled(self.index < n - 1)
        self.stepIndicator.setText(self.tr("{step} / {total}").format(step=self.index + 1, total=n))
        self._set_wrapped(self.titleLabel, tr(step.title))
        self._show_code()
        link_texts = {
            "variants": self.tr("Show the Four variants tab"),
            "parity": self.tr("Show the PyTorch parity tab"),
            "program": self.tr("Show the MindSpore program"),
            "data": self.tr("Show the Data tab"),
            "images": self.tr("Show the Test images tab"),
        }
        for key, b in self.links.items():
            b.setText(link_texts[key])
            b.setVisible(key in step.links)
        self._show_note()
        dock = self.parent()
        if isinstance(dock, QDockWidget):
            dock.setWindowTitle(self.title())
        self.refresh()

    def _show_code(self) -> None:
        """The step's code: one piece under its title, several each after a comment naming it."""
        pieces = plan.code(self.step, self.document.session)
        one = len(pieces) == 1
        self.codeTitle.setText(tr(pieces[0][0]) if one else "")
        self.codeTitle.setVisible(one)
        text = pieces[0][1] if one else "\n".join(f"# {tr(t)}\n{code}" for t, code in pieces)
        if text != self.codeView.toPlainText():
            self.codeView.setPlainText(text)

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

"""The training controls, bound to the document's options; they display the run state's
permissions (model/runstate.py): a disabled control says why in its tooltip."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QRect, Qt, Signal
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from ..model.optimizers import OPTIMIZERS
from ..model.presets import preset_names
from ..model.runstate import Control, Permissions, Phase, RunState
from ..model.options import DEVICES, OPTIONS
from ..i18n import QT_TRANSLATE_NOOP
from . import theme
from ..model.history import DEFAULT_BUDGET, MAX_BUDGET_MB, MIN_BUDGET_MB
from .language import tr_msg
from .fields import ComboBox, DoubleSpinBox, SpinBox

API_ITEMS = [
    ("grad", "mindspore.grad"),
    ("value_and_grad", "mindspore.value_and_grad"),
    ("cell", "nn.Cell + value_and_grad(weights=)"),
]
MODE_ITEMS = [
    ("pynative", QT_TRANSLATE_NOOP("ControlPanel", "PyNative")),
    ("graph", QT_TRANSLATE_NOOP("ControlPanel", "Graph (mindspore.jit)")),
]

AUX_TIP = QT_TRANSLATE_NOOP(
    "ControlPanel",
    "function_with_logits: the function returns the auxiliary outputs after the loss.\n"
    "MindSpore then differentiates every output: the gradients include sum(z).",
)


def _combo(name: str, items, translated: bool = True) -> QComboBox:
    c = ComboBox()
    c.setObjectName(name)
    for key, text in items:
        c.addItem(QCoreApplication.translate("ControlPanel", text) if translated else text, key)
    _shrinkable(c)
    return c


def _shrinkable(c: QComboBox) -> None:
    """A combo box that fits a narrow dock (its text elided, its arrow kept) instead of being
    as wide as its longest item; the list it opens still shows every item in full."""
    c.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    c.setMinimumContentsLength(8)
    c.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)


def _form() -> QFormLayout:
    """Labels beside their fields where the dock is wide enough, above them where it is not (a
    spin box is never narrower than its text and arrows)."""
    f = QFormLayout()
    f.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
    f.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    return f


# the options a lesson step or the teacher's guide names (lesson_plan.Step.controls; the guide
# asks to switch Mode to Graph): the dock shows them first, above its fold (fit_options)
LESSON_OPTIONS = (
    "auxOutputCheck",
    "stopGradientCheck",
    "hasAuxCheck",
    "apiCombo",
    "modeCombo",
    "lrSpin",
    "untilLossSpin",
)


class ControlPanel(QWidget):
    presetChosen = Signal(str)
    startClicked = Signal()
    stepClicked = Signal()
    resetClicked = Signal()
    cancelClicked = Signal()
    restartClicked = Signal()
    historyBudgetChanged = Signal(int)  # bytes (model/history.py: the run's memory budget)

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.doc = document
        self._updating = False
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        options = QWidget()
        lay = QVBoxLayout(options)  # the options scroll on a small screen; the buttons never do
        lay.setContentsMargins(8, 8, 8, 8)
        scroll = QScrollArea()
        scroll.setWidget(options)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)  # the last resort: nothing cut off
        outer.addWidget(scroll, 1)
        self._scroll, self._options = scroll, options

        self.presetCombo = ComboBox()
        self.presetCombo.setObjectName("presetCombo")
        self.presetCombo.addItems(preset_names())
        self.presetCombo.setPlaceholderText("—")
        self.presetCombo.setToolTip(self.tr("Load a ready-made graph (replaces the current one)"))
        _shrinkable(self.presetCombo)
        top = _form()
        top.addRow(self.tr("Preset"), self.presetCombo)
        lay.addLayout(top)

        # a heading over three check boxes, no frame around them: compact, so that the options
        # the lessons name (these, API, Mode, learning rate, stop at loss) stay above the dock's
        # fold at 1024x768 and 1280x720 (a group box's frame wrapped the heading to two lines)
        box = QWidget()
        box.setObjectName("differentiatesBox")
        bl = QVBoxLayout(box)
        bl.setContentsMargins(0, 2, 0, 2)
        bl.setSpacing(0)
        # the heading is a label, not the box's title: a label wraps in a narrow dock, a title cannot
        heading = QLabel(self.tr("What MindSpore differentiates"))
        heading.setObjectName("differentiatesHeading")
        heading.setWordWrap(True)
        heading.setFont(theme.font(10, bold=True))  # one line in the narrowest dock (11 pt wrapped)
        bl.addWidget(heading)
        self.auxOutputCheck = QCheckBox(self.tr("Return z too"))  # the call above the graph shows `return loss, z`
        self.auxOutputCheck.setObjectName("auxOutputCheck")
        self.auxOutputCheck.setToolTip(self.tr(AUX_TIP))
        self.stopGradientCheck = QCheckBox("ops.stop_gradient(z)")
        self.stopGradientCheck.setObjectName("stopGradientCheck")
        self.hasAuxCheck = QCheckBox("has_aux=True")
        self.hasAuxCheck.setObjectName("hasAuxCheck")
        for w in (self.auxOutputCheck, self.stopGradientCheck, self.hasAuxCheck):
            bl.addWidget(w)
        lay.addWidget(box)

        form = _form()
        form.setVerticalSpacing(4)
        self.apiCombo = _combo("apiCombo", API_ITEMS, translated=False)  # code
        self.deviceCombo = _combo("deviceCombo", [(d, d) for d in DEVICES], translated=False)
        self.modeCombo = _combo("modeCombo", MODE_ITEMS)
        self.optimizerCombo = _combo("optimizerCombo", [(o.name, tr_msg(o.text)) for o in OPTIMIZERS.values()], False)
        self.lrSpin = DoubleSpinBox()
        self.lrSpin.setObjectName("lrSpin")
        self.lrSpin.setDecimals(6)
        self.lrSpin.setRange(OPTIONS["lr"].low, OPTIONS["lr"].high)
        self.lrSpin.setSingleStep(0.01)
        self.lrSpin.setToolTip(self.tr("Learning rate; can change while training"))
        self.seedSpin = SpinBox()
        self.seedSpin.setObjectName("seedSpin")
        self.seedSpin.setRange(OPTIONS["seed"].low, OPTIONS["seed"].high)
        self.untilLossSpin = DoubleSpinBox()
        self.untilLossSpin.setObjectName("untilLossSpin")
        self.untilLossSpin.setDecimals(8)
        self.untilLossSpin.setRange(0.0, OPTIONS["until_loss"].high)  # 0: off
        self.untilLossSpin.setSingleStep(0.001)
        self.untilLossSpin.setSpecialValueText(self.tr("off"))
        self.untilLossSpin.setToolTip(
            self.tr("Stop once the loss is below this (like the seed's `if loss < 0.001: break`)")
        )
        self.maxStepsSpin = SpinBox()
        self.maxStepsSpin.setObjectName("maxStepsSpin")
        self.maxStepsSpin.setRange(OPTIONS["steps"].low, OPTIONS["steps"].high)
        self.speedSpin = DoubleSpinBox()
        self.speedSpin.setObjectName("speedSpin")
        self.speedSpin.setRange(0.0, OPTIONS["speed"].high)  # 0: as fast as possible
        self.speedSpin.setDecimals(1)
        self.speedSpin.setSpecialValueText(self.tr("as fast as possible"))
        self.speedSpin.setSuffix(self.tr(" steps/s"))
        self.speedSpin.setToolTip(self.tr("Slow training down to watch it; 0 = as fast as possible"))
        # the options a lesson or the teacher's guide names first (LESSON_OPTIONS: kept above
        # the fold by fit_options), then the rest
        form.addRow("API", self.apiCombo)
        form.addRow(self.tr("Mode"), self.modeCombo)
        form.addRow(self.tr("Learning rate"), self.lrSpin)
        form.addRow(self.tr("Stop at loss"), self.untilLossSpin)
        form.addRow(self.tr("Optimizer"), self.optimizerCombo)
        form.addRow(self.tr("Seed"), self.seedSpin)
        form.addRow(self.tr("Max steps"), self.maxStepsSpin)
        form.addRow(self.tr("Device"), self.deviceCombo)
        self.budgetSpin = SpinBox()
        self.budgetSpin.setObjectName("historyBudgetSpin")
        self.budgetSpin.setRange(MIN_BUDGET_MB, MAX_BUDGET_MB)
        self.budgetSpin.setValue(DEFAULT_BUDGET >> 20)
        self.budgetSpin.setSuffix(" MB")  # a unit, as written in Chinese too
        self.budgetSpin.setKeyboardTracking(False)  # applied when typed in full, not per digit
        self.budgetSpin.setToolTip(
            self.tr(
                "The memory the run's history may take; past it, old steps are thinned out. Can change at any time."
            )
        )
        self.budgetSpin.valueChanged.connect(lambda mb: self.historyBudgetChanged.emit(int(mb) << 20))
        form.addRow(self.tr("History budget"), self.budgetSpin)
        lay.addLayout(form)
        lay.addStretch(1)

        bar = QVBoxLayout()
        bar.setContentsMargins(8, 4, 8, 8)
        outer.addLayout(bar)
        speed = _form()  # used while training: always in view, with the buttons
        speed.addRow(self.tr("Speed"), self.speedSpin)
        bar.addLayout(speed)
        row = QHBoxLayout()
        self.startButton = QPushButton(self.tr("Start"))
        self.startButton.setObjectName("startButton")
        self.stepButton = QPushButton(self.tr("Step"))
        self.stepButton.setObjectName("stepButton")
        self.stepButton.setToolTip(self.tr("Exactly one training step"))
        self.resetButton = QPushButton(self.tr("Reset"))
        self.resetButton.setObjectName("resetButton")
        self.resetButton.setToolTip(self.tr("Re-initialise from the seed and clear the history"))
        for b in (self.startButton, self.stepButton, self.resetButton):
            b.setMinimumHeight(40)
            b.setFont(theme.font(12, bold=True))
            row.addWidget(b)
        bar.addLayout(row)
        self.cancelButton = QPushButton(self.tr("Cancel compiling"))
        self.cancelButton.setObjectName("cancelButton")
        self.cancelButton.setVisible(False)
        bar.addWidget(self.cancelButton)
        self.reasonLabel = QLabel("")
        self.reasonLabel.setTextFormat(Qt.TextFormat.PlainText)  # problems quote names from files
        self.reasonLabel.setObjectName("startReason")
        self.reasonLabel.setWordWrap(True)
        bar.addWidget(self.reasonLabel)

        # wiring: widgets -> document
        self.presetCombo.activated.connect(lambda _i: self.presetChosen.emit(self.presetCombo.currentText()))
        self.auxOutputCheck.toggled.connect(self._aux_toggled)
        self.stopGradientCheck.toggled.connect(lambda v: self._set("stop_gradient", v))
        self.hasAuxCheck.toggled.connect(lambda v: self._set("has_aux", v))
        self.apiCombo.currentIndexChanged.connect(lambda _i: self._set("api", self.apiCombo.currentData()))
        self.deviceCombo.currentIndexChanged.connect(lambda _i: self._set("device", self.deviceCombo.currentData()))
        self.modeCombo.currentIndexChanged.connect(lambda _i: self._set("mode", self.modeCombo.currentData()))
        self.optimizerCombo.currentIndexChanged.connect(
            lambda _i: self._set("optimizer", self.optimizerCombo.currentData())
        )
        self.lrSpin.valueChanged.connect(lambda v: self._set("lr", float(v)))
        self.seedSpin.valueChanged.connect(lambda v: self._set("seed", int(v)))
        self.untilLossSpin.valueChanged.connect(
            lambda v: self._set("until_loss", float(v) if v >= OPTIONS["until_loss"].low else None)
        )
        self.maxStepsSpin.valueChanged.connect(lambda v: self._set("steps", int(v)))
        self.speedSpin.valueChanged.connect(
            lambda v: self._set("speed", float(v) if v >= OPTIONS["speed"].low else 0.0)
        )
        self.startButton.clicked.connect(self.startClicked)
        self.stepButton.clicked.connect(self.stepClicked)
        self.resetButton.clicked.connect(self.resetClicked)
        self.cancelButton.clicked.connect(self._cancel_or_restart)
        self._hold_minimum_widths()
        document.optionsChanged.connect(self.sync_from_document)
        document.sessionReplaced.connect(self.sync_from_document)
        self.sync_from_document()

    def changeEvent(self, e) -> None:
        super().changeEvent(e)
        if e.type() in (QEvent.Type.FontChange, QEvent.Type.ApplicationFontChange):
            self._hold_minimum_widths()
        if e.type() == QEvent.Type.LanguageChange:  # the optimizers' texts hold their settings' values
            for i, o in enumerate(OPTIMIZERS.values()):
                self.optimizerCombo.setItemText(i, tr_msg(o.text))

    def _hold_minimum_widths(self) -> None:
        """Each spin box's and combo box's minimum width, held as the layout's minimum: a
        form that wraps long rows can otherwise leave a field a pixel short (no arrow)."""
        for w in self.findChildren(QAbstractSpinBox) + self.findChildren(QComboBox):
            w.setMinimumWidth(w.minimumSizeHint().width() + 1)

    def preferred_width(self) -> int:
        """The width that shows every option without scrolling sideways."""
        bar = self._scroll.verticalScrollBar().sizeHint().width()
        return self._options.minimumSizeHint().width() + bar + 2 * self._scroll.frameWidth() + 8  # (rounding)

    def lesson_options_height(self, width: int) -> int:
        """The options' height down to the last of LESSON_OPTIONS when the dock is `width` wide
        (a narrower dock wraps the form's rows: labels above their fields)."""
        lay = self._options.layout()
        bar = self._scroll.verticalScrollBar().sizeHint().width()
        inner = max(self._options.minimumSizeHint().width(), width - bar - 2 * self._scroll.frameWidth())
        lay.setGeometry(QRect(0, 0, inner, max(self._options.sizeHint().height(), lay.minimumSize().height())))
        # in the options widget's coordinates (the form's fields are its children)
        bottom = max(self.findChild(QWidget, n).geometry().bottom() + 1 for n in LESSON_OPTIONS)
        return bottom + lay.contentsMargins().bottom()

    def fit_options(self, max_height: int, width: int, most: int = 1 << 20) -> None:
        """Show the options a lesson names without scrolling in a dock `width` wide, and every
        option when there is room (at most max_height, but never fewer than the lesson's need);
        never more than `most` (the screen's room: the window would be taller than the screen)."""
        need = self.lesson_options_height(width)
        self._scroll.setMinimumHeight(min(most, max(need, min(self._options.sizeHint().height(), max_height))))

    def _aux_toggled(self, on: bool) -> None:
        if self._updating:
            return
        if on:
            self.doc.set_option("aux_output", True)
        else:  # the two options only mean something with z returned: clear them with it
            self.doc.set_options(aux_output=False, stop_gradient=False, has_aux=False)

    def _set(self, name: str, value) -> None:
        if not self._updating:
            self.doc.set_option(name, value)

    def sync_from_document(self, *_args) -> None:
        """Show the document's options (without echoing changes back)."""
        o = self.doc.options
        self._updating = True
        try:
            # none chosen (the placeholder) for a graph that is no preset: File > New, a file
            self.presetCombo.setCurrentIndex(self.presetCombo.findText(self.doc.session.name))
            self.auxOutputCheck.setChecked(o.aux_output)
            self.stopGradientCheck.setChecked(o.stop_gradient)
            self.hasAuxCheck.setChecked(o.has_aux)
            for combo, val in (
                (self.apiCombo, o.api),
                (self.deviceCombo, o.device),
                (self.modeCombo, o.mode),
                (self.optimizerCombo, o.optimizer),
            ):
                i = combo.findData(val)
                if i >= 0:
                    combo.setCurrentIndex(i)
            self.lrSpin.setValue(o.lr)
            self.seedSpin.setValue(o.seed)
            self.untilLossSpin.setValue(o.until_loss or 0.0)
            self.maxStepsSpin.setValue(o.steps)
            self.speedSpin.setValue(o.speed)
            has_aux_outputs = bool(self.doc.graph.aux_outputs())
            locked = f"\n({tr_msg(self._perms.why(Control.EDIT))})" if self._locked and self._perms is not None else ""
            self.auxOutputCheck.setEnabled(has_aux_outputs and not self._locked)
            self.auxOutputCheck.setToolTip(
                (
                    self.tr(AUX_TIP)
                    if has_aux_outputs
                    else self.tr("This graph has a single Output: add a second Output to return z too")
                )
                + locked
            )
            why = "" if o.aux_output else self.tr("Only meaningful when z is returned too: tick 'Return z too' first.")
            for w in (self.stopGradientCheck, self.hasAuxCheck):
                w.setEnabled(o.aux_output and not self._locked)
            self.stopGradientCheck.setToolTip(
                (
                    why
                    or self.tr("Return ops.stop_gradient(z): z's gradient is cut, so only the loss is differentiated.")
                )
                + locked
            )
            self.hasAuxCheck.setToolTip(
                (
                    why
                    or self.tr(
                        "grad(..., has_aux=True): only the first output is differentiated; z is returned as auxiliary data."
                    )
                )
                + locked
            )
        finally:
            self._updating = False

    _locked = False  # run options locked (model/runstate.py: Control.EDIT not allowed)
    _perms: Permissions | None = None

    def _cancel_or_restart(self) -> None:
        (
            self.restartClicked if self._perms is not None and self._perms.ok(Control.RESTART) else self.cancelClicked
        ).emit()

    def set_devices(self, devices: dict) -> None:
        model: QStandardItemModel = self.deviceCombo.model()  # type: ignore[assignment]
        for i in range(self.deviceCombo.count()):
            dev = self.deviceCombo.itemData(i)
            ok, why = devices.get(dev, (False, self.tr("unknown")))
            item = model.item(i)
            item.setEnabled(ok)
            item.setToolTip("" if ok else tr_msg(why))
            self.deviceCombo.setItemText(i, dev if ok else self.tr("{device} (not available)").format(device=dev))

    def show_run(self, run: RunState, perms: Permissions) -> None:
        """Enable each control as the run state allows, with the reason as the tooltip if not."""
        self._perms = perms
        self._locked = not perms.ok(Control.EDIT)
        for w, control in (
            (self.presetCombo, Control.EDIT),
            (self.apiCombo, Control.EDIT),
            (self.optimizerCombo, Control.EDIT),
            (self.seedSpin, Control.EDIT),
            (self.deviceCombo, Control.DEVICE),
            (self.modeCombo, Control.DEVICE),
            (self.lrSpin, Control.LIVE),
            (self.untilLossSpin, Control.LIVE),
            (self.maxStepsSpin, Control.LIVE),
            (self.speedSpin, Control.LIVE),
        ):
            w.setEnabled(perms.ok(control))
            base = w.toolTip().split("\n(")[0]
            w.setToolTip(base + (f"\n({tr_msg(perms.why(control))})" if not perms.ok(control) else ""))
        self.startButton.setText(tr_msg(run.start_text))
        go = Control.PAUSE if run.offers_pause else Control.START
        self.startButton.setEnabled(perms.ok(go))
        self.startButton.setToolTip(tr_msg(perms.why(go)))
        self.stepButton.setEnabled(perms.ok(Control.STEP))
        self.stepButton.setToolTip(
            self.tr("Exactly one training step") if perms.ok(Control.STEP) else tr_msg(perms.why(Control.STEP))
        )
        self.resetButton.setEnabled(perms.ok(Control.RESET))
        self.resetButton.setToolTip(
            self.tr("Re-initialise from the seed and clear the history")
            if perms.ok(Control.RESET)
            else tr_msg(perms.why(Control.RESET))
        )
        restart = perms.ok(Control.RESTART)
        self.cancelButton.setVisible(perms.ok(Control.CANCEL) or restart)
        self.cancelButton.setText(
            self.tr("Restart the engine")
            if restart
            else self.tr("Cancel compiling")
            if run.phase == Phase.COMPILING
            else self.tr("Cancel")
        )
        self.cancelButton.setToolTip(
            self.tr("Start a fresh engine process; the session and the history are kept")
            if restart
            else self.tr("Stop the engine process and start a fresh one; the session is kept")
        )
        self.reasonLabel.setText("" if perms.ok(go) else tr_msg(perms.why(go)))
        # red only for something to fix; a wait ("MindSpore is starting…") or a note in the text colour
        self.reasonLabel.setStyleSheet(f"color: {theme.ERROR_COLOR};" if perms.problem(go) else "")
        self.sync_from_document()

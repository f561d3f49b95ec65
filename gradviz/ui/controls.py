"""The training controls, bound to the document's options; they display the run state's
permissions (model/runstate.py): a disabled control says why in its tooltip."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..model.presets import preset_names
from ..model.runstate import Control, Permissions, RunState
from ..model.session import DEVICES, MAX_SEED, MAX_SPEED, MAX_STEPS, MIN_LR, MIN_SPEED, MIN_UNTIL_LOSS
from . import theme

API_ITEMS = [
    ("grad", "mindspore.grad"),
    ("value_and_grad", "mindspore.value_and_grad"),
    ("cell", "nn.Cell + value_and_grad(weights=)"),
]
MODE_ITEMS = [("pynative", "PyNative"), ("graph", "Graph (mindspore.jit)")]
OPT_ITEMS = [("sgd", "SGD"), ("momentum", "Momentum (0.9)"), ("adam", "Adam")]

AUX_TIP = (
    "function_with_logits: the function returns the auxiliary outputs after the loss.\n"
    "MindSpore then differentiates every output: the gradients include sum(z)."
)

# options that need a new run when changed, hence locked while training
RUN_OPTIONS = ("aux_output", "stop_gradient", "has_aux", "api", "device", "mode", "optimizer", "seed")


def _combo(name: str, items) -> QComboBox:
    c = QComboBox()
    c.setObjectName(name)
    for key, text in items:
        c.addItem(text, key)
    return c


class ControlPanel(QWidget):
    presetChosen = Signal(str)
    startClicked = Signal()
    stepClicked = Signal()
    resetClicked = Signal()
    cancelClicked = Signal()
    restartClicked = Signal()

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
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        outer.addWidget(scroll, 1)
        self._scroll, self._options = scroll, options

        self.presetCombo = QComboBox()
        self.presetCombo.setObjectName("presetCombo")
        self.presetCombo.addItems(preset_names())
        self.presetCombo.setToolTip("Load a ready-made graph (replaces the current one)")
        top = QFormLayout()
        top.addRow("Preset", self.presetCombo)
        lay.addLayout(top)

        box = QGroupBox("What MindSpore differentiates")
        bl = QVBoxLayout(box)
        self.auxOutputCheck = QCheckBox("Return z too  (return loss, z)")
        self.auxOutputCheck.setObjectName("auxOutputCheck")
        self.auxOutputCheck.setToolTip(AUX_TIP)
        self.stopGradientCheck = QCheckBox("ops.stop_gradient(z)")
        self.stopGradientCheck.setObjectName("stopGradientCheck")
        self.hasAuxCheck = QCheckBox("has_aux=True")
        self.hasAuxCheck.setObjectName("hasAuxCheck")
        for w in (self.auxOutputCheck, self.stopGradientCheck, self.hasAuxCheck):
            bl.addWidget(w)
        lay.addWidget(box)

        form = QFormLayout()
        form.setVerticalSpacing(4)
        self.apiCombo = _combo("apiCombo", API_ITEMS)
        self.deviceCombo = _combo("deviceCombo", [(d, d) for d in DEVICES])
        self.modeCombo = _combo("modeCombo", MODE_ITEMS)
        self.optimizerCombo = _combo("optimizerCombo", OPT_ITEMS)
        self.lrSpin = QDoubleSpinBox()
        self.lrSpin.setObjectName("lrSpin")
        self.lrSpin.setDecimals(6)
        self.lrSpin.setRange(MIN_LR, 1000.0)
        self.lrSpin.setSingleStep(0.01)
        self.lrSpin.setToolTip("Learning rate; can change while training")
        self.seedSpin = QSpinBox()
        self.seedSpin.setObjectName("seedSpin")
        self.seedSpin.setRange(0, MAX_SEED)
        self.untilLossSpin = QDoubleSpinBox()
        self.untilLossSpin.setObjectName("untilLossSpin")
        self.untilLossSpin.setDecimals(8)
        self.untilLossSpin.setRange(0.0, 1e6)
        self.untilLossSpin.setSingleStep(0.001)
        self.untilLossSpin.setSpecialValueText("off")
        self.untilLossSpin.setToolTip("Stop once the loss is below this (like the seed's `if loss < 0.001: break`)")
        self.maxStepsSpin = QSpinBox()
        self.maxStepsSpin.setObjectName("maxStepsSpin")
        self.maxStepsSpin.setRange(1, MAX_STEPS)
        self.speedSpin = QDoubleSpinBox()
        self.speedSpin.setObjectName("speedSpin")
        self.speedSpin.setRange(0.0, MAX_SPEED)
        self.speedSpin.setDecimals(1)
        self.speedSpin.setSpecialValueText("as fast as possible")
        self.speedSpin.setSuffix(" steps/s")
        self.speedSpin.setToolTip("Slow training down to watch it; 0 = as fast as possible")
        form.addRow("API", self.apiCombo)
        form.addRow("Device", self.deviceCombo)
        form.addRow("Mode", self.modeCombo)
        form.addRow("Optimizer", self.optimizerCombo)
        form.addRow("Learning rate", self.lrSpin)
        form.addRow("Seed", self.seedSpin)
        form.addRow("Stop at loss", self.untilLossSpin)
        form.addRow("Max steps", self.maxStepsSpin)
        lay.addLayout(form)
        lay.addStretch(1)

        bar = QVBoxLayout()
        bar.setContentsMargins(8, 4, 8, 8)
        outer.addLayout(bar)
        speed = QFormLayout()  # used while training: always in view, with the buttons
        speed.addRow("Speed", self.speedSpin)
        bar.addLayout(speed)
        row = QHBoxLayout()
        self.startButton = QPushButton("Start")
        self.startButton.setObjectName("startButton")
        self.stepButton = QPushButton("Step")
        self.stepButton.setObjectName("stepButton")
        self.stepButton.setToolTip("Exactly one training step")
        self.resetButton = QPushButton("Reset")
        self.resetButton.setObjectName("resetButton")
        self.resetButton.setToolTip("Re-initialise from the seed and clear the history")
        for b in (self.startButton, self.stepButton, self.resetButton):
            b.setMinimumHeight(40)
            b.setFont(theme.font(12, bold=True))
            row.addWidget(b)
        bar.addLayout(row)
        self.cancelButton = QPushButton("Cancel compiling")
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
            lambda v: self._set("until_loss", float(v) if v >= MIN_UNTIL_LOSS else None)
        )
        self.maxStepsSpin.valueChanged.connect(lambda v: self._set("steps", int(v)))
        self.speedSpin.valueChanged.connect(lambda v: self._set("speed", float(v) if v >= MIN_SPEED else 0.0))
        self.startButton.clicked.connect(self.startClicked)
        self.stepButton.clicked.connect(self.stepClicked)
        self.resetButton.clicked.connect(self.resetClicked)
        self.cancelButton.clicked.connect(self._cancel_or_restart)
        document.optionsChanged.connect(self.sync_from_document)
        document.sessionReplaced.connect(self.sync_from_document)
        self.sync_from_document()

    def fit_options(self, max_height: int) -> None:
        """Show every option without scrolling when there is room (at most max_height)."""
        self._scroll.setMinimumHeight(min(self._options.sizeHint().height(), max_height))

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
            if self.presetCombo.findText(self.doc.session.name) >= 0:
                self.presetCombo.setCurrentText(self.doc.session.name)
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
            locked = f"\n({self._perms.why(Control.EDIT)})" if self._locked and self._perms is not None else ""
            self.auxOutputCheck.setEnabled(has_aux_outputs and not self._locked)
            self.auxOutputCheck.setToolTip(
                (AUX_TIP if has_aux_outputs else "This graph has a single Output: add a second Output to return z too")
                + locked
            )
            why = "" if o.aux_output else "Only meaningful when z is returned too: tick 'Return z too' first."
            for w in (self.stopGradientCheck, self.hasAuxCheck):
                w.setEnabled(o.aux_output and not self._locked)
            self.stopGradientCheck.setToolTip(
                (why or "Return ops.stop_gradient(z): z's gradient is cut, so only the loss is differentiated.")
                + locked
            )
            self.hasAuxCheck.setToolTip(
                (
                    why
                    or "grad(..., has_aux=True): only the first output is differentiated; z is returned as auxiliary data."
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
            ok, why = devices.get(dev, (False, "unknown"))
            item = model.item(i)
            item.setEnabled(ok)
            item.setToolTip("" if ok else why)
            self.deviceCombo.setItemText(i, dev if ok else f"{dev} (not available)")

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
            w.setToolTip(base + (f"\n({perms.why(control)})" if not perms.ok(control) else ""))
        self.startButton.setText(run.start_text)
        go = Control.PAUSE if run.busy else Control.START
        self.startButton.setEnabled(perms.ok(go))
        self.startButton.setToolTip(perms.why(go))
        self.stepButton.setEnabled(perms.ok(Control.STEP))
        self.stepButton.setToolTip("Exactly one training step" if perms.ok(Control.STEP) else perms.why(Control.STEP))
        self.resetButton.setEnabled(perms.ok(Control.RESET))
        self.resetButton.setToolTip(
            "Re-initialise from the seed and clear the history" if perms.ok(Control.RESET) else perms.why(Control.RESET)
        )
        restart = perms.ok(Control.RESTART)
        self.cancelButton.setVisible(perms.ok(Control.CANCEL) or restart)
        self.cancelButton.setText(
            "Restart the engine" if restart else "Cancel compiling" if run.phase == "compiling" else "Cancel"
        )
        self.cancelButton.setToolTip(
            "Start a fresh engine process; the session and the history are kept"
            if restart
            else "Stop the engine process and start a fresh one; the session is kept"
        )
        self.reasonLabel.setText("" if perms.ok(go) else perms.why(go))
        # red only for something to fix; a wait ("MindSpore is starting…") or a note in the text colour
        self.reasonLabel.setStyleSheet(f"color: {theme.ERROR_COLOR};" if perms.problem(go) else "")
        self.sync_from_document()

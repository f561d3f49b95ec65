"""Edit the selected node: name, shape, init, values, requires_grad, and its kind's attributes
(the op table's ops.Attr: one number field each, a list for an initializer's name, a text field
with a Choose button for a path). Edits are undoable."""

from __future__ import annotations

import json

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..model.graph import DESCRIPTIONS, INITS, check_name, check_shape
from ..model.datasets import FILES as FILE_SOURCES
from ..model.ops import OPS
from . import theme
from .language import tr_msg
from .fields import ComboBox, DoubleSpinBox


def parse_shape(text: str):
    """'5, 3' or '(5, 3)' or '' (a scalar) -> tuple, or raise ValueError with the reason."""
    t = text.strip().strip("()[]").strip()
    if not t:
        return ()
    try:
        shape = tuple(int(p) for p in t.replace("×", ",").replace("x", ",").split(",") if p.strip())
    except ValueError:
        raise ValueError(
            QCoreApplication.translate(
                "Inspector", "'{text}' is not a shape: write sizes separated by commas, like 5, 3"
            ).format(text=text)
        ) from None
    msg = check_shape(list(shape))
    if msg:
        raise ValueError(tr_msg(msg))
    return shape


class Inspector(QWidget):
    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.doc = document
        self.name: str = ""
        lay = QVBoxLayout(self)
        self.title = QLabel(self.tr("Select a node to edit it"))
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setFont(theme.font(12, bold=True))
        self.title.setWordWrap(True)
        lay.addWidget(self.title)
        form = QFormLayout()
        self.nameEdit = QLineEdit()
        self.nameEdit.setObjectName("inspectorName")
        self.shapeEdit = QLineEdit()
        self.shapeEdit.setObjectName("inspectorShape")
        self.shapeEdit.setPlaceholderText(self.tr("e.g. 5, 3"))
        self.initCombo = ComboBox()
        self.initCombo.setObjectName("inspectorInit")
        self.initCombo.addItems(INITS)
        self.valuesEdit = QPlainTextEdit()
        self.valuesEdit.setObjectName("inspectorValues")
        self.valuesEdit.setPlaceholderText("[[1, 2], [3, 4]]")
        self.valuesEdit.setMaximumHeight(80)
        self.gradCheck = QCheckBox(self.tr("requires_grad (trainable)"))
        self.gradCheck.setObjectName("inspectorRequiresGrad")
        form.addRow(self.tr("Name"), self.nameEdit)
        form.addRow(self.tr("Shape"), self.shapeEdit)
        form.addRow(self.tr("Init"), self.initCombo)
        form.addRow(self.tr("Values"), self.valuesEdit)
        form.addRow("", self.gradCheck)
        lay.addLayout(form)
        self.attrForm = QFormLayout()  # the selected kind's attributes, made again for each node
        self.attrEdits: dict[str, DoubleSpinBox] = {}
        self.attrBrowse: dict[str, QPushButton] = {}  # a path attribute's Choose button
        lay.addLayout(self.attrForm)
        self.applyButton = QPushButton(self.tr("Apply"))
        self.applyButton.setObjectName("inspectorApply")
        lay.addWidget(self.applyButton)
        self.error = QLabel("")
        self.error.setTextFormat(Qt.TextFormat.PlainText)
        self.error.setObjectName("inspectorError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet(f"color: {theme.ERROR_COLOR};")
        lay.addWidget(self.error)
        lay.addStretch(1)
        # one way for every field: it applies on Enter and when the focus leaves it
        self.applyButton.clicked.connect(self.apply)
        self.nameEdit.editingFinished.connect(self.apply)
        self.shapeEdit.editingFinished.connect(self.apply)
        self.initCombo.activated.connect(lambda _i: self.apply())
        self.gradCheck.clicked.connect(lambda _on: self.apply())
        self.valuesEdit.installEventFilter(self)
        self.initCombo.currentTextChanged.connect(lambda t: self.valuesEdit.setEnabled(t == "values"))
        document.graphChanged.connect(self._graph_changed)
        self.show_node("")

    def eventFilter(self, obj, event) -> bool:
        """The values (one line of JSON): Enter applies them (Shift+Enter starts a new line), and
        so does leaving the field."""
        if obj is self.valuesEdit:
            if event.type() == QEvent.Type.FocusOut:
                self.apply()
            elif (
                event.type() == QEvent.Type.KeyPress
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
                and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier
            ):
                self.apply()
                return True
        return super().eventFilter(obj, event)

    def _graph_changed(self) -> None:
        self.show_node(self.name)

    def show_node(self, name: str) -> None:
        n = self.doc.graph.get(name) if name else None
        self.name = n.name if n else ""
        self.error.setText("")
        for w in (self.nameEdit, self.shapeEdit, self.initCombo, self.valuesEdit, self.gradCheck, self.applyButton):
            w.setEnabled(n is not None)
        if n is None:
            self._show_attrs(None)
            self.title.setText(self.tr("Select a node to edit it"))
            self.nameEdit.clear()
            self.shapeEdit.clear()
            self.valuesEdit.clear()
            return
        self.title.setText(f'{n.kind} "{n.name}"\n{tr_msg(DESCRIPTIONS.get(n.kind, ""))}')
        self.nameEdit.setText(n.name)
        src = n.is_source
        self.shapeEdit.setText(", ".join(map(str, n.shape)) if src else "")
        self.initCombo.setCurrentText(n.init)
        self.valuesEdit.setPlainText(json.dumps(n.values) if n.init == "values" and n.values is not None else "")
        self.gradCheck.setChecked(n.requires_grad)
        for w in (self.shapeEdit, self.initCombo):
            w.setEnabled(src)
        self.valuesEdit.setEnabled(src and n.init == "values")
        self.gradCheck.setEnabled(n.kind == "Parameter")
        self._show_attrs(n)
        if self.locked:
            for w in (self.nameEdit, self.shapeEdit, self.initCombo, self.valuesEdit, self.gradCheck, self.applyButton):
                w.setEnabled(False)
            self.applyButton.setToolTip(self.tr("Pause training to edit the graph"))
        else:
            self.applyButton.setToolTip("")

    def _show_attrs(self, n) -> None:
        """One number field per attribute of the node's kind, in its range, showing its value."""
        kind = n.kind if n is not None else None
        if kind != getattr(self, "_attr_kind", None):
            while self.attrForm.rowCount():
                self.attrForm.removeRow(0)
            self.attrEdits = {}
            self.attrBrowse: dict[str, QPushButton] = {}
            for a in OPS[kind].attrs if kind in OPS else ():
                if a.type is str and not a.choices:  # a path: typed, or chosen in a dialog
                    self.attrForm.addRow(a.name, self._path_row(a))
                    continue
                if a.type is str:  # an initializer's name: a choice
                    box = ComboBox()
                    box.setObjectName(f"inspectorAttr_{a.name}")
                    box.addItems(list(a.choices))
                    box.setToolTip(tr_msg(a.description))
                    self.attrForm.addRow(a.name, box)
                    self.attrEdits[a.name] = box
                    continue
                box = DoubleSpinBox()
                box.setObjectName(f"inspectorAttr_{a.name}")
                box.setDecimals(0 if a.type is int else 4)
                box.setRange(a.low, a.high)
                box.setSingleStep(1 if a.type is int else 0.01)
                box.setToolTip(tr_msg(a.description))
                self.attrForm.addRow(a.name, box)
                self.attrEdits[a.name] = box
            self._attr_kind = kind
            source = self.attrEdits.get("source")
            if self.attrBrowse and isinstance(source, ComboBox):  # a path only for the file sources
                source.currentTextChanged.connect(lambda _t: self._enable_paths())
        if n is not None:
            values = OPS[n.kind].attr_values(n.attrs)
            for name, box in self.attrEdits.items():
                if isinstance(box, QLineEdit):
                    box.setText(values[name])
                elif isinstance(box, ComboBox):
                    box.setCurrentText(values[name])
                else:
                    box.setValue(values[name])
                box.setEnabled(not self.locked)
            self._enable_paths()

    def _enable_paths(self) -> None:
        """A path field and its Choose button are enabled while the source chosen reads files."""
        source = self.attrEdits.get("source")
        reads = not isinstance(source, ComboBox) or source.currentText() in FILE_SOURCES
        for name, button in self.attrBrowse.items():
            for w in (self.attrEdits[name], button):
                w.setEnabled(reads and not self.locked)

    def _path_row(self, a) -> QWidget:
        """A path attribute's field and its Choose button (a file for source csv, a folder otherwise)."""
        row = QWidget()
        lay = QHBoxLayout(row)
        lay.setContentsMargins(0, 0, 0, 0)
        edit = QLineEdit()
        edit.setObjectName(f"inspectorAttr_{a.name}")
        edit.setToolTip(tr_msg(a.description))
        edit.setPlaceholderText(self.tr("a CSV file or an MNIST folder"))
        edit.editingFinished.connect(self.apply)
        button = QPushButton(self.tr("Choose…"))
        button.setObjectName(f"inspectorAttrChoose_{a.name}")
        button.setToolTip(self.tr("Choose the CSV file (source csv) or the folder of MNIST files (source mnist)"))
        button.clicked.connect(lambda _on=False, name=a.name: self.choose_path(name))
        lay.addWidget(edit, 1)
        lay.addWidget(button)
        self.attrEdits[a.name] = edit
        self.attrBrowse[a.name] = button
        return row

    def choose_path(self, name: str) -> None:
        """Ask for the file or folder (by the node's source), then apply it."""
        source = self.attrEdits.get("source")
        folder = isinstance(source, ComboBox) and source.currentText() == "mnist"
        path = self.ask_path(folder, self.attrEdits[name].text())
        if path:
            self.attrEdits[name].setText(path)
            self.apply()

    def ask_path(self, folder: bool, start: str) -> str:
        """The dialog (tests replace it): a folder of MNIST files, or a CSV file; '' when cancelled."""
        if folder:
            return QFileDialog.getExistingDirectory(self, self.tr("The folder of MNIST IDX files"), start)
        return QFileDialog.getOpenFileName(
            self, self.tr("A CSV file of features and labels"), start, self.tr("CSV files (*.csv);;All files (*)")
        )[0]

    locked = False

    def set_locked(self, locked: bool) -> None:
        self.locked = locked
        self.show_node(self.name)

    def apply(self) -> None:
        n = self.doc.graph.get(self.name)
        if n is None or self.locked:
            return
        new_name = self.nameEdit.text().strip()
        if new_name != n.name:
            msg = check_name(new_name)
            if msg is None and self.doc.graph.get(new_name) is not None:
                msg = self.tr('the name "{name}" is already used').format(name=new_name)
            if msg:
                self.error.setText(tr_msg(msg))
                return
        fields = {}
        if n.is_source:
            try:
                shape = parse_shape(self.shapeEdit.text())
            except ValueError as e:
                self.error.setText(str(e))
                return
            init = self.initCombo.currentText()
            fields.update(shape=shape, init=init)
            if init == "values":
                try:
                    values = json.loads(self.valuesEdit.toPlainText() or "null")
                except json.JSONDecodeError as e:
                    self.error.setText(self.tr("values are not a list of numbers: {error}").format(error=e.msg))
                    return
                fields["values"] = values
            fields["requires_grad"] = self.gradCheck.isChecked()
        if self.attrEdits:
            kind = OPS[n.kind]
            attrs = {
                a.name: self.attrEdits[a.name].text().strip()
                if a.type is str and not a.choices
                else self.attrEdits[a.name].currentText()
                if a.type is str
                else a.type(self.attrEdits[a.name].value())
                for a in kind.attrs
            }
            if attrs != kind.attr_values(n.attrs):
                fields["attrs"] = attrs
        old = n.name
        self.error.setText("")
        if new_name != old:
            self.doc.rename_node(old, new_name)
            self.name = new_name
        if fields:
            changed = {k: v for k, v in fields.items() if getattr(self.doc.graph[self.name], k) != v}
            if changed:
                self.doc.update_node(self.name, self.tr("Edit {name}").format(name=self.name), **changed)
        problems = [tr_msg(p.message) for p in self.doc.graph.validate() if p.node == self.name]
        if problems:
            self.error.setText("\n".join(problems))

"""The banner above the graph: an error, the watchdog's "not answering", or the run's notice.

It says what it speaks for (`owner`), so that the window can take a notice down when the state
it spoke of is gone while leaving an error the user has not dismissed."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from . import theme


class ErrorBanner(QWidget):
    """A row: the message (`errorBanner`), Details… (the traceback behind it), Wait and Restart
    (while the engine does not answer) and Dismiss."""

    waitClicked = Signal()
    restartClicked = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("bannerRow")
        self.label = QLabel("")
        self.label.setObjectName("errorBanner")
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # messages quote text from files: never HTML
        self.label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)  # never widens the window
        self.label.setStyleSheet(f"background: #fee2e2; color: {theme.ERROR_COLOR}; padding: 8px;")
        self.label.setFont(theme.font(12))
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label, 1)
        self.detailsButton = self._button("detailsButton", self.tr("Details…"), self.tr("The engine's full traceback"))
        self.detailsButton.clicked.connect(self.show_details)
        self.waitButton = self._button("waitButton", self.tr("Wait"), self.tr("Keep waiting for the engine to answer"))
        self.waitButton.clicked.connect(self.waitClicked)
        self.restartButton = self._button(
            "restartButton",
            self.tr("Restart"),
            self.tr("Start a fresh engine process; the session and the history are kept"),
        )
        self.restartButton.clicked.connect(self.restartClicked)
        for b in (self.detailsButton, self.waitButton, self.restartButton):
            row.addWidget(b)
            b.setVisible(False)
        dismiss = QPushButton(self.tr("Dismiss"))
        dismiss.setObjectName("dismissButton")
        dismiss.clicked.connect(self.dismiss)
        row.addWidget(dismiss)
        self.detail = ""
        self.owner = ""  # "error", "watchdog" or "run" (the run state's notice)
        self.setVisible(False)

    @staticmethod
    def _button(name: str, text: str, tip: str) -> QPushButton:
        b = QPushButton(text)
        b.setObjectName(name)
        b.setToolTip(tip)
        return b

    def show_message(self, text: str, detail: str = "", owner: str = "error") -> None:
        """`owner`: what the banner speaks for ("error", "watchdog": with Wait and Restart, or
        "run"); `detail`: a traceback for Details…."""
        self.owner = owner
        self.label.setText(text)
        self.detail = detail
        self.detailsButton.setVisible(bool(detail))
        self.waitButton.setVisible(owner == "watchdog")
        self.restartButton.setVisible(owner == "watchdog")
        self.setVisible(True)

    def dismiss(self) -> None:
        self.setVisible(False)

    @property
    def shown(self) -> bool:
        return self.isVisible()

    def show_details(self) -> QDialog:
        """The engine's traceback in a read-only text window (non-modal: training goes on)."""
        d = QDialog(self.window())
        d.setObjectName("detailsDialog")
        d.setWindowTitle(self.tr("Error details"))
        d.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        lay = QVBoxLayout(d)
        text = QPlainTextEdit(self.detail)
        text.setObjectName("detailsText")
        text.setReadOnly(True)
        text.setFont(theme.font(10, mono=True))
        text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        lay.addWidget(text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(d.close)
        lay.addWidget(buttons)
        d.resize(900, 500)
        d.show()
        return d

"""The lecture's keys and the menus that list them: Run (Start/Pause, Step, Reset), View (Fit
graph, Presentation mode, Theme), File > Export (Ctrl+E) and Help > Keyboard shortcuts.

Space, S and F are single keys: they work wherever the focus is (a button, a check box, the
graph, a plot), except in a text field, where they type. A line edit or spin box claims such a
key itself (Qt's shortcut override); the window's read-only text views (the program) are made
to claim them too; Enter or Escape in a field hands the focus back to the graph (the window's
keyPressEvent). Each key does exactly what its button does, and only when the button is
enabled; otherwise the status bar says why."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMainWindow,
    QMenu,
    QPlainTextEdit,
    QStatusBar,
    QTableWidget,
    QTableWidgetItem,
    QTextEdit,
    QVBoxLayout,
)

from . import theme

START_KEY = "Space"
STEP_KEY = "S"
RESET_KEY = "Ctrl+R"  # Reset clears the history: never a single key pressed by accident
FIT_KEY = "F"
PRESENTATION_KEY = "F5"

_MODIFIERS = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.MetaModifier


def window_action(window, text: str, key: str, name: str, fn) -> QAction:
    """An action of the window with its key, named `name`, calling `fn` (None: wired later);
    added to the window itself, so its key works with the menu bar hidden too."""
    a = QAction(text, window)
    a.setObjectName(name)
    a.setShortcut(QKeySequence(key))
    a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    if fn is not None:
        a.triggered.connect(fn)
    window.addAction(a)
    return a


class TextKeys(QObject):
    """Installed on a read-only text view: it claims the keys that type (Qt's shortcut
    override), as an editable text field does, so that Space, S and F stay with it."""

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and not event.modifiers() & _MODIFIERS and event.text():
            event.accept()
            return True
        return False


class Shortcuts:
    """Adds the actions to a window's menus. `actions` lists them, in the order the Help >
    Keyboard shortcuts dialog shows them.

    `host` is used as a Qt widget only: its menu bar, the actions its keys work in, the parent
    of the dialog; `controls` has the buttons the run keys press; `menus` are the File, Edit and
    View menus; `exports` holds File > Export's menu and key; `set_presentation(on)` and
    `set_theme(name)` switch the look; `status` says why a key does nothing now."""

    def __init__(
        self,
        host: QMainWindow,
        controls,
        menus: tuple[QMenu, QMenu, QMenu],
        fit_action: QAction,
        exports,
        set_presentation: Callable[[bool], None],
        set_theme: Callable[[str], None],
        status: QStatusBar,
    ):
        self.host, self.status = host, status
        self.fileMenu, self.editMenu, self.viewMenu = menus
        c = controls
        self.startAction = self._action(
            QCoreApplication.translate("Shortcuts", "Start / Pause"),
            START_KEY,
            "startAction",
            lambda: self._press(c.startButton),
        )
        self.stepAction = self._action(
            QCoreApplication.translate("Shortcuts", "Step (one training step)"),
            STEP_KEY,
            "stepAction",
            lambda: self._press(c.stepButton),
        )
        self.resetAction = self._action(
            QCoreApplication.translate("Shortcuts", "Reset"),
            RESET_KEY,
            "resetAction",
            lambda: self._press(c.resetButton),
        )
        run = QMenu(QCoreApplication.translate("Shortcuts", "&Run"), host)
        run.setObjectName("runMenu")
        for a in (self.startAction, self.stepAction, self.resetAction):
            run.addAction(a)
        host.menuBar().insertMenu(self.viewMenu.menuAction(), run)
        self.runMenu = run

        # View: fit, presentation mode, theme
        self.fitAction = fit_action
        self.fitAction.setObjectName("fitAction")
        self.fitAction.setShortcut(QKeySequence(FIT_KEY))
        host.addAction(self.fitAction)
        self.presentationAction = self._action(
            QCoreApplication.translate("Shortcuts", "&Presentation mode"), PRESENTATION_KEY, "presentationAction", None
        )
        self.presentationAction.setCheckable(True)
        self.presentationAction.setToolTip(
            QCoreApplication.translate(
                "Shortcuts", "Larger text, thicker curves, more contrast; hides the editing docks. F5 again to leave."
            )
        )
        self.presentationAction.toggled.connect(set_presentation)
        v = self.viewMenu
        first = v.actions()[1] if len(v.actions()) > 1 else None
        v.insertAction(first, self.presentationAction)
        themes = QMenu(QCoreApplication.translate("Shortcuts", "&Theme"), host)
        themes.setObjectName("themeMenu")
        group = QActionGroup(host)
        self.lightAction = themes.addAction(QCoreApplication.translate("Shortcuts", "&Light"))
        self.darkAction = themes.addAction(QCoreApplication.translate("Shortcuts", "&Dark"))
        for a, name, dark in (
            (self.lightAction, "lightThemeAction", False),
            (self.darkAction, "darkThemeAction", True),
        ):
            a.setObjectName(name)
            a.setCheckable(True)
            group.addAction(a)
            a.triggered.connect(lambda _=False, d=dark: set_theme("dark" if d else "light"))
        self.lightAction.setChecked(True)
        v.insertMenu(first, themes)
        v.insertSeparator(first)
        self.themeMenu = themes

        # File > Export (Ctrl+E): the exports' own menu and key (ui/exports.py)
        self.exportMenu = exports.menu
        self.exportAction = exports.action

        # Help: the keyboard shortcuts
        h = host.menuBar().addMenu(QCoreApplication.translate("Shortcuts", "&Help"))
        h.setObjectName("helpMenu")
        self.keysAction = h.addAction(QCoreApplication.translate("Shortcuts", "&Keyboard shortcuts…"))
        self.keysAction.setObjectName("keysAction")
        self.keysAction.setShortcut(QKeySequence(QKeySequence.StandardKey.HelpContents))
        self.keysAction.triggered.connect(self.show_keys)
        self.helpMenu = h
        self._text_keys = TextKeys(host)
        for view in host.findChildren(QPlainTextEdit) + host.findChildren(QTextEdit):
            view.installEventFilter(self._text_keys)

    def _action(self, text: str, key: str, name: str, fn) -> QAction:
        return window_action(self.host, text, key, name, fn)

    def _press(self, button) -> None:
        """Do what the button does, if it may; else say why in the status bar."""
        if button.isEnabled():
            button.click()
        else:
            why = button.toolTip() or QCoreApplication.translate("Shortcuts", "{button} is not available now").format(
                button=button.text()
            )
            self.status.showMessage(why, 5000)

    def actions(self) -> list[QAction]:
        """Every action with a shortcut, as the Help dialog lists them."""
        out = [self.startAction, self.stepAction, self.resetAction, self.fitAction, self.presentationAction]
        seen = set(map(id, out))
        for menu in (self.fileMenu, self.editMenu, self.exportMenu, self.viewMenu, self.helpMenu):
            for a in menu.actions():
                if not a.shortcut().isEmpty() and id(a) not in seen:
                    out.append(a)
                    seen.add(id(a))
        return out

    def show_keys(self) -> QDialog:
        """Help > Keyboard shortcuts: every action with its keys, read from the actions themselves."""
        d = QDialog(self.host)
        d.setObjectName("keysDialog")
        d.setWindowTitle(QCoreApplication.translate("Shortcuts", "Keyboard shortcuts"))
        d.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        lay = QVBoxLayout(d)
        note = QLabel(
            QCoreApplication.translate(
                "Shortcuts",
                "Space, S and F work wherever the focus is, except in a text field, where they type; "
                "Enter or Escape there hands them back.",
            )
        )
        note.setWordWrap(True)
        lay.addWidget(note)
        acts = self.actions()
        table = QTableWidget(len(acts), 2)
        table.setObjectName("keysTable")
        table.setHorizontalHeaderLabels(
            [QCoreApplication.translate("Shortcuts", "Key"), QCoreApplication.translate("Shortcuts", "Action")]
        )
        table.verticalHeader().setVisible(False)
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for i, a in enumerate(acts):
            table.setItem(i, 0, QTableWidgetItem(a.shortcut().toString(QKeySequence.SequenceFormat.NativeText)))
            table.setItem(i, 1, QTableWidgetItem(a.text().replace("&", "").rstrip("…")))
        table.resizeColumnsToContents()
        table.horizontalHeader().setStretchLastSection(True)
        table.setFont(theme.font(theme.BASE_POINT_SIZE))
        lay.addWidget(table)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(d.close)
        lay.addWidget(buttons)
        avail = self.host.screen().availableGeometry()
        d.resize(min(560, avail.width()), min(520, avail.height()))
        d.show()
        return d

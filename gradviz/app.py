"""Launch the desktop app."""

from __future__ import annotations

import sys


def launch(argv: list[str] | None = None) -> int:
    from PySide6.QtWidgets import QApplication

    from .ui import language, theme
    from .ui.main_window import MainWindow
    from .ui.persistence import AppStore

    app = QApplication.instance() or QApplication(argv or sys.argv[:1])
    app.setApplicationName("GradViz")
    app.setOrganizationName("GradViz")
    app.setFont(theme.font(theme.BASE_POINT_SIZE))
    store = AppStore.default()
    language.install(store.text(language.SETTING))
    w = MainWindow(store=store)
    w.show()
    return app.exec()

"""Launch the desktop app."""

from __future__ import annotations

import sys


def open_window(argv: list[str] | None = None):
    """Start the engine process, then Qt and the main window, shown: (app, window). What
    `launch` runs before the event loop, and what the benchmark times."""
    # first of all, the engine process: it imports MindSpore (most of start-up) while this process
    # imports Qt and builds the window; the tutorial's PyNative on the CPU is the likeliest need
    # (the window's engine client takes it, or stops it for another mode or device)
    from .engine import entry

    entry.prestart()
    from PySide6.QtWidgets import QApplication

    from .ui import language
    from .ui.persistence import AppStore
    from .ui.start_screen import StartScreen

    app = QApplication.instance() or QApplication(argv or sys.argv[:1])
    app.setApplicationName("GradViz")
    app.setOrganizationName("GradViz")
    store = AppStore.default()
    language.install(store.text(language.SETTING))
    # on screen before pyqtgraph and the window's modules are imported (they take a while)
    start_screen = StartScreen.show_now()
    from .ui import theme
    from .ui.garbage import collect_on_the_gui_thread
    from .ui.main_window import MainWindow

    app.setFont(theme.font(theme.BASE_POINT_SIZE))
    collect_on_the_gui_thread(app)
    w = MainWindow(store=store)
    w.show()
    start_screen.hand_over(w)
    return app, w


EXIT_NO_WINDOW = 1


def launch(argv: list[str] | None = None) -> int:
    # before the engine process and Qt: where Qt's window cannot open, Qt aborts the process
    # with a misleading message; this says what is missing and how to install it
    from .platform_check import window_problem

    problem = window_problem()
    if problem:
        print(problem, file=sys.stderr)
        return EXIT_NO_WINDOW
    app, _window = open_window(argv)
    return app.exec()

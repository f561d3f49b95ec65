"""Garbage collection in the window's process: Python's automatic collection runs in whichever
thread allocates, and could free a closed window on the engine client's reader thread or in the
middle of Qt's work (a list of top-level widgets being wrapped). It is turned off, and
pyqtgraph's collector collects from the GUI thread's event loop instead."""

from __future__ import annotations


def collect_on_the_gui_thread(app) -> None:
    """For the process of `app` (a QApplication), once: automatic collection off, and cyclic
    garbage collected every half second from the event loop."""
    from pyqtgraph.util.garbage_collector import GarbageCollector

    if not hasattr(app, "_gradviz_collector"):
        app._gradviz_collector = GarbageCollector(interval=0.5)

"""Layering at run time: what importing the core and building the window load.

The static rules (the core never imports Qt, the window never imports MindSpore, the model is below
the engine) are import-linter contracts in pyproject.toml, checked by tests/test_hygiene.py."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_model_imports_without_mindspore_or_qt():
    code = (
        "import sys, gradviz.model.graph, gradviz.model.session, gradviz.model.presets, gradviz.model.codegen, gradviz.model.history,"
        " gradviz.formats.records, gradviz.cli;"
        "bad=[m for m in sys.modules if m.split('.')[0] in ('mindspore','PySide6','pyqtgraph')];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_window_never_loads_mindspore():
    """MindSpore lives in the engine process: building the window must not import it."""
    code = (
        "import os, sys; os.environ['QT_QPA_PLATFORM']='offscreen';"
        "from PySide6.QtWidgets import QApplication; app=QApplication([]);"
        "from gradviz.ui.main_window import MainWindow; w=MainWindow(); w.close();"
        "bad=[m for m in sys.modules if m.split('.')[0]=='mindspore'];"
        "print(bad[:3]); sys.exit(1 if bad else 0)"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr

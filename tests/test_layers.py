"""Layering: the core never imports Qt, and the model imports without MindSpore."""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QT = re.compile(r"^\s*(from|import)\s+(PySide6|pyqtgraph|pytestqt|shiboken6)\b", re.M)
MS = re.compile(r"^\s*(from|import)\s+mindspore\b", re.M)


def test_core_has_no_qt_imports():
    for p in (ROOT / "gradviz").rglob("*.py"):
        rel = p.relative_to(ROOT).as_posix()
        if rel.startswith("gradviz/ui/") or rel == "gradviz/app.py":  # app.py only launches the UI
            continue
        assert not QT.search(p.read_text()), f"{rel} imports Qt; Qt belongs in gradviz/ui"


def test_ui_never_imports_mindspore():
    for p in (ROOT / "gradviz" / "ui").rglob("*.py"):
        assert not MS.search(p.read_text()), f"{p.name} imports mindspore; only the engine process may"


def test_model_imports_without_mindspore_or_qt():
    code = ("import sys, gradviz.model.graph, gradviz.model.session, gradviz.model.presets, gradviz.model.codegen, gradviz.model.history;"
            "bad=[m for m in sys.modules if m.split('.')[0] in ('mindspore','PySide6','pyqtgraph')];"
            "print(bad); sys.exit(1 if bad else 0)")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_window_never_loads_mindspore():
    """MindSpore lives in the engine process: building the window must not import it."""
    code = ("import os, sys; os.environ['QT_QPA_PLATFORM']='offscreen';"
            "from PySide6.QtWidgets import QApplication; app=QApplication([]);"
            "from gradviz.ui.main_window import MainWindow; w=MainWindow(); w.close();"
            "bad=[m for m in sys.modules if m.split('.')[0]=='mindspore'];"
            "print(bad[:3]); sys.exit(1 if bad else 0)")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr

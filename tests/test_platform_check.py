"""Where Qt's window cannot open (a fresh Linux machine without some X libraries, no display),
`gradviz` says what is missing and how to install it, before anything starts."""

import os
import subprocess
import sys
from pathlib import Path

import PySide6

from gradviz.platform_check import debian_package, missing_libraries, plugin_path, window_problem

ROOT = Path(__file__).resolve().parents[1]
QT = Path(PySide6.__file__).parent / "Qt"
# two of the plugin's dependencies renamed to versions no system has (same lengths)
RENAMED = {b"libxcb-icccm.so.4\0": b"libxcb-icccm.so.9\0", b"libxcb-keysyms.so.1\0": b"libxcb-keysyms.so.7\0"}


def _broken_plugin(tmp_path: Path) -> Path:
    """A copy of PySide6's xcb plugin whose dependencies include two missing libraries; its
    Qt libraries are found where its runpath ($ORIGIN/../../lib) says, as in PySide6."""
    data = (QT / "plugins" / "platforms" / "libqxcb.so").read_bytes()
    for old, new in RENAMED.items():
        assert data.count(old) == 1
        data = data.replace(old, new)
    folder = tmp_path / "plugins" / "platforms"
    folder.mkdir(parents=True)
    (folder / "libqxcb.so").write_bytes(data)
    (tmp_path / "lib").symlink_to(QT / "lib")
    return folder / "libqxcb.so"


def test_missing_x_libraries_are_named_with_the_command_that_installs_them(tmp_path):
    plugin = _broken_plugin(tmp_path)
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "XDG_CONFIG_HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path),
        "QT_QPA_PLATFORM": "xcb",
        "QT_QPA_PLATFORM_PLUGIN_PATH": str(plugin.parent),
        "DISPLAY": ":999",  # no such display: without this check Qt aborts
    }
    r = subprocess.run([sys.executable, "-m", "gradviz"], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 1, (r.returncode, r.stderr[-2000:])
    assert "libxcb-icccm.so.9, libxcb-keysyms.so.7" in r.stderr
    assert "sudo apt-get install libxcb-icccm9 libxcb-keysyms7" in r.stderr
    assert "xcb-cursor" not in r.stderr and "Traceback" not in r.stderr


def test_the_plugin_here_loads_and_other_platforms_are_not_checked(tmp_path):
    plugin = plugin_path({})
    assert plugin is not None and missing_libraries(plugin) == []
    assert missing_libraries(_broken_plugin(tmp_path)) == ["libxcb-icccm.so.9", "libxcb-keysyms.so.7"]
    assert window_problem({"QT_QPA_PLATFORM": "offscreen"}) is None
    assert window_problem({"DISPLAY": ":0"}) is None
    assert window_problem({"WAYLAND_DISPLAY": "wayland-0"}) is None  # Qt picks Wayland first
    assert "no display (DISPLAY is not set)" in window_problem({})
    assert "no display" in window_problem({"QT_QPA_PLATFORM": "xcb"})


def test_debian_package_names_follow_debian_s_rule():
    assert debian_package("libxcb-icccm.so.4") == "libxcb-icccm4"
    assert debian_package("libxcb-keysyms.so.1") == "libxcb-keysyms1"
    assert debian_package("libxcb-cursor.so.0") == "libxcb-cursor0"
    assert debian_package("libxkbcommon-x11.so.0") == "libxkbcommon-x11-0"
    assert debian_package("libxcb-render-util.so.0") == "libxcb-render-util0"
    assert debian_package("libX11-xcb.so.1") == "libx11-xcb1"
    assert debian_package("libGL.so.1") == "libgl1"
    assert debian_package("libglib-2.0.so.0") == "libglib2.0-0"

"""Before Qt starts on Linux: can its X11 platform plugin (xcb) load, and is there a display?

When the plugin cannot load, Qt aborts with a message that names libxcb-cursor0 whatever is
really missing. Here the plugin is loaded first (the libraries it loads are the ones Qt loads
next anyway); if that fails, the dynamic loader lists every dependency it cannot find, and the
message names them with the Debian/Ubuntu packages that install them. Standard library only:
this runs before PySide6 is imported."""

from __future__ import annotations

import ctypes
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

PLUGIN = "libqxcb.so"
# sonames whose Debian package does not follow the naming rule of debian_package
PACKAGES = {
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libgobject-2.0.so.0": "libglib2.0-0",
}
_NOT_FOUND = re.compile(r"^\s*(\S+) => not found", re.MULTILINE)
_CANNOT_OPEN = re.compile(r"(\S+\.so[.\d]*): cannot open shared object file")


def debian_package(soname: str) -> str:
    """The Debian/Ubuntu package of a library by Debian's naming rule: libxcb-icccm.so.4 ->
    libxcb-icccm4, libxkbcommon-x11.so.0 -> libxkbcommon-x11-0 (a hyphen after a digit)."""
    if soname in PACKAGES:
        return PACKAGES[soname]
    base, sep, version = soname.partition(".so.")
    if not sep:
        return base.lower()
    version = version.split(".")[0]
    return (base + ("-" if base[-1:].isdigit() else "") + version).lower()


def uses_xcb(environ=os.environ) -> bool:
    """Whether Qt will open its window through the xcb plugin (Linux, not asked for another
    platform, not in a Wayland session where Qt picks its Wayland plugin first)."""
    if not sys.platform.startswith("linux"):
        return False
    wanted = environ.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if wanted:
        return wanted == "xcb"
    return not environ.get("WAYLAND_DISPLAY")


def plugin_path(environ=os.environ) -> Path | None:
    """The xcb plugin Qt would load: from QT_QPA_PLATFORM_PLUGIN_PATH if it holds one, else
    PySide6's own."""
    for folder in environ.get("QT_QPA_PLATFORM_PLUGIN_PATH", "").split(os.pathsep):
        if folder and (Path(folder) / PLUGIN).is_file():
            return Path(folder) / PLUGIN
    spec = importlib.util.find_spec("PySide6")
    for root in (spec.submodule_search_locations or []) if spec else []:
        p = Path(root) / "Qt" / "plugins" / "platforms" / PLUGIN
        if p.is_file():
            return p
    return None


def missing_libraries(plugin: Path) -> list[str]:
    """The libraries the plugin needs and the loader cannot find ([] when it loads)."""
    try:
        ctypes.CDLL(str(plugin))
        return []
    except OSError as e:
        first = _CANNOT_OPEN.findall(str(e))
    ldd = shutil.which("ldd")
    listed: list[str] = []
    if ldd:
        try:
            out = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, timeout=10).stdout
            listed = _NOT_FOUND.findall(out)
        except (OSError, subprocess.SubprocessError):
            pass
    return list(dict.fromkeys(listed or first))


def window_problem(environ=os.environ) -> str | None:
    """Why the window cannot open here, in words with the fix; None when nothing is known to
    stop it."""
    if not uses_xcb(environ):
        return None
    plugin = plugin_path(environ)
    missing = missing_libraries(plugin) if plugin is not None else []
    if missing:
        packages = " ".join(dict.fromkeys(debian_package(m) for m in missing))
        return (
            "GradViz cannot open its window: Qt's X11 platform plugin (xcb) needs system libraries "
            f"that are not installed: {', '.join(missing)}.\n"
            f"On Debian or Ubuntu, install them with:\n    sudo apt-get install {packages}\n"
            "(`gradviz run` and `gradviz screenshot` work without a window.)"
        )
    if not environ.get("DISPLAY"):
        return (
            "GradViz cannot open its window: there is no display (DISPLAY is not set). Start it from "
            "a desktop session, or use `gradviz run` and `gradviz screenshot`, which need none."
        )
    return None

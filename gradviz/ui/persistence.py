"""What the app keeps between launches: window layout, recent files and the last session in
QSettings, and an autosave file per window that survives a crash (deleted on a clean exit).

Settings hold only plain values (text, numbers, lists of text, byte arrays that Qt produced for
the window layout), each read with an explicit type. Reading any key makes Qt decode every
value of its section, and a value written as `@Variant(...)` holding a Python object would be
unpickled (and could run code): GradViz never writes one, so a settings file holding one was
not written by GradViz and is moved aside, unread, before any value is read.

Each window autosaves to its own file, autosave-<process id>-<window number>.json. At start-up
the autosaves of windows that are gone (their process ended without a clean exit) are offered
for restoring; one that cannot be read is renamed aside with a timestamp and reported, never
deleted unexamined."""

from __future__ import annotations

import itertools
import os
import re
import time
from pathlib import Path

from PySide6.QtCore import QByteArray, QCoreApplication, QSettings, QStandardPaths

from ..safe_io import FileProblem, atomic_write_text, read_bytes, read_text_file
from ..model.formatting import show_path
from ..model.session import MAX_FILE_BYTES
from .language import tr_msg

MAX_RECENT = 8
MAX_SETTINGS_BYTES = 4 * 1024 * 1024
_AUTOSAVE = re.compile(r"autosave(?:-(\d+)-(\d+))?\.json")
_windows = itertools.count(1)
_open_owners: set[str] = set()  # windows of this process whose autosave is in use


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, owned by someone else
    return True


def move_aside(path: Path) -> Path:
    """Rename a file that cannot be used to <name>.unreadable-<timestamp>, keeping it for a look."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    dest = path.with_name(f"{path.name}.unreadable-{stamp}")
    n = 1
    while dest.exists():
        n += 1
        dest = path.with_name(f"{path.name}.unreadable-{stamp}-{n}")
    os.replace(path, dest)
    return dest


class AppStore:
    def __init__(self, settings: QSettings, folder: str | Path, owner: str | None = None):
        self.folder = Path(folder)
        self.owner = owner or f"{os.getpid()}-{next(_windows)}"
        _open_owners.add(self.owner)
        self.problems: list[str] = []  # found at start-up, for the window to report
        self.settings = self._safe_settings(settings)

    @classmethod
    def default(cls) -> AppStore:
        folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation) or str(
            Path.home() / ".gradviz"
        )
        return cls(QSettings("GradViz", "GradViz"), folder)

    def _safe_settings(self, settings: QSettings) -> QSettings:
        """The settings, or fresh ones if the file holds anything but plain values (see above)."""
        path = settings.fileName()
        try:
            raw = read_bytes(path, MAX_SETTINGS_BYTES)
        except FileProblem as e:
            if not os.path.lexists(path):
                return settings
            raw, why = None, tr_msg(e)
        else:
            why = (
                QCoreApplication.translate("AppStore", "it holds serialized objects that GradViz never writes")
                if b"@Variant(" in raw
                else ""
            )
        if raw is not None and not why:
            return settings
        try:
            dest = move_aside(Path(path))
            self.problems.append(
                QCoreApplication.translate(
                    "AppStore", "The settings file {path} was not used ({why}); it was kept as {kept}."
                ).format(path=show_path(path), why=why, kept=show_path(dest.name))
            )
        except OSError as e:
            self.problems.append(
                QCoreApplication.translate(
                    "AppStore", "The settings file {path} was not used ({why}) and could not be moved aside ({error})."
                ).format(path=show_path(path), why=why, error=e.strerror or e)
            )
            return QSettings()  # in memory only: nothing from that file is read
        return QSettings(path, settings.format())

    @property
    def autosave_path(self) -> Path:
        return self.folder / f"autosave-{self.owner}.json"

    # recent files
    def recent_files(self) -> list[str]:
        v = self.settings.value("recentFiles", [], type=list)
        return [p for p in (v or []) if isinstance(p, str)][:MAX_RECENT]

    def add_recent(self, path: str) -> str | None:
        """Remember a file; a message if the settings could not be saved."""
        path = str(Path(path).resolve())
        files = [path] + [p for p in self.recent_files() if p != path]
        self.settings.setValue("recentFiles", files[:MAX_RECENT])
        return self.sync()

    # last session and layout: plain values, each with its type
    def text(self, key: str) -> str:
        return self.settings.value(key, "", type=str)

    def bytes_value(self, key: str) -> QByteArray | None:
        v = self.settings.value(key, QByteArray(), type=QByteArray)
        return v if isinstance(v, QByteArray) and not v.isEmpty() else None

    def set_value(self, key: str, value: str | QByteArray) -> None:
        assert isinstance(value, (str, QByteArray)), "settings hold plain values only"
        self.settings.setValue(key, value)

    def sync(self) -> str | None:
        """Write the settings now; a message if they could not be written."""
        self.settings.sync()
        if self.settings.status() != QSettings.Status.NoError:
            return QCoreApplication.translate(
                "AppStore", "The settings could not be saved to {path} (recent files and layout will be lost)."
            ).format(path=show_path(self.settings.fileName()))
        return None

    # autosave
    def write_autosave(self, text: str) -> None:
        """FileProblem if the folder cannot be made or the file cannot be written."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise FileProblem(
                QCoreApplication.translate("AppStore", "{path}: cannot be made ({error})").format(
                    path=show_path(self.folder), error=e.strerror or e
                )
            ) from None
        atomic_write_text(self.autosave_path, text)

    def read_autosave(self, path: Path | None = None) -> str:
        """FileProblem if it cannot be read."""
        text, _ = read_text_file(path or self.autosave_path, MAX_FILE_BYTES)
        return text

    def orphaned_autosaves(self) -> list[Path]:
        """Autosaves of windows that are gone, newest first (this window's own, left by a crash,
        included)."""
        try:
            entries = list(self.folder.iterdir())
        except OSError:
            return []
        out = []
        for p in entries:
            m = _AUTOSAVE.fullmatch(p.name)
            if not m:
                continue
            if p != self.autosave_path and m.group(1) is not None:
                pid = int(m.group(1))
                if (pid != os.getpid() and _alive(pid)) or f"{m.group(1)}-{m.group(2)}" in _open_owners:
                    continue  # another window, still open
            out.append(p)

        def mtime(p: Path) -> float:
            try:
                return p.lstat().st_mtime
            except OSError:
                return 0.0

        return sorted(out, key=mtime, reverse=True)

    def release(self) -> None:
        """The window closed cleanly: its autosave is no longer in use."""
        _open_owners.discard(self.owner)

    def clear_autosave(self, path: Path | None = None) -> None:
        try:
            (path or self.autosave_path).unlink()
        except FileNotFoundError:
            pass
        except OSError:
            pass  # a folder or a file we may not remove: left for the user

"""What the app keeps between launches: window layout, recent files and the last session in
QSettings, and an autosave file that survives a crash (deleted on a clean exit)."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths

from ..model.session import atomic_write_text

MAX_RECENT = 8


class AppStore:
    def __init__(self, settings: QSettings, folder: str | Path):
        self.settings = settings
        self.folder = Path(folder)

    @classmethod
    def default(cls) -> AppStore:
        folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation) or str(Path.home() / ".gradviz")
        return cls(QSettings("GradViz", "GradViz"), folder)

    @property
    def autosave_path(self) -> Path:
        return self.folder / "autosave.json"

    # recent files
    def recent_files(self) -> list[str]:
        v = self.settings.value("recentFiles", [])
        if isinstance(v, str):
            v = [v]
        return [p for p in (v or []) if isinstance(p, str)][:MAX_RECENT]

    def add_recent(self, path: str) -> None:
        path = str(Path(path).resolve())
        files = [path] + [p for p in self.recent_files() if p != path]
        self.settings.setValue("recentFiles", files[:MAX_RECENT])

    # last session and layout
    def value(self, key: str):
        return self.settings.value(key)

    def set_value(self, key: str, value) -> None:
        self.settings.setValue(key, value)

    def sync(self) -> None:
        self.settings.sync()

    # autosave
    def write_autosave(self, text: str) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        atomic_write_text(self.autosave_path, text)

    def read_autosave(self) -> str | None:
        try:
            return self.autosave_path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def clear_autosave(self) -> None:
        try:
            self.autosave_path.unlink()
        except FileNotFoundError:
            pass

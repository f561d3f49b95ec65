"""Presets: ready-made sessions stored as session files under resources/presets."""

from __future__ import annotations

from .formatting import quote
from .resources import resource_dir
from .session import Session, SessionError, load_session


def preset_names() -> list[str]:
    """Names in display order: the tutorial first, then the others alphabetically."""
    names = sorted(p.stem for p in (resource_dir() / "presets").glob("*.json"))
    return sorted(names, key=lambda n: (n != "tutorial", n))


def load_preset(name: str) -> Session:
    if name not in preset_names():
        raise SessionError(f"unknown preset {quote(name)}; available: {', '.join(preset_names())}")
    return load_session(resource_dir() / "presets" / f"{name}.json")

"""Find runtime resources (presets, icons) from a checkout and from an installed wheel alike."""

from __future__ import annotations

from pathlib import Path


def resource_dir() -> Path:
    """The resources folder: packaged as gradviz/resources in a wheel, top-level in a checkout."""
    package = Path(__file__).resolve().parents[1]  # gradviz/
    for cand in (package / "resources", package.parent / "resources"):
        if (cand / "presets").is_dir():
            return cand
    raise FileNotFoundError("GradViz resources not found (looked in the package and the checkout)")


def resource_path(*parts: str) -> Path:
    return resource_dir().joinpath(*parts)

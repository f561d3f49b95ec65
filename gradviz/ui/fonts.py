"""The bundled Chinese font, so that Chinese never renders as boxes.

Many Linux machines (and every offscreen test here) have no CJK font at all. GradViz ships
resources/fonts/GradVizSansSC-Regular.otf: Noto Sans SC (SIL Open Font License, OFL.txt beside
it) subset to the characters its catalogues use and renamed, about 100 KB (tools/i18n.py makes
it). It is registered with the application and made a substitute of every family the app draws
with: Qt falls back to a family's substitutes for the characters the family lacks, so Latin text
keeps its font and Chinese comes from the bundled one wherever the system has none."""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication

from ..model.resources import resource_path

FONT_FILE = "GradVizSansSC-Regular.otf"
# the families the app names (theme.font) and the generic ones Qt and pyqtgraph fall back on
FAMILIES = ("DejaVu Sans", "DejaVu Sans Mono", "Sans Serif", "sans-serif", "monospace", "Monospace")

_family: str | None = None


def font_path():
    return resource_path("fonts", FONT_FILE)


def cjk_family() -> str | None:
    """The bundled font's family once installed (None before, or if it could not be loaded)."""
    return _family


def install_fonts() -> str | None:
    """Register the bundled font and make it the fallback for Chinese text (once per process)."""
    global _family
    if _family is not None or QGuiApplication.instance() is None:
        return _family
    fid = QFontDatabase.addApplicationFont(str(font_path()))
    families = QFontDatabase.applicationFontFamilies(fid) if fid >= 0 else []
    if not families:
        return None
    _family = families[0]
    app_family = QGuiApplication.font().family()
    for family in dict.fromkeys((*FAMILIES, app_family)):
        if _family not in QFont.substitutes(family):
            QFont.insertSubstitution(family, _family)
    return _family

"""The bundled Chinese font, so that Chinese never renders as boxes.

Many Linux machines (and every offscreen test here) have no CJK font at all. GradViz ships
resources/fonts/GradVizSansSC-Regular.otf: Noto Sans SC (SIL Open Font License, OFL.txt beside
it) subset to the characters its catalogues use and renamed, a few hundred KB (tools/i18n.py
makes it). It is registered with the application and made the fallback of every family the app
draws with, and of Han and common (punctuation) script text in any other font, so a system font
with Chinese still wins where there is one and the bundled one fills in where there is none."""

from __future__ import annotations

from PySide6.QtCore import QChar
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
    for script in (QChar.Script.Script_Han, QChar.Script.Script_Common):
        QFontDatabase.addApplicationFallbackFontFamily(script, _family)
    app_family = QGuiApplication.font().family()
    for family in dict.fromkeys((*FAMILIES, app_family)):
        if _family not in QFont.substitutes(family):
            QFont.insertSubstitution(family, _family)
    return _family

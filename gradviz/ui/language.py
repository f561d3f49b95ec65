"""The window's language: English or Simplified Chinese, switched without restarting.

Catalogues. `resources/i18n/<catalogue>_<language>.qm` (compiled from the `.ts` beside it by
tools/i18n.py): every catalogue found for the language is loaded (the app's, the lesson's, ...),
and so is Qt's own (`qtbase_zh_CN`: standard buttons, file dialogs). English is the source
language and needs none.

One translator. All of them sit behind one QTranslator installed on the application, which every
`self.tr(...)` and `QCoreApplication.translate(...)` goes through. It also remembers which
(context, source) produced each text it returned. That is how the language switches live without
every widget re-setting its texts: `set_language` walks the windows and replaces each text a
translation produced (labels, buttons, menus, actions, dock titles, tabs, tooltips, combo items,
spin box suffixes) by the same source's translation in the new language. Texts that are formatted
with values (a step count, a problem list) are re-made by their owners on `QEvent.LanguageChange`,
which Qt sends to every widget after the switch.

Core messages. The Qt-free core marks its messages with gradviz.i18n (`QT_TRANSLATE_NOOP`, `Msg`);
`tr_msg` translates them here, template first, values after.

Numbers. The default QLocale follows the language (en_US or zh_CN: both write 1,234.5), so spin
boxes and the app's own formats agree even on a system whose locale writes 1.234,5.

The preference ("", "en" or "zh_CN"; "" follows the system) is kept by the window's AppStore under
the key "language". `LANG=zh_CN.UTF-8` opens in Chinese: QLocale.system() reads LC_ALL,
LC_MESSAGES and LANG itself, no glibc locale needed."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QLibraryInfo, QLocale, QObject, QTranslator
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDoubleSpinBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QMenu,
    QPlainTextEdit,
    QSpinBox,
    QTableWidget,
    QTabWidget,
    QTextEdit,
    QTreeWidget,
    QWidget,
)
from PySide6.QtGui import QAction

from ..i18n import Msg, message
from ..model.resources import resource_path

SOURCE = "en"  # the language the code is written in
LANGUAGES = {"en": "English", "zh_CN": "简体中文"}  # each named in itself, never translated
SETTING = "language"  # the AppStore key; "" follows the system
QT_CATALOGUES = ("qtbase",)  # Qt's own texts, from the Qt installation


def catalogue_dir() -> Path:
    return resource_path("i18n")


def catalogues(language: str) -> list[Path]:
    """The app's compiled catalogues for `language` (resources/i18n/<name>_<language>.qm)."""
    if language == SOURCE:
        return []
    return sorted(catalogue_dir().glob(f"*_{language}.qm"))


def system_language() -> str:
    """The language the system asks for, among those shipped: any Chinese locale gets Simplified
    Chinese (the only Chinese shipped), everything else English."""
    return "zh_CN" if QLocale.system().language() == QLocale.Language.Chinese else SOURCE


def resolve(preference: str | None) -> str:
    """The language to use for a stored preference ("" or unknown: the system's)."""
    return preference if preference in LANGUAGES else system_language()


class _Translator(QTranslator):
    """Every catalogue of one language behind one translator, remembering what it produced."""

    def __init__(self):
        super().__init__()
        self.language = SOURCE
        self.installed = False
        self._loaded: list[QTranslator] = []
        self.produced: dict[str, set[tuple[str, str, str]]] = {}  # text -> {(context, source, disambiguation)}
        self.missing: set[tuple[str, str]] = set()  # asked for, but not in the catalogues of `language`

    def load_language(self, language: str) -> None:
        """Load every catalogue of `language` (the app's, then Qt's own)."""
        loaded = []
        for path in catalogues(language):
            t = QTranslator()
            if t.load(str(path)):
                loaded.append(t)
        for name in QT_CATALOGUES if language != SOURCE else ():
            t = QTranslator()
            if t.load(f"{name}_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
                loaded.append(t)
        self._loaded = loaded
        self.language = language
        self.missing = set()

    def isEmpty(self) -> bool:  # noqa: N802 (Qt's virtual)
        return False  # so that installing it sends LanguageChange, even in English

    def find(self, context: str, source: str, disambiguation: str = "") -> str:
        """The translation in the current language, "" if its catalogues have none (English: source);
        remembered as produced, like translate's."""
        result = source if self.language == SOURCE else ""
        for t in self._loaded:
            result = result or t.translate(context, source, disambiguation or None, -1)
        if result:
            self.produced.setdefault(result, set()).add((context, source, disambiguation))
        return result

    def translate(self, context, source, disambiguation=None, n=-1):  # Qt's virtual
        context = context.decode() if isinstance(context, bytes) else (context or "")
        if source is None:
            return None
        result = ""
        for t in self._loaded:
            result = t.translate(context, source, disambiguation, n)
            if result:
                break
        if not result:
            result = source
            if self.language != SOURCE and not context.startswith("Q"):  # Qt's own contexts start with Q
                self.missing.add((context, source))
        self.produced.setdefault(result, set()).add((context, source, disambiguation or ""))
        return result


_translator: _Translator | None = None


def translator() -> _Translator:
    global _translator
    if _translator is None:
        _translator = _Translator()
    return _translator


def current() -> str:
    return translator().language


def install(preference: str | None = None) -> str:
    """At start-up (a QApplication exists): the bundled font, and the language of `preference`
    (see resolve). Returns the language used."""
    from .fonts import install_fonts

    install_fonts()
    return set_language(resolve(preference))


def ensure_installed() -> None:
    """Before a window is built: the bundled font and the translator, in the language already
    chosen (English unless install() or set_language() chose another), so that every text the
    window makes goes through the translator and can be switched later. A window made without the
    launcher (a test's bare MainWindow()) then switches as completely as the app does."""
    from .fonts import install_fonts

    install_fonts()
    if not translator().installed and QApplication.instance() is not None:
        set_language(translator().language)


def set_language(language: str) -> str:
    """Switch every window to `language` now: catalogues, default locale, every text a translation
    produced, then QEvent.LanguageChange for the texts their owners format."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; known: {', '.join(LANGUAGES)}")
    app = QApplication.instance()
    t = translator()
    previous = t.language
    if previous == language and t.installed:
        return language
    t.load_language(language)
    QLocale.setDefault(QLocale(language if language != SOURCE else "en_US"))
    if app is None:
        return language
    if previous != language:
        for w in QApplication.topLevelWidgets():
            retranslate(w)
    app.removeTranslator(t)
    t.installed = app.installTranslator(t)  # sends LanguageChange to the application, which posts it to every window
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)
    return language


# -- core messages ------------------------------------------------------------------------------
def tr_msg(text) -> str:
    """A core message in the window's language: a Msg's template translated, then formatted with
    its values (messages among them translated too); any other text as it is."""
    if isinstance(text, BaseException):
        text = message(text)
    if not isinstance(text, Msg):
        return "" if text is None else str(text)
    template = QCoreApplication.translate(text.context, text.template)
    if not text.args:
        return template
    args = {k: tr_msg(v) if isinstance(v, Msg) else v for k, v in text.args.items()}
    try:
        return template.format(**args)
    except (KeyError, IndexError, ValueError):  # a translation that names other values: say it in English
        return text.template.format(**args)


# -- live switching ------------------------------------------------------------------------------
def _text_slots(obj):
    """(getter, setter) pairs of the chrome texts of a widget or action (never user content)."""
    slots = [(obj.toolTip, obj.setToolTip), (obj.statusTip, obj.setStatusTip), (obj.whatsThis, obj.setWhatsThis)]
    if isinstance(obj, QAction):
        return [(obj.text, obj.setText), (obj.iconText, obj.setIconText)] + slots
    slots.append((obj.windowTitle, obj.setWindowTitle))
    if isinstance(obj, (QLabel, QAbstractButton)):
        slots.append((obj.text, obj.setText))
    if isinstance(obj, QGroupBox):
        slots.append((obj.title, obj.setTitle))
    if isinstance(obj, QMenu):
        slots.append((obj.title, obj.setTitle))
    if isinstance(obj, (QLineEdit, QPlainTextEdit, QTextEdit)):
        slots.append((obj.placeholderText, obj.setPlaceholderText))
    if isinstance(obj, QAbstractSpinBox):
        slots.append((obj.specialValueText, obj.setSpecialValueText))
    if isinstance(obj, (QSpinBox, QDoubleSpinBox)):
        slots += [(obj.suffix, obj.setSuffix), (obj.prefix, obj.setPrefix)]
    if isinstance(obj, QComboBox):
        for i in range(obj.count()):
            slots.append((lambda i=i: obj.itemText(i), lambda s, i=i: obj.setItemText(i, s)))
    if isinstance(obj, QTabWidget):
        for i in range(obj.count()):
            slots.append((lambda i=i: obj.tabText(i), lambda s, i=i: obj.setTabText(i, s)))
            slots.append((lambda i=i: obj.tabToolTip(i), lambda s, i=i: obj.setTabToolTip(i, s)))
    if isinstance(obj, QListWidget):
        for i in range(obj.count()):
            it = obj.item(i)
            slots += [(it.text, it.setText), (it.toolTip, it.setToolTip)]
    if isinstance(obj, QTableWidget):
        for i in range(obj.columnCount()):
            it = obj.horizontalHeaderItem(i)
            if it is not None:
                slots += [(it.text, it.setText), (it.toolTip, it.setToolTip)]
        for i in range(obj.rowCount()):
            it = obj.verticalHeaderItem(i)
            if it is not None:
                slots += [(it.text, it.setText), (it.toolTip, it.setToolTip)]
    if isinstance(obj, QTreeWidget):
        header = obj.headerItem()
        for i in range(header.columnCount()):
            slots.append((lambda i=i: header.text(i), lambda s, i=i: header.setText(i, s)))
    return slots


def chrome(root: QWidget) -> list[QObject]:
    """The widgets and actions of a window whose texts are its chrome, root included."""
    return [root, *root.findChildren(QWidget), *root.findChildren(QAction)]


def texts(root: QWidget) -> list[tuple[QObject, str]]:
    """Every chrome text of a window: (widget or action, text), empty ones left out."""
    out = []
    for obj in chrome(root):
        for get, _set in _text_slots(obj):
            s = get()
            if s:
                out.append((obj, s))
    return out


def _context_names(obj: QObject) -> list[str]:
    """The class names of obj and its parents: the contexts its own texts were most likely made in."""
    names = []
    while obj is not None:
        names += [c.__name__ for c in type(obj).__mro__]
        obj = obj.parent()
    return names


def translation_of(obj: QObject, text: str) -> str | None:
    """`text` in the current language if a translation produced it, else None. Where the same text
    came from several sources (one English word in two contexts), the context nearest to obj wins."""
    t = translator()
    keys = t.produced.get(text)
    out = {k: t.find(*k) for k in sorted(keys or ())}
    out = {k: v for k, v in out.items() if v}  # PySide's tr also asks the base classes' contexts
    if not out:
        return None
    if len(set(out.values())) == 1:
        return next(iter(out.values()))
    for name in _context_names(obj):
        for k, v in out.items():
            if k[0] == name:
                return v
    return next(iter(out.values()))


def _retranslated(obj: QObject, text: str) -> str | None:
    whole = translation_of(obj, text)
    if whole is not None or "\n" not in text:
        return whole
    lines = [translation_of(obj, line) for line in text.split("\n")]  # a tooltip with a reason added
    if not any(ln is not None for ln in lines):
        return None
    return "\n".join(new if new is not None else old for new, old in zip(lines, text.split("\n")))


def retranslate(root: QWidget) -> None:
    """Replace every chrome text a translation produced by its translation in the current language."""
    for obj in chrome(root):
        for get, set_ in _text_slots(obj):
            s = get()
            if s:
                new = _retranslated(obj, s)
                if new is not None and new != s:
                    set_(new)

"""Chinese and English: the catalogues are complete and compiled, the bundled font has every
character they use, the core's messages translate (template first, values after) while staying
English for the command line, the language follows the system and switches live, and no English
is left in the window in Chinese."""

import ast
import importlib.util
import os
import pickle
import re
import shutil
import string
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import standin
from gradviz.i18n import Msg, message
from gradviz.model.graph import Graph
from gradviz.model.presets import load_preset
from gradviz.model.session import SessionError, load_session

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("i18n_tool", ROOT / "tools" / "i18n.py")
tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tool)
CATALOGUES = sorted((ROOT / "resources" / "i18n").glob("*_zh_CN.ts"))
# words a Chinese window still shows in Latin letters: names, and code the tutorial writes
NAMES_AND_CODE = {
    *[
        "GradViz",
        "MB",  # the unit of the history budget
        "MindSpore",
        "PyNative",
        "PyTorch",
        "SGD",
        "Adam",
        "Momentum",
        "API",
        "CPU",
        "GPU",
        "Ascend",
        "JSON",
        "Lines",
        "jsonl",
    ],
    *[
        "mindspore",
        "grad",
        "value_and_grad",
        "nn",
        "Cell",
        "weights",
        "ops",
        "stop_gradient",
        "has_aux",
        "True",
        "False",
        "jit",
    ],
    *["function_with_logits", "function", "return", "sum", "requires_grad", "grad_fn", "dL", "dp", "lr"],
}
CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


@pytest.fixture
def zh(qapp):
    """The application in Chinese for one test; English (and the default locale) again after."""
    from PySide6.QtCore import QLocale

    from gradviz.ui import language

    before = QLocale()
    language.install("zh_CN")
    yield language
    language.set_language("en")
    QLocale.setDefault(before)


def _fields(text: str) -> list[str]:
    return sorted(f for _, f, _, _ in string.Formatter().parse(text) if f is not None)


# -- the core's messages ------------------------------------------------------------------------------
def test_msg_is_english_text_that_keeps_its_template_and_values():
    inner = Msg("Graph", "shape {shape} is too large").format(shape="(5,)")
    m = Msg("Graph", "{node}: {problem}").format(node='Parameter "w"', problem=inner)
    assert m == 'Parameter "w": shape (5,) is too large'
    assert type(str(m)) is str and str(m) == m  # the command line prints plain English
    assert (m.context, m.template, m.args["problem"].template) == ("Graph", "{node}: {problem}", inner.template)
    back = pickle.loads(pickle.dumps(m))  # crosses the engine's pipe as a message
    assert isinstance(back.args["problem"], Msg) and back == m and back.args == m.args
    with pytest.raises(TypeError):
        Msg("Graph", "{0}").format(1)  # translations name their values
    assert message(SessionError(m)) is m and message(ValueError("plain")) == "plain"


def test_core_messages_show_in_chinese_with_their_values(zh, tmp_path):
    g = load_preset("tutorial").graph
    g["w"].shape = (4, 3)
    problem = next(p.message for p in Graph(g.nodes).validate() if p.node == "matmul")
    assert str(problem) == (
        'MatMul "matmul": x has shape (5,) but w has shape (4, 3); matmul needs the last axis of x (5) '
        "to equal the first axis of w (4)"
    )
    assert zh.tr_msg(problem) == (
        'MatMul "matmul"：x 的形状是 (5,)，而 w 的形状是 (4, 3)；matmul 要求 x 的最后一维（5）等于 w 的第一维（4）'
    )
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "gradviz-session", "version": 7}')
    with pytest.raises(SessionError) as e:
        load_session(bad)
    assert str(e.value).endswith("version 7 is not supported (this GradViz reads versions 1 to 2)")
    assert zh.tr_msg(e.value).endswith("不支持版本 7（此 GradViz 读取版本 1 到 2）")
    from gradviz.model.steps import end_message, progress

    assert zh.tr_msg(progress(1234)) == "第 1,234 步（参数经过 1,233 次更新）"
    assert zh.tr_msg(end_message("max_steps", 1)) == "在第 1 步完成：已达到最大步数 1 步（保留 1 次更新）。"


def test_translations_name_the_same_values_as_their_sources():
    for ts in CATALOGUES:
        for (ctx, source), (text, kind) in tool.messages(ts).items():
            if kind != "vanished":
                assert _fields(text) == _fields(source), f"{ts.name} {ctx}: {source!r} -> {text!r}"


def test_marked_strings_are_literals_never_fstrings():
    """lupdate extracts the literal: an f-string would be looked up already formatted."""
    markers = {"Msg", "tr", "translate", "QT_TRANSLATE_NOOP"}
    bad = []
    for path in (ROOT / "gradviz").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
                if name in markers and any(isinstance(a, ast.JoinedStr) for a in node.args):
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not bad, bad


# -- the catalogues ------------------------------------------------------------------------------------
def test_every_catalogue_is_translated_and_up_to_date_with_the_sources():
    assert CATALOGUES, "no zh_CN catalogue"
    for ts in CATALOGUES:
        left = [k for k, (_t, kind) in tool.messages(ts).items() if kind == "unfinished"]
        assert not left, f"{ts.name}: {len(left)} strings to translate (python tools/i18n.py): {left[:5]}"
        assert not tool.stale(ts), f"{ts.name} is out of date with the sources: python tools/i18n.py"


def test_every_message_has_the_context_the_code_translates_it_in():
    """pyside6-lupdate files a self.tr() under its class; some syntax (a def nested in a with
    block) made it lose the class, and the strings came out under an empty context that no
    self.tr() at run time asks for: untranslated on screen although the catalogue had them."""
    import xml.etree.ElementTree as ET

    for ts in CATALOGUES:
        names = [c.findtext("name") for c in ET.parse(ts).getroot().iter("context")]
        assert all(names), f"{ts.name}: messages without a context"


def test_compiled_catalogues_are_those_of_the_ts_files(tmp_path):
    for ts in CATALOGUES:
        out = tmp_path / ts.with_suffix(".qm").name
        tool.lrelease(ts, out)
        shipped = ts.with_suffix(".qm")
        assert shipped.exists() and shipped.read_bytes() == out.read_bytes(), f"{shipped.name}: python tools/i18n.py"


def test_the_bundled_font_has_every_character_the_translations_add(qapp):
    from PySide6.QtGui import QRawFont

    from gradviz.ui.fonts import font_path

    font = QRawFont(str(font_path()), 12)
    assert font.isValid()
    english = {c for ts in CATALOGUES for (_ctx, source) in tool.messages(ts) for c in source}
    added = {c for ts in CATALOGUES for text, _k in tool.messages(ts).values() for c in text} - english
    assert len(added) > 300  # the catalogue is Chinese
    lacking = sorted(c for c in added | set("简体中文") if not font.supportsCharacter(ord(c)))
    assert not lacking, f"not in the bundled font (python tools/i18n.py --font ...): {''.join(lacking)}"
    assert font_path().stat().st_size < 1_000_000


def test_chinese_is_drawn_with_glyphs_not_boxes(zh):
    """A missing glyph is drawn as the same box for every character: two different characters
    drawn alike would be boxes."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter

    from gradviz.ui import theme

    def draw(text: str) -> bytes:
        img = QImage(64, 40, QImage.Format.Format_Grayscale8)
        img.fill(Qt.GlobalColor.white)
        p = QPainter(img)
        p.setFont(theme.font(14, bold=True))
        p.drawText(4, 30, text)
        p.end()
        return bytes(img.constBits())

    assert draw("梯") != draw("度")
    assert draw("\U000f0001") == draw("\U000f0002")  # the check itself: no font has these


def test_the_wheel_ships_the_catalogues_and_the_font():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    patterns = data["gradviz.resources"]
    resources = ROOT / "resources"
    shipped = {p for pat in patterns for p in resources.glob(pat)}
    needed = {*(resources / "i18n").glob("*.qm"), *(resources / "fonts").iterdir()}
    assert needed and needed <= shipped, sorted(str(p) for p in needed - shipped)


# -- choosing and switching ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "expected"), [("zh_CN.UTF-8", "zh_CN"), ("zh_TW.UTF-8", "zh_CN"), ("de_DE.UTF-8", "en"), ("C", "en")]
)
def test_the_language_follows_the_system_locale(lang, expected):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k not in ("LANG", "LANGUAGE")}
    env.update(LANG=lang, PYTHONPATH=str(ROOT))
    code = "from gradviz.ui.language import resolve; print(resolve(''), resolve('en'))"
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert r.stdout.split() == [expected, "en"], r.stderr


def test_numbers_are_written_alike_by_qt_and_the_app(zh):
    from PySide6.QtCore import QLocale
    from PySide6.QtWidgets import QDoubleSpinBox

    QLocale.setDefault(QLocale("de_DE"))  # a system that writes 1.234,5
    for lang in ("en", "zh_CN"):
        zh.set_language(lang)
        loc = QLocale()
        assert loc.toString(1234567.25, "f", 2) == f"{1234567.25:,.2f}"
        spin = QDoubleSpinBox()
        spin.setDecimals(3)
        spin.setValue(0.01)
        assert spin.text() == "0.010"


def _english_left(texts, allowed: set[str]) -> list[str]:
    """Texts with no Chinese whose words are not code, names or numbers."""
    out = []
    for _obj, text in texts:
        for line in text.split("\n"):
            words = re.findall(r"[A-Za-z_][A-Za-z0-9_]+", re.sub(r"<[^>]+>", " ", line))
            if not CJK.search(line) and any(w not in allowed for w in words):
                out.append(line)
    return sorted(set(out))


def _cut_menu_items(win) -> list[str]:
    """The menu items drawn other than in full, in the app's font (gradviz.app sets it; tests do
    not): each item's text as its menu paints it, against the same menu made wider than it needs."""
    from PySide6.QtGui import QKeySequence
    from PySide6.QtWidgets import QMenu

    from gradviz.ui import theme

    cut = []
    for menu in win.findChildren(QMenu):
        font = menu.font()
        menu.setFont(theme.font(theme.BASE_POINT_SIZE))
        menu.adjustSize()
        items = [(a, menu.actionGeometry(a)) for a in menu.actions() if a.text() and not a.isSeparator()]
        narrow = menu.grab().toImage()
        menu.setMinimumWidth(menu.width() + 300)
        menu.adjustSize()
        wide = menu.grab().toImage()
        fm = menu.fontMetrics()
        menu.setMinimumWidth(0)
        menu.setFont(font)
        menu.adjustSize()
        # the texts' columns: left of the shortcuts' column, which the wider menu draws further right
        shortcuts = [a.shortcut().toString(QKeySequence.SequenceFormat.NativeText) for a, _g in items]
        keys = max((fm.horizontalAdvance(k) for k in shortcuts), default=0)
        for action, g in items:
            g.setWidth(min(g.width(), narrow.width() - keys - 24))
            if narrow.copy(g) != wide.copy(g):
                cut.append(action.text())
    return cut


@pytest.mark.real_engine
def test_the_window_in_chinese_leaves_no_english_and_switches_back_exactly(qtbot, zh, win, tmp_path):
    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QAction

    from gradviz.model.graph import INITS
    from gradviz.model.ops import KINDS
    from gradviz.model.presets import preset_names
    from gradviz.ui.persistence import AppStore

    zh.set_language("en")

    def seen(pairs):  # each text by its widget's kind and name (result panels rebuild their labels)
        return [(type(o).__name__, o.objectName(), t) for o, t in pairs]

    english = seen(zh.texts(win))
    zh.set_language("zh_CN")
    texts = zh.texts(win)
    names = {n for node in win.document.graph for n in re.findall(r"[A-Za-z]+", node.name)}
    allowed = set(KINDS) | names | set(preset_names()) | set(INITS) | NAMES_AND_CODE | set(zh.LANGUAGES.values())
    left = _english_left(texts, allowed)
    where = [(type(o).__name__, o.objectName(), t) for o, t in texts if any(ln in left for ln in t.split("\n"))]
    assert not left, where
    ours = {ctx for ts in CATALOGUES for ctx, _s in tool.messages(ts)}
    assert not {k for k in zh.translator().missing if k[0] in ours}
    # the Add node buttons that are ideas, not MindSpore's ops, are Chinese too
    assert [win.findChild(QAction, f"add{k}").text() for k in ("Input", "Parameter", "Output")] == [
        "输入",
        "参数",
        "输出",
    ]
    # and no menu item is cut short ("适应窗口显…图": Qt elides a Chinese item with a mnemonic)
    assert not _cut_menu_items(win)
    # the dynamic texts too: caption, status bar, the Problems dock title
    assert CJK.search(win.graphView.caption) and CJK.search(win.stateLabel.text())
    zh.set_language("zh_CN")  # again: nothing changes
    assert [t for _o, t in zh.texts(win)] == [t for _o, t in texts]
    zh.set_language("en")
    assert seen(zh.texts(win)) == english
    # View > Language remembers the choice
    win.store = AppStore(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), tmp_path)
    win.findChild(QAction, "language_zh_CN").trigger()
    assert zh.current() == "zh_CN" and win.store.text("language") == "zh_CN"
    assert win.menuBar().actions()[0].text() == "文件(&F)"
    win.findChild(QAction, "language_system").trigger()
    assert win.store.text("language") == "" and zh.current() == zh.system_language()
    win.store = None


def test_installing_finds_the_catalogue_from_the_package(zh):
    assert [p.name for p in zh.catalogues("zh_CN")] == [ts.with_suffix(".qm").name for ts in CATALOGUES]
    assert zh.catalogues("en") == []
    assert shutil.which("pyside6-lupdate", path=str(Path(sys.executable).parent)) or shutil.which("pyside6-lupdate")


def test_the_lessons_messages_show_in_chinese(zh):
    from gradviz.experiments.variants import variant_sessions

    with pytest.raises(SessionError) as e:
        variant_sessions(load_preset("linreg"))  # one Output: nothing to compare
    assert str(e.value).startswith("the variants compare returning a second output")
    assert zh.tr_msg(e.value).startswith("四种写法比较的是")


def test_a_node_s_max_and_min_are_never_cut_in_chinese(zh, qtbot, monkeypatch):
    """Too narrow for "最小 -1.50" (Chinese words are wider), a matrix node writes its numbers
    whole rather than "最小 -1.…"."""
    import numpy as np
    from PySide6.QtGui import QFontMetricsF, QImage, QPainter
    from PySide6.QtWidgets import QStyleOptionGraphicsItem

    from gradviz.ui import graph_view
    from gradviz.ui.document import SessionDocument
    from gradviz.ui.graph_view import GraphScene

    drawn = []
    fit = graph_view._fit_text

    def recording(p, r, text, size, bold=False, mono=False, italic=False):
        drawn.append((text, r.width(), mono))
        fit(p, r, text, size, bold=bold, mono=mono, italic=italic)

    monkeypatch.setattr(graph_view, "_fit_text", recording)
    scene = GraphScene(SessionDocument(load_preset("tutorial")))
    w = np.array([[1.574, -1.503, 0.2], [0.1, -0.4, 0.9], [0.3, 0.0, -0.8], [1.2, -1.1, 0.5], [0.6, -0.2, 0.7]])
    scene.set_node_data({"w": w}, {"w": w / 10}, None, step=0)
    item = scene.items_by_name["w"]
    img = QImage(
        int(item.boundingRect().width()) + 2, int(item.boundingRect().height()) + 2, QImage.Format.Format_ARGB32
    )
    p = QPainter(img)
    try:
        item.paint(p, QStyleOptionGraphicsItem(), None)
    finally:
        p.end()
    numbers = [(t, width, mono) for t, width, mono in drawn if re.search(r"-?\d\.\d", t)]
    assert any("-1.5" in t for t, _w, _m in numbers) and any("1.57" in t for t, _w, _m in numbers)
    for text, width, mono in numbers:  # each in full at the smallest size, at the latest
        f = graph_view._font(8, mono=mono)
        assert QFontMetricsF(f).horizontalAdvance(text) <= width, (text, width)


def test_a_window_made_without_the_launcher_switches_to_chinese_as_completely(qtbot, qapp):
    """A bare MainWindow() (as a test makes it, without app.launch's language.install) switched
    with View > Language: its labels turn Chinese as the launched app's do."""
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QAbstractButton, QGroupBox, QLabel

    from gradviz.ui import language
    from gradviz.ui.main_window import MainWindow

    t = language.translator()  # as at the start of a process where nothing installed it
    qapp.removeTranslator(t)
    t.installed = False
    t.produced.clear()
    w = MainWindow(make_client=standin.client)
    qtbot.addWidget(w)
    w.show()
    try:
        w.findChild(QAction, "language_zh_CN").trigger()
        texts = [
            x.title() if isinstance(x, QGroupBox) else x.text()
            for cls in (QLabel, QAbstractButton, QGroupBox)
            for x in w.findChildren(cls)
            if x.isVisible()
        ]
        words = [s for s in texts if re.search("[A-Za-z\u4e00-\u9fff]", s)]
        # code stays code: the API names and the tutorial's own calls are not translated
        words = [s for s in words if s not in {"API", "ops.stop_gradient(z)", "has_aux=True"}]
        english = [s for s in words if not re.search("[\u4e00-\u9fff]", s)]
        assert len(words) >= 40 and english == []
    finally:
        language.set_language("en")
        w.close()

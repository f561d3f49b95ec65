"""On a projector's screen (1024x768, 1280x720), at first launch and at every step of every
lesson, in English and in Chinese: each control the step names (its text's controls, its links,
the lesson's navigation, and the Mode box the teacher's guide asks the class to switch) is in
view without scrolling: shown, and its rect, mapped to the window, inside the viewport of every
scroll area and dock that holds it, with those scroll areas at the top."""

import pytest
from PySide6.QtCore import QPoint, QRect, QSettings
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractScrollArea, QDockWidget, QMessageBox, QWidget

import standin
from gradviz.model import lesson_plan as plan
from gradviz.ui import language
from gradviz.ui.main_window import MainWindow
from gradviz.ui.persistence import AppStore

SIZES = ("1024x768", "1280x720")
GUIDE = ("modeCombo",)  # the teacher's guide: "Switch Mode to Graph", at any step
NAVIGATION = ("lessonPrevious", "lessonNext", "lessonSetup")


def _settle(qtbot) -> None:
    """Let deferred layout, refits and the step's show_controls run."""
    for _ in range(3):
        qtbot.wait(0)
        QGuiApplication.processEvents()


def _rect_in(widget: QWidget, win: QWidget) -> QRect:
    return QRect(widget.mapTo(win, QPoint(0, 0)), widget.size())


def not_in_view(widget: QWidget) -> str:
    """Why `widget` is not entirely in view without scrolling ("" if it is)."""
    name = widget.objectName()
    if not widget.isVisible():
        return f"{name}: hidden"
    win = widget.window()
    r = _rect_in(widget, win)
    if not win.rect().contains(r):
        return f"{name}: {r} outside the window {win.rect()}"
    p = widget.parentWidget()
    while p is not None and p is not win:
        if isinstance(p, QAbstractScrollArea):
            seen = _rect_in(p.viewport(), win)
            if not seen.contains(r):
                return f"{name}: {r} outside its scroll area's viewport {seen}"
            if p.verticalScrollBar().value() != 0:
                return f"{name}: in view only once its scroll area is scrolled"
        elif isinstance(p, QDockWidget):
            seen = _rect_in(p, win)
            if not p.isVisible() or not seen.contains(r):
                return f"{name}: {r} outside its dock {p.objectName()} {seen}"
        p = p.parentWidget()
    return ""


def _problems(qtbot, widgets: list[QWidget]) -> list[str]:
    """Why each of `widgets` is not in view, once the deferred layouts have had their time (a
    loaded machine runs them later)."""
    try:
        qtbot.waitUntil(lambda: not any(not_in_view(c) for c in widgets), timeout=3000)
    except qtbot.TimeoutError:
        pass
    return [why for c in widgets if (why := not_in_view(c))]


def _named(w: MainWindow, step: plan.Step) -> list[QWidget]:
    names = [*step.controls, *GUIDE, *NAVIGATION, *(f"lessonLink_{k}" for k in step.links)]
    found = [w.findChild(QWidget, n) for n in names]
    assert all(found), [n for n, f in zip(names, found) if f is None]
    return found


@pytest.fixture
def first_launch(qtbot, tmp_path):
    """Opens a MainWindow as at first launch (an empty store) on the screen of a size ("1024x768"),
    in a language."""
    from PySide6.QtWidgets import QApplication

    from gradviz.ui import theme

    windows = []
    app = QApplication.instance()
    font = app.font()
    app.setFont(theme.font(theme.BASE_POINT_SIZE))  # the application's font, as gradviz.app sets it

    def opener(size: str, lang: str, again: bool = False) -> MainWindow:
        """`again`: the store of the last window opened at this size and language (its saved
        layout and step)."""
        language.set_language(lang)
        screen = next(s for s in QGuiApplication.screens() if s.name().endswith(size))
        folder = tmp_path / f"{size}-{lang}"
        store = AppStore(QSettings(str(folder / "settings.conf"), QSettings.Format.IniFormat), folder / "data")
        w = MainWindow(store=store, ask=lambda *a: QMessageBox.StandardButton.Discard, make_client=standin.client)
        qtbot.addWidget(w)
        w.setScreen(screen)
        w.move(screen.availableGeometry().topLeft())
        windows.append(w)
        with qtbot.waitExposed(w):
            w.show()
        _settle(qtbot)
        return w

    try:
        yield opener
    finally:
        for w in windows:
            w.close()
        language.set_language(language.SOURCE)
        app.setFont(font)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("size", SIZES)
def test_every_control_a_lesson_step_names_is_in_view_without_scrolling(qtbot, first_launch, size, lang):
    w = first_launch(size, lang)
    p = w.lesson
    assert p.lesson == "tutorial" and p.index == 0
    problems = [f"first launch: {why}" for why in _problems(qtbot, _named(w, p.step))]
    for key, steps in plan.LESSONS.items():
        if p.lesson != key:
            w.files.load_preset(key)  # a data-set preset opens its own lesson
            _settle(qtbot)
        assert p.lesson == key
        for i, step in enumerate(steps):
            assert p.go(i), step.id
            _settle(qtbot)
            problems += [f"{key} {step.id}: {why}" for why in _problems(qtbot, _named(w, step))]
    assert not problems, "\n".join(problems)


def test_a_control_below_the_fold_is_seen_as_such(qtbot, first_launch):
    """The check itself: a control scrolled out of its dock's viewport is not in view."""
    w = first_launch("1024x768", "en")
    area = w.controls._scroll
    budget = w.controls.budgetSpin  # the last option: below the fold at 1024x768
    assert "outside its scroll area's viewport" in not_in_view(budget)
    area.verticalScrollBar().setValue(area.verticalScrollBar().maximum())
    _settle(qtbot)
    assert "once its scroll area is scrolled" in not_in_view(budget)


def test_the_controls_stay_in_view_at_the_next_launch(qtbot, first_launch):
    """The layout saved on closing comes back with the lesson's controls still above the fold."""
    w = first_launch("1280x720", "en")
    assert w.lesson.go(plan.index_of("pytorch"))
    w.close()
    w = first_launch("1280x720", "en", again=True)
    assert w.lesson.step.id == "pytorch"
    problems = _problems(qtbot, _named(w, w.lesson.step))
    assert not problems, "\n".join(problems)


def test_a_dock_squeezed_while_the_step_opened_shows_the_controls_from_the_top_once_it_has_room(qtbot, first_launch):
    """The step's controls were scrolled into a squeezed Training dock; once the dock has its room
    again they are shown from the top, unless the user has scrolled it since."""
    from PySide6.QtCore import Qt

    w = first_launch("1024x768", "zh_CN")
    dock, bar = w.findChild(QDockWidget, "controlsDock"), w.controls._scroll.verticalScrollBar()
    full = dock.height()
    assert w.lesson.go(plan.index_of("pytorch"))
    _settle(qtbot)
    assert not _problems(qtbot, _named(w, w.lesson.step))
    w.resizeDocks([dock], [full // 2], Qt.Orientation.Vertical)  # another dock takes half its room
    _settle(qtbot)
    w.lesson.show_controls()  # as when the step opened in that state
    assert bar.value() > 0 and all("outside" not in not_in_view(c) for c in _named(w, w.lesson.step))
    w.resizeDocks([dock], [full], Qt.Orientation.Vertical)
    _settle(qtbot)
    qtbot.waitUntil(lambda: bar.value() == 0, timeout=3000)
    assert not _problems(qtbot, _named(w, w.lesson.step))
    # scrolled by the user: a resize leaves it where the user put it
    bar.setValue(bar.maximum())
    kept = bar.value()
    assert kept > 0
    w.resizeDocks([dock], [full - 40], Qt.Orientation.Vertical)
    _settle(qtbot)
    assert bar.value() == kept

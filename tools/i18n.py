"""Regenerate the translation catalogues, compile them, and (with --font) re-subset the bundled font.

    python tools/i18n.py                      # after adding or changing user-visible strings
    python tools/i18n.py --font NotoSansSC-Regular.otf   # after translating: the font's characters

1. `pyside6-lupdate` extracts every string marked for translation from the sources of each
   catalogue (CATALOGUES below) into resources/i18n/<catalogue>_<language>.ts, keeping the
   translations already there; a new or changed string comes in as "unfinished" (the tests fail
   until it is translated: open the .ts in `pyside6-linguist`, or edit the XML). Strings that
   are gone are dropped. Marked means `self.tr("...")`, `QCoreApplication.translate("Ctx", "...")`,
   `QT_TRANSLATE_NOOP("Ctx", "...")` and `Msg("Ctx", "...")` (gradviz/i18n.py).
2. `pyside6-lrelease` compiles each .ts into the .qm the app loads.
3. With --font FILE (an OFL Noto Sans SC .otf, e.g. from `pip download pylopdf-fonts-zh-cn`, not a
   dependency), the bundled fallback font resources/fonts/GradVizSansSC-Regular.otf is made again:
   that font subset (fontTools, `pip install -e '.[i18n]'`) to the characters the catalogues use,
   renamed "GradViz Sans SC" so that it never stands in for a full Noto Sans SC on the system.

The tools come from the environment that runs this script (PySide6-Essentials ships lupdate and
lrelease). The tests (tests/test_i18n.py) check that all of this is up to date."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
I18N = ROOT / "resources" / "i18n"
FONTS = ROOT / "resources" / "fonts"
FONT_FILE = "GradVizSansSC-Regular.otf"
FONT_FAMILY = "GradViz Sans SC"
LANGUAGES = ("zh_CN",)  # English is the source language: no catalogue

# catalogue -> the sources it holds (paths relative to the checkout; missing ones are skipped);
# "gradviz" holds every other source under gradviz/
CATALOGUES: dict[str, list[str]] = {
    "lesson": ["gradviz/model/lesson_plan.py", "gradviz/ui/lesson_panel.py"],
    "gradviz": [],
}
ALIASES = "QT_TRANSLATE_NOOP+=Msg"  # gradviz.i18n.Msg(context, template) is marked like QT_TRANSLATE_NOOP
# always in the font: Chinese punctuation a translator may use, and the languages' own names
EXTRA_CHARACTERS = "，。、：；！？（）《》「」“”‘’…—·简体中文"


def tool(name: str) -> str:
    exe = shutil.which(name, path=sysconfig.get_path("scripts")) or shutil.which(name)
    if not exe:
        sys.exit(f"{name} not found: install PySide6-Essentials (pip install -e .)")
    return exe


def sources(catalogue: str) -> list[Path]:
    claimed = {p for files in CATALOGUES.values() for p in files}
    if CATALOGUES[catalogue]:
        return [ROOT / p for p in CATALOGUES[catalogue] if (ROOT / p).is_file()]
    return sorted(p for p in (ROOT / "gradviz").rglob("*.py") if p.relative_to(ROOT).as_posix() not in claimed)


def ts_path(catalogue: str, language: str) -> Path:
    return I18N / f"{catalogue}_{language}.ts"


def lupdate(catalogue: str, ts: Path) -> None:
    """Extract the catalogue's strings into ts (created if missing), keeping its translations."""
    files = [str(p.relative_to(ROOT)) for p in sources(catalogue)]
    if not files and not ts.exists():
        return
    cmd = [tool("pyside6-lupdate"), *files, "-tr-function-alias", ALIASES, "-no-obsolete", "-locations", "none"]
    cmd += ["-source-language", "en", "-target-language", ts.stem.split("_", 1)[1], "-ts", str(ts)]
    subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True)


def lrelease(ts: Path, qm: Path) -> None:
    subprocess.run([tool("pyside6-lrelease"), "-silent", str(ts), "-qm", str(qm)], check=True)


def messages(ts: Path) -> dict[tuple[str, str], tuple[str, str]]:
    """{(context, source): (translation, type)} of a .ts file (type "" when finished)."""
    out = {}
    for ctx in ET.parse(ts).getroot().iter("context"):
        name = ctx.findtext("name") or ""
        for m in ctx.iter("message"):
            tr = m.find("translation")
            out[(name, m.findtext("source") or "")] = (
                (tr.text or "") if tr is not None else "",
                tr.get("type", "") if tr is not None else "",
            )
    return out


def catalogue_files() -> list[Path]:
    return sorted(I18N.glob("*.ts"))


def characters() -> str:
    """Every non-ASCII character of every translation, and EXTRA_CHARACTERS."""
    chars = set(EXTRA_CHARACTERS)
    for ts in catalogue_files():
        for text, _type in messages(ts).values():
            chars |= {c for c in text if ord(c) > 0x7F}
    return "".join(sorted(chars))


def subset_font(source: Path) -> Path:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.layout_features = ["*"]
    options.hinting = False
    options.recalc_timestamp = False
    options.name_IDs = ["*"]
    font = TTFont(str(source))
    sub = subset.Subsetter(options)
    sub.populate(text=characters())
    sub.subset(font)
    names = font["name"]
    for rec in list(names.names):
        if rec.nameID in (1, 4, 16):
            names.setName(FONT_FAMILY, rec.nameID, rec.platformID, rec.platEncID, rec.langID)
        elif rec.nameID == 6:
            names.setName("GradVizSansSC-Regular", 6, rec.platformID, rec.platEncID, rec.langID)
        elif rec.nameID == 3:
            uid = "GradVizSansSC-Regular;subset of " + rec.toUnicode()
            names.setName(uid, 3, rec.platformID, rec.platEncID, rec.langID)
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = ["GradVizSansSC-Regular"]
        cff[cff.fontNames[0]].FamilyName = FONT_FAMILY
        cff[cff.fontNames[0]].FullName = FONT_FAMILY
    out = FONTS / FONT_FILE
    FONTS.mkdir(parents=True, exist_ok=True)
    font.save(str(out))
    return out


def update() -> None:
    I18N.mkdir(parents=True, exist_ok=True)
    for catalogue in CATALOGUES:
        for language in LANGUAGES:
            ts = ts_path(catalogue, language)
            lupdate(catalogue, ts)
            if ts.exists():
                lrelease(ts, ts.with_suffix(".qm"))
                left = [k for k, (_t, kind) in messages(ts).items() if kind == "unfinished"]
                print(f"{ts.relative_to(ROOT)}: {len(messages(ts))} strings, {len(left)} to translate")


def stale(ts: Path) -> list[tuple[str, str]]:
    """The strings the sources mark that `ts` lacks, and those it has that the sources no longer mark."""
    catalogue = next(ts.stem[: -len(lang) - 1] for lang in LANGUAGES if ts.stem.endswith("_" + lang))
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / ts.name
        shutil.copy(ts, fresh)
        lupdate(catalogue, fresh)
        now, then = set(messages(fresh)), set(messages(ts))
    return sorted(now ^ then)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--font", type=Path, help="an OFL Noto Sans SC .otf to subset into resources/fonts/")
    args = ap.parse_args(argv)
    update()
    if args.font:
        out = subset_font(args.font)
        print(f"{out.relative_to(ROOT)}: {len(characters())} characters, {out.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

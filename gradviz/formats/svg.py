"""Make Qt's SVG output draw the same everywhere a slide may go (PowerPoint, LibreOffice, resvg),
not only in browsers.

Qt's SVG writer draws a cosmetic pen (a line whose width is in screen pixels, as every plot curve
is) as a group whose `transform` maps data units to pixels, holding paths and polylines in data
units marked `vector-effect="non-scaling-stroke"`. A renderer without that SVG 2 feature scales
the stroke with the data: a 2-pixel loss curve whose y axis spans 0.8 becomes a band hundreds of
pixels wide, painted over the whole plot. Here each such path or polyline gets its points in
pixels and the inverse of its group's transform, so the stroke is drawn in pixels with or
without the feature and looks the same.

Only what Qt writes is handled: absolute M, L, C and Z commands of "x,y" pairs, and groups that
carry their whole transform (Qt does not nest transformed groups). Anything else is left as it
is. Qt-free."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
_NUM = r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_PAIR = re.compile(rf"({_NUM}),({_NUM})")
_MATRIX = re.compile(
    rf"^\s*matrix\(\s*({_NUM})\s*,\s*({_NUM})\s*,\s*({_NUM})\s*,\s*({_NUM})\s*,\s*({_NUM})\s*,\s*({_NUM})\s*\)\s*$"
)
_QT_TOKEN = re.compile(rf"^(?:[MLC]?{_NUM},{_NUM}|Z)$")

Matrix = tuple[float, float, float, float, float, float]  # SVG's a b c d e f: x' = a x + c y + e


def _matrix(text: str | None) -> Matrix | None:
    m = _MATRIX.match(text or "")
    return tuple(float(v) for v in m.groups()) if m else None  # type: ignore[return-value]


def _inverse(m: Matrix) -> Matrix | None:
    a, b, c, d, e, f = m
    det = a * d - b * c
    if det == 0:
        return None
    return (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)


def _num(v: float, digits: int = 3) -> str:
    """A pixel coordinate to a thousandth of a pixel, without trailing zeros."""
    text = f"{v:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _qt_path(d: str) -> bool:
    return all(_QT_TOKEN.match(t) for t in d.split())


def _map_pairs(text: str, m: Matrix) -> str:
    a, b, c, d, e, f = m

    def one(match: re.Match) -> str:
        x, y = float(match.group(1)), float(match.group(2))
        return f"{_num(a * x + c * y + e)},{_num(b * x + d * y + f)}"

    return _PAIR.sub(one, text)


def flatten_cosmetic_strokes(svg: bytes) -> bytes:
    """The SVG with every non-scaling stroke drawn in pixels (see the module's docstring)."""
    ET.register_namespace("", SVG_NS)
    ET.register_namespace("xlink", XLINK_NS)
    root = ET.fromstring(svg)
    shapes = {f"{{{SVG_NS}}}path": "d", f"{{{SVG_NS}}}polyline": "points"}
    for g in root.iter(f"{{{SVG_NS}}}g"):
        m = _matrix(g.get("transform"))
        if m is None or m == (1.0, 0.0, 0.0, 1.0, 0.0, 0.0):
            continue
        inv = _inverse(m)
        if inv is None:
            continue
        for child in g:
            attr = shapes.get(child.tag)
            if attr is None or child.get("vector-effect") != "non-scaling-stroke" or child.get("transform"):
                continue
            data = child.get(attr, "")
            if attr == "d" and not _qt_path(data):
                continue  # not Qt's absolute commands: leave it
            child.set(attr, _map_pairs(data, m))
            child.set("transform", "matrix({})".format(",".join(f"{v:.12g}" for v in inv)))
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)

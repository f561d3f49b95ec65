"""Menu items wide enough for their text in Chinese too.

Qt sizes a menu item by its text without the mnemonic's "&", but elides it when drawn by a width
that counts the "&" where the text mixes scripts ("适应窗口显示计算图(&F)"): the longest Chinese
item of a menu was cut to "适应窗口显…图". Each item with a mnemonic is made that much wider."""

from __future__ import annotations

from PySide6.QtWidgets import QMenu, QProxyStyle, QStyle, QWidget


class MenuStyle(QProxyStyle):
    def sizeFromContents(self, kind, option, size, widget=None):
        size = super().sizeFromContents(kind, option, size, widget)
        if kind == QStyle.ContentsType.CT_MenuItem and "&" in option.text:
            size.setWidth(size.width() + option.fontMetrics.horizontalAdvance("&"))
        return size


def style_menus(root: QWidget) -> None:
    """Every menu under `root` (a window's, made once) drawn with one MenuStyle that root owns."""
    style = MenuStyle()
    style.setParent(root)
    for menu in root.findChildren(QMenu):
        menu.setStyle(style)

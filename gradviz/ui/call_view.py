"""The call, always in view: above the graph, the lines of the MindSpore program that change with
the options (the function's `return`, `grad_fn = ...`, mindspore.jit in Graph mode) and the
structure grad_fn returns, in large monospace, with what the last change did highlighted.

The texts come from codegen (the generator of the program that runs), never written here."""

from __future__ import annotations

import html

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QLabel, QSizePolicy

from ..model.codegen import grad_call, layer_cell, returned_structure, returned_values
from ..model.graph import Graph
from ..model.session import Options
from . import theme

CALL_PT = 14
CHANGED = "#fde68a"  # the background of a line the last change made different


def call_lines(graph: Graph, options: Options) -> list[str]:
    """The program's lines that the options change, as the generated program writes them, and
    what grad_fn returns."""
    jit = (
        QCoreApplication.translate("CallView", "@mindspore.jit  # Graph mode: train_step compiled")
        if options.mode == "graph"
        else QCoreApplication.translate("CallView", "# PyNative: no mindspore.jit")
    )
    fn = "function" if layer_cell(graph, options) is None else "forward_fn"  # the Network of layers' loss
    return [
        f"def {fn}(...): return {', '.join(returned_values(graph, options))}",
        f"grad_fn = {grad_call(graph, options)}",
        QCoreApplication.translate("CallView", "grad_fn(...) returns {structure}").format(
            structure=returned_structure(graph, options)
        ),
        jit,
    ]


class CallView(QLabel):
    """objectName "callView"; `lines` holds the plain text shown, `changed` which lines the last
    change made different (highlighted)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("callView")
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Maximum)  # never widens the window
        self.setFont(theme.font(CALL_PT, mono=True))  # the text's size: it follows presentation mode
        self.lines: list[str] = []
        self.changed: list[int] = []
        self.restyle()

    def restyle(self) -> None:
        """Colours for the current theme (theme.LOOK)."""
        bg, rule = ("#1e293b", "#334155") if theme.LOOK.dark else ("#f1f5f9", "#cbd5e1")
        self.setStyleSheet(
            f"QLabel#callView {{ background: {bg}; border-bottom: 1px solid {rule}; padding: 4px 8px; }}"
        )
        if self.lines:
            self._render()

    def show_call(self, graph: Graph, options: Options, problems: bool = False) -> None:
        """The call of this graph; while it has `problems` (an empty or unfinished graph) a line
        that says there is none, never the call of an earlier graph."""
        try:
            lines = call_lines(graph, options) if not problems else None
        except (KeyError, ValueError, IndexError):
            lines = None
        if lines is None:
            lines = [self.tr("# No program yet: the graph is not finished (see Problems)")]
        if lines == self.lines:
            return
        self.changed = [
            i for i, line in enumerate(lines) if self.lines and (i >= len(self.lines) or self.lines[i] != line)
        ]
        self.lines = lines
        self._render()

    def _render(self) -> None:
        lines, dark = self.lines, theme.LOOK.dark

        def span(i: int) -> str:
            changed = i in self.changed
            style = f"background:{CHANGED};" if changed else ""
            if lines[i].startswith("#"):
                color = "#64748b" if not dark or changed else "#94a3b8"
            else:
                color = "#f1f5f9" if dark and not changed else "#0f172a"
            return f"<span style='{style} color:{color};'>{html.escape(lines[i])}</span>"

        # three rows: the return line, the grad_fn line, what grad_fn returns and the mode's jit
        rows = [span(0), span(1), span(2) + "&nbsp;&nbsp;&nbsp;" + span(3)] if len(lines) == 4 else [span(0)]
        self.setText("<div>" + "<br>".join(rows) + "</div>")
        self.setToolTip(
            self.tr(
                "The lines of the MindSpore program (the MindSpore program tab) that change with the "
                "options; the highlighted ones changed with the last change"
            )
        )

"""The session being edited: graph and options, with undo/redo for graph edits.

Widgets read from and write to the document; they never keep their own copy of the graph.
Every graph edit is a whole-graph before/after pair (graphs are small), so undo is exact."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from ..model.graph import Graph, Node
from ..model.ops import LOSS_KINDS
from ..model.session import Options, Session


class _GraphEdit(QUndoCommand):
    def __init__(self, doc: SessionDocument, before: Graph, after: Graph, text: str, merge_id: int = -1):
        super().__init__(text)
        self.doc, self.before, self.after, self._id = doc, before, after, merge_id

    def redo(self):
        self.doc._set_graph(self.after.copy())

    def undo(self):
        self.doc._set_graph(self.before.copy())

    def id(self):
        return self._id

    def mergeWith(self, other):
        if other.id() != self._id or self._id == -1:
            return False
        self.after = other.after
        return True


class _SessionEdit(QUndoCommand):
    """A graph and options changed together (the MindSpore program tab's Apply): one step."""

    def __init__(self, doc: SessionDocument, before: Session, after: Session, text: str):
        super().__init__(text)
        self.doc, self.before, self.after = doc, before, after

    def redo(self):
        self.doc._set_graph_and_options(self.after.copy())

    def undo(self):
        self.doc._set_graph_and_options(self.before.copy())


class SessionDocument(QObject):
    graphChanged = Signal()
    optionsChanged = Signal(str)  # the option's name
    sessionReplaced = Signal()
    modifiedChanged = Signal(bool)

    MOVE_ID = 1

    def __init__(self, session: Session, parent=None):
        super().__init__(parent)
        self.session = session.copy()
        self.undo_stack = QUndoStack(self)
        self.path: str | None = None
        self._saved = self._graph_text()
        self._was_modified = False
        self.graphChanged.connect(self._check_modified)

    def _graph_text(self) -> dict:
        """The graph as compared for unsaved work: a dict, which shares the values lists (edits
        replace them, never change them in place), so an unchanged list is equal at once."""
        return self.session.graph.to_dict()

    @property
    def modified(self) -> bool:
        """Whether the graph differs from the one last opened or saved: the graph is the user's
        work; options (those a lesson step sets, the live ones) are never unsaved work."""
        return self._graph_text() != self._saved

    def mark_saved(self, path: str | None = None) -> None:
        if path is not None:
            self.path = path
        self._saved = self._graph_text()
        self._check_modified()

    def mark_unsaved(self) -> None:
        """The graph is unsaved work whatever it is (a session restored from an autosave)."""
        self._saved = None
        self._check_modified()

    def _check_modified(self, *_args) -> None:
        m = self.modified
        if m != self._was_modified:
            self._was_modified = m
            self.modifiedChanged.emit(m)

    @property
    def graph(self) -> Graph:
        return self.session.graph

    @property
    def options(self) -> Options:
        return self.session.options

    def replace_session(self, session: Session, path: str | None = None) -> None:
        self.session = session.copy()
        self.path = path
        self.undo_stack.clear()
        self._saved = self._graph_text()
        self.sessionReplaced.emit()
        self.graphChanged.emit()

    def _set_graph(self, g: Graph) -> None:
        self.session.graph = g
        self.graphChanged.emit()

    locked = False  # while training: no edits that would change the run (moving nodes is fine)

    def undo(self) -> None:
        if not self.locked:
            self.undo_stack.undo()

    def redo(self) -> None:
        if not self.locked:
            self.undo_stack.redo()

    def edit(self, text: str, fn, merge_id: int = -1, allowed_while_locked: bool = False) -> bool:
        """Apply fn(graph_copy) as one undoable edit. fn may return False to cancel."""
        if self.locked and not allowed_while_locked:
            return False
        before = self.graph.copy()
        after = self.graph.copy()
        if fn(after) is False:
            return False
        self.undo_stack.push(_GraphEdit(self, before, after, text, merge_id))
        return True

    def edit_session(self, text: str, session: Session) -> bool:
        """Take `session`'s graph and options as one undoable edit (the session keeps its name)."""
        if self.locked:
            return False
        self.undo_stack.push(_SessionEdit(self, self.session.copy(), session.copy(), text))
        return True

    def _set_graph_and_options(self, s: Session) -> None:
        changed = [k for k, v in s.options.to_dict().items() if getattr(self.options, k) != v]
        self.session.options = replace(s.options)
        self._set_graph(s.graph)
        if changed:
            self.optionsChanged.emit(changed[0])

    def set_option(self, name: str, value) -> None:
        """Options are guarded by their widgets (run options are disabled while training)."""
        self.set_options(**{name: value})

    def set_options(self, **values) -> None:
        """Change several options at once: listeners hear of it once."""
        changed = {k: v for k, v in values.items() if getattr(self.options, k) != v}
        if changed:
            self.session.options = replace(self.options, **changed)
            self.optionsChanged.emit(next(iter(changed)))

    # -- common edits ---------------------------------------------------------------------------
    def add_node(self, kind: str, pos: tuple[float, float]) -> str:
        # a loss is `loss`, the name the tutorial's function returns
        stem = kind[0].lower() if kind in ("Input", "Parameter") else "loss" if kind in LOSS_KINDS else kind.lower()
        name = self.graph.unique_name(stem)
        node = Node(name=name, kind=kind, pos=pos)
        if node.is_source:
            node.shape = (3,)
            node.init = "randn" if kind == "Parameter" else "ones"
        self.edit(self.tr("Add {kind} {name}").format(kind=kind, name=name), lambda g: g.nodes.append(node))
        return name

    def remove_nodes(self, names: list[str]) -> None:
        def fn(g: Graph):
            g.nodes = [n for n in g.nodes if n.name not in names]
            for n in g.nodes:
                n.inputs = {p: s for p, s in n.inputs.items() if s not in names}

        if names:
            self.edit(self.tr("Delete {names}").format(names=", ".join(names)), fn)

    def connect_ports(self, src: str, dst: str, port: str) -> None:
        def fn(g: Graph):
            g[dst].inputs[port] = src

        self.edit(self.tr("Connect {source} -> {target}").format(source=src, target=f"{dst}.{port}"), fn)

    def disconnect_port(self, dst: str, port: str) -> None:
        self.edit(
            self.tr("Disconnect {target}").format(target=f"{dst}.{port}"), lambda g: g[dst].inputs.pop(port, None)
        )

    def move_nodes(self, moves: dict[str, tuple[float, float]]) -> None:
        def fn(g: Graph):
            for name, pos in moves.items():
                if g.get(name):
                    g[name].pos = pos

        self.edit("Move", fn, allowed_while_locked=True)

    renaming: dict[str, str] = {}  # {old: new} while a rename is applied (the view keeps the selection)

    def rename_node(self, old: str, new: str) -> None:
        def fn(g: Graph):
            g[old].name = new
            for n in g.nodes:
                n.inputs = {p: (new if s == old else s) for p, s in n.inputs.items()}

        self.renaming = {old: new}
        try:
            self.edit(self.tr("Rename {old} to {new}").format(old=old, new=new), fn)
        finally:
            self.renaming = {}

    def update_node(self, name: str, text: str, **fields) -> None:
        def fn(g: Graph):
            n = g[name]
            for k, v in fields.items():
                setattr(n, k, v)

        self.edit(text, fn)

"""Translatable text from the Qt-free core.

The core (model, engine, formats, cli) never imports Qt, yet its messages are shown in the window,
in English or Chinese. Two markers, both extracted by `pyside6-lupdate` (see tools/i18n.py):

- `QT_TRANSLATE_NOOP(context, text)`: the identity; marks a constant text the window translates
  with `QCoreApplication.translate(context, text)`.
- `Msg(context, template).format(name=value, ...)`: a message with values. A Msg *is* the English
  text (a `str`, so the command line, logs and `==` see plain English), and it also keeps its
  `context`, its `template` and its `args`, so the window translates the template first and
  formats it after (gradviz/ui/language.py, `tr_msg`). An argument that is itself a Msg is
  translated too, so a message can be built from messages.

Write the template and its arguments, never an f-string: `Msg("Graph", "{node}: the graph has a
cycle").format(node=label)`. Plural-free wording reads best in both languages ("updates: {n}").
"""

from __future__ import annotations

from typing import Any


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    return text


class Msg(str):
    """English text that remembers how to say it in another language (see the module's doc)."""

    context: str
    template: str
    args: dict[str, Any]

    def __new__(cls, context: str, template: str) -> Msg:
        return cls._make(context, template, {})

    @classmethod
    def _make(cls, context: str, template: str, args: dict[str, Any]) -> Msg:
        english = template.format(**args) if args else template
        self = str.__new__(cls, english)
        self.context, self.template, self.args = context, template, dict(args)
        return self

    def format(self, *positional: Any, **args: Any) -> Msg:  # type: ignore[override]
        """The message with its values, still translatable. Keyword arguments only."""
        if positional:
            raise TypeError("Msg.format takes keyword arguments only (the translations name them)")
        return Msg._make(self.context, self.template, {**self.args, **args})

    def __reduce__(self):  # crosses the engine's pipe as a message, not as plain English
        return (Msg._make, (self.context, self.template, self.args))

    def __repr__(self) -> str:
        args = f".format(**{self.args!r})" if self.args else ""
        return f"Msg({self.context!r}, {self.template!r}){args}"


def message(error: BaseException) -> str:
    """An exception's message: the Msg it was raised with, if any (str() gives English only)."""
    return error.args[0] if len(error.args) == 1 and isinstance(error.args[0], Msg) else str(error)

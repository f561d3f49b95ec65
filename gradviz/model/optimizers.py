"""The one table of optimizers: each one's MindSpore and PyTorch class and its settings.

The session's check, the command line, the Optimizer box, the engine's training step and both
exported scripts (and so PyTorch parity) read this table: a new optimizer is one entry plus its
tests. Qt-free and MindSpore-free: the classes are named, the engine looks them up."""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import Msg

LR_KEYWORD = {"mindspore": "learning_rate", "pytorch": "lr"}  # the learning rate's keyword
MODULE = {"mindspore": "nn", "pytorch": "torch.optim"}  # where the classes are, as the scripts import them


@dataclass(frozen=True)
class Optimizer:
    name: str  # in sessions and on the command line
    label: Msg  # the Optimizer box's text; formatted with the settings
    mindspore: str  # the mindspore.nn class
    pytorch: str  # the torch.optim class with the same update
    settings: tuple[tuple[str, float], ...] = ()  # keyword arguments both classes take besides the rate
    pytorch_note: str = ""  # a comment after the exported PyTorch line

    @property
    def text(self) -> Msg:
        return self.label.format(**dict(self.settings))

    def keywords(self, language: str, lr: float) -> dict:
        """The keyword arguments of the class in `language` ("mindspore" or "pytorch")."""
        return {LR_KEYWORD[language]: lr, **dict(self.settings)}

    def code(self, language: str, params: str, lr: float) -> str:
        """The constructor call in an exported script: `nn.SGD([w, b], learning_rate=0.01)`."""
        cls = getattr(self, language)
        kw = ", ".join(f"{k}={v!r}" for k, v in self.keywords(language, lr).items())
        note = f"  # {self.pytorch_note}" if language == "pytorch" and self.pytorch_note else ""
        return f"{MODULE[language]}.{cls}({params}, {kw}){note}"


TABLE: tuple[Optimizer, ...] = (
    Optimizer("sgd", Msg("Optimizers", "SGD"), "SGD", "SGD"),
    Optimizer(
        "momentum",
        Msg("Optimizers", "Momentum ({momentum})"),
        "Momentum",
        "SGD",
        (("momentum", 0.9),),
        "nn.Momentum's update",
    ),
    Optimizer("adam", Msg("Optimizers", "Adam"), "Adam", "Adam"),
)
OPTIMIZERS: dict[str, Optimizer] = {o.name: o for o in TABLE}

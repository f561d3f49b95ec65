"""The tutorial's four ways of returning z, side by side, on any graph with an auxiliary output:
the loss alone; (loss, z); (loss, ops.stop_gradient(z)); (loss, z) with has_aux=True. Each with
its exact MindSpore call, what the call returns, and the gradients at the initial parameters."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..i18n import Msg
from ..model.codegen import grad_call, objective, returned_names, returned_structure
from ..model.session import Session, SessionError

VARIANTS = ("loss", "return_z", "stop_gradient", "has_aux")
_OPTIONS = {
    "loss": (False, False, False),
    "return_z": (True, False, False),
    "stop_gradient": (True, True, False),
    "has_aux": (True, False, True),
}


@dataclass
class Variant:
    name: str
    call: str  # grad_fn = <call>
    returns: str  # what grad_fn returns
    function_returns: str  # the function's return line
    grads: dict[str, np.ndarray]  # per trainable parameter, at the initial values
    differentiated: str  # L, written out: "loss" or "loss + sum(z)"
    aux: tuple[str, ...] = ()  # the auxiliary outputs' names: what the tutorial calls z

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "call": self.call,
            "returns": self.returns,
            "grads": {k: np.asarray(v, np.float64).tolist() for k, v in self.grads.items()},
        }


def variant_sessions(session: Session) -> dict[str, Session]:
    if len(session.graph.outputs()) < 2:
        raise SessionError(
            Msg(
                "Variants",
                "the variants compare returning a second output (the tutorial's z) with the loss: "
                "the graph has only one Output; add one",
            )
        )
    out = {}
    for name, (aux, stop, has_aux) in _OPTIONS.items():
        o = replace(session.options, aux_output=aux, stop_gradient=stop, has_aux=has_aux)
        out[name] = Session(session.graph.copy(), o, session.name)
    return out


def function_return(session: Session) -> str:
    names = returned_names(session.graph)
    o = session.options
    if not (o.aux_output and len(names) > 1):
        return f"return {names[0]}"
    aux = [f"ops.stop_gradient({n})" if o.stop_gradient else n for n in names[1:]]
    return f"return {', '.join([names[0], *aux])}"


def compute(session: Session, progress=None, cancelled=None) -> list[Variant]:
    """The four variants at the session's initial parameters (MindSpore, in this process);
    progress(fraction) after each, cancelled() checked before each (then InterruptedError)."""
    from ..engine.engine import Engine

    out = []
    sessions = variant_sessions(session)
    for i, (name, s) in enumerate(sessions.items()):
        if cancelled is not None and cancelled():
            raise InterruptedError("variants cancelled")
        e = Engine(s)
        try:
            r = e.step()
            grads = {k: np.array(v) for k, v in e.grad_layout.unflatten(r.grads).items()}
        finally:
            e.close()
        out.append(
            Variant(
                name,
                grad_call(s.graph, s.options),
                returned_structure(s.graph, s.options),
                function_return(s),
                grads,
                objective(s.graph, s.options),
                tuple(returned_names(s.graph)[1:]),
            )
        )
        if progress is not None:
            progress((i + 1) / len(sessions))
    return out


def why(session: Session) -> str:
    """One plain sentence on why the second column differs from the first."""
    aux = returned_names(session.graph)[1:]
    z = ", ".join(aux)
    sums = " + ".join(f"sum({a})" for a in aux)
    return Msg(
        "Variants",
        "Returning {z} as well makes MindSpore differentiate loss + {sums}, so every gradient gains "
        "the gradient of {sums}; ops.stop_gradient({first}) or has_aux=True leave only the loss's.",
    ).format(z=z, sums=sums, first=aux[0])

"""The experiments as engine tasks: the function named by each row of protocol.TASKS turns its
command into its result, in the engine process, whose main thread owns MindSpore. The engine
loads this module by name (protocol.TASK_HANDLERS): the experiments sit above the engine, whose
Engines they build, and the engine never imports them.

The lessons build their own Engines (variants, gradient check, mode cost) beside the run's,
which keeps training afterwards. The run's Engine lends what a lesson needs of the run: its
current parameters and its parameter layout. progress(fraction) and cancelled() come from the
Server (process.py): cancelled() reads the pipe, so a Cancel arrives between rows and steps."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..engine import protocol as msg


def _session(d: dict):
    from ..model.session import Session

    return Session.from_dict(d)


def _same_run(engine, session) -> bool:
    """Whether the run's Engine trains this session (same graph and options that build it)."""
    return (
        engine is not None
        and engine.session.graph.to_dict() == session.graph.to_dict()
        and engine.session.options.seed == session.options.seed
    )


def variants(m: msg.ComputeVariants, engine, progress: Callable, cancelled: Callable) -> msg.VariantsResult:
    from . import variants as lesson

    s = _session(m.session)
    found = lesson.compute(s, progress, cancelled)
    return msg.VariantsResult(m.run_id, m.task_id, tuple(found), lesson.why(s))


def gradcheck(m: msg.CheckGradients, engine, progress: Callable, cancelled: Callable) -> msg.GradCheckResult:
    from . import gradcheck as lesson

    s = _session(m.session)
    current = m.current and _same_run(engine, s) and engine.updates > 0
    params = engine.current_params() if current else None
    r = lesson.run(s, params, cancelled=cancelled, progress=progress)
    return msg.GradCheckResult(m.run_id, m.task_id, r, engine.updates if current else 0)


def modecost(m: msg.MeasureModeCost, engine, progress: Callable, cancelled: Callable) -> msg.ModeCostResult:
    from . import modecost as lesson

    cost = lesson.measure(_session(m.session), m.steps, progress, cancelled)
    return msg.ModeCostResult(m.run_id, m.task_id, cost)


def landscape(m: msg.ComputeLandscape, engine, progress: Callable, cancelled: Callable) -> msg.LandscapeResult:
    from ..i18n import Msg
    from . import landscape as lesson
    from ..model.session import SessionError

    s = _session(m.session)
    if not _same_run(engine, s):
        raise SessionError(
            Msg("Landscape", "the loss landscape is drawn around the run's parameters: build the graph first")
        )
    if not (m.span > 0 and np.isfinite(m.span)) or not 2 <= m.resolution <= 201:
        raise SessionError(
            Msg(
                "Landscape", "the range must be above 0 and the grid 2 to 201 points a side, not {span}, {resolution}"
            ).format(span=m.span, resolution=m.resolution)
        )
    layout = engine.param_layout
    center = layout.flatten(engine.current_params()).astype(np.float64)
    if m.elements is None:
        plane = lesson.filter_normalised(layout, center, m.seed)
    else:
        i, j = m.elements
        if not (0 <= i < layout.total and 0 <= j < layout.total) or i == j:
            raise SessionError(f"choose two different parameter elements (of {layout.total})")
        plane = lesson.element_plane(layout, center, i, j)
    axis = np.linspace(-m.span, m.span, m.resolution)
    loss = lesson.surface(s, plane, axis, axis, progress, cancelled)
    return msg.LandscapeResult(
        m.run_id,
        m.task_id,
        layout.to_dict(),
        plane.center,
        plane.u,
        plane.v,
        plane.labels,
        axis,
        axis.copy(),
        loss,
        engine.updates,
    )


def parity(m: msg.ComparePyTorch, engine, progress: Callable, cancelled: Callable) -> msg.ParityResult:
    from dataclasses import replace

    from . import parity as lesson
    from ..model.session import Session, SessionError

    if not lesson.torch_available():
        raise SessionError("PyTorch is not installed: install the optional extra with pip install -e '.[torch]'")
    s = _session(m.session)
    s = Session(s.graph, replace(s.options, steps=min(s.options.steps, m.max_steps)), s.name)
    r = lesson.compare(s, progress, cancelled)
    return msg.ParityResult(m.run_id, m.task_id, r)


def _transform_point(m, engine, session):
    """The run's current parameters where asked and the run is this session's, else None (initial)."""
    current = m.current and _same_run(engine, session) and engine.updates > 0
    return (engine.current_params() if current else None), (engine.updates if current else 0)


def hessian(m: msg.ComputeHessian, engine, progress: Callable, cancelled: Callable) -> msg.HessianResult:
    from . import transforms

    s = _session(m.session)
    params, updates = _transform_point(m, engine, s)
    r = transforms.higher_order(s, m.param, m.element, params, m.sample, progress=progress, cancelled=cancelled)
    return msg.HessianResult(m.run_id, m.task_id, r, updates)


def jacobian(m: msg.ComputeJacobian, engine, progress: Callable, cancelled: Callable) -> msg.JacobianResult:
    from . import transforms

    s = _session(m.session)
    params, updates = _transform_point(m, engine, s)
    r = transforms.jacobian(s, m.node, m.param, params, m.sample, progress=progress, cancelled=cancelled)
    return msg.JacobianResult(m.run_id, m.task_id, r, updates)


def vjp(m: msg.ComputeProducts, engine, progress: Callable, cancelled: Callable) -> msg.ProductsResult:
    from . import transforms

    s = _session(m.session)
    params, updates = _transform_point(m, engine, s)
    r = transforms.products(s, m.node, m.param, m.v, m.u, params, progress=progress, cancelled=cancelled)
    return msg.ProductsResult(m.run_id, m.task_id, r, updates)


HANDLERS = {t.command: globals()[t.name] for t in msg.TASKS}

"""The messages between the window and the engine process: one frozen dataclass each.

Commands go to the engine, replies come back; both are pickled over a multiprocessing pipe, so a
message is read by its fields, never by position. To add a message, add a dataclass here and a
handler to the receiver's dispatch table (Server.HANDLERS in process.py, the controller's
_REPLIES); a lesson task is one row of TASKS instead, from which those tables are made. Replies about one run carry its `run_id`, so the window drops those of a run it has
reset. Qt-free and MindSpore-free: both processes import it."""

from __future__ import annotations

import dataclasses
from enum import StrEnum

import numpy as np

from ..model.ending import EndReason
from ..model.options import LIVE

message = dataclasses.dataclass(frozen=True)


# -- commands: window -> engine ----------------------------------------------------------------
@message
class Build:
    """Build this session into a fresh run from the seed."""

    run_id: int
    session: dict


@message
class Start:
    """Train on (paced by the speed option) until paused or ended."""


@message
class Pause:
    pass


@message
class Step:
    """Exactly one step."""


@message
class SetOption:
    """A live option (LIVE_OPTIONS; value None: off)."""

    name: str
    value: float | int | None


@message
class SetHistoryBudget:
    """The memory the run may keep (model/history.py: DEFAULT_BUDGET); the engine's kept training
    states get checkpoints.BUDGET_SHARE of it. Kept across builds."""

    budget: int  # bytes


@message
class GetNodes:
    """Send the node values and gradients at the current parameters."""


@message
class Quit:
    pass


@message
class Fault:
    """Fault injection for the robustness tests: 'raise', 'exit' or 'hang'."""

    kind: str


# The lessons (gradviz/experiments): each runs in the engine process as one task, between training
# slices. `task_id` (the window's count) names the task in its progress and result; `session` is
# the window's session as a dict. A task reports TaskProgress and ends with its result,
# TaskFailed or TaskCancelled; commands that arrive meanwhile wait, except Cancel, Build and
# Quit, which cancel it (Build and Quit are then done).
@message
class ComputeVariants:
    """The four ways of returning z (experiments.variants) at the session's initial parameters."""

    run_id: int
    task_id: int
    session: dict


@message
class CheckGradients:
    """The gradient check (experiments.gradcheck) at the run's current parameters (its initial
    ones when `current` is False or the run is not this session's)."""

    run_id: int
    task_id: int
    session: dict
    current: bool = True


@message
class MeasureModeCost:
    """ms per step in PyNative and Graph mode, compile apart, and their difference (experiments.modecost)."""

    run_id: int
    task_id: int
    session: dict
    steps: int = 50


@message
class ComputeLandscape:
    """L over a plane through the run's current parameters (experiments.landscape): `elements`
    (i, j), two indices into the run's parameter layout, or None for two random
    filter-normalised directions (seeded by `seed`); `span` either side, `resolution` points a side."""

    run_id: int
    task_id: int
    session: dict
    elements: tuple[int, int] | None
    span: float
    resolution: int
    seed: int = 0


@message
class Cancel:
    """Cancel the task `task_id` (the engine polls between rows and steps)."""

    task_id: int


@message
class ComparePyTorch:
    """The session trained in PyTorch beside MindSpore from the same values (experiments.parity),
    for at most `max_steps` steps; where PyTorch is missing, TaskFailed says how to install it."""

    run_id: int
    task_id: int
    session: dict
    max_steps: int = 1000


# MindSpore's other transforms (experiments.transforms), at the run's current parameters (its
# initial ones when `current` is False or the run is not this session's). `sample`: how many
# elements, at random, where the transform is too large (None: refused with its size).
@message
class ComputeHessian:
    """∂²L/∂p_i² by grad of grad, and the Hessian of L over the Parameter `param` (None: the first)."""

    run_id: int
    task_id: int
    session: dict
    param: str | None = None
    element: int = 0  # the flat index of p_i
    sample: int | None = None
    current: bool = True


@message
class ComputeJacobian:
    """∂node/∂param by jacrev and jacfwd, with the chain rule (None: z, the first Parameter)."""

    run_id: int
    task_id: int
    session: dict
    node: str | None = None
    param: str | None = None
    sample: int | None = None
    current: bool = True


@message
class ComputeProducts:
    """vjp(node)(v) and jvp(node)(u) (None: ones), and grad as the VJP of L with a one."""

    run_id: int
    task_id: int
    session: dict
    node: str | None = None
    param: str | None = None
    v: tuple | None = None  # flat, or one number for every element
    u: tuple | None = None
    current: bool = True


@message
class SnapshotAt:
    """Send the node values and gradients at these parameters (a past step's, from the history)
    as a NodesAt reply for `step`; the training state is not changed."""

    step: int
    params: dict


@message
class ContinueFrom:
    """Rewind to the state before `step` (step - 1 updates kept, model.steps), set the learning
    rate to `lr`, and train on (or wait, with train False). Answered by Rewound."""

    step: int
    lr: float
    train: bool = True


@message
class PlaneAt:
    """The data view (model/plane.py): the network's outputs over the input plane `spec` (a
    model.plane.PlaneSpec) at these parameters (a past step's, from the history; None: the
    run's parameters now), answered by a Plane for `request`; the training state is not changed."""

    run_id: int
    request: int  # the window's count: which request the Plane answers
    spec: object  # model.plane.PlaneSpec
    params: dict | None = None
    step: int | None = None  # the past step whose parameters these are (None: now)


LIVE_OPTIONS = LIVE  # the names SetOption takes: the option table's live options


# -- replies: engine -> window -----------------------------------------------------------------
@message
class Devices:
    """The engine is up; each device's availability and, if unavailable, why."""

    devices: dict  # {name: (ok, why)}


@message
class Device:
    """The device this engine process is fixed to (None: not yet fixed)."""

    name: str | None


@message
class Heartbeat:
    """The engine process is alive (sent by a thread every HEARTBEAT_SECONDS, busy or not)."""


@message
class BuildInfo:
    """What a build made: the recorded rows' layouts (Layout.to_dict: what each Batch row
    holds), the program's source, the Inputs' and the Parameters' initial values, every node's
    shape, and each Parameter's nn.Cell attribute (api "cell")."""

    param_layout: dict
    grad_layout: dict
    aux_layout: dict
    program: str
    inputs: dict
    params: dict
    shapes: dict
    cell_attributes: dict
    test_images: dict | None = None  # over a Dataset node of images: datasets.test_images()
    plane: dict | None = None  # over a 2-D Dataset node: the data view's samples (plane.plane_info)


@message
class Built:
    run_id: int
    info: BuildInfo


class EngineState(StrEnum):
    """What the engine process does for a run (State)."""

    COMPILING = "compiling"  # Graph mode compiles before its first step (or batch)
    TRAINING = "training"
    PAUSED = "paused"  # waits for the next command


@message
class State:
    """The engine's phase for this run."""

    run_id: int
    state: EngineState


@message
class Batch:
    """Steps trained since the last batch: one row per step (StepResult.row layout)."""

    run_id: int
    steps: np.ndarray
    rows: np.ndarray
    step_ms: np.ndarray


@message
class Nodes:
    """Node values and dL/d(node) at the parameters after `updates` updates (model.steps); with
    several differentiated outputs, `parts` holds each one's own share: {Output name: {node: grad}}."""

    run_id: int
    updates: int
    values: dict
    grads: dict
    parts: dict = dataclasses.field(default_factory=dict)


@message
class Ended:
    """The run ended at `step` (the last step computed) for `reason` (model/ending.py)."""

    run_id: int
    reason: EndReason
    step: int


@message
class Error:
    """An exception in the engine: a one-line message, and the traceback for a details view
    (run_id None: not about a run, e.g. a reply the window could not read)."""

    run_id: int | None
    message: str
    detail: str = ""


@message
class Fatal:
    """The engine cannot work at all (MindSpore failed to load); it exits after this."""

    message: str
    detail: str = ""


@message
class Gone:
    """Made by the window's reader, not sent: the pipe closed, the engine process is gone."""


@message
class TaskProgress:
    run_id: int
    task_id: int
    fraction: float


@message
class TaskFailed:
    """A task could not be done: a one-line reason (e.g. "the graph has only one Output")."""

    run_id: int
    task_id: int
    message: str
    detail: str = ""


@message
class TaskCancelled:
    run_id: int
    task_id: int


@message
class VariantsResult:
    """variants: the lesson's own experiments.variants.Variant, one per variant; why: the sentence on
    why the second column differs."""

    run_id: int
    task_id: int
    variants: tuple  # of experiments.variants.Variant (not imported here: the lessons build Engines)
    why: str


@message
class GradCheckResult:
    """check: the lesson's own experiments.gradcheck.GradCheck; updates: after how many updates the
    parameters checked are (0: the initial ones)."""

    run_id: int
    task_id: int
    check: object  # experiments.gradcheck.GradCheck (not imported here: the lessons build Engines)
    updates: int


@message
class ModeCostResult:
    run_id: int
    task_id: int
    cost: object  # experiments.modecost.ModeCost


@message
class LandscapeResult:
    """L (rows: betas, columns: alphas) on the plane center + alpha * u + beta * v, flat in
    `layout` (the run's parameter layout); `updates`: the run's updates at the center."""

    run_id: int
    task_id: int
    layout: dict
    center: np.ndarray
    u: np.ndarray
    v: np.ndarray
    labels: tuple
    alphas: np.ndarray
    betas: np.ndarray
    loss: np.ndarray
    updates: int


@message
class NodesAt:
    """Node values and dL/d(node) at the parameters the history holds for `step` (SnapshotAt);
    `parts` as in Nodes."""

    run_id: int
    step: int
    values: dict
    grads: dict
    parts: dict = dataclasses.field(default_factory=dict)


@message
class Evals:
    """Over a Dataset node: the run's evaluations, one per epoch ended, as the first `kept` of
    those sent before (since the build) followed by these, as engine.Eval.to_dict() gives them
    (a rewind keeps the ones before it); with class scores, the test set's predictions of each
    (engine.Eval.predictions(): step, predicted, confidence). Only what is new crosses: a run's
    evaluations and predictions, sent whole after every epoch, would cost the engine more than
    its steps."""

    run_id: int
    evals: tuple
    predictions: tuple = ()
    kept: int = 0


@message
class Rewound:
    """The engine went back to the state before `step`: the history keeps the steps before it."""

    run_id: int
    step: int


@message
class Plane:
    """The answer to PlaneAt `request`: `probs` float32 (resolution, resolution, classes) and
    `hidden` {node: float32 (coarse, coarse, units)} (model.plane.PlaneOutputs) at the
    parameters after `updates` updates (a past `step`'s: step - 1)."""

    run_id: int
    request: int
    spec: object
    updates: int
    probs: np.ndarray | None  # None: it could not be computed (`problem` says why)
    hidden: dict
    step: int | None = None
    problem: str = ""


@message
class ParityResult:
    """result: the lesson's own experiments.parity.Parity: per step the largest loss, gradient and
    parameter differences, how each framework ended, and the tolerance."""

    run_id: int
    task_id: int
    result: object  # experiments.parity.Parity (not imported here: the lessons build Engines)


@message
class HessianResult:
    """result: experiments.transforms.HigherOrder; updates as in GradCheckResult."""

    run_id: int
    task_id: int
    result: object
    updates: int


@message
class JacobianResult:
    """result: experiments.transforms.Jacobian."""

    run_id: int
    task_id: int
    result: object
    updates: int


@message
class ProductsResult:
    """result: experiments.transforms.Products."""

    run_id: int
    task_id: int
    result: object
    updates: int


@dataclasses.dataclass(frozen=True)
class Task:
    """One lesson as an engine task: the command that asks for it, the reply that answers it,
    and its name, which is that of its handler in TASK_HANDLERS and of its view in the
    Experiments panel (ui/experiments_panel.py: VIEWS)."""

    name: str
    command: type
    result: type


TASKS = (
    Task("variants", ComputeVariants, VariantsResult),
    Task("gradcheck", CheckGradients, GradCheckResult),
    Task("modecost", MeasureModeCost, ModeCostResult),
    Task("landscape", ComputeLandscape, LandscapeResult),
    Task("parity", ComparePyTorch, ParityResult),
    Task("hessian", ComputeHessian, HessianResult),
    Task("jacobian", ComputeJacobian, JacobianResult),
    Task("vjp", ComputeProducts, ProductsResult),
)
TASK_NAMED = {t.name: t for t in TASKS}
# the module whose HANDLERS answer the tasks, loaded by name in the engine process: the experiments
# build Engines, so the engine never imports them (no circle)
TASK_HANDLERS = "gradviz.experiments.tasks"
TASK_REPLIES = (TaskProgress, TaskFailed, TaskCancelled)  # what any task may answer besides its result

COMMANDS = (
    Build,
    Start,
    Pause,
    Step,
    SetOption,
    SetHistoryBudget,
    GetNodes,
    Quit,
    Fault,
    Cancel,
    SnapshotAt,
    ContinueFrom,
    PlaneAt,
    *(t.command for t in TASKS),
)
REPLIES = (
    Devices,
    Device,
    Heartbeat,
    Built,
    State,
    Batch,
    Nodes,
    Ended,
    Error,
    Fatal,
    Gone,
    NodesAt,
    Rewound,
    Evals,
    Plane,
    *TASK_REPLIES,
    *(t.result for t in TASKS),
)
HEARTBEAT_SECONDS = 0.25

"""The guided lesson as data: MindSpore's functional-autodiff tutorial, step by step, then the
comparison with PyTorch. Qt-free, so the plan, the set-ups and the numbers are tested without
a window; the Lesson panel (ui/lesson_panel.py) only shows them and applies the set-ups.

Each step names a preset and the options that put the app where the tutorial is; the code the
tutorial shows (verbatim from the tutorial; lines the lesson leaves out are prints and comments)
or code derived from the session by scripts.py; and two or three sentences saying what to look
at. Those sentences quote numbers only through placeholders, filled from what the running app
computed (`figures`), never written here. Texts are marked for Qt's translation tools
(context "Lesson") and translated by the panel."""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache

import numpy as np

from ..i18n import QT_TRANSLATE_NOOP
from .scripts import mindspore_script
from .formatting import fmt_number
from .graph import Graph
from .presets import load_preset
from .session import Options, Session

CONTEXT = "Lesson"
# what a step sets: every option but the device (the machine's) and the speed (the teacher's)
CONTROLLED = tuple(f.name for f in fields(Options) if f.name not in ("device", "speed"))


@dataclass(frozen=True)
class Code:
    """A piece of code the step shows: the tutorial's own text, or one derived from the session
    (`derived`: a key of DERIVED)."""

    title: str
    text: str = ""
    derived: str = ""


@dataclass(frozen=True)
class Para:
    """A paragraph. `{name}` placeholders are figures (Step.figures); until every one of them is
    known, `waiting` is shown instead (or the paragraph with "…" in their place)."""

    text: str
    waiting: str = ""


@dataclass(frozen=True)
class Step:
    id: str
    title: str
    preset: str
    options: dict  # overrides of the preset's options; the rest of CONTROLLED is the preset's
    code: tuple[Code, ...]
    paras: tuple[Para, ...]
    figures: dict  # placeholder -> where its number comes from (see figures())
    links: tuple[str, ...] = ()  # other parts of the app the step points to: "variants", "parity", "program"
    controls: tuple[str, ...] = ()  # the objectNames of the window's controls its text names: kept in view
    speed: float = 0.0  # steps a second for a step that asks to watch training (0: the speed is left as it is)


# -- the tutorial's code, verbatim -------------------------------------------------------------------
FUNCTION = """\
x = ops.ones(5, mindspore.float32)  # input tensor
y = ops.zeros(3, mindspore.float32)  # expected output
w = Parameter(Tensor(np.random.randn(5, 3), mindspore.float32), name='w') # weight
b = Parameter(Tensor(np.random.randn(3,), mindspore.float32), name='b') # bias

def function(x, y, w, b):
    z = ops.matmul(x, w) + b
    loss = ops.binary_cross_entropy_with_logits(z, y, ops.ones_like(z), ops.ones_like(z))
    return loss

loss = function(x, y, w, b)
print(loss)
"""

GRAD = """\
grad_fn = mindspore.grad(function, (2, 3))
grads = grad_fn(x, y, w, b)
print(grads)
"""

WITH_LOGITS = """\
def function_with_logits(x, y, w, b):
    z = ops.matmul(x, w) + b
    loss = ops.binary_cross_entropy_with_logits(z, y, ops.ones_like(z), ops.ones_like(z))
    return loss, z

grad_fn = mindspore.grad(function_with_logits, (2, 3))
grads = grad_fn(x, y, w, b)
print(grads)
"""

STOP_GRADIENT = """\
def function_stop_gradient(x, y, w, b):
    z = ops.matmul(x, w) + b
    loss = ops.binary_cross_entropy_with_logits(z, y, ops.ones_like(z), ops.ones_like(z))
    return loss, ops.stop_gradient(z)

grad_fn = mindspore.grad(function_stop_gradient, (2, 3))
grads = grad_fn(x, y, w, b)
print(grads)
"""

HAS_AUX = """\
grad_fn = mindspore.grad(function_with_logits, (2, 3), has_aux=True)
grads, (z,) = grad_fn(x, y, w, b)
print(grads, z)
"""

CELL = """\
# Define model
class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = w
        self.b = b

    def construct(self, x):
        z = ops.matmul(x, self.w) + self.b
        return z

# Instantiate model
model = Network()
# Instantiate loss function
loss_fn = nn.BCEWithLogitsLoss()

# Define forward function
def forward_fn(x, y):
    z = model(x)
    loss = loss_fn(z, y)
    return loss

grad_fn = mindspore.value_and_grad(forward_fn, None, weights=model.trainable_params())
loss, grads = grad_fn(x, y)
print(grads)
"""

# the comparison of PyTorch and MindSpore (the project's seed 000; its prints and Chinese comments left out)
SEED_PYTORCH = """\
loss_fn = nn.MSELoss()
optimizer = optim.SGD(model.parameters(), lr=0.01)
for i in range(1000):
    outputs = model(inputs)
    loss = loss_fn(outputs, targets)
    if loss.detach().numpy() <0.001:
        break
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
"""

SEED_MINDSPORE = """\
optimizer = nn.SGD(model.trainable_params(), learning_rate=0.01)
loss_fn = nn.MSELoss()
def forward_fn(inputs, target):
    result = model(inputs)
    loss = loss_fn(result, target)
    return loss
grad_fn = ms.value_and_grad(forward_fn, None, weights=model.trainable_params())
model.set_train()
for i in range(1000):
    outputs = model(inputs)
    loss, grads = grad_fn(inputs, targets)
    if loss.numpy() <0.001:
        break
    optimizer(grads)
"""

TUTORIAL = QT_TRANSLATE_NOOP("Lesson", "The tutorial's code")
WATCH_SPEED = 20.0  # steps a second: a class can follow the loss (flat out, 1,000 steps took 2 s)
OFF = {"aux_output": False, "stop_gradient": False, "has_aux": False, "mode": "pynative"}

PLAN: tuple[Step, ...] = (
    Step(
        "function",
        QT_TRANSLATE_NOOP("Lesson", "The function and its loss"),
        "tutorial",
        {**OFF, "api": "grad"},
        (Code(TUTORIAL, FUNCTION),),
        (
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "The graph is the tutorial's function: z = matmul(x, w) + b, and "
                    "binary_cross_entropy_with_logits(z, y) gives the loss. x is the input (five ones), y the "
                    "correct value (three zeros), and w and b, drawn with np.random.randn, are the parameters "
                    "to optimise.",
                )
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "Look at the loss node: loss = {loss}, the number print(loss) shows. Hover a node to see "
                    "every value.",
                )
            ),
        ),
        {"loss": ("value", "loss")},
    ),
    Step(
        "grad",
        QT_TRANSLATE_NOOP("Lesson", "grad with grad_position=(2, 3)"),
        "tutorial",
        {**OFF, "api": "grad"},
        (Code(TUTORIAL, GRAD),),
        (
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "mindspore.grad(function, (2, 3)) is a function transformation: it returns a new function "
                    "that computes the derivatives of the loss with respect to the inputs at positions 2 and 3 "
                    "of function(x, y, w, b), that is w and b.",
                )
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "The orange numbers are these gradients. On the b node, ∂loss/∂b = {db}; each row of "
                    "∂loss/∂w is the same, because x is all ones. The call above the graph is the call "
                    "GradViz runs.",
                )
            ),
        ),
        {"db": ("grad", "b")},
    ),
    Step(
        "return_z",
        QT_TRANSLATE_NOOP("Lesson", "Returning z: why the gradients change"),
        "tutorial",
        {**OFF, "api": "grad", "aux_output": True},
        (Code(TUTORIAL, WITH_LOGITS),),
        (
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "function_with_logits returns loss, z. When a function has several outputs, grad "
                    "differentiates all of them, as if their sum: L = loss + sum(z).",
                )
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "So on the b node ∂L/∂b = {db}: {db_loss} from the loss plus {db_z} from z, because "
                    "∂sum(z)/∂b = 1. The gradient of w grows by x = 1 in every element too. The Four variants "
                    "tab shows the four ways of returning z side by side.",
                )
            ),
        ),
        {"db": ("grad", "b"), "db_loss": ("part", "out_loss", "b"), "db_z": ("part", "out_z", "b")},
        ("variants",),
        controls=("auxOutputCheck",),
    ),
    Step(
        "stop_gradient",
        QT_TRANSLATE_NOOP("Lesson", "Stop Gradient: ops.stop_gradient"),
        "tutorial",
        {**OFF, "api": "grad", "aux_output": True, "stop_gradient": True},
        (Code(TUTORIAL, STOP_GRADIENT),),
        (
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "function_stop_gradient returns loss, ops.stop_gradient(z): z is still returned, but the "
                    "gradient is cut there, so only the loss is differentiated.",
                )
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "∂L/∂b = {db} is back to the value of step 2, the gradient of the loss alone, and the z "
                    "output node says it returns ops.stop_gradient(z).",
                )
            ),
        ),
        {"db": ("grad", "b")},
        ("variants",),
        controls=("stopGradientCheck",),
    ),
    Step(
        "has_aux",
        QT_TRANSLATE_NOOP("Lesson", "Auxiliary data: has_aux=True"),
        "tutorial",
        {**OFF, "api": "grad", "aux_output": True, "has_aux": True},
        (Code(TUTORIAL, HAS_AUX),),
        (
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "Auxiliary data are the outputs after the first. With has_aux=True grad differentiates the "
                    "first output only and returns the others as they are: the stop_gradient of step 4, done "
                    "for you.",
                )
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "The call above the graph says what grad_fn now returns: the gradients and (z,). "
                    "∂L/∂b = {db} as in step 2, and z = {z} is returned with it.",
                )
            ),
        ),
        {"db": ("grad", "b"), "z": ("value", "z")},
        ("variants",),
        controls=("hasAuxCheck",),
    ),
    Step(
        "cell",
        QT_TRANSLATE_NOOP("Lesson", "nn.Cell and value_and_grad(..., weights=...)"),
        "tutorial",
        {**OFF, "api": "cell"},
        (Code(TUTORIAL, CELL),),
        (
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "The same model as an nn.Cell: w and b are the network's attributes, not inputs of the "
                    "function, so grad_position is None and weights=...trainable_params() says what to "
                    "differentiate.",
                )
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "value_and_grad returns the loss, {loss}, together with the gradients: ∂loss/∂b = {db}, "
                    "the same as with function in step 2. GradViz's Network calls the tutorial's function, "
                    "loss included; the tutorial's forward_fn applies nn.BCEWithLogitsLoss to z instead, "
                    "with the same result.",
                )
            ),
        ),
        {"loss": ("value", "loss"), "db": ("grad", "b")},
        ("program",),
        controls=("apiCombo",),
    ),
    Step(
        "train",
        QT_TRANSLATE_NOOP("Lesson", "Training"),
        "tutorial",
        {**OFF, "api": "cell"},
        (
            Code(
                QT_TRANSLATE_NOOP("Lesson", "The exported MindSpore program (File > Export), from the optimizer on"),
                derived="mindspore_training",
            ),
        ),
        (
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "Training repeats one step: compute the loss and the gradients, then optimizer(grads) moves "
                    "every parameter against its gradient (SGD, learning rate {lr}).",
                )
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "Step 1 had loss {first_loss}; step {last_step} has loss {last_loss}. Pause, then drag the "
                    "History slider above the plots to see the graph at any earlier step.",
                ),
                QT_TRANSLATE_NOOP("Lesson", "Press Start (or Step) and watch the loss plot fall."),
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "This loss cannot blow up: its gradients stay small, so even learning rate 100 only drives it "
                    "towards 0. To watch a run diverge, go to the next step (the linreg_seed preset) and set the "
                    "learning rate to 0.5.",
                )
            ),
        ),
        {
            "lr": ("option", "lr"),
            "first_loss": ("history", "first_loss"),
            "last_step": ("history", "last_step"),
            "last_loss": ("history", "last_loss"),
        },
        controls=("lrSpin", "startButton", "stepButton"),
        speed=WATCH_SPEED,
    ),
    Step(
        "pytorch",
        QT_TRANSLATE_NOOP("Lesson", "The same training in PyTorch"),
        "linreg_seed",
        {**OFF, "api": "cell"},
        (
            Code(
                QT_TRANSLATE_NOOP("Lesson", "PyTorch, from the comparison (prints and comments left out)"), SEED_PYTORCH
            ),
            Code(
                QT_TRANSLATE_NOOP("Lesson", "MindSpore, from the comparison (prints and comments left out)"),
                SEED_MINDSPORE,
            ),
        ),
        (
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "The comparison, a MindSpore tech blog, trains weight·x + bias with nn.MSELoss and SGD "
                    "(learning rate {lr}) in both frameworks: PyTorch's loss.backward() and optimizer.step() "
                    "are value_and_grad and optimizer(grads) in MindSpore.",
                )
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "GradViz starts from the comparison's MindSpore values, and its step k is the comparison's "
                    "loop:k-1: step 1 has loss {first_loss}; step {last_step} (loop:{last_loop}) has loss "
                    "{last_loss}.",
                ),
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "Press Start. GradViz starts from the comparison's MindSpore values, and its step k is the "
                    "comparison's loop:k-1.",
                ),
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "Once the loss is below {until_loss}, the run stops before that step's update, like the "
                    "comparison's break. The PyTorch parity tab runs the same training in PyTorch and plots the "
                    "differences.",
                )
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "To see a run diverge, set the learning rate to 0.5 and press Start: the loss overflows within "
                    "60 steps, and the divergence coach above the plots says why and goes back with a smaller rate.",
                )
            ),
        ),
        {
            "lr": ("option", "lr"),
            "until_loss": ("option", "until_loss"),
            "first_loss": ("history", "first_loss"),
            "last_step": ("history", "last_step"),
            "last_loop": ("history", "last_loop"),
            "last_loss": ("history", "last_loss"),
        },
        ("parity",),
        controls=("lrSpin", "untilLossSpin", "startButton"),
        speed=WATCH_SPEED,
    ),
)

IDS = tuple(s.id for s in PLAN)


def index_of(step_id: str) -> int | None:
    """The position of a step, by id (what the app remembers); None for an unknown id."""
    return IDS.index(step_id) if step_id in IDS else None


# -- set-ups ------------------------------------------------------------------------------------------
def setup_session(step: Step) -> Session:
    """The session the step puts the app in: its preset with its options."""
    s = load_preset(step.preset)
    for k, v in step.options.items():
        setattr(s.options, k, v)
    return s


@cache
def _setup(step_id: str) -> tuple[str, tuple]:
    """A step's graph structure and options, worked out once (the window asks at every edit)."""
    s = setup_session(PLAN[IDS.index(step_id)])
    return _structure(s.graph), tuple((k, getattr(s.options, k)) for k in CONTROLLED)


def setup_options(step: Step) -> dict:
    """Every option the step sets (CONTROLLED), with its value."""
    return dict(_setup(step.id)[1])


def _structure(graph: Graph) -> list[dict]:
    """The graph without node positions (moving a node changes no step), compared with ==
    (as text, a session with a million values was written out on every edit)."""
    return [{k: v for k, v in n.items() if k != "pos"} for n in graph.to_dict()["nodes"]]


def same_graph(step: Step, session: Session) -> bool:
    return _structure(session.graph) == _setup(step.id)[0]


def matches(step: Step, session: Session) -> bool:
    """Whether the session is set up as the step says (node positions, device and speed aside)."""
    want = setup_options(step)
    return same_graph(step, session) and all(getattr(session.options, k) == v for k, v in want.items())


def derived_code(key: str, session: Session) -> str:
    """Code derived from the session, so it is exactly what the app exports (scripts.py)."""
    if key == "mindspore_training":
        lines = mindspore_script(session).splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("optimizer = "))
        return "\n".join(lines[start:]) + "\n"
    raise KeyError(f"no derived code {key!r}")


def code(step: Step, session: Session) -> list[tuple[str, str]]:
    """(title, code) of each piece the step shows; derived pieces from `session`."""
    return [(c.title, c.text or derived_code(c.derived, session)) for c in step.code]


# -- the numbers the texts point to --------------------------------------------------------------------
@dataclass(frozen=True)
class Observed:
    """What the running app shows: the node values and gradients at the current parameters (None
    until computed) with each differentiated output's share, the history's losses, the options."""

    values: dict | None
    grads: dict | None
    parts: dict
    steps: np.ndarray  # the history's step numbers
    loss: np.ndarray  # the history's losses
    options: Options


def figure_value(source: tuple, seen: Observed):
    """The number a placeholder stands for, or None while it is not known."""
    kind = source[0]
    if kind in ("value", "grad"):
        table = seen.values if kind == "value" else seen.grads
        return None if table is None or source[1] not in table else np.asarray(table[source[1]], np.float64)
    if kind == "part":
        share = seen.parts.get(source[1], {})
        return None if source[2] not in share else np.asarray(share[source[2]], np.float64)
    if kind == "option":
        return getattr(seen.options, source[1])
    if kind == "history":
        if not len(seen.steps):
            return None
        return {
            "first_loss": float(seen.loss[0]),
            "last_loss": float(seen.loss[-1]),
            "last_step": int(seen.steps[-1]),
            "last_loop": int(seen.steps[-1]) - 1,
        }[source[1]]
    raise KeyError(f"unknown figure source {source!r}")


def fmt_figure(v) -> str:
    """A number as the lesson quotes it: a count as is, an option as typed, a tensor element by
    element with 3 decimals (the +1 of step 3 reads at once), a loss with 4 significant digits."""
    if isinstance(v, (int, np.integer)):
        return f"{int(v):,}" if v >= 0 else str(int(v))
    if isinstance(v, float):
        return fmt_number(v)
    a = np.asarray(v, np.float64)
    if a.ndim == 0:
        return fmt_number(float(a))
    return "[" + ", ".join(f"{x:.3f}" if 1e-3 <= abs(x) < 1e4 or x == 0 else fmt_number(x) for x in a.ravel()) + "]"


def figures(step: Step, seen: Observed) -> dict[str, tuple[object, str] | None]:
    """Each placeholder of the step: (the number, as quoted), or None while it is not known."""
    out: dict[str, tuple[object, str] | None] = {}
    for name, source in step.figures.items():
        v = figure_value(source, seen)
        if v is None:  # not computed yet, or an option that is off
            out[name] = None
        else:
            out[name] = (v, f"{v:g}" if source[0] == "option" else fmt_figure(v))
    return out

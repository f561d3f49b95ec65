"""The guided lessons as data: MindSpore's functional-autodiff tutorial, step by step, then the
comparison with PyTorch (PLAN); and one lesson for each data-set preset, moons and digits
(LESSONS), which the window shows for their sessions. Qt-free, so the plan, the set-ups and the numbers are tested without
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
    links: tuple[str, ...] = ()  # other parts of the app the step points to (LINKS)
    controls: tuple[str, ...] = ()  # the objectNames of the window's controls its text names: kept in view
    speed: float = 0.0  # steps a second for a step that asks to watch training (0: the speed is left as it is)


# the parts of the window a step can point to: two Experiments tabs, the program, the data
# view of a 2-D data set, the Test images of an image data set
LINKS = ("variants", "parity", "program", "data", "images")


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

# -- the data-set presets' lessons ----------------------------------------------------------------------
EXPORTED_DATA = QT_TRANSLATE_NOOP("Lesson", "The exported MindSpore program (File > Export): the data set")
EXPORTED_FUNCTION = QT_TRANSLATE_NOOP("Lesson", "The exported MindSpore program: the network and its loss")
DATA_FIGURES = {
    "samples": ("data", "samples"),
    "train": ("data", "train_samples"),
    "test": ("data", "test_samples"),
    "batch": ("data", "batch_size"),
    "spe": ("data", "steps_per_epoch"),
}
EVAL_FIGURES = {
    "epoch": ("eval", "epoch"),
    "train_acc": ("eval", "train_accuracy"),
    "test_acc": ("eval", "accuracy"),
    "test_loss": ("eval", "test_loss"),
    "spe": ("data", "steps_per_epoch"),
}

MOONS: tuple[Step, ...] = (
    Step(
        "moons_data",
        QT_TRANSLATE_NOOP("Lesson", "Two moons: the data"),
        "moons",
        {},
        (Code(EXPORTED_DATA, derived="mindspore_data"),),
        (
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "The Dataset node draws {samples} points with scikit-learn's make_moons: two interleaving half "
                    "circles with noise, one class each. {test} of them are kept apart as the test set; the "
                    "network trains on the other {train}.",
                )
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "Each step trains on one mini-batch of {batch} points: the x node holds their two coordinates, "
                    "the y node their classes as one-hot rows. {spe} steps make an epoch, one pass over the "
                    "training set, in a new order each epoch.",
                )
            ),
        ),
        DATA_FIGURES,
    ),
    Step(
        "moons_hidden",
        QT_TRANSLATE_NOOP("Lesson", "Why a hidden layer is needed"),
        "moons",
        {},
        (Code(EXPORTED_FUNCTION, derived="mindspore_function"),),
        (
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "Without hidden layers the network would be one Dense layer from the point to the two class "
                    "scores. Each score is then a linear function of the point, so the points where the two are "
                    "equal, the decision boundary, form a straight line, and no straight line separates the two "
                    "moons.",
                )
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "Here fc1 (Dense 2 → 8) and fc2 (Dense 8 → 8), each followed by tanh, come first. The last "
                    "layer, logits, still draws a straight boundary, but in the space of the eight values of h2; "
                    "because tanh bends, that boundary is a curve in the plane of the points.",
                )
            ),
        ),
        {},
    ),
    Step(
        "moons_units",
        QT_TRANSLATE_NOOP("Lesson", "What each hidden unit computes"),
        "moons",
        {},
        (Code(EXPORTED_FUNCTION, derived="mindspore_function"),),
        (
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "Each of fc1's eight units computes w·x + b from a point's two coordinates, with its own row "
                    "of fc1's weight (8, 2), and h1 applies tanh: the unit is near −1 on one side of a straight "
                    "line across the plane, near +1 on the other, and changes smoothly in between.",
                )
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "Hover h1 to see its values for the batch: a row per point, a column per unit, each between −1 "
                    "and 1. Each unit of h2 mixes all eight units of h1, so it responds to a curved region of the "
                    "plane rather than to one side of a line.",
                )
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "Under h1 and h2 each unit has a small map of the input plane, coloured by its value at every "
                    "point (blue −1, red +1): h1's maps are split by straight lines, h2's by curves. Hover a map "
                    "to enlarge it. The Data tab shows the points over what the whole network predicts there.",
                )
            ),
        ),
        {},
        ("data",),
    ),
    Step(
        "moons_train",
        QT_TRANSLATE_NOOP("Lesson", "Training: the loss and accuracy curves"),
        "moons",
        {},
        (Code(EXPORTED_FUNCTION, derived="mindspore_function"),),
        (
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "Press Start. The loss plot shows each step's loss on its mini-batch: it jumps from batch to "
                    "batch as it falls. After each epoch the network is evaluated on the whole training set and on "
                    "the test set: the accuracy plot shows the share of points each gets right, and the loss plot "
                    "gains the test loss.",
                )
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "After epoch {epoch}: training accuracy {train_acc}, test accuracy {test_acc}, test loss "
                    "{test_loss}.",
                ),
                QT_TRANSLATE_NOOP("Lesson", "The first evaluation comes after epoch 1, at step {spe}."),
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "The network never trains on the test points: a test accuracy close to the training accuracy "
                    "says it has learned the shape of the moons, not the training points by heart.",
                )
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "In the Data tab the boundary between the two colours starts as a line and bends around the "
                    "moons as training goes on; drag the History slider back to watch it unbend.",
                )
            ),
        ),
        EVAL_FIGURES,
        ("data",),
        controls=("startButton",),
        speed=WATCH_SPEED,
    ),
)

DIGITS: tuple[Step, ...] = (
    Step(
        "digits_data",
        QT_TRANSLATE_NOOP("Lesson", "The digits and the course's Network"),
        "digits",
        {},
        (Code(EXPORTED_FUNCTION, derived="mindspore_function"),),
        (
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "The Dataset node holds scikit-learn's {samples} handwritten digits: 8x8 pixel images scaled to "
                    "[0, 1], each with its class from 0 to 9. {test} are kept for the test set; the network trains "
                    "on the other {train}.",
                )
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "The graph is the course's Network sized for 8x8 images: the x node holds each image as a row "
                    "of its 64 pixels and Flatten keeps it so (the course's 28x28 images become rows of 784), then "
                    "Dense(64, 64), ReLU, Dense(64, 64), ReLU and Dense(64, 10) give ten scores, one per class. The "
                    "loss is their cross-entropy with the true class, as nn.CrossEntropyLoss computes it.",
                )
            ),
        ),
        DATA_FIGURES,
    ),
    Step(
        "digits_train_loop",
        QT_TRANSLATE_NOOP("Lesson", "train_loop: mini-batches and epochs"),
        "digits",
        {},
        (
            Code(
                QT_TRANSLATE_NOOP("Lesson", "The exported MindSpore program: train_loop"),
                derived="mindspore_train_loop",
            ),
        ),
        (
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "The course's train_loop goes over the training set in mini-batches: each step computes the "
                    "loss of one batch of {batch} images and its gradients, then optimizer(grads) updates every "
                    "weight and bias (SGD, learning rate {lr}).",
                )
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "One epoch is one pass over the {train} training images: {spe} steps, the last batch shorter "
                    "when the images do not divide into whole batches. Each epoch visits them in a new order drawn "
                    "from the Dataset node's seed.",
                )
            ),
        ),
        {**DATA_FIGURES, "lr": ("option", "lr")},
        controls=("lrSpin",),
    ),
    Step(
        "digits_test_loop",
        QT_TRANSLATE_NOOP("Lesson", "test_loop: accuracy and test loss"),
        "digits",
        {},
        (
            Code(
                QT_TRANSLATE_NOOP("Lesson", "The exported MindSpore program: test_loop"), derived="mindspore_test_loop"
            ),
        ),
        (
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "After each epoch, test_loop runs the network on the {test} test images, which it never trains "
                    "on. Its prediction for an image is the class with the largest score: the accuracy is the share "
                    "of test images predicted right, and the test loss (Avg loss) is the cross-entropy averaged "
                    "over them.",
                )
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "After epoch {epoch}: test accuracy {test_acc}, test loss {test_loss}; on the training images "
                    "the accuracy is {train_acc}.",
                ),
                QT_TRANSLATE_NOOP("Lesson", "Press Start: the first test comes after epoch 1, at step {spe}."),
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "A low training loss alone can mean the network has learned its training images by heart; the "
                    "test accuracy says how well it does on digits it has not seen.",
                )
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "The Test images tab shows each test image with the class predicted for it (a wrong one framed "
                    "in red, with its true class), and the confusion matrix: a row per true class, a column per "
                    "predicted class, so every count off the diagonal is a mistake, such as an 8 read as a 1.",
                )
            ),
        ),
        {**EVAL_FIGURES, "test": ("data", "test_samples")},
        ("images",),
        controls=("startButton",),
        speed=WATCH_SPEED,
    ),
    Step(
        "digits_train",
        QT_TRANSLATE_NOOP("Lesson", "Watching the network learn"),
        "digits",
        {},
        (
            Code(
                QT_TRANSLATE_NOOP("Lesson", "The exported MindSpore program: train_loop"),
                derived="mindspore_train_loop",
            ),
        ),
        (
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "The run trains {steps} steps, that is {epochs} epochs. The loss plot falls step by step, and "
                    "the accuracy plot gains a point after each epoch, for the training and the test images.",
                )
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "Step {last_step} has loss {last_loss}. Pause and drag the History slider: the nodes, the "
                    "plots and the evaluations go back to that step.",
                ),
                QT_TRANSLATE_NOOP("Lesson", "Press Start (or Step) and watch the loss plot fall."),
            ),
            Para(
                QT_TRANSLATE_NOOP(
                    "Lesson",
                    "File > Export writes this session as a MindSpore program whose train_loop and test_loop print "
                    "the course's lines: the loss of each step, then Accuracy and Avg loss after each epoch.",
                )
            ),
        ),
        {
            "steps": ("option", "steps"),
            "epochs": ("data", "epochs"),
            "last_step": ("history", "last_step"),
            "last_loss": ("history", "last_loss"),
        },
        controls=("startButton", "stepButton"),
        speed=WATCH_SPEED,
    ),
)

# each lesson by its key: the tutorial's, and each data-set preset's (its preset's name)
LESSONS: dict[str, tuple[Step, ...]] = {"tutorial": PLAN, "moons": MOONS, "digits": DIGITS}
STEPS = {s.id: s for lesson in LESSONS.values() for s in lesson}

IDS = tuple(s.id for s in PLAN)


def index_of(step_id: str) -> int | None:
    """The position of a step in its lesson, by id (what the app remembers); None for an unknown id."""
    lesson = lesson_of_step(step_id)
    return None if lesson is None else [s.id for s in LESSONS[lesson]].index(step_id)


def lesson_of_step(step_id: str) -> str | None:
    """The key of the lesson a step belongs to, or None for an unknown id."""
    return next((k for k, steps in LESSONS.items() if any(s.id == step_id for s in steps)), None)


def lesson_for(session: Session) -> str | None:
    """The lesson of a session: the one with a step of its graph, else the one named after it
    (a preset with a lesson); None for a session of one's own."""
    mine = _structure(session.graph)  # once: a graph's structure is long to write out
    for key, steps in LESSONS.items():
        if any(mine == _setup(s.id)[0] for s in steps):
            return key
    return session.name if session.name in LESSONS else None


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
    s = setup_session(STEPS[step_id])
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


# derived code: the exported program's lines from the first starting with the first prefix up to
# the first after it starting with the second ("" for the end)
DERIVED = {
    "mindspore_training": ("optimizer = ", ""),
    "mindspore_data": ("# the data set", "np.random.seed("),
    "mindspore_function": ("def function(", "optimizer = "),
    "mindspore_test_loop": ("def test_loop(", "def train_loop("),
    "mindspore_train_loop": ("def train_loop(", ""),
}


def derived_code(key: str, session: Session) -> str:
    """Code derived from the session, so it is exactly what the app exports (scripts.py); none
    while the session has problems (they are listed under Problems)."""
    if key not in DERIVED:
        raise KeyError(f"no derived code {key!r}")
    if session.problems():
        return ""
    first, last = DERIVED[key]
    lines = mindspore_script(session).splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(first)), len(lines))
    end = next((i for i in range(start + 1, len(lines)) if last and lines[i].startswith(last)), len(lines))
    return "\n".join(lines[start:end]).strip("\n") + "\n"


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
    evals: tuple = ()  # over a Dataset node: the evaluation after each epoch so far (engine Eval.to_dict())
    data: dict | None = None  # over a Dataset node: its description (datasets.DataSpec.describe())


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
    if kind == "data":
        d = seen.data
        if d is None:
            return None
        if source[1] == "samples":
            return d["train_samples"] + d["test_samples"]
        if source[1] == "epochs":
            return -(-seen.options.steps // d["steps_per_epoch"])
        return d[source[1]]
    if kind == "eval":
        return seen.evals[-1][source[1]] if seen.evals else None
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
            if source[0] == "eval" and "accuracy" in source[1]:
                out[name] = (v, f"{100 * v:.1f}%")
    return out

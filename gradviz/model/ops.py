"""The one table of op kinds: every kind's ports, shape rule, code and float64 math, defined once.

The graph model, the code generators (MindSpore now, PyTorch for export), the numpy reference used
by the tests and the gradient check, and the editor's palette all read this table. Adding a kind
means one `OpKind` entry plus its tests; an entry with a missing piece fails at import
(`_check_table`), not later inside `Graph.validate()`.

Qt-free and MindSpore-free: expressions are code templates, the math is numpy in float64.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..i18n import Msg

Shape = tuple[int, ...]
ShapeRule = Callable[[list[tuple[str, Shape]]], tuple["Shape | None", "str | None"]]
Forward = Callable[..., np.ndarray]
Backward = Callable[..., tuple[np.ndarray, ...]]  # (g, *inputs, out) -> one gradient per port

MAX_PATH = 4096  # characters of a path attribute (a Dataset's CSV file or MNIST folder)
ROLES = ("source", "op", "loss", "output", "data")  # data: a Dataset node (no tensor of its own)
LANGUAGES = ("mindspore", "pytorch")  # the code generators, by the OpKind field of their template


@dataclass(frozen=True)
class Attr:
    """A number a node of its kind carries (a LeakyReLU's slope): saved in sessions as
    "attrs": {name: value}, edited in the Node tab, passed to the templates by keyword and to the
    float64 math as a keyword argument."""

    name: str
    default: float
    low: float  # the allowed range, both ends included
    high: float
    mindspore: str  # the keyword of the MindSpore call
    pytorch: str  # the keyword of the PyTorch call
    description: str  # one line: the Node tab's tooltip
    type: type = float  # float, int, or str (one of `choices`; any text without choices: a path)
    choices: tuple[str, ...] = ()  # a str attribute's allowed values (an initializer's name)

    def problem(self, value) -> Msg | None:
        """Why `value` cannot be this attribute, or None."""
        if self.type is str and not self.choices:  # free text: a file or folder's path
            if isinstance(value, str) and len(value) <= MAX_PATH and "\0" not in value:
                return None
            return Msg("Ops", "{attr} must be a path of at most {n} characters, not {value}").format(
                attr=self.name, n=MAX_PATH, value=repr(value)[:40]
            )
        if self.type is str:
            if value in self.choices:
                return None
            return Msg("Ops", "{attr} must be one of {choices}, not {value}").format(
                attr=self.name, choices=", ".join(self.choices), value=repr(value)[:40]
            )
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if self.type is int:
            number = number and float(value).is_integer()
        if not number or not self.low <= value <= self.high:  # NaN fails the range
            return Msg("Ops", "{attr} must be a number from {low:g} to {high:g}, not {value}").format(
                attr=self.name, low=self.low, high=self.high, value=repr(value)[:40]
            )
        return None


@dataclass(frozen=True)
class OwnedParam:
    """A trainable tensor a node of its kind holds itself (a Dense node's weight and bias), as
    nn.Dense does: in the programs it is the Parameter `<node>_<name>` (owned_name), an argument
    of `function` like any Parameter node's, drawn from the session's seed by the initializer
    its attribute `init_attr` names (graph.initial_values)."""

    name: str  # the template's word for it: "weight"
    shape: Callable[[dict], Shape]  # from the node's attribute values
    init_attr: str  # the attribute holding its initializer's name


def owned_name(node: str, param: str) -> str:
    """The Parameter a node holds itself: Dense "fc1"'s weight is fc1_weight."""
    return f"{node}_{param}"


@dataclass(frozen=True)
class OpKind:
    """One node kind. Templates name the ports and the attributes in braces:
    "ops.matmul({a}, {b})", "ops.leaky_relu({x}, {alpha})" (an attribute becomes `keyword=value`)."""

    name: str
    role: str  # source (no ports, holds a tensor), op, loss (scalar), output
    ports: tuple[str, ...]
    description: str  # one line, shown in the palette and in tooltips
    colour: str  # the node's header colour
    shape: ShapeRule | None = None
    mindspore: str | None = None  # expression in the generated MindSpore program
    pytorch: str | None = None  # the same in PyTorch (code export, parity)
    forward: Forward | None = None  # float64 numpy, the inputs in port order
    backward: Backward | None = None  # vector-Jacobian product per port, float64 numpy
    blocks_gradient: bool = False  # StopGradient: the backward pass stops here
    view: bool = False  # MindSpore may return its input's memory (PyNative views)
    attrs: tuple[Attr, ...] = ()
    cell: str | None = None  # the mindspore.nn class that computes the same, called as cell(*ports)
    # the mindspore.nn layer that computes the same on its one port (nn.Dense, nn.ReLU), built with
    # the attributes: the first `layer_args` positionally, the others by their MindSpore keyword;
    # the Cell API's Network is made of these (codegen), and the code importer reads them
    layer: str | None = None
    layer_args: int = 0
    # Parameters the node holds itself (OwnedParam): the forward and backward take their values
    # after the ports' (the backward returns their gradients after the ports'), the templates name
    # them in braces like ports, and the shape rule takes the attribute values as keywords
    params: tuple[OwnedParam, ...] = ()
    # each port's local derivative as text ("∂(a+b)/∂b = 1"), then each own Parameter's
    derivatives: tuple[Msg, ...] = ()
    # the input value where the derivative jumps (ReLU's 0): not differentiable there, MindSpore
    # takes one side's slope; the transforms mark such points
    kink: float | None = None

    @property
    def computes(self) -> bool:
        return self.role in ("op", "loss")

    def attr_values(self, attrs: dict | None = None) -> dict:
        """Every attribute's value: those given, the defaults for the others."""
        attrs = attrs or {}
        return {a.name: attrs.get(a.name, a.default) for a in self.attrs}

    def layer_expression(self, attrs: dict | None = None, given: dict[str, str] | None = None) -> str:
        """The nn layer of this kind with these attribute values, as a program writes it:
        `nn.Dense(64, 10, weight_init='he_uniform', bias_init='zeros')`; `given` writes an
        attribute as an expression instead (weight_init=fc1_weight, a tensor of initial values)."""
        values, given = self.attr_values(attrs), given or {}
        spelled = [given.get(a.name, repr(a.type(values[a.name]))) for a in self.attrs]
        args = (
            spelled[: self.layer_args] + [f"{a.mindspore}={v}" for a, v in zip(self.attrs, spelled)][self.layer_args :]
        )
        return f"{self.layer}({', '.join(args)})"

    def expression(self, language: str, inputs: dict[str, str], attrs: dict | None = None) -> str:
        """The code of this kind in `language` (LANGUAGES) on these inputs with these attributes."""
        values = self.attr_values(attrs)
        spelled = {a.name: f"{getattr(a, language)}={a.type(values[a.name])!r}" for a in self.attrs}
        owned = {o.name: inputs[o.name] for o in self.params}
        return getattr(self, language).format(**{p: inputs[p] for p in self.ports}, **owned, **spelled)


# -- shape rules ---------------------------------------------------------------------------------
def shape_str(shape: Shape | None) -> str:
    if shape is None:
        return "(unknown)"
    return str(tuple(shape))


def _same(ins):
    return ins[0][1], None


def _scalar(ins):
    return (), None


def _both(ins) -> Msg:
    (na, sa), (nb, sb) = ins
    return Msg("Ops", "{a} has shape {sa} but {b} has shape {sb}").format(
        a=na, sa=shape_str(sa), b=nb, sb=shape_str(sb)
    )


def _broadcast(ins):
    (na, sa), (nb, sb) = ins
    try:
        return tuple(np.broadcast_shapes(sa, sb)), None
    except ValueError:
        return None, Msg("Ops", "{both}; these shapes do not broadcast").format(both=_both(ins))


def _matmul(ins):
    (na, sa), (nb, sb) = ins
    both = _both(ins)
    if len(sa) == 0 or len(sb) == 0:
        return None, Msg("Ops", "{both}; matmul needs vectors or matrices, not scalars").format(both=both)
    if sa[-1] != sb[0]:
        return None, Msg(
            "Ops", "{both}; matmul needs the last axis of {a} ({m}) to equal the first axis of {b} ({n})"
        ).format(both=both, a=na, m=sa[-1], b=nb, n=sb[0])
    return tuple(sa[:-1]) + tuple(sb[1:]), None


def _transpose(ins):
    return tuple(reversed(ins[0][1])), None


def _pair_to_scalar(ins):
    (na, sa), (nb, sb) = ins
    if sa != sb:
        return None, Msg("Ops", "{both}; the prediction and the target must have the same shape").format(
            both=_both(ins)
        )
    return (), None


def _softmax_ce_shape(ins):
    (na, sa), (nb, sb) = ins
    if len(sa) not in (1, 2):
        return None, Msg(
            "Ops",
            "{a} has shape {shape}; softmax cross-entropy needs class scores of shape (classes,) or (samples, classes)",
        ).format(a=na, shape=shape_str(sa))
    return _pair_to_scalar(ins)


# -- float64 math --------------------------------------------------------------------------------
def unbroadcast(g: np.ndarray, shape: Shape) -> np.ndarray:
    """Sum a broadcast gradient back to an input's shape."""
    g = np.asarray(g, np.float64)
    while g.ndim > len(shape):
        g = g.sum(axis=0)
    for i, s in enumerate(shape):
        if s == 1 and g.shape[i] != 1:
            g = g.sum(axis=i, keepdims=True)
    return g.reshape(shape)


def sigmoid(z):
    z = np.asarray(z, np.float64)
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def _matmul_back(g, a, b, out):
    if a.ndim == 1 and b.ndim == 1:
        return g * b, g * a
    if a.ndim == 1:
        return b @ g, np.outer(a, g)
    if b.ndim == 1:
        return np.outer(g, b), a.T @ g
    return g @ b.T, a.T @ g


def _bce(z, y):
    return np.mean(np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z))))


def _log_softmax(z):
    m = np.max(z, axis=-1, keepdims=True)
    return z - m - np.log(np.sum(np.exp(z - m), axis=-1, keepdims=True))


def _softmax_ce(z, t):
    rows = 1 if z.ndim == 1 else z.shape[0]
    return -np.sum(t * _log_softmax(z)) / rows


def _softmax_ce_back(g, z, t, out):
    rows = 1 if z.ndim == 1 else z.shape[0]
    p = np.exp(_log_softmax(z))
    dz = (p * np.sum(t, axis=-1, keepdims=True) - t) / rows
    return g * dz, g * -_log_softmax(z) / rows


def _ones_like(x):
    return np.ones(np.shape(x))


def _dense_shape(ins, in_channels, out_channels, **_):
    ((na, sa),) = ins
    if len(sa) not in (1, 2) or sa[-1] != in_channels:
        return None, Msg(
            "Ops", "{a} has shape {shape}; Dense needs (samples, in_channels) or (in_channels,) with in_channels {n}"
        ).format(a=na, shape=shape_str(sa), n=int(in_channels))
    return tuple(sa[:-1]) + (int(out_channels),), None


def _dense_back(g, x, weight, bias, out, **_):
    g = np.asarray(g, np.float64) * _ones_like(out)
    if x.ndim == 1:
        return g @ weight, np.outer(g, x), g
    return g @ weight, g.T @ x, g.sum(axis=0)


def _flatten_shape(ins):
    ((na, sa),) = ins
    if len(sa) < 2:
        return None, Msg("Ops", "{a} has shape {shape}; Flatten needs (samples, ...)").format(a=na, shape=shape_str(sa))
    return (sa[0], int(np.prod(sa[1:]))), None


def _softmax(z):
    return np.exp(_log_softmax(np.asarray(z, np.float64)))


def _softmax_back(g, z, out):
    g = np.asarray(g, np.float64) * _ones_like(out)
    return (out * (g - np.sum(g * out, axis=-1, keepdims=True)),)


# The initializers a Dense node's weight_init and bias_init name, as MindSpore's strings for
# mindspore.common.initializer (graph.init_draw draws each in numpy from the session's seed)
WEIGHT_INITS = ("he_uniform", "xavier_uniform", "normal", "uniform", "zeros", "ones")
BIAS_INITS = ("zeros", "ones", "normal", "uniform")
MAX_CHANNELS = 100_000
# a Dataset node's sources (model/datasets.py defines them): the 2-D generators, the bundled
# digits, then those read from the user's files (its `path`)
DATA_SOURCES = ("moons", "circles", "xor", "blobs", "spiral", "digits", "csv", "mnist")


_OP = "#5a4fcf"
_ACT = "#0f766e"
_LOSS = "#c0392b"

TABLE: tuple[OpKind, ...] = (
    OpKind(
        "Input",
        "source",
        (),
        Msg("Ops", "A constant tensor (data or target): no gradient is applied to it."),
        "#6b7b8c",
    ),
    OpKind("Parameter", "source", (), Msg("Ops", "A trainable tensor, updated by the optimizer."), "#1f77b4"),
    OpKind(
        "Dataset",
        "data",
        (),
        Msg(
            "Ops",
            "A data set in mini-batches: the Inputs whose init is features, onehot or labels take each "
            "batch from it; evaluated on its test set after each epoch.",
        ),
        "#b45309",
        attrs=(
            Attr(
                "source",
                "moons",
                0,
                0,
                "source",
                "source",
                Msg(
                    "Ops",
                    "Where the samples come from: a 2-D generator, the bundled 8x8 digits, a CSV file or a "
                    "folder of MNIST files (path).",
                ),
                str,
                DATA_SOURCES,
            ),
            Attr(
                "path",
                "",
                0,
                0,
                "path",
                "path",
                Msg("Ops", "The CSV file (source csv) or the folder of MNIST IDX files (source mnist)."),
                str,
            ),
            Attr(
                "size",
                200,
                4,
                100_000,
                "size",
                "size",
                Msg("Ops", "How many samples a 2-D source draws, or how many of the MNIST folder's images are used."),
                int,
            ),
            Attr("noise", 0.1, 0.0, 10.0, "noise", "noise", Msg("Ops", "The 2-D generator's noise.")),
            Attr(
                "test_fraction",
                0.2,
                0.0,
                1.0,
                "test_fraction",
                "test_fraction",
                Msg("Ops", "The share of the samples kept apart as the test set."),
            ),
            Attr(
                "batch_size",
                16,
                1,
                100_000,
                "batch_size",
                "batch_size",
                Msg("Ops", "Training samples per step (the last batch of an epoch may be short)."),
                int,
            ),
            Attr(
                "seed",
                0,
                0,
                2**31 - 1,
                "seed",
                "seed",
                Msg("Ops", "The seed of the samples, of the split and of each epoch's order."),
                int,
            ),
        ),
    ),
    OpKind(
        "MatMul",
        "op",
        ("a", "b"),
        Msg("Ops", "ops.matmul(a, b): matrix (or vector-matrix) product."),
        _OP,
        _matmul,
        "ops.matmul({a}, {b})",
        "torch.matmul({a}, {b})",
        lambda a, b: a @ b,
        _matmul_back,
        derivatives=(Msg("Ops", "∂(a·b)/∂a = upstream · bᵀ"), Msg("Ops", "∂(a·b)/∂b = aᵀ · upstream")),
    ),
    OpKind(
        "Add",
        "op",
        ("a", "b"),
        Msg("Ops", "a + b, with broadcasting."),
        _OP,
        _broadcast,
        "{a} + {b}",
        "{a} + {b}",
        lambda a, b: a + b,
        lambda g, a, b, out: (unbroadcast(g * _ones_like(out), a.shape), unbroadcast(g * _ones_like(out), b.shape)),
        derivatives=(Msg("Ops", "∂(a+b)/∂a = 1"), Msg("Ops", "∂(a+b)/∂b = 1")),
    ),
    OpKind(
        "Sub",
        "op",
        ("a", "b"),
        Msg("Ops", "a - b, with broadcasting."),
        _OP,
        _broadcast,
        "{a} - {b}",
        "{a} - {b}",
        lambda a, b: a - b,
        lambda g, a, b, out: (unbroadcast(g * _ones_like(out), a.shape), unbroadcast(-g * _ones_like(out), b.shape)),
        derivatives=(Msg("Ops", "∂(a−b)/∂a = 1"), Msg("Ops", "∂(a−b)/∂b = −1")),
    ),
    OpKind(
        "Mul",
        "op",
        ("a", "b"),
        Msg("Ops", "a * b, element-wise with broadcasting."),
        _OP,
        _broadcast,
        "{a} * {b}",
        "{a} * {b}",
        lambda a, b: a * b,
        lambda g, a, b, out: (unbroadcast(g * b, a.shape), unbroadcast(g * a, b.shape)),
        derivatives=(Msg("Ops", "∂(a*b)/∂a = b"), Msg("Ops", "∂(a*b)/∂b = a")),
    ),
    OpKind(
        "Neg",
        "op",
        ("x",),
        Msg("Ops", "-x: the negation."),
        _OP,
        _same,
        "ops.neg({x})",
        "torch.neg({x})",
        lambda x: -x,
        lambda g, x, out: (-g * _ones_like(x),),
        derivatives=(Msg("Ops", "∂(−x)/∂x = −1"),),
    ),
    OpKind(
        "Square",
        "op",
        ("x",),
        Msg("Ops", "ops.square(x): x * x, element-wise."),
        _OP,
        _same,
        "ops.square({x})",
        "torch.square({x})",
        lambda x: x * x,
        lambda g, x, out: (2 * g * x,),
        derivatives=(Msg("Ops", "∂x²/∂x = 2x"),),
    ),
    OpKind(
        "Exp",
        "op",
        ("x",),
        Msg("Ops", "ops.exp(x): e to the x, element-wise."),
        _OP,
        _same,
        "ops.exp({x})",
        "torch.exp({x})",
        np.exp,
        lambda g, x, out: (g * out,),
        derivatives=(Msg("Ops", "∂eˣ/∂x = eˣ"),),
    ),
    OpKind(
        "Log",
        "op",
        ("x",),
        Msg("Ops", "ops.log(x): natural logarithm, element-wise (x must be above 0)."),
        _OP,
        _same,
        "ops.log({x})",
        "torch.log({x})",
        np.log,
        lambda g, x, out: (g / x,),
        derivatives=(Msg("Ops", "∂ln(x)/∂x = 1/x"),),
    ),
    OpKind(
        "ReLU",
        "op",
        ("x",),
        Msg("Ops", "ops.relu(x): max(x, 0), element-wise."),
        _ACT,
        _same,
        "ops.relu({x})",
        "torch.relu({x})",
        lambda x: np.maximum(x, 0.0),
        lambda g, x, out: (g * (x > 0),),
        derivatives=(Msg("Ops", "∂relu(x)/∂x = 1 where x > 0, else 0"),),
        kink=0.0,
        layer="nn.ReLU",
    ),
    OpKind(
        "LeakyReLU",
        "op",
        ("x",),
        Msg("Ops", "ops.leaky_relu(x, alpha): x where x > 0, else alpha * x, element-wise."),
        _ACT,
        _same,
        "ops.leaky_relu({x}, {alpha})",
        "torch.nn.functional.leaky_relu({x}, {alpha})",
        lambda x, alpha: np.where(x > 0, x, alpha * x),
        lambda g, x, out, alpha: (g * np.where(x > 0, 1.0, alpha),),
        attrs=(Attr("alpha", 0.2, 0.0, 1.0, "alpha", "negative_slope", Msg("Ops", "The slope where x is below 0.")),),
        derivatives=(Msg("Ops", "∂leaky_relu(x)/∂x = 1 where x > 0, else alpha"),),
        kink=0.0,
        layer="nn.LeakyReLU",
    ),
    OpKind(
        "Sigmoid",
        "op",
        ("x",),
        Msg("Ops", "ops.sigmoid(x): 1 / (1 + e^-x), element-wise."),
        _ACT,
        _same,
        "ops.sigmoid({x})",
        "torch.sigmoid({x})",
        sigmoid,
        lambda g, x, out: (g * out * (1 - out),),
        derivatives=(Msg("Ops", "∂σ(x)/∂x = σ(x)·(1 − σ(x))"),),
        layer="nn.Sigmoid",
    ),
    OpKind(
        "Tanh",
        "op",
        ("x",),
        Msg("Ops", "ops.tanh(x): hyperbolic tangent, element-wise."),
        _ACT,
        _same,
        "ops.tanh({x})",
        "torch.tanh({x})",
        np.tanh,
        lambda g, x, out: (g * (1 - out * out),),
        derivatives=(Msg("Ops", "∂tanh(x)/∂x = 1 − tanh²(x)"),),
        layer="nn.Tanh",
    ),
    OpKind(
        "Dense",
        "op",
        ("x",),
        Msg(
            "Ops",
            "nn.Dense(in_channels, out_channels): x @ weight.T + bias, with its own weight (out, in) and bias "
            "(ops.dense(x, weight, bias)).",
        ),
        "#7c3aed",
        _dense_shape,
        "ops.dense({x}, {weight}, {bias})",
        "torch.nn.functional.linear({x}, {weight}, {bias})",
        lambda x, weight, bias, **_: x @ weight.T + bias,
        _dense_back,
        attrs=(
            Attr(
                "in_channels",
                2,
                1,
                MAX_CHANNELS,
                "in_channels",
                "in_features",
                Msg("Ops", "The size of each input sample."),
                int,
            ),
            Attr(
                "out_channels",
                2,
                1,
                MAX_CHANNELS,
                "out_channels",
                "out_features",
                Msg("Ops", "The size of each output sample."),
                int,
            ),
            Attr(
                "weight_init",
                "he_uniform",
                0,
                0,
                "weight_init",
                "weight_init",
                Msg("Ops", "How the weight (out_channels, in_channels) is initialized, by MindSpore's name."),
                str,
                WEIGHT_INITS,
            ),
            Attr(
                "bias_init",
                "zeros",
                0,
                0,
                "bias_init",
                "bias_init",
                Msg("Ops", "How the bias (out_channels) is initialized, by MindSpore's name."),
                str,
                BIAS_INITS,
            ),
        ),
        params=(
            OwnedParam("weight", lambda a: (int(a["out_channels"]), int(a["in_channels"])), "weight_init"),
            OwnedParam("bias", lambda a: (int(a["out_channels"]),), "bias_init"),
        ),
        derivatives=(
            Msg("Ops", "∂(x·weightᵀ + bias)/∂x = upstream · weight"),
            Msg("Ops", "∂(x·weightᵀ + bias)/∂weight = upstreamᵀ · x"),
            Msg("Ops", "∂(x·weightᵀ + bias)/∂bias = 1 (summed over samples)"),
        ),
        layer="nn.Dense",
        layer_args=2,
    ),
    OpKind(
        "Flatten",
        "op",
        ("x",),
        Msg("Ops", "ops.flatten(x): every axis after the first (samples) made one, as nn.Flatten."),
        _OP,
        _flatten_shape,
        "ops.flatten({x})",
        "torch.flatten({x}, 1)",
        lambda x: x.reshape(x.shape[0], -1),
        lambda g, x, out: (np.asarray(g, np.float64).reshape(x.shape),),
        view=True,
        derivatives=(Msg("Ops", "∂flatten(x)/∂x = 1 (the upstream reshaped back)"),),
        layer="nn.Flatten",
    ),
    OpKind(
        "Softmax",
        "op",
        ("x",),
        Msg("Ops", "ops.softmax(x): e^x / sum(e^x) along the last axis (class scores to probabilities)."),
        _ACT,
        _same,
        "ops.softmax({x}, axis=-1)",
        "torch.softmax({x}, dim=-1)",
        _softmax,
        _softmax_back,
        derivatives=(Msg("Ops", "∂softmax(x)/∂x = s · (upstream − Σ upstream · s), s = softmax(x)"),),
        layer="nn.Softmax",
    ),
    OpKind(
        "Sum",
        "op",
        ("x",),
        Msg("Ops", "ops.sum(x): the sum of all elements, a scalar."),
        _OP,
        _scalar,
        "ops.sum({x})",
        "torch.sum({x})",
        lambda x: np.sum(x),
        lambda g, x, out: (g * np.ones(x.shape),),
        derivatives=(Msg("Ops", "∂sum(x)/∂x = 1"),),
    ),
    OpKind(
        "Mean",
        "op",
        ("x",),
        Msg("Ops", "ops.mean(x): the mean of all elements, a scalar."),
        _OP,
        _scalar,
        "ops.mean({x})",
        "torch.mean({x})",
        lambda x: np.mean(x),
        lambda g, x, out: (g * np.ones(x.shape) / max(x.size, 1),),
        derivatives=(Msg("Ops", "∂mean(x)/∂x = 1/n"),),
    ),
    OpKind(
        "Transpose",
        "op",
        ("x",),
        Msg("Ops", "ops.t(x): a matrix's transpose (a vector stays as it is)."),
        _OP,
        _transpose,
        "ops.t({x})",
        "torch.t({x})",
        lambda x: x.T,
        lambda g, x, out: (np.asarray(g).T,),
        view=True,
        derivatives=(Msg("Ops", "∂xᵀ/∂x: the upstream gradient transposed"),),
    ),
    OpKind(
        "StopGradient",
        "op",
        ("x",),
        Msg("Ops", "ops.stop_gradient(x): passes the value, blocks the gradient."),
        "#b8860b",
        _same,
        "ops.stop_gradient({x})",
        "{x}.detach()",
        lambda x: x,
        lambda g, x, out: (np.zeros(x.shape),),
        blocks_gradient=True,
        view=True,
        derivatives=(Msg("Ops", "∂stop_gradient(x)/∂x = 0: the gradient stops here"),),
    ),
    OpKind(
        "BCEWithLogits",
        "loss",
        ("logits", "target"),
        Msg("Ops", "ops.binary_cross_entropy_with_logits(logits, target, ones, ones), mean."),
        _LOSS,
        _pair_to_scalar,
        "ops.binary_cross_entropy_with_logits({logits}, {target}, ops.ones_like({logits}), ops.ones_like({logits}))",
        "torch.nn.functional.binary_cross_entropy_with_logits({logits}, {target})",
        _bce,
        lambda g, z, y, out: (g * (sigmoid(z) - y) / z.size, g * -z / z.size),
        cell="nn.BCEWithLogitsLoss",
        derivatives=(Msg("Ops", "∂BCE/∂z = (σ(z) − y)/n"), Msg("Ops", "∂BCE/∂y = −z/n")),
    ),
    OpKind(
        "MSE",
        "loss",
        ("pred", "target"),
        Msg("Ops", "ops.mse_loss(pred, target), mean of squared errors."),
        _LOSS,
        _pair_to_scalar,
        "ops.mse_loss({pred}, {target})",
        "torch.nn.functional.mse_loss({pred}, {target})",
        lambda p, t: np.mean((p - t) ** 2),
        lambda g, p, t, out: (g * 2 * (p - t) / p.size, g * -2 * (p - t) / p.size),
        cell="nn.MSELoss",
        derivatives=(Msg("Ops", "∂MSE/∂p = 2(p − t)/n"), Msg("Ops", "∂MSE/∂t = −2(p − t)/n")),
    ),
    OpKind(
        "SoftmaxCrossEntropy",
        "loss",
        ("logits", "target"),
        Msg(
            "Ops",
            "ops.cross_entropy(logits, target): softmax cross-entropy with class probabilities "
            "(one-hot) as the target, mean over samples.",
        ),
        _LOSS,
        _softmax_ce_shape,
        "ops.cross_entropy({logits}, {target})",
        "torch.nn.functional.cross_entropy({logits}, {target})",
        _softmax_ce,
        _softmax_ce_back,
        cell="nn.CrossEntropyLoss",
        derivatives=(Msg("Ops", "∂CE/∂z = (softmax(z) − t)/rows"), Msg("Ops", "∂CE/∂t = −log softmax(z)/rows")),
    ),
    OpKind(
        "Output",
        "output",
        ("x",),
        Msg("Ops", "Marks a returned value: the first Output is the loss, later ones are auxiliary."),
        "#2e7d32",
        _same,
        derivatives=(Msg("Ops", "∂x/∂x = 1: the returned value is x itself"),),
    ),
)

OPS: dict[str, OpKind] = {k.name: k for k in TABLE}


def op(kind: str) -> OpKind:
    """The table entry of a kind; KeyError for an unknown kind."""
    return OPS[kind]


def _check_table(table: tuple[OpKind, ...]) -> None:
    """Refuse, at import, an entry with a missing piece (so a new kind cannot half-work)."""
    seen = set()
    for k in table:
        where = f"op kind {k.name!r}"
        if k.name in seen:
            raise TypeError(f"{where} is defined twice")
        seen.add(k.name)
        if k.role not in ROLES:
            raise TypeError(f"{where}: role {k.role!r} is not one of {ROLES}")
        if not k.description or not k.colour.startswith("#"):
            raise TypeError(f"{where} needs a description and a colour")
        if k.role in ("source", "data"):
            if k.ports:
                raise TypeError(f"{where}: a source has no input ports")
            for a in k.attrs:
                if a.problem(a.default) is not None or not a.description:
                    raise TypeError(f"{where}: attribute {a.name!r} needs a description and a default in its range")
            continue
        if not k.ports or k.shape is None:
            raise TypeError(f"{where} needs input ports and a shape rule")
        if len(k.derivatives) != len(k.ports) + len(k.params):
            raise TypeError(f"{where} needs one local-derivative text per port and own Parameter (derivatives)")
        if k.role == "output":
            continue
        missing = [f for f in ("mindspore", "pytorch", "forward", "backward") if getattr(k, f) is None]
        if missing:
            raise TypeError(f"{where} is missing: {', '.join(missing)}")
        for lang in LANGUAGES:
            try:
                k.expression(lang, {p: p for p in (*k.ports, *(o.name for o in k.params))})
            except (KeyError, IndexError) as e:
                raise TypeError(f"{where}: its {lang} template names an unknown port {e}") from None
        if k.layer and (len(k.ports) != 1 or not k.layer.startswith("nn.") or k.layer_args > len(k.attrs)):
            raise TypeError(f"{where}: a layer (nn.*) takes one port, and at most its attributes positionally")
        for o in k.params:
            if o.init_attr not in {a.name for a in k.attrs if a.type is str}:
                raise TypeError(f"{where}: parameter {o.name!r} needs an initializer attribute")
        for a in k.attrs:
            if a.problem(a.default) is not None or not a.description:
                raise TypeError(f"{where}: attribute {a.name!r} needs a description and a default in its range")


_check_table(TABLE)

KINDS = tuple(OPS)
SOURCE_KINDS = tuple(k.name for k in TABLE if k.role == "source")
LOSS_KINDS = tuple(k.name for k in TABLE if k.role == "loss")
DATA_KINDS = tuple(k.name for k in TABLE if k.role == "data")
LAYER_KINDS = tuple(k.name for k in TABLE if k.layer)  # those the Cell API writes as nn layers
PORTS: dict[str, tuple[str, ...]] = {k.name: k.ports for k in TABLE}
DESCRIPTIONS: dict[str, str] = {k.name: k.description for k in TABLE}
COLOURS: dict[str, str] = {k.name: k.colour for k in TABLE}

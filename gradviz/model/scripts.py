"""Standalone programs a student can take home: the session as a MindSpore script in the
tutorial's style, or as a PyTorch script with the seed's `loss.backward(); optimizer.step();
optimizer.zero_grad()` loop. Each trains the same steps with the same options, ends the same way
(stop-at-loss and a non-finite value included) and prints one line `step <k> loss <value>` per
step, so it reproduces `gradviz run` with those options.

Node names become the scripts' variables as they do in the training program (codegen); the
identifiers the scripts use for themselves are part of graph.RESERVED_NAMES."""

from __future__ import annotations

import numpy as np

from .codegen import (
    LayerCell,
    cell_source,
    differentiated_outputs,
    forward_source,
    function_source,
    grad_call,
    layer_cell,
    plan,
)
from .datasets import DataSpec
from .formatting import shorten
from .graph import INITIALIZERS, Graph, init_draw
from .optimizers import OPTIMIZERS
from .session import Session

_I = "    "
FRAMEWORKS = ("mindspore", "pytorch")


def _literal(values) -> str:
    """A nested list of float32 values, each written so it reads back to the same float32."""
    a = np.asarray(values, np.float32)
    if a.ndim == 0:
        return repr(float(a))
    return "[" + ", ".join(_literal(v) for v in a) + "]"


def _value(n, tensor: str, dtype: str) -> str:
    """The expression for a source node's initial value, drawn as GradViz draws it
    (graph.initial_values: numpy's global RandomState after np.random.seed, in graph order)."""
    shape = tuple(n.shape)
    if n.init == "randn":
        src = f"np.random.randn({', '.join(map(str, shape))})"
    elif n.init == "ones":
        src = f"np.ones({shape})"
    elif n.init == "zeros":
        src = f"np.zeros({shape})"
    elif n.init in INITIALIZERS:
        method, args = init_draw(n.init, shape)
        src = f"np.random.{method}({', '.join(map(repr, args))})"
    else:
        src = f"np.array({_literal(n.values)})"
    return f"{tensor}({src}, {dtype})"


def _header(session: Session, framework: str) -> list[str]:
    o = session.options
    lines = [
        f'"""{shorten(session.name, 60).replace(chr(34), chr(39))}: exported from GradViz as a standalone {framework} program.',
        "",
        f"Options: api={o.api}, optimizer={o.optimizer}, lr={o.lr:g}, seed={o.seed}, steps={o.steps}, "
        f"stop at loss={o.until_loss if o.until_loss is not None else 'off'}, mode={o.mode},",
        f"return auxiliary outputs={o.aux_output}, stop_gradient={o.stop_gradient}, has_aux={o.has_aux}.",
        'It prints one line "step <k> loss <value>" per step, as `gradviz run` records them."""',
    ]
    return lines


def _loop_end(session: Session, indent: str, finite: str, stop: str = "break") -> list[str]:
    """The seed's checks before the update: stop on a non-finite value, or once below the target
    (`stop`: break out of the loop, or return from the training function of a data set's epochs)."""
    out = [
        f"{indent}if not ({finite}):",
        f"{indent}{_I}{stop}  # not finite: GradViz stops here too, without this step's update",
    ]
    if session.options.until_loss is not None:
        out += [
            f"{indent}if loss_value < {session.options.until_loss!r}:",
            f"{indent}{_I}{stop}  # as the seed's `if loss < 0.001: break`, before the update",
        ]
    return out


def _data_lines(spec: DataSpec) -> list[str]:
    """The data set as model/datasets.py defines it: the samples, then the split."""
    n, noise, seed = spec.size, spec.noise, spec.seed
    L = ["", f"# the data set ({spec.source}), split and batched as GradViz documents it"]
    if spec.source == "digits":
        L += [
            "import sklearn.datasets",
            "",
            "sample_x = sklearn.datasets.load_digits().data / 16.0  # 8x8 images scaled to [0, 1]",
            "sample_y = sklearn.datasets.load_digits().target",
        ]
    elif spec.source in ("moons", "circles", "blobs"):
        call = {
            "moons": f"make_moons(n_samples={n}, noise={noise!r}, random_state={seed})",
            "circles": f"make_circles(n_samples={n}, noise={noise!r}, factor=0.5, random_state={seed})",
            "blobs": f"make_blobs(n_samples={n}, centers=2, cluster_std={max(noise, 0.05) * 10!r}, random_state={seed})",
        }[spec.source]
        L += ["import sklearn.datasets", "", f"sample_x, sample_y = sklearn.datasets.{call}"]
    elif spec.source == "csv":  # the format model/datasets.py documents
        L += [
            "import csv",
            "",
            f"with open({spec.path!r}, encoding='utf-8-sig') as sample_file:",
            f"{_I}sample_rows = [row for row in csv.reader(sample_file) if any(c.strip() for c in row)]",
            "sample_header = [c.strip() for c in sample_rows[0]]  # line 1 names the columns",
            "sample_table = np.array([[float(c) for c in row] for row in sample_rows[1:]])",
            "sample_label = sample_header.index('label') if 'label' in sample_header else len(sample_header) - 1",
            "sample_x, sample_y = np.delete(sample_table, sample_label, axis=1), sample_table[:, sample_label]",
        ]
    elif spec.source == "mnist":  # the IDX files as MnistDataset reads them: training, then t10k
        L += [
            "import os",
            "",
            f"sample_dir = {spec.path!r}",
            "sample_x, sample_y = [], []",
            "for images, labels in [('train-images-idx3-ubyte', 'train-labels-idx1-ubyte'),",
            "                       ('t10k-images-idx3-ubyte', 't10k-labels-idx1-ubyte')]:",
            f"{_I}if os.path.exists(os.path.join(sample_dir, images)):",
            f"{_I * 2}sample_x.append(np.fromfile(os.path.join(sample_dir, images), np.uint8, offset=16))",
            f"{_I * 2}sample_y.append(np.fromfile(os.path.join(sample_dir, labels), np.uint8, offset=8))",
            f"sample_x = np.concatenate(sample_x).reshape(-1, 784)[:{spec.samples()}] / 255.0  # 28x28 in [0, 1]",
            f"sample_y = np.concatenate(sample_y)[:{spec.samples()}]",
        ]
    elif spec.source == "xor":
        L += [
            f"sample_rng = np.random.RandomState({seed})",
            f"sample_x = sample_rng.uniform(-1, 1, ({n}, 2))",
            "sample_y = (sample_x[:, 0] * sample_x[:, 1] > 0).astype(int)  # 1 in the first and third quadrants",
            f"sample_x = sample_x + sample_rng.normal(0, {noise!r}, ({n}, 2))",
        ]
    else:  # spiral: two arms, each turning once and a half around the origin
        L += [
            f"sample_rng = np.random.RandomState({seed})",
            f"sample_y = np.arange({n}) % 2",
            f"sample_radius = sample_rng.uniform(0.05, 1.0, {n})",
            "sample_angle = 3 * np.pi * sample_radius + np.pi * sample_y",
            "sample_x = np.stack([sample_radius * np.cos(sample_angle), sample_radius * np.sin(sample_angle)], axis=1)",
            f"sample_x = sample_x + sample_rng.normal(0, {noise!r}, ({n}, 2))",
        ]
    L += [
        "sample_x, sample_y = sample_x.astype(np.float32), sample_y.astype(np.int32)",
        f"sample_order = np.random.RandomState({seed}).permutation(len(sample_x))",
        f"n_test = round(len(sample_x) * {spec.test_fraction!r})  # the last n_test of that order: the test set",
        "train_x, train_y = sample_x[sample_order[:-n_test]], sample_y[sample_order[:-n_test]]",
        "test_x, test_y = sample_x[sample_order[-n_test:]], sample_y[sample_order[-n_test:]]",
        "",
        "",
        "def epoch_order(epoch):",
        f'{_I}"""The order epoch `epoch` (1-based) visits the training set in."""',
        f"{_I}return np.random.RandomState({seed} + epoch).permutation(len(train_x))",
    ]
    return L


def _as_inputs(g: Graph, spec: DataSpec, xs: str, ys: str, tensor: str) -> list[str]:
    """Each Input fed by the Dataset node, from the features `xs` and the labels `ys`."""
    out = []
    for n in g.data_inputs():
        if n.init == "features":
            src = xs
        elif n.init == "onehot":
            src = f"np.eye({spec.classes()}, dtype=np.float32)[{ys}]"
        else:
            src = f"{ys}.astype(np.float32).reshape(-1, 1)"
        out.append(f"{n.name} = {tensor}({src})")
    return out


def _accuracy(g: Graph) -> tuple[str, str] | None:
    """(the loss node, the node holding the class scores), or None without a loss kind."""
    from .ops import OPS

    loss = g[g.loss_output().inputs["x"]]
    if OPS[loss.kind].role != "loss":
        return None
    return loss.name, loss.inputs[OPS[loss.kind].ports[0]]


def _predicted(g: Graph, scores: str) -> str:
    """The predicted labels from the class scores (numpy): their argmax, or where one score a
    sample is the class, a threshold: 0 for a logit (BCEWithLogits), 0.5 for a prediction."""
    loss = g[g.loss_output().inputs["x"]]
    if g.check()[_accuracy(g)[1]][-1] > 1:
        return f"{scores}.argmax(axis=1)"
    return f"({scores}[:, 0] > {0.0 if loss.kind == 'BCEWithLogits' else 0.5})"


def mindspore_script(session: Session, attr_names: dict[str, str] | None = None) -> str:
    """attr_names: the nn.Cell attribute of each Parameter (api "cell"), as the engine names them
    (engine.engine.cell_attributes: a name that would hide one of nn.Cell's own gets gv_)."""
    g: Graph = session.graph
    o = session.options
    pl = plan(g, o)
    inputs, params, trainable, args = pl.inputs, pl.params, pl.trainable, pl.args
    has_aux, local = pl.has_aux, pl.local
    spec = g.data_spec()
    attr = attr_names or {p: p for p in params}
    lc = layer_cell(g, o, attr_names)
    L = _header(session, "MindSpore")
    L += [
        *(["from collections import OrderedDict", ""] if lc is not None and lc.ordered_dict else []),
        "import numpy as np",
        "import mindspore",
        "from mindspore import Parameter, Tensor, nn, ops",
        *(["import mindspore.dataset as ds"] if spec is not None else []),
        "",
        'mindspore.set_device("CPU")',
        *(_data_lines(spec) + ["", ""] if spec is not None else []),
        f"np.random.seed({o.seed})  # the initial values, drawn in the graph's order",
    ]
    for n in g.sources():
        if n.is_data:
            continue  # fed by the data set, a mini-batch each step
        if n.kind == "Input":
            L.append(f"{n.name} = {_value(n, 'Tensor', 'mindspore.float32')}")
        elif lc is not None and g.get(n.name) is None:  # a layer's own: its weight_init or bias_init
            L.append(f"{n.name} = {_value(n, 'Tensor', 'mindspore.float32')}  # {n.init}, as GradViz draws it")
        elif n.kind == "Parameter":
            rg = "" if n.requires_grad else ", requires_grad=False"
            L.append(f"{n.name} = Parameter({_value(n, 'Tensor', 'mindspore.float32')}, name='{n.name}'{rg})")
    L += ["", ""] + (function_source(g, o) + ["", ""] if lc is None else [])
    opt = OPTIMIZERS[o.optimizer]
    if lc is not None:
        L += cell_source(g, o, lc, attr, script=True)
        L += [f"optimizer = {opt.code('mindspore', 'network.trainable_params()', o.lr)}", "", ""]
        L += forward_source(g, o, lc) + ["", ""]
        call_args = inputs
    elif o.api == "cell":
        L += ["class Network(nn.Cell):", f"{_I}def __init__(self):", f"{_I * 2}super().__init__()"]
        L += [f"{_I * 2}self.{attr[p]} = {p}" for p in params]
        L += [
            "",
            f"{_I}def construct(self{''.join(', ' + i for i in inputs)}):",
            f"{_I * 2}return function({', '.join(inputs + [f'self.{attr[p]}' for p in params])})",
            "",
            "",
            "network = Network()",
            f"optimizer = {opt.code('mindspore', 'network.trainable_params()', o.lr)}",
            "",
            "",
            f"def forward_fn({', '.join(inputs)}):",
            f"{_I}return network({', '.join(inputs)})",
            "",
            "",
        ]
        call_args = inputs
    else:
        L.append(f"optimizer = {opt.code('mindspore', '[' + ', '.join(trainable) + ']', o.lr)}")
        call_args = args
    L.append(f"grad_fn = {grad_call(g, o)}")
    single = len(trainable) == 1 and o.api != "cell"
    gname = "grad" if single else "grads"
    values = ", ".join(local)
    L += ["", ""]
    if o.mode == "graph":
        L.append("@mindspore.jit  # Graph mode: compiled on the first call")
    L.append(f"def forward_backward({', '.join(inputs)}):")
    if o.api == "grad":
        L.append(f"{_I}{values} = function({', '.join(args)})")
        L.append(f"{_I}{gname}{', _' if has_aux else ''} = grad_fn({', '.join(call_args)})")
    else:
        L.append(f"{_I}{'(' + values + ')' if len(local) > 1 else values}, {gname} = grad_fn({', '.join(call_args)})")
    if single:
        L.append(f"{_I}grads = (grad,)")
    L += [f"{_I}return {local[0]}, grads", "", ""]
    if spec is not None:
        step = [
            f"step_loss, grads = forward_backward({', '.join(inputs)})",
            "loss_value = float(step_loss.asnumpy())",
            'print(f"step {step} loss {loss_value!r}")',
        ]
        finite = "np.isfinite(loss_value) and all(np.isfinite(gradient.asnumpy()).all() for gradient in grads)"
        step += [line.strip("\n") for line in _loop_end(session, "", finite, "return")] + ["optimizer(grads)"]
        batches = (
            "ds.NumpySlicesDataset((train_x, train_y), column_names=['x', 'y'], "
            f"sampler=ds.SubsetSampler(epoch_order(epoch).tolist())).batch({spec.batch_size})"
        )
        L += _epochs(
            session,
            spec,
            "Tensor",
            f"train_dataset = {batches}",
            "train_dataset.create_tuple_iterator(output_numpy=True)",
            step,
            "asnumpy()",
            lc,
        )
        return "\n".join(L) + "\n"
    L += [
        f"for step in range(1, {o.steps} + 1):",
        f"{_I}step_loss, grads = forward_backward({', '.join(inputs)})",
        f"{_I}loss_value = float(step_loss.asnumpy())",
        f'{_I}print(f"step {{step}} loss {{loss_value!r}}")',
    ]
    L += _loop_end(
        session, _I, "np.isfinite(loss_value) and all(np.isfinite(gradient.asnumpy()).all() for gradient in grads)"
    )
    L += [f"{_I}optimizer(grads)"]
    return "\n".join(L) + "\n"


def _epochs(
    session,
    spec: DataSpec,
    tensor: str,
    loader: str,
    batches: str,
    step: list[str],
    to_numpy: str,
    lc: LayerCell | None = None,
) -> list[str]:
    """The course's test_loop and train_loop over the data set's epochs: `loader` makes
    `batches` (batch_x, batch_y) for `epoch`; `step` trains on the Inputs (its lines unindented,
    `return` ending the run); the test set is evaluated after each epoch (by the Network of
    layers `lc` where the script trains one)."""
    g, o = session.graph, session.options
    pl = plan(g, o)
    args = ", ".join(pl.args)
    spe = spec.steps_per_epoch()
    acc = _accuracy(g)
    template = "pytorch" if tensor.startswith("torch") else "mindspore"
    returns = [pl.sources[0], acc[1] if acc else "None"]
    if lc is not None:  # the Network of layers, as trained
        doc = "forward_fn on the test set: the loss and the class scores."
        L = forward_source(g, o, lc, "test_forward", returns, doc) + ["", ""]
        args = ", ".join(pl.inputs)
    else:
        doc = "function's forward on the test set: the loss and the class scores."
        L = function_source(g, o, template, "test_forward", returns, doc) + ["", ""]
    L += ["def test_loop():"]
    L += [_I + line for line in _as_inputs(g, spec, "test_x", "test_y", tensor)]
    L += [f"{_I}test_loss, test_scores = test_forward({args})"]
    avg = f"Avg loss: {{float(test_loss.{to_numpy}):>8f}}"
    if acc:
        L += [f"{_I}test_scores = test_scores.{to_numpy}.reshape(len(test_y), -1)"]
        L += [f"{_I}correct = float(np.mean({_predicted(g, 'test_scores')} == test_y))"]
        L += [f'{_I}print(f"Test: \\n Accuracy: {{(100 * correct):>0.1f}}%, {avg} \\n")']
    else:
        L += [f'{_I}print(f"Test: \\n {avg} \\n")']
    epochs = -(-o.steps // spe)
    L += [
        "",
        "",
        "def train_loop():",
        f'{_I}"""Epoch by epoch, a step per mini-batch, the test set after each epoch."""',
        f"{_I}step = 0",
        f"{_I}for epoch in range(1, {epochs} + 1):",
        f'{_I * 2}print(f"Epoch {{epoch}}\\n-------------------------------")',
        f"{_I * 2}{loader}",
        f"{_I * 2}for batch_x, batch_y in {batches}:",
    ]
    L += [_I * 3 + line for line in _as_inputs(g, spec, "np.asarray(batch_x)", "np.asarray(batch_y)", tensor)]
    L += [f"{_I * 3}step += 1"] + [_I * 3 + line for line in step]
    L += [f"{_I * 3}if step == {o.steps}:", f"{_I * 4}break"]
    L += [f"{_I * 2}if step % {spe} == 0:", f"{_I * 3}test_loop()  # an epoch ended"]
    L += [f"{_I * 2}if step == {o.steps}:", f"{_I * 3}return", "", "", "train_loop()"]
    return L


def pytorch_script(session: Session) -> str:
    defs, loop = pytorch_parts(session)
    return defs + loop


def pytorch_parts(session: Session) -> tuple[str, str]:
    """The PyTorch script as (definitions: imports, initial values, `function`, `optimizer`;
    the training loop): the parity check runs the definitions with a loop of its own."""
    g: Graph = session.graph
    o = session.options
    pl = plan(g, o)
    trainable, args = pl.trainable, pl.args
    aux_on, local = pl.aux_on, pl.local
    diff = len(differentiated_outputs(g, o))
    spec = g.data_spec()
    L = _header(session, "PyTorch")
    L += [
        "import numpy as np",
        "import torch",
        *(_data_lines(spec) + ["", ""] if spec is not None else [""]),
        f"np.random.seed({o.seed})  # the initial values, drawn in the graph's order",
    ]
    if spec is not None:  # the Inputs the data set feeds hold its first mini-batch until training
        first = f"epoch_order(1)[:{spec.batch_size}]"
        L += _as_inputs(g, spec, f"train_x[{first}]", f"train_y[{first}]", "torch.tensor")
    for n in g.sources():
        if n.is_data:
            continue
        if n.kind == "Input":
            L.append(f"{n.name} = {_value(n, 'torch.tensor', 'dtype=torch.float32')}")
        elif n.kind == "Parameter":
            L.append(f"{n.name} = {_value(n, 'torch.tensor', 'dtype=torch.float32')}.requires_grad_({n.requires_grad})")
    L += ["", "", *function_source(g, o, "pytorch"), "", ""]
    L.append(f"optimizer = {OPTIMIZERS[o.optimizer].code('pytorch', '[' + ', '.join(trainable) + ']', o.lr)}")
    defs = "\n".join(L) + "\n"
    L = [
        "",
        "",
        f"for step in range(1, {o.steps} + 1):",
        f"{_I}{', '.join(local)} = function({', '.join(args)})",
        f"{_I}loss_value = {local[0]}.item()",
        f'{_I}print(f"step {{step}} loss {{loss_value!r}}")',
    ]
    if spec is not None:
        L = ["", "", f"{_I}{', '.join(local)} = function({', '.join(args)})", f"{_I}loss_value = {local[0]}.item()"]
        L += [f'{_I}print(f"step {{step}} loss {{loss_value!r}}")']
    if diff > 1:
        total = " + ".join([local[0]] + [f"{a}.sum()" for a in local[1:diff]])
        L += [
            f"{_I}# MindSpore differentiates every output the function returns: with z returned (no",
            f"{_I}# stop_gradient, no has_aux) its gradients are those of loss + sum(z), so here too",
            f"{_I}({total}).backward()",
        ]
    else:
        if aux_on:
            why = "has_aux=True" if o.has_aux else "ops.stop_gradient"
            L.append(f"{_I}# with {why} MindSpore differentiates the loss alone")
        L.append(f"{_I}{local[0]}.backward()")
    L += _loop_end(
        session,
        _I,
        f"np.isfinite(loss_value) and all(torch.isfinite(param.grad).all() for param in [{', '.join(trainable)}])",
    )
    L += [f"{_I}optimizer.step()", f"{_I}optimizer.zero_grad()"]
    if spec is not None:  # the same steps, a mini-batch each, in a DataLoader over the documented order
        step = [line[len(_I) :] for line in L[2:]]
        step = [line.replace("break  #", "return  #") for line in step]
        loader = (
            "train_loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.tensor(train_x), "
            f"torch.tensor(train_y)), batch_size={spec.batch_size}, sampler=epoch_order(epoch).tolist())"
        )
        L = ["", ""] + _epochs(session, spec, "torch.tensor", loader, "train_loader", step, "detach().numpy()")
        return defs, "\n".join(L) + "\n"
    return defs, "\n".join(L) + "\n"


def script(session: Session, framework: str, attr_names: dict[str, str] | None = None) -> str:
    if framework == "mindspore":
        return mindspore_script(session, attr_names)
    if framework == "pytorch":
        return pytorch_script(session)
    raise ValueError(f"unknown framework {framework!r}; use one of {', '.join(FRAMEWORKS)}")

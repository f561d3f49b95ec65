"""Analytic numpy forward and backward passes for the graph kinds, to check the engine against.

Written from the formulas, not from MindSpore: loss gradients are derived by hand."""

import numpy as np

from gradviz.model.graph import Graph, initial_values


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def forward(graph: Graph, vals: dict) -> dict:
    v = {k: np.asarray(x, np.float64) for k, x in vals.items()}
    for n in graph.topo_order():
        a = n.inputs
        if n.is_source:
            continue
        if n.kind == "MatMul":
            v[n.name] = v[a["a"]] @ v[a["b"]]
        elif n.kind == "Add":
            v[n.name] = v[a["a"]] + v[a["b"]]
        elif n.kind == "Mul":
            v[n.name] = v[a["a"]] * v[a["b"]]
        elif n.kind in ("StopGradient", "Output"):
            v[n.name] = v[a["x"]]
        elif n.kind == "BCEWithLogits":
            z, y = v[a["logits"]], v[a["target"]]
            v[n.name] = np.mean(np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z))))
        elif n.kind == "MSE":
            v[n.name] = np.mean((v[a["pred"]] - v[a["target"]]) ** 2)
        elif n.kind == "Tanh":
            v[n.name] = np.tanh(v[a["x"]])
        elif n.kind == "SoftmaxCrossEntropy":
            z, y = np.atleast_2d(v[a["logits"]]), np.atleast_2d(v[a["target"]])
            log_p = z - z.max(axis=-1, keepdims=True)
            log_p = log_p - np.log(np.exp(log_p).sum(axis=-1, keepdims=True))
            v[n.name] = np.mean(-(y * log_p).sum(axis=-1))
    return v


def _unbroadcast(g, shape):
    while g.ndim > len(shape):
        g = g.sum(axis=0)
    for i, s in enumerate(shape):
        if s == 1 and g.shape[i] != 1:
            g = g.sum(axis=i, keepdims=True)
    return g


def backward(graph: Graph, v: dict, aux_seed: bool) -> dict:
    """Gradient of loss (+ sum of each aux output when aux_seed) w.r.t. every node."""
    g = {n.name: np.zeros_like(v[n.name]) for n in graph.nodes if n.kind not in ("Output", "Dataset")}
    outs = graph.outputs()
    g[outs[0].inputs["x"]] = g[outs[0].inputs["x"]] + 1.0
    if aux_seed:
        for o in outs[1:]:
            g[o.inputs["x"]] = g[o.inputs["x"]] + np.ones_like(v[o.inputs["x"]])
    for n in reversed(graph.topo_order()):
        if n.is_source or n.kind == "Output":
            continue
        gn, a = g[n.name], n.inputs
        if n.kind == "MatMul":
            A, B = v[a["a"]], v[a["b"]]
            if A.ndim == 1 and B.ndim == 2:
                g[a["a"]] += B @ gn
                g[a["b"]] += np.outer(A, gn)
            elif A.ndim == 2 and B.ndim == 2:
                g[a["a"]] += gn @ B.T
                g[a["b"]] += A.T @ gn
            elif A.ndim == 2 and B.ndim == 1:
                g[a["a"]] += np.outer(gn, B)
                g[a["b"]] += A.T @ gn
            else:
                g[a["a"]] += gn * B
                g[a["b"]] += gn * A
        elif n.kind == "Add":
            g[a["a"]] += _unbroadcast(gn * np.ones_like(v[n.name]), v[a["a"]].shape)
            g[a["b"]] += _unbroadcast(gn * np.ones_like(v[n.name]), v[a["b"]].shape)
        elif n.kind == "Mul":
            g[a["a"]] += _unbroadcast(gn * v[a["b"]], v[a["a"]].shape)
            g[a["b"]] += _unbroadcast(gn * v[a["a"]], v[a["b"]].shape)
        elif n.kind == "StopGradient":
            pass
        elif n.kind == "BCEWithLogits":
            z, y = v[a["logits"]], v[a["target"]]
            g[a["logits"]] += gn * (_sigmoid(z) - y) / z.size
            g[a["target"]] += gn * (-z) / z.size
        elif n.kind == "Tanh":
            g[a["x"]] += gn * (1 - v[n.name] ** 2)
        elif n.kind == "SoftmaxCrossEntropy":  # d/dz mean_i -sum_k y_ik log softmax(z_i)_k = (softmax(z) - y) / N
            z, y = v[a["logits"]], v[a["target"]]
            e = np.exp(z - z.max(axis=-1, keepdims=True))
            rows = 1 if z.ndim == 1 else z.shape[0]
            g[a["logits"]] += gn * (e / e.sum(axis=-1, keepdims=True) - y) / rows
        elif n.kind == "MSE":
            p, t = v[a["pred"]], v[a["target"]]
            g[a["pred"]] += gn * 2 * (p - t) / p.size
            g[a["target"]] += gn * -2 * (p - t) / p.size
    return g


def grads_for(session, params: dict | None = None) -> tuple[float, dict, dict]:
    """(loss, node gradients, node values) of a session at its initial (or given) parameters."""
    o = session.options
    vals = initial_values(session.graph, o.seed)
    if params:
        vals.update(params)
    v = forward(session.graph, vals)
    aux_seed = o.aux_output and not o.stop_gradient and not o.has_aux
    g = backward(session.graph, v, aux_seed)
    loss = float(v[session.graph.outputs()[0].inputs["x"]])
    return loss, g, v


class NumpyOptimizer:
    """SGD, Momentum (0.9) and Adam exactly as mindspore.nn defines their updates."""

    def __init__(self, kind: str, lr: float):
        self.kind, self.lr, self.t, self.m, self.v = kind, lr, 0, {}, {}

    def update(self, params: dict, grads: dict) -> dict:
        self.t += 1
        out = {}
        for k, p in params.items():
            if k not in grads:
                out[k] = p
                continue
            g = grads[k]
            if self.kind == "sgd":
                out[k] = p - self.lr * g
            elif self.kind == "momentum":
                self.m[k] = 0.9 * self.m.get(k, 0) + g
                out[k] = p - self.lr * self.m[k]
            else:
                b1, b2, eps = 0.9, 0.999, 1e-8
                self.m[k] = b1 * self.m.get(k, 0) + (1 - b1) * g
                self.v[k] = b2 * self.v.get(k, 0) + (1 - b2) * g * g
                lr_t = self.lr * np.sqrt(1 - b2**self.t) / (1 - b1**self.t)
                out[k] = p - lr_t * self.m[k] / (np.sqrt(self.v[k]) + eps)
        return out


def replay(session, steps: int):
    """The session's training run in float64 numpy: yields (step, loss, node gradients, parameters
    before that step's update) for steps 1..steps, with the session's optimizer and learning rate
    (over a Dataset node, each step on its mini-batch in the documented order)."""
    from gradviz.model import datasets

    o = session.options
    trained = [n.name for n in session.graph.nodes if n.kind == "Parameter" and n.requires_grad]
    params = {k: np.asarray(v, np.float64) for k, v in initial_values(session.graph, o.seed).items() if k in trained}
    opt = NumpyOptimizer(o.optimizer, o.lr)
    spec = session.graph.data_spec()
    data = datasets.prepare(spec) if spec is not None else None
    for k in range(1, steps + 1):
        batch = {}
        if data is not None:
            pos = data.batch_positions(k)
            batch = {n.name: data.inputs(n.init, "train", pos).astype(np.float64) for n in session.graph.data_inputs()}
        loss, g, _ = grads_for(session, {**params, **batch})
        yield k, loss, g, params
        params = opt.update(params, {n: g[n] for n in trained})


def first_overflow(session, steps: int):
    """(k, parameters before step k) for the first step k whose loss or a gradient leaves
    float32's range in the float64 run: where a float32 engine meets its first non-finite value."""
    big = float(np.finfo(np.float32).max)
    for k, loss, g, params in replay(session, steps):
        if abs(loss) > big or any(np.max(np.abs(g[n])) > big for n in params):
            return k, params
    raise AssertionError(f"the run stays in float32's range for {steps} steps")


def moons_forward(points: np.ndarray, params: dict) -> tuple[np.ndarray, dict]:
    """The moons preset's network written out (three Dense layers, tanh between) in float64 numpy:
    (softmax probabilities, {hidden node: value}) at these points and parameters."""
    p = {k: np.asarray(v, np.float64) for k, v in params.items()}
    fc1 = points.astype(np.float64) @ p["fc1_weight"].T + p["fc1_bias"]
    h1 = np.tanh(fc1)
    fc2 = h1 @ p["fc2_weight"].T + p["fc2_bias"]
    h2 = np.tanh(fc2)
    z = h2 @ p["logits_weight"].T + p["logits_bias"]
    e = np.exp(z - z.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True), {"fc1": fc1, "h1": h1, "fc2": fc2, "h2": h2}

"""What a classifier predicts for each example of a data set, and the counts made from it.

The class scores are the loss's first input. Where the loss port is `logits` (the op table's
name for it), the probabilities are their softmax (a sigmoid for one score a sample); where it
is `pred`, the scores are taken as the probabilities themselves. A sample with several scores is
predicted the class of the largest; with one score, class 1 above 0.5 probability.

Qt-free and MindSpore-free: the engine predicts, the window and the run reader count."""

from __future__ import annotations

import numpy as np

from .ops import OPS


def probabilities(scores: np.ndarray, loss_kind: str) -> np.ndarray:
    """float64 (n, classes) class probabilities of the class scores (n, classes) or (n, 1) that
    a loss of this kind reads (one score: the columns are classes 0 and 1)."""
    s = np.asarray(scores, np.float64).reshape(len(scores), -1)
    logits = OPS[loss_kind].ports[0] == "logits"
    if s.shape[1] > 1:
        if not logits:
            return s
        e = np.exp(s - s.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    p1 = 1.0 / (1.0 + np.exp(-s[:, 0])) if logits else s[:, 0]
    return np.stack([1.0 - p1, p1], axis=1)


def predict(scores: np.ndarray, loss_kind: str) -> tuple[np.ndarray, np.ndarray]:
    """(predicted class int16 (n,), the probability of that class float32 (n,)) of the class
    scores (n, classes) or (n, 1) that a loss of this kind reads."""
    p = probabilities(scores, loss_kind)
    if p.shape[1] > 2 or np.asarray(scores).reshape(len(p), -1).shape[1] > 1:
        predicted = p.argmax(axis=1)
    else:  # one score: class 1 above 0.5
        predicted = (p[:, 1] > 0.5).astype(int)
    top = p[np.arange(len(p)), predicted]
    return predicted.astype(np.int16), np.clip(top, 0.0, 1.0).astype(np.float32)


def confusion(predicted: np.ndarray, labels: np.ndarray, classes: int) -> np.ndarray:
    """int64 (classes, classes): row = the true class, column = the predicted class."""
    out = np.zeros((classes, classes), np.int64)
    np.add.at(out, (np.asarray(labels, int), np.asarray(predicted, int)), 1)
    return out


def per_class_accuracy(counts: np.ndarray) -> np.ndarray:
    """Each true class's fraction predicted right (a confusion matrix's diagonal over its row
    sums); NaN for a class with no example."""
    counts = np.asarray(counts, float)
    rows = counts.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(rows > 0, np.diag(counts) / np.where(rows > 0, rows, 1), np.nan)

"""A training set's mini-batches through mindspore.dataset, in the order model/datasets.py defines.

Epoch e visits the training set in `datasets.epoch_order` (RandomState(seed + e).permutation),
in batches of `batch_size`, the last of each epoch possibly short.

- `epoch_batches`: the textbook pipeline, as the exported MindSpore script writes it: a
  `NumpySlicesDataset` with a `SubsetSampler` over that order, then `batch`.
- `chunk_batches`, what the engine trains on: the same batches, a run of consecutive ones in
  each element of a `NumpySlicesDataset` that serves several epochs. Making a pipeline, or
  reading one sample by sample, costs more than a step of these networks; reading an element
  costs about the same whatever its size, so an element holds up to ELEMENT_FLOATS numbers of
  batches. A short batch is padded to the full size in the pipeline and cut back here (its
  `rows` column).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..model.datasets import epoch_order

CHUNK_STEPS = 512  # about this many steps (whole epochs, at least one) per pipeline
CHUNK_FLOATS = 1 << 22  # and at most about this many numbers gathered for it
ELEMENT_FLOATS = 1 << 18  # numbers of the batches in one pipeline element, at most (one batch at least)


def epoch_batches(
    features: np.ndarray, targets: np.ndarray, batch_size: int, seed: int, epoch: int
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(features, targets) of each mini-batch of epoch `epoch` (1-based) of this training set."""
    import mindspore.dataset as ds

    order = epoch_order(len(features), seed, epoch)
    data = ds.NumpySlicesDataset(
        (features, targets), column_names=["x", "y"], sampler=ds.SubsetSampler(order.tolist())
    ).batch(batch_size, drop_remainder=False)
    yield from data.create_tuple_iterator(output_numpy=True, num_epochs=1)


def chunk_epochs(n_train: int, batch_size: int, width: int) -> int:
    """How many epochs one pipeline of chunk_batches serves (`width`: numbers per sample)."""
    per_epoch = -(-n_train // batch_size)
    return max(1, min(CHUNK_STEPS // per_epoch, CHUNK_FLOATS // max(1, per_epoch * batch_size * width)))


def chunk_batches(
    features: np.ndarray, targets: np.ndarray, batch_size: int, seed: int, first_epoch: int, epochs: int
) -> Iterator[tuple[int, int, np.ndarray, np.ndarray]]:
    """(epoch, batch (1-based), features, targets) of each mini-batch of epochs first_epoch to
    first_epoch + epochs - 1, through one mindspore.dataset pipeline."""
    import mindspore.dataset as ds

    n = len(features)
    per_epoch = -(-n // batch_size)
    pad = per_epoch * batch_size - n
    orders = [epoch_order(n, seed, e) for e in range(first_epoch, first_epoch + epochs)]
    # each epoch's order padded with its own first positions to whole batches (cut back below)
    pos = np.stack([np.concatenate([o, o[:pad]]) for o in orders]).reshape(-1, batch_size)
    rows = np.tile([batch_size] * (per_epoch - 1) + [batch_size - pad], epochs).astype(np.int32)
    width = int(np.prod(features.shape[1:])) + int(np.prod(targets.shape[1:]))
    group = max(1, min(len(pos), ELEMENT_FLOATS // max(1, batch_size * width)))  # batches an element
    more = -len(pos) % group  # whole elements: padded with empty batches, never read
    pos = np.concatenate([pos, np.repeat(pos[:1], more, axis=0)]).reshape(-1, group, batch_size)
    rows = np.concatenate([rows, np.zeros(more, np.int32)]).reshape(-1, group)
    data = ds.NumpySlicesDataset({"x": features[pos], "y": targets[pos], "rows": rows}, sampler=ds.SequentialSampler())
    total, i = epochs * per_epoch, 0
    for xs, ys, ks in data.create_tuple_iterator(output_numpy=True, num_epochs=1):
        for x, y, k in zip(xs, ys, ks.tolist()):
            if i == total:
                return
            yield first_epoch + i // per_epoch, i % per_epoch + 1, x[:k], y[:k]
            i += 1

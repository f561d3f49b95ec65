"""A training set's mini-batches through mindspore.dataset, in the order model/datasets.py defines.

Epoch e visits the training set in `datasets.epoch_order` (RandomState(seed + e).permutation):
a SubsetSampler over that order, then `batch` (the last batch may be short), so the batches are
the ones any framework reproduces from the documented order.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..model.datasets import epoch_order


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

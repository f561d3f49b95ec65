"""The engine's reader of a folder of MNIST IDX files, through mindspore.dataset.MnistDataset
(model/datasets.py checks the files from their headers; nothing is downloaded).

The samples are the first `n` in file order: the training files', then the t10k files', each
28x28 pixels scaled from 0-255 to [0, 1] and flattened row by row."""

from __future__ import annotations

import os

import numpy as np

from ..model.datasets import MNIST_FILES, MNIST_SIDE

READ_BATCH = 1024  # images per element read from the pipeline (one at a time costs far more)


def read(folder: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(features float32 (n, 784) in [0, 1], labels int32 (n,)) of the folder's first n images."""
    import mindspore.dataset as ds

    xs, ys = [], []
    left = n
    for images, _labels in MNIST_FILES:  # MnistDataset's usage "train", then "test" (t10k)
        if left <= 0 or not os.path.exists(os.path.join(folder, images)):
            continue
        usage = "train" if images.startswith("train") else "test"
        data = ds.MnistDataset(folder, usage=usage, shuffle=False)
        take = min(left, data.get_dataset_size())
        data = ds.MnistDataset(folder, usage=usage, num_samples=take, shuffle=False).batch(READ_BATCH)
        for image, label in data.create_tuple_iterator(output_numpy=True, num_epochs=1):
            xs.append(image.reshape(len(image), MNIST_SIDE * MNIST_SIDE).astype(np.float32) / 255.0)
            ys.append(label.astype(np.int32))
        left -= take
    if not xs:
        return np.zeros((0, MNIST_SIDE * MNIST_SIDE), np.float32), np.zeros(0, np.int32)
    return np.concatenate(xs), np.concatenate(ys)

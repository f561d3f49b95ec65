"""Data sets: the sources, the split and the mini-batch order as the documented definitions say,
checked against numpy written here (and the mini-batches through mindspore.dataset)."""

import numpy as np
import pytest

from gradviz.model import datasets
from gradviz.model.datasets import DataSpec


def test_the_split_is_the_last_round_n_test_fraction_of_a_seeded_permutation():
    train, test = datasets.split(10, 0.25, 5)
    perm = np.random.RandomState(5).permutation(10)
    assert list(test) == list(perm[-2:]) == list(perm[8:]) and list(train) == list(perm[:8])  # round(2.5) == 2


def test_epoch_e_visits_the_training_set_in_the_seed_plus_e_permutation_last_batch_short():
    bs = datasets.batches(10, 4, 3, 2)
    assert [len(b) for b in bs] == [4, 4, 2]
    np.testing.assert_array_equal(np.concatenate(bs), np.random.RandomState(5).permutation(10))


@pytest.mark.parametrize("source", datasets.TWO_D)
def test_the_2d_sets_have_two_features_two_classes_and_follow_their_seed(source):
    spec = DataSpec(source=source, size=60, noise=0.1, seed=1)
    x, y = datasets.load(spec)
    assert x.shape == (60, 2) and x.dtype == np.float32 and set(np.unique(y)) == {0, 1}
    np.testing.assert_array_equal(x, datasets.load(spec)[0])
    assert not np.array_equal(x, datasets.load(DataSpec(source=source, size=60, noise=0.1, seed=2))[0])


def test_moons_are_scikit_learns_and_xor_is_the_quadrants_sign():
    from sklearn.datasets import make_moons

    x, y = datasets.load(DataSpec(source="moons", size=50, noise=0.2, seed=4))
    ex, ey = make_moons(n_samples=50, noise=0.2, random_state=4)
    np.testing.assert_array_equal(x, ex.astype(np.float32)) and np.testing.assert_array_equal(y, ey)
    x, y = datasets.load(DataSpec(source="xor", size=200, noise=0.0, seed=0))
    np.testing.assert_array_equal(y, (x[:, 0] * x[:, 1] > 0).astype(np.int32))


def test_the_digits_are_scaled_to_0_1():
    x, y = datasets.load(DataSpec(source="digits"))
    assert x.shape == (1797, 64) and x.min() == 0.0 and x.max() == 1.0 and sorted(set(y)) == list(range(10))


@pytest.mark.parametrize(
    "spec,field",
    [
        (DataSpec(batch_size=0), "batch_size"),
        (DataSpec(size=20, batch_size=17), "batch_size"),
        (DataSpec(size=10, test_fraction=0.01), "no test example"),
        (DataSpec(test_fraction=1.0), "test_fraction"),
        (DataSpec(source="imagenet"), "source"),
        (DataSpec(size=2), "size"),
    ],
)
def test_bad_data_settings_name_their_field(spec, field):
    problems = [str(p) for p in spec.problems()]
    assert problems and field in problems[0]
    assert DataSpec().problems() == []


@pytest.mark.real_engine
def test_mindspore_dataset_batches_follow_the_documented_order():
    from gradviz.engine.batches import epoch_batches

    x = np.arange(22, dtype=np.float32).reshape(11, 2)
    y = np.arange(11, dtype=np.int32)
    got = list(epoch_batches(x, y, 4, 7, 3))
    order = np.random.RandomState(10).permutation(11)
    assert [len(b[0]) for b in got] == [4, 4, 3]
    np.testing.assert_array_equal(np.concatenate([b[1] for b in got]), order)
    np.testing.assert_array_equal(np.concatenate([b[0] for b in got]), x[order])


@pytest.mark.real_engine
@pytest.mark.parametrize("element_floats", [1, 30, 100, 1 << 18])
def test_the_engines_chunked_batches_are_the_textbook_pipelines(monkeypatch, element_floats):
    # elements of one batch, of several (straddling epochs, padded at the end) and of all of them
    from gradviz.engine import batches

    monkeypatch.setattr(batches, "ELEMENT_FLOATS", element_floats)
    x = np.arange(33, dtype=np.float32).reshape(11, 3)
    y = np.arange(11, dtype=np.int32) % 2
    got = list(batches.chunk_batches(x, y, 4, 7, 2, 3))
    want = [(e, b + 1, bx, by) for e in (2, 3, 4) for b, (bx, by) in enumerate(batches.epoch_batches(x, y, 4, 7, e))]
    assert [(e, b) for e, b, _, _ in got] == [(e, b) for e, b, _, _ in want]
    for (_, _, gx, gy), (_, _, wx, wy) in zip(got, want):
        np.testing.assert_array_equal(gx, wx)
        np.testing.assert_array_equal(gy, wy)

"""The Dataset node's file sources: a CSV file of the user's and a folder of MNIST IDX files.
Loaded values are checked against numpy reading the same files; every bad file is named with its
line (or the missing or truncated file), without a traceback, and the session stays as it was."""

import json

import numpy as np
import pytest

from gradviz.model import datasets
from gradviz.model.datasets import DataSpec
from gradviz.model.presets import load_preset
from gradviz.model.session import save_session


def _csv(tmp_path, text, name="data.csv"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def _table(rng, n=30, d=3):
    x = np.round(rng.uniform(-5, 5, (n, d)), 4)
    y = np.arange(n) % 3
    return x, y


def test_a_csv_file_loads_as_numpy_reads_it(tmp_path):
    x, y = _table(np.random.RandomState(1))
    lines = ["f0,f1,f2,label"] + [",".join(f"{v:g}" for v in row) + f",{k}" for row, k in zip(x, y)]
    path = _csv(tmp_path, "\n".join(lines) + "\n")
    ref = np.loadtxt(path, delimiter=",", skiprows=1)
    spec = DataSpec(source="csv", path=path, batch_size=8)
    assert spec.problems() == []
    assert (spec.samples(), spec.features(), spec.classes()) == (30, 3, 3)
    got_x, got_y = datasets.load(spec)
    np.testing.assert_allclose(got_x, ref[:, :3].astype(np.float32), rtol=0, atol=0)
    np.testing.assert_array_equal(got_y, ref[:, 3].astype(np.int32))
    assert got_x.dtype == np.float32 and got_y.dtype == np.int32
    # the split and the order are the documented ones, as for any source
    p = datasets.prepare(spec)
    perm = np.random.RandomState(0).permutation(30)
    np.testing.assert_array_equal(p.test_y, ref[perm[-6:], 3])
    d = spec.describe()
    assert d["source"] == "csv" and d["path"] == path and d["features"] == 3 and len(d["sha256"]) == 64


def test_the_label_is_the_column_named_label_else_the_last(tmp_path):
    path = _csv(tmp_path, "a,label,b\n1,0,2\n3,1,4\n5,1,6\n7,0,8\n9,2,10\n")
    x, y = datasets.load(DataSpec(source="csv", path=path, batch_size=2))
    np.testing.assert_array_equal(x, [[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]])
    np.testing.assert_array_equal(y, [0, 1, 1, 0, 2])
    path = _csv(tmp_path, "a,b,kind\n1,2,1\n3,4,0\n5,6,1\n7,8,0\n", "last.csv")
    x, y = datasets.load(DataSpec(source="csv", path=path, batch_size=2))
    np.testing.assert_array_equal(y, [1, 0, 1, 0])
    assert x.shape == (4, 2)


@pytest.mark.parametrize(
    "text,needle",
    [
        ("a,b,label\n1,2,0\n3,,1\n", "bad.csv, line 3: column b is missing"),
        ("a,b,label\n1,2,0\n3,four,1\n", "bad.csv, line 3: column b holds 'four', not a number"),
        ("a,b,label\n1,nan,0\n3,4,1\n", "bad.csv, line 2: column b holds nan, not a finite number"),
        ("a,b,label\n1,2,0\n3,4,1.5\n", "bad.csv, line 3: the label 1.5 is not a whole number"),
        ("a,b,label\n1,2,0\n3,4,-1\n", "bad.csv, line 3: the label -1 is not a whole number"),
        ("a,b,label\n1,2,1\n3,4,1\n", "bad.csv: every label is 1; a classifier needs at least two classes"),
        ("a,b,label\n1,2,0\n3,4\n", "bad.csv, line 3: 2 cells, but the header names 3 columns"),
        ("1,2,0\n3,4,1\n", "bad.csv, line 1: the first line must be a header"),
        ("a,b,label\n", "bad.csv holds no rows of data"),
        ("", "bad.csv is empty"),
        ("a,b,label\n" + "1,2,0\n3,4,1\n" * 3, "bad.csv, line 7: more than 5 rows of data (the limit)"),
    ],
)
def test_a_bad_csv_is_named_with_its_line(tmp_path, monkeypatch, text, needle):
    monkeypatch.setattr(datasets, "MAX_SIZE", 5)
    spec = DataSpec(source="csv", path=_csv(tmp_path, text, "bad.csv"), batch_size=1)
    problems = [str(p) for p in spec.problems()]
    assert len(problems) == 1 and needle in problems[0], problems
    with pytest.raises(datasets.DataError, match="bad.csv"):
        datasets.load(spec)


def test_a_csv_over_the_size_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(datasets, "CSV_MAX_BYTES", 1 << 20)
    path = _csv(tmp_path, "a,label\n" + "1,0\n2,1\n" * 300_000, "big.csv")
    assert "big.csv is 2.3 MB; a CSV file may have at most 1 MB" in DataSpec(source="csv", path=path).problems()[0]


def test_a_missing_path_is_named():
    assert "path is empty" in DataSpec(source="csv").problems()[0]
    assert "path /nonexistent/x.csv: no such file" in DataSpec(source="csv", path="/nonexistent/x.csv").problems()[0]
    assert "no such folder" in DataSpec(source="mnist", path="/nonexistent").problems()[0]


def test_an_edited_csv_is_read_again(tmp_path):
    path = _csv(tmp_path, "a,label\n1,0\n2,1\n3,0\n4,1\n")
    assert DataSpec(source="csv", path=path, batch_size=1).samples() == 4
    _csv(tmp_path, "a,label\n1,0\n2,1\n3,0\n4,1\n5,1\n6,0\n")
    assert DataSpec(source="csv", path=path, batch_size=1).samples() == 6


# -- the graph and the session over a bad file ------------------------------------------------------
def _moons_on(source: str, path: str, **attrs):
    s = load_preset("moons")
    node = s.graph.dataset()
    node.attrs = dict(node.attrs, source=source, path=path, **attrs)
    return s


def test_the_dataset_node_names_a_bad_csv_and_its_inputs_follow_a_good_one(tmp_path):
    bad = _csv(tmp_path, "a,b,label\n1,2,0\n3,x,1\n", "bad.csv")
    s = _moons_on("csv", bad)
    assert [str(p) for p in s.graph.validate() if p.node == "data"] == [
        "Dataset \"data\": bad.csv, line 3: column b holds 'x', not a number"
    ]
    assert any("bad.csv" in str(p) for p in s.problems())
    rows = "\n".join(f"{i % 7},{i % 5},{i % 2}" for i in range(50))
    s = _moons_on("csv", _csv(tmp_path, "a,b,label\n" + rows + "\n"))
    assert s.problems() == []
    assert s.graph.check()["x"] == (16, 2)


def test_batch_size_and_split_are_checked_against_the_files_samples(tmp_path):
    path = _csv(tmp_path, "a,label\n" + "".join(f"{i},{i % 2}\n" for i in range(10)))
    assert "training set's 8 samples, not 9" in DataSpec(source="csv", path=path, batch_size=9).problems()[0]
    assert "no test example" in DataSpec(source="csv", path=path, batch_size=1, test_fraction=0.01).problems()[0]
    assert "batch_size" in DataSpec(source="csv", path=path, batch_size=0).problems()[0]


def test_headless_run_over_a_bad_csv_exits_2_naming_the_line(tmp_path, capsys):
    from gradviz.cli import main

    bad = _csv(tmp_path, "a,b,label\n1,2,0\n3,,1\n", "bad.csv")
    p = tmp_path / "s.json"
    save_session(_moons_on("csv", bad), p)
    code = main(["run", "--session", str(p), "--out", str(tmp_path / "out.jsonl")])
    err = capsys.readouterr().err
    assert code == 2 and "bad.csv, line 3: column b is missing" in err and "Traceback" not in err
    assert not (tmp_path / "out.jsonl").exists()


# -- MNIST -------------------------------------------------------------------------------------------
def write_idx(folder, prefix, images, labels):
    """MNIST's IDX files, written with numpy: magic 2051 / 2049, the counts and sizes big-endian."""
    n = len(images)
    with open(folder / f"{prefix}-images-idx3-ubyte", "wb") as f:
        f.write(np.array([2051, n, 28, 28], ">u4").tobytes() + np.asarray(images, np.uint8).tobytes())
    with open(folder / f"{prefix}-labels-idx1-ubyte", "wb") as f:
        f.write(np.array([2049, n], ">u4").tobytes() + np.asarray(labels, np.uint8).tobytes())


def mnist_folder(tmp_path, n_train=6, n_test=3):
    rng = np.random.RandomState(3)
    folder = tmp_path / "mnist"
    folder.mkdir()
    images = rng.randint(0, 256, (n_train + n_test, 28, 28))
    labels = rng.randint(0, 10, n_train + n_test)
    write_idx(folder, "train", images[:n_train], labels[:n_train])
    if n_test:
        write_idx(folder, "t10k", images[n_train:], labels[n_train:])
    return folder, images, labels


def test_an_mnist_folder_is_checked_from_its_headers(tmp_path, monkeypatch):
    monkeypatch.delitem(datasets._READERS, "mnist", raising=False)  # as in the window's process
    folder, _, _ = mnist_folder(tmp_path)
    spec = DataSpec(source="mnist", path=str(folder), size=100, batch_size=2)
    assert spec.problems() == []
    assert (spec.samples(), spec.features(), spec.classes(), spec.image_shape()) == (9, 784, 10, (28, 28))
    assert DataSpec(source="mnist", path=str(folder), size=5, batch_size=2).samples() == 5
    # outside the engine process the images are not read
    with pytest.raises(datasets.DataError, match="engine"):
        datasets.load(spec)


def test_the_t10k_files_are_optional(tmp_path):
    folder, _, _ = mnist_folder(tmp_path, n_test=0)
    assert DataSpec(source="mnist", path=str(folder), size=100, batch_size=2).samples() == 6


@pytest.mark.parametrize(
    "damage,needle",
    [
        ("rm train-labels-idx1-ubyte", "has no file train-labels-idx1-ubyte"),
        ("rm t10k-images-idx3-ubyte", "has no file t10k-images-idx3-ubyte"),
        ("gz train-images-idx3-ubyte", "has train-images-idx3-ubyte.gz: unpack it"),
        ("cut train-images-idx3-ubyte", "train-images-idx3-ubyte is truncated: its header says 6 items"),
        ("cut t10k-labels-idx1-ubyte", "t10k-labels-idx1-ubyte is truncated"),
        ("head train-labels-idx1-ubyte", "train-labels-idx1-ubyte is truncated: it has no complete header"),
        ("magic train-images-idx3-ubyte", "train-images-idx3-ubyte is not an MNIST IDX file"),
    ],
)
def test_a_damaged_mnist_folder_names_the_file(tmp_path, damage, needle):
    folder, _, _ = mnist_folder(tmp_path)
    what, name = damage.split()
    p = folder / name
    data = p.read_bytes()
    if what == "rm":
        p.unlink()
    elif what == "gz":
        p.rename(folder / (name + ".gz"))
    elif what == "cut":
        p.write_bytes(data[:-10])
    elif what == "head":
        p.write_bytes(data[:5])
    else:
        p.write_bytes(np.array([1234], ">u4").tobytes() + data[4:])
    problems = [str(m) for m in DataSpec(source="mnist", path=str(folder), batch_size=2).problems()]
    assert len(problems) == 1 and needle in problems[0], problems


@pytest.mark.real_engine
def test_mnistdataset_reads_the_folder_as_numpy_does(tmp_path, monkeypatch):
    from gradviz.engine import mnist

    folder, images, labels = mnist_folder(tmp_path)
    x, y = mnist.read(str(folder), 8)  # the training files' 6, then the first 2 of t10k
    want = images[:8].reshape(8, 784).astype(np.float64) / 255.0
    np.testing.assert_allclose(x, want, rtol=0, atol=1e-7)
    np.testing.assert_array_equal(y, labels[:8])
    assert x.dtype == np.float32 and y.dtype == np.int32 and x.min() >= 0 and x.max() <= 1
    # installed as the engine does, the data set's split comes from these samples
    monkeypatch.setitem(datasets._READERS, "mnist", mnist.read)
    p = datasets.prepare(DataSpec(source="mnist", path=str(folder), size=8, test_fraction=0.25, batch_size=2))
    perm = np.random.RandomState(0).permutation(8)
    np.testing.assert_array_equal(p.test_y, labels[perm[-2:]])
    np.testing.assert_allclose(p.train_x, want[perm[:6]], atol=1e-7)


def _losses(path):
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    return [r["loss"] for r in recs if r["type"] == "step"], recs


@pytest.mark.real_engine
@pytest.mark.parametrize("source", ["csv", "mnist"])
def test_a_file_source_trains_headless_and_its_exported_script_reproduces_it(tmp_path, source):
    """The engine reads the file (MNIST through MnistDataset), and the exported MindSpore script,
    reading it with numpy in its own process, prints the same losses."""
    import re
    import subprocess
    import sys

    from gradviz.cli import main

    if source == "csv":
        rng = np.random.RandomState(0)
        x = rng.normal(0, 1, (40, 2))
        path = _csv(tmp_path, "u,v,label\n" + "".join(f"{a:.5f},{b:.5f},{int(a > 0)}\n" for a, b in x))
        s = _moons_on("csv", path, batch_size=8)
    else:
        folder, _, _ = mnist_folder(tmp_path, n_train=30, n_test=10)
        s = _moons_on("mnist", str(folder), size=36, batch_size=8)
        g = s.graph
        g["fc1"].attrs = dict(g["fc1"].attrs, in_channels=784)
        g["logits"].attrs = dict(g["logits"].attrs, out_channels=10)
    assert s.problems() == []
    p = tmp_path / "s.json"
    save_session(s, p)
    out = tmp_path / "out.jsonl"
    assert main(["run", "--session", str(p), "--steps", "6", "--out", str(out)]) == 0
    losses, recs = _losses(out)
    assert len(losses) == 6 and recs[0]["dataset"]["source"] == source
    assert [r["epoch"] for r in recs if r["type"] == "eval"] == [1]  # 4 steps an epoch
    script = tmp_path / "exported.py"
    assert main(["export", "--framework", "mindspore", "--session", str(p), "--steps", "6", "--out", str(script)]) == 0
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    got = [float(v) for v in re.findall(r"^step \d+ loss (\S+)$", done.stdout, re.M)]
    np.testing.assert_allclose(got, losses, rtol=1e-5, atol=1e-5)

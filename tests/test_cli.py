"""The headless `run` command: records, exit codes and messages."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gradviz.cli import main
from gradviz.model.presets import load_preset
from gradviz.model.session import save_session
from reference import first_overflow, grads_for

ROOT = Path(__file__).resolve().parents[1]


def run(tmp_path, *args):
    out = tmp_path / "out.jsonl"
    code = main(["run", *args, "--out", str(out)])
    recs = [json.loads(ln) for ln in out.read_text().splitlines()] if out.exists() else None
    return code, recs


def test_records_of_the_tutorial_with_z(tmp_path):
    code, recs = run(tmp_path, "--preset", "tutorial", "--aux-output", "--steps", "3")
    assert code == 0
    assert [r["type"] for r in recs] == ["run", "step", "step", "step", "end"]
    head = recs[0]
    assert head["config"]["aux_output"] is True and head["config"]["steps"] == 3
    assert head["inputs"]["x"] == [1.0] * 5 and head["inputs"]["y"] == [0.0] * 3
    s1 = recs[1]
    assert s1["step"] == 1 and set(s1) >= {"loss", "params", "grads", "aux", "step_ms"}
    assert np.array(s1["params"]["w"]).shape == (5, 3)
    s = load_preset("tutorial")
    s.options.aux_output = True
    loss, g, v = grads_for(s)
    assert s1["loss"] == pytest.approx(loss, rel=1e-6)
    np.testing.assert_allclose(s1["grads"]["b"], g["b"], rtol=1e-5)
    np.testing.assert_allclose(s1["aux"]["z"], v["z"], rtol=1e-5)
    assert recs[-1] == {"type": "end", "reason": "max_steps", "steps": 3}


def test_linreg_seed_until_loss_graph_mode(tmp_path):
    code, recs = run(tmp_path, "--preset", "linreg_seed", "--mode", "graph", "--api", "cell")
    assert code == 0
    assert recs[-1] == {"type": "end", "reason": "until_loss", "steps": 300}
    assert recs[1]["loss"] == pytest.approx(25290.72)
    assert recs[2]["params"]["weight"] == pytest.approx([4.716075])
    assert recs[-2]["loss"] < 0.001 <= recs[-3]["loss"]


def test_session_file_and_overrides(tmp_path):
    s = load_preset("linreg")
    p = tmp_path / "s.json"
    save_session(s, p)
    code, recs = run(
        tmp_path, "--session", str(p), "--steps", "2", "--lr", "0.001", "--optimizer", "adam", "--seed", "7"
    )
    assert code == 0 and recs[0]["config"]["optimizer"] == "adam" and recs[0]["config"]["seed"] == 7
    assert recs[-1]["reason"] == "max_steps"


def test_divergence_exits_3_with_complete_file(tmp_path):
    code, recs = run(tmp_path, "--preset", "linreg", "--lr", "100")
    assert code == 3
    s = load_preset("linreg")
    s.options.lr = 100.0
    k, kept = first_overflow(s, 50)  # the loss leaves float32's range first: written as null
    assert recs[-1] == {"type": "end", "reason": "non_finite", "steps": k}
    assert [r["step"] for r in recs[1:-1]] == list(range(1, k + 1))
    assert recs[-2]["loss"] is None and all(r["loss"] is not None for r in recs[1:-2])
    for n in ("weight", "bias"):  # the parameters step k was computed at
        np.testing.assert_allclose(recs[-2]["params"][n], kept[n], rtol=1e-4)


@pytest.mark.parametrize(
    "args,needle",
    [
        (["--preset", "nope"], 'unknown preset "nope"'),
        (["--lr", "-1"], "learning rate"),
        (["--lr", "0"], "learning rate"),
        (["--steps", "0"], "steps"),
        (["--steps", "x"], "--steps"),
        (["--mode", "turbo"], "--mode"),
        (["--device", "TPU"], "--device"),
        (["--optimizer", "lbfgs"], "--optimizer"),
        (["--device", "GPU"], "GPU is not available"),
        (["--device", "Ascend"], "Ascend is not available"),
        (["--session", "/nonexistent/s.json"], "no such file"),
        (["--has-aux"], "--aux-output"),
        (["--preset", "linreg", "--aux-output"], "only one Output"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path, capsys, args, needle):
    code, recs = run(tmp_path, *args)
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert recs is None and not list(tmp_path.iterdir())  # no output file, not even a partial one
    assert len(err.splitlines()) == 1 and needle in err and "Traceback" not in err


def test_invalid_session_file_exits_2(tmp_path, capsys):
    p = tmp_path / "torn.json"
    p.write_text('{"format": "gradviz-session", "version": 1, "graph": {"nod')
    code = main(["run", "--session", str(p)])
    assert code == 2 and "not valid JSON" in capsys.readouterr().err


def test_subprocess_stdout_and_clean_stderr():
    """As a user runs it: records on stdout, exit 2 and one line on stderr for bad input."""
    ok = subprocess.run(
        [sys.executable, "main.py", "run", "--steps", "2"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert ok.returncode == 0, ok.stderr
    lines = ok.stdout.splitlines()
    assert json.loads(lines[0])["type"] == "run" and json.loads(lines[-1])["reason"] == "max_steps"
    bad = subprocess.run(
        [sys.executable, "main.py", "run", "--device", "GPU"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().startswith("gradviz run: error: device GPU is not available")
    assert len(bad.stderr.strip().splitlines()) == 1


def test_screenshot_command_writes_a_large_png(tmp_path):
    out = tmp_path / "shot.png"
    r = subprocess.run(
        [sys.executable, "main.py", "screenshot", "--preset", "tutorial", "--steps", "5", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert r.returncode == 0, r.stderr
    from PySide6.QtGui import QImage

    img = QImage(str(out))
    assert img.width() >= 1280 and img.height() >= 800


def test_closed_stdout_is_not_a_traceback():
    r = subprocess.run(
        f"{sys.executable} main.py run --steps 100000 | head -c 100 > /dev/null",
        shell=True,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        executable="/bin/bash",
    )
    assert "Traceback" not in r.stderr and "Exception" not in r.stderr, r.stderr


def test_gradviz_is_a_console_script():
    """On Windows a GUI script has no standard output: `gradviz run` must be a console script;
    the app alone has its own GUI launcher."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["scripts"]["gradviz"] == "gradviz.cli:main"
    assert "gradviz" not in project.get("gui-scripts", {})
    assert project["gui-scripts"]["gradviz-app"] == "gradviz.app:launch"


def test_mlp_preset_headless_records_the_learning_rate_and_ends_like_numpy(tmp_path):
    from gradviz.model import numeric

    code, recs = run(tmp_path, "--preset", "mlp", "--mode", "graph")
    assert code == 0 and recs[-1]["reason"] == "until_loss"
    steps = [r for r in recs if r["type"] == "step"]
    assert all(r["lr"] == pytest.approx(0.01) for r in steps)
    assert steps[0]["loss"] == pytest.approx(numeric.evaluate(load_preset("mlp"))[0], rel=1e-5)
    assert steps[-1]["loss"] < 0.05 <= steps[-2]["loss"] and 568 <= len(steps) <= 588

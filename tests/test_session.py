"""Session files: round trips, clear errors for every kind of bad file, and a fuzzed loader."""

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from gradviz.model.presets import load_preset
from gradviz.model.session import Session, SessionError, load_session, save_session


def test_round_trip(tmp_path):
    s = load_preset("tutorial")
    s.options.aux_output = True
    s.options.lr = 0.5
    s.graph["x"].init, s.graph["x"].values = "values", [1.0, 2.0, 3.0, 4.0, 5.0]
    p = tmp_path / "s.json"
    save_session(s, p)
    back = load_session(p)
    assert back.to_dict() == s.to_dict()
    assert list(tmp_path.iterdir()) == [p]  # no temporary file left behind


def _tutorial_dict():
    return load_preset("tutorial").to_dict()


def _mut(fn):
    d = _tutorial_dict()
    fn(d)
    return json.dumps(d)


BAD = {
    "empty": ("", "empty"),
    "not json": ("{not json", "not valid JSON"),
    "torn": (json.dumps(_tutorial_dict())[:200], "not valid JSON"),
    "array": ("[1, 2]", "expected a JSON object"),
    "other format": ('{"format": "x"}', "not a GradViz session"),
    "future version": (_mut(lambda d: d.update(version=99)), "version 99 is not supported"),
    "unknown kind": (_mut(lambda d: d["graph"]["nodes"][0].update(kind="Conv9")), "unknown kind"),
    "negative shape": (_mut(lambda d: d["graph"]["nodes"][0].update(shape=[-5])), "size -5"),
    "huge shape": (_mut(lambda d: d["graph"]["nodes"][2].update(shape=[100000, 100000])), "at most 1,000,000"),
    "string shape": (_mut(lambda d: d["graph"]["nodes"][0].update(shape="5")), "shape must be a list"),
    "nan value": (
        '{"format": "gradviz-session", "version": 1, "graph": {"nodes": [{"name": "x", "kind": "Input", "shape": [1], "init": "values", "values": [NaN]}]}}',
        "not valid JSON",
    ),
    "cycle": (_mut(lambda d: d["graph"]["nodes"][4]["inputs"].update(a="z")), "cycle"),
    "bad lr": (_mut(lambda d: d["options"].update(lr=-1)), "learning rate"),
    "bad option": (_mut(lambda d: d["options"].update(turbo=True)), "unknown option"),
    "seed too large": (_mut(lambda d: d["options"].update(seed=2**31)), "seed must be"),
    "huge integer": (
        '{"format": "gradviz-session", "version": 1, "graph": {"nodes": []}, "options": {"lr": 1' + "0" * 400 + "}}",
        "learning rate",
    ),
    "tiny speed": (_mut(lambda d: d["options"].update(speed=0.04)), "speed must be"),
    "values mismatch": (
        _mut(lambda d: d["graph"]["nodes"][0].update(init="values", values=[1, 2])),
        "do not match shape",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_files_give_one_clear_error(tmp_path, case):
    text, expected = BAD[case]
    p = tmp_path / "bad.json"
    p.write_text(text)
    with pytest.raises(SessionError) as e:
        load_session(p)
    assert expected in str(e.value) and str(p) in str(e.value)


def test_missing_file_and_binary(tmp_path):
    with pytest.raises(SessionError, match="no such file"):
        load_session(tmp_path / "nope.json")
    (tmp_path / "b.json").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(SessionError, match="not a text file"):
        load_session(tmp_path / "b.json")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_fuzz_random_json_only_raises_session_error(value):
    try:
        Session.from_json(json.dumps(value))
    except SessionError:
        pass


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_random_bytes(tmp_path_factory, data):
    p = tmp_path_factory.mktemp("fz") / "f.json"
    p.write_bytes(data)
    with pytest.raises(SessionError):
        load_session(p)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_fuzz_mutated_sessions(data):
    d = _tutorial_dict()
    node = data.draw(st.sampled_from(d["graph"]["nodes"]))
    key = data.draw(st.sampled_from(["shape", "init", "values", "inputs", "kind", "name", "requires_grad", "pos"]))
    node[key] = data.draw(json_values)
    try:
        Session.from_json(json.dumps(d))
    except SessionError:
        pass

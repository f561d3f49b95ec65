"""One meaning of "step" and "update" (gradviz/model/steps.py): the counts and the words."""

import pytest

from gradviz.model.steps import (
    at_parameters,
    count,
    end_message,
    kept,
    nodes_caption,
    progress,
    state_at,
    step_of_parameters,
    updates_kept,
)


def test_counts_agree_in_number():
    assert [count(n, "update") for n in (0, 1, 2, 1000)] == ["0 updates", "1 update", "2 updates", "1,000 updates"]


@pytest.mark.parametrize(
    "steps,reason,kept",
    [
        (0, None, 0),
        (12, None, 12),
        (12, "max_steps", 12),
        (12, "stopped", 12),
        (12, "until_loss", 11),
        (12, "non_finite", 11),
        (1, "non_finite", 0),
    ],
)
def test_updates_kept(steps, reason, kept):
    assert updates_kept(steps, reason) == kept


def test_a_step_names_the_parameters_it_computes_at():
    assert state_at(1) == "step 1 (parameters after 0 updates)"
    assert state_at(2) == "step 2 (parameters after 1 update)"
    assert step_of_parameters(11) == 12
    # the status bar's step: the last step computed, in the caption's words
    assert progress(12) == "step 12 (parameters after 11 updates)" and progress(0) == "no steps yet"
    assert kept(12) == "12 updates kept" and kept(1) == "1 update kept"


def test_the_node_caption_says_how_it_relates_to_the_plots():
    assert nodes_caption(0, 0) == "Nodes: step 1 (parameters after 0 updates), what the first step computes"
    # live nodes after step 12's update (training, or a history of summaries): one step named,
    # the plots' last, as in the status bar
    assert nodes_caption(12, 12) == "Nodes: live, after step 12's update (the plots' last step)"
    assert "13" not in nodes_caption(12, 12)
    # ended by stop-at-loss at step 12: its update was not kept, the nodes show step 12 itself
    assert nodes_caption(11, 12) == "Nodes: step 12 (parameters after 11 updates), the plots' last step"
    # while training, live nodes whose step the history has are named as the status bar names it
    assert nodes_caption(11, 30, training=True) == "Nodes: step 12 (parameters after 11 updates), live"
    assert nodes_caption(12, 12, training=True) == "Nodes: live, after step 12's update (the plots' last step)"


def test_end_messages_count_the_updates_kept():
    assert end_message("max_steps", 40) == "Finished at step 40: reached the maximum of 40 steps (40 updates kept)."
    assert "(16 updates kept)" in end_message("until_loss", 17) and "not kept" in end_message("until_loss", 17)
    # Max steps lowered below the steps already done (while training): the run stops at once,
    # and the message says so rather than "reached the maximum of 3,757 steps"
    assert end_message("max_steps", 3757, max_steps=1873) == (
        "Finished at step 3,757: Max steps was set to 1,873, below the steps already done (3,757 updates kept)."
    )
    assert end_message("max_steps", 40, max_steps=40) == end_message("max_steps", 40)
    m = end_message("non_finite", 2)
    assert m.startswith("Stopped at step 2:") and "(1 update kept)" in m and "learning rate" in m


def test_where_a_computation_was_made_agrees_in_number():
    assert at_parameters(0) == "at the initial parameters"
    assert at_parameters(1) == "at the parameters after 1 update"
    assert at_parameters(1234) == "at the parameters after 1,234 updates"


def test_one_end_rule_for_one_step_and_for_a_block():
    """model/ending.py: a non-finite value ends before stop-at-loss, stop-at-loss before max
    steps; the block check finds the first step the one-step rule ends, with the same reason."""
    import numpy as np

    from gradviz.model.ending import EndReason, end_reason, first_end

    assert end_reason(3, float("nan"), True, 3, 1.0) is EndReason.NON_FINITE
    assert end_reason(3, 0.5, False, 3, 1.0) is EndReason.NON_FINITE
    assert end_reason(3, 0.5, True, 3, 1.0) is EndReason.UNTIL_LOSS
    assert end_reason(3, 1.5, True, 3, 1.0) is EndReason.MAX_STEPS
    assert end_reason(2, 1.5, True, 3, None) is None and end_reason(10**6, 1.5, True, None, None) is None
    rng = np.random.default_rng(1)
    for _ in range(200):
        loss = rng.uniform(0.5, 2.0, 6)
        loss[rng.integers(0, 6)] = rng.choice([np.nan, np.inf, 0.1, 1.0])
        finite = rng.uniform(size=6) > 0.1
        first, until = int(rng.integers(1, 12)), rng.choice([None, 0.6])
        by_step = [end_reason(first + k, float(v), bool(f), 12, until) for k, (v, f) in enumerate(zip(loss, finite))]
        hit = next(((k, r) for k, r in enumerate(by_step) if r is not None), None)
        assert first_end(first, loss.astype(np.float32), finite, 12, until) == hit

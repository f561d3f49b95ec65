"""model/shown.py without Qt: what the nodes show, who may change it, and what the caption says."""

from gradviz.model.shown import NodeData, ShownNodes


def _nodes(updates: int) -> NodeData:
    return NodeData({"w": float(updates)}, {"w": 0.5}, None, updates)


def _watched() -> tuple[ShownNodes, list]:
    shown, seen = ShownNodes(), []
    shown.observe(lambda s: seen.append((s.step, s.updates, s.data)))
    return shown, seen


def test_live_nodes_are_shown_until_a_past_step_is():
    shown, seen = _watched()
    assert shown.live and shown.data is None and shown.updates == -1 and shown.step_shown == 0
    live = _nodes(3)
    assert shown.live_arrived(live)
    assert (shown.data, shown.updates, shown.step_shown) == (live, 3, 4)  # step 4: after 3 updates
    shown.show_past(2)
    assert not shown.live and shown.step_shown == 2 and shown.updates == 1
    assert shown.data is live  # the numbers stay until the engine answers
    assert not shown.live_arrived(_nodes(4))  # live nodes never replace a past step
    assert shown.data is live and len(seen) == 2


def test_an_answer_for_another_step_is_dropped():
    shown, seen = _watched()
    shown.show_past(5)
    assert not shown.past_arrived(4, _nodes(3))
    assert shown.past is None and len(seen) == 1
    at_5 = _nodes(4)
    assert shown.past_arrived(5, at_5)
    assert shown.past is at_5 and shown.data is at_5 and shown.updates == 4
    assert seen[-1] == (5, 4, at_5)


def test_back_to_live_and_forgetting_the_past():
    shown, _ = _watched()
    shown.show_past(5, at_last=True)
    shown.past_arrived(5, _nodes(4))
    live = _nodes(5)
    shown.show_live(live)
    assert shown.live and not shown.at_last and shown.past is None
    assert (shown.data, shown.updates) == (live, 5)
    shown.show_live(None)  # a saved run: no live numbers
    assert shown.data is None and shown.updates == -1
    shown.show_past(3)
    kept = shown.data, shown.updates
    shown.forget_past()  # the run went back: the next live nodes are shown; nothing else changes yet
    assert shown.live and (shown.data, shown.updates) == kept
    assert shown.live_arrived(_nodes(2))


def test_clear_keeps_the_step_shown():
    shown, _ = _watched()
    shown.show_past(7)
    shown.clear()
    assert shown.step == 7 and shown.data is None and shown.updates == -1


def test_observers_are_called_in_order_after_each_change():
    shown, calls = ShownNodes(), []
    shown.observe(lambda s: calls.append(("graph", s.updates)))
    shown.observe(lambda s: calls.append(("caption", s.updates)))
    shown.live_arrived(_nodes(1))
    shown.show_past(1)
    assert calls == [("graph", 1), ("caption", 1), ("graph", 0), ("caption", 0)]


def test_the_caption_says_what_the_numbers_are():
    shown = ShownNodes()
    assert shown.caption(True, False, 3, 4) == "Nodes: fix the problems to see values"
    assert shown.caption(False, True, None, 4).startswith("Nodes: not computed for a saved run")
    assert shown.caption(False, False, None, 0) == "Nodes: values not computed yet"
    # live nodes after 3 updates are step 4's parameters
    assert shown.caption(False, False, 3, 3) == "Nodes: live, after step 3's update (the plots' last step)"
    shown.show_past(12)
    assert shown.caption(False, False, 20, 20) == (
        "Nodes: step 12 (parameters after 11 updates), from the history slider (computing…)"
    )
    shown.past_arrived(12, _nodes(11))
    assert (
        shown.caption(False, False, 20, 20) == "Nodes: step 12 (parameters after 11 updates), from the history slider"
    )
    assert shown.caption(True, False, 20, 20) == "Nodes: fix the problems to see values"  # problems first
    shown.show_past(20, at_last=True)  # the plots' last step, shown by default
    assert shown.caption(False, False, 20, 20) == "Nodes: step 20 (parameters after 19 updates), the plots' last step"


def test_while_training_live_nodes_wait_for_their_step_and_every_label_names_it():
    """Live nodes arrive after step n's update, usually with step n itself: held until the history
    has step n + 1, so the nodes and named_step (the status bar, heat maps, History label) agree."""
    shown, seen = _watched()
    shown.run_moved(0, False)
    assert shown.live_arrived(_nodes(0)) and shown.named_step == 0  # built: no steps yet
    shown.run_moved(0, True)
    shown.run_moved(64, True)  # the first batch: steps 1 to 64; the nodes show step 1
    assert shown.named_step == 1 and shown.step_shown == 1
    assert not shown.live_arrived(_nodes(64))  # after step 64's update: step 65 is not in the history
    assert shown.held is not None and shown.updates == 0 and shown.named_step == 1 and len(seen) == 1
    shown.run_moved(64, True)  # nothing new: still held
    assert shown.updates == 0
    shown.run_moved(100, True)  # step 65 arrived: the nodes, and every label, are step 65's
    assert shown.held is None and shown.updates == 64 and shown.named_step == 65 and len(seen) == 2
    assert shown.caption(False, False, shown.updates, 100) == "Nodes: step 65 (parameters after 64 updates), live"
    assert shown.live_arrived(_nodes(80))  # its step is in the history: shown at once
    assert shown.named_step == 81
    assert not shown.live_arrived(_nodes(100))
    shown.run_moved(100, False)  # paused (or ended) at step 100: the labels name the plots' last
    assert shown.named_step == 100 and shown.updates == 80
    shown.stopped()  # and the held nodes are shown, where time travel shows no past step
    assert shown.updates == 100 and shown.held is None and shown.named_step == 100
    shown.run_moved(100, True)
    assert not shown.live_arrived(_nodes(100))
    shown.run_moved(100, False)
    shown.show_past(100, at_last=True)  # paused where the last step can be asked for: shown instead
    shown.stopped()
    assert shown.held is None and shown.updates == 99 and shown.step == 100
    shown.past_arrived(100, _nodes(99))
    shown.run_moved(100, True)  # trained on: the last step's numbers stay until the next is in the history
    shown.show_live(_nodes(100))
    assert shown.updates == 99 and shown.named_step == 100 and shown.held is not None
    shown.run_moved(120, True)
    assert shown.updates == 100 and shown.named_step == 101
    shown.clear()
    assert shown.held is None and shown.named_step == 120  # nothing shown: the plots' last step

"""`gradviz screenshot` with the engine stand-in, in a process of its own, and what the window
said in the picture: `python tests/screenshot_texts.py SESSION.json STEPS OUT.png` prints the
texts as JSON (the last line), then the command's exit code is this process's.

A process of its own: the screenshot's window is made and dropped outside any test's fixtures,
and left to a test process's garbage collector it could be destroyed in the middle of a later
test (tests/conftest.py's _delete_closed_widgets)."""

import json
import sys
from pathlib import Path


def texts(w) -> dict:
    """What the window says about the step it shows: the caption's first line, the status bar,
    the heat maps' caption, the History label, the state."""
    return {
        "caption": w.graphView.caption.split("\n")[0],
        "status": w.stepLabel.text(),
        "loss": w.lossLabel.text(),
        "heat": w.plots.heat_caption.text,
        "history": w.timeTravel.bar.stepShown.text(),
        "state": w.stateLabel.text(),
        "shownStep": w.graphView.property("shownStep"),
    }


def main(session_path: str, steps: int, out: str) -> int:
    sys.path.insert(0, str(Path(__file__).parent))
    import standin
    from gradviz.model import datasets
    from gradviz.model.session import Session
    from gradviz.ui.main_window import MainWindow
    from gradviz.ui.screenshot import take_screenshot

    real_close = MainWindow.close
    said = []

    def close(self):  # the picture is written: what the window said in it
        said.append(texts(self))
        return real_close(self)

    MainWindow.close = close
    session = Session.from_json(Path(session_path).read_text())
    spec = session.graph.data_spec()
    if spec is not None:  # read here first: scikit-learn's first import on the stand-in's thread could hang
        datasets.prepare(spec)
    code = take_screenshot(
        session, steps, out, "png", size=(1280, 720), lang="en", timeout_s=30, make_client=standin.client
    )
    print(json.dumps(said[0] if said else None))
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))

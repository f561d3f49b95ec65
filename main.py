"""Launch GradViz from a checkout: `python main.py` opens the app; `python main.py run --help`."""

import sys

from gradviz.cli import main

if __name__ == "__main__":
    sys.exit(main())

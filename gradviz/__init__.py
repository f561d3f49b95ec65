"""GradViz: see MindSpore's automatic differentiation at work.

The package root is Qt-free and MindSpore-free; the engine imports MindSpore lazily and all Qt
code lives in :mod:`gradviz.ui`.
"""

__version__ = "0.1.0"

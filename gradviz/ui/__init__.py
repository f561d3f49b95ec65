"""All Qt code of GradViz. Nothing here imports MindSpore: the engine runs in its own process."""

"""The lessons' computations: what the teaching panels and their commands show (the four
variants, the gradient check). They run MindSpore, so they run in the engine process or the CLI,
never on the GUI thread; their results are plain data."""

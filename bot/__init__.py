"""Star Trek CCG rulings: the pure core (models, importers, store, search, CLI).

Nothing in this package may import ``discord``; ``tests/test_layers.py`` enforces it.
"""

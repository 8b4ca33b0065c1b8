"""The errors of the evals package: one root, which `python -m evals` reports as exit status 2."""
from __future__ import annotations


class EvalError(Exception):
    """A run that cannot be made or judged: a bad dataset, gates file or baseline."""

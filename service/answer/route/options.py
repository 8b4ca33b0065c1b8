"""A quiz item's answer options are not inputs.

Students paste quiz and exam items: "Which is closest to the weight memory of Llama 3.1 70B in FP8? (a) 35 GB
(b) 70 GB (c) 140 GB (d) 280 GB", "… is approximately A) 25 tok/s B) 90 tok/s", options on one line or on
several. Read as figures, the options would be a card to fit into or a rate given. The stem is the question:
the options are taken out from the first of them on (two or more in order: "(a) … (b) …", "A) … B) …",
"a. … b. …"). "True or false: …" is a claim to check (route/check.py): the figure it is compared with is not
an input either.
"""
from __future__ import annotations

import re

# "(a) 35 GB", "A) 25 tok/s", "a. 12 ms": an option's letter where a line or a clause starts
_MARKER = r"(?:^|(?<=[\s:?]))(?:\(\s*{l}\s*\)|{l}\s*[).:])(?=\s)"
_FIRST, _SECOND = (re.compile(_MARKER.format(l=letter), re.IGNORECASE | re.MULTILINE) for letter in ("a", "b"))


def without_options(text: str) -> str:
    """The question without its answer options, when it has at least two of them in order."""
    first = _FIRST.search(text)
    if first is None or _SECOND.search(text, first.end()) is None:
        return text
    return text[:first.start()].rstrip(" \n:")

"""Typos fixed against the site's own vocabulary ("pagd attention", "preffil vs decode", "bandwith").

SymSpell (symspellpy) holds every word of the corpus with its frequency. A word of the question is
corrected only when it is neither a corpus word nor an English word (symspellpy's own English frequency
list): "recipe" or "haiku" are real words the site happens not to use — they are evidence that a question
is off-topic and must stay as typed — while "bandwith" is neither, and becomes "bandwidth". A correction keeps the typed word's first letter.
"""
from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from importlib import resources

from symspellpy import SymSpell, Verbosity

_WORD = re.compile(r"[a-z][a-z0-9]*(?:'[a-z]+)?")
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:'[A-Za-z]+)?")
_MIN_LENGTH = 4  # "wat" or "tho" are too short to correct safely


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """symspellpy's English frequency list: real words, which no typo fix may turn into another word."""
    text = resources.files("symspellpy").joinpath("frequency_dictionary_en_82_765.txt").read_text(encoding="utf-8")
    return frozenset(line.split(" ", 1)[0] for line in text.splitlines() if line)


class Speller:
    def __init__(self, texts: list[str]):
        words = [_WORD.findall(text.lower()) for text in texts]
        counts = Counter(w for ws in words for w in ws)
        # word pairs of the corpus: "pagd attention" is "paged attention", not "page attention"
        self.pairs = frozenset((a, b) for ws in words for a, b in zip(ws, ws[1:]))
        self.vocabulary = frozenset(counts)
        self.english = english_words()
        self.symspell = SymSpell(max_dictionary_edit_distance=2, prefix_length=7)
        for word, count in counts.items():
            if len(word) >= 3:
                self.symspell.create_dictionary_entry(word, count)

    def correct(self, question: str) -> tuple[str, dict[str, str]]:
        """The question with its misspelt words replaced, and what was replaced with what."""
        fixed: dict[str, str] = {}
        tokens = list(_TOKEN.finditer(question))
        out, last = [], 0
        for i, match in enumerate(tokens):
            before = tokens[i - 1].group(0).lower() if i else None
            after = tokens[i + 1].group(0).lower() if i + 1 < len(tokens) else None
            word = self._fix(match.group(0), before, after)
            if word != match.group(0):
                fixed[match.group(0)] = word
            out += [question[last:match.start()], word]
            last = match.end()
        return "".join(out) + question[last:], fixed

    def _fix(self, typed: str, before: str | None, after: str | None) -> str:
        word = typed.lower()
        if len(word) < _MIN_LENGTH or word in self.vocabulary or word in self.english or any(c.isdigit() for c in word):
            return typed
        distance = 1 if len(word) <= 5 else 2
        found = self.symspell.lookup(word, Verbosity.CLOSEST, max_edit_distance=distance, transfer_casing=False)
        # a slip rarely hits the first letter; a "correction" that changes it turns names the site never uses
        # into words it does (dev: "ollama" → "llama", "vram" → "dram", "dubble" → "bubble", "reqs" → "seqs")
        found = [s for s in found if s.term[0] == word[0]]
        if not found:
            return typed
        in_context = lambda s: (before, s.term) in self.pairs or (s.term, after) in self.pairs  # noqa: E731
        return max(found, key=lambda s: (in_context(s), s.count)).term

"""A figure or a name corrected where it stands → the corrected one alone.

"~~fp16~~ fp8", "tp 4 -> tp 8", "16 users → 64 users", "on an L4 → an L40S", "2 (no, 4) h100s", "mixtral 8x7b (8x22b,
sorry)", "32k ctx, er, 64k", "batch 128 (no, 256)". Read as typed, both were figures or names of the same kind, and
whichever the binder met first won (or two names made the question a comparison). The replaced words go, the new ones
stay in their place, and the Assumed line says what was corrected.
"""
from __future__ import annotations

import re

from .rewrite import each_match_rewritten

_STRUCK = re.compile(r"~~[^~\n]+~~\s*")
_ARROW = re.compile(r"\s*(?:->|→|=>)\s*")
# "(no, 4)", "(no wait, zero-3)", "(8x22b, sorry)", "(3.1, sorry)", "(edit: fp8)"
_IN_BRACKETS = re.compile(r"\s*\((?:(?:no|nope|actually|sorry|oops)\b[,:]?\s*(?:wait\b[,:]?\s*)?|edit:\s*)(?P<a>[^(),]+?)\)"
                          r"|\s*\((?P<b>[^(),]+?),\s*(?:sorry|my bad|oops)\)", re.I)
_ER = re.compile(r"\s*(?:—\s*|,\s*)(?:er|uh|erm)[,.]\s+(?:—\s*)?", re.I)
_TOKEN = re.compile(r"[\w.,/-]+")


def as_corrected_inline(question: str) -> tuple[str, list[str]]:
    """The question with each correction made where it stands, and a note of each."""
    notes: list[str] = []
    if "~~" in question:
        struck = _STRUCK.findall(question)
        question = _STRUCK.sub("", question)
        notes += [f"“{s.strip()}” struck out" for s in struck]
    question, said = each_match_rewritten(_IN_BRACKETS, question,
                                          lambda m, text: _replace(text, m, (m.group("a") or m.group("b")).strip()))
    notes += said
    for pattern in (_ARROW, _ER):
        question, said = each_match_rewritten(pattern, question, lambda m, text: _replace(text, m, None))
        notes += said
    return question, notes


def _replace(text: str, m: re.Match, new: str | None) -> tuple[str, str] | None:
    """The words before the marker that the new ones replace (as many, of the same shapes), taken out."""
    after = text[m.end():]
    new_words = _TOKEN.findall(new) if new is not None else _TOKEN.findall(re.split(r",\s|[;:?!—()]|\s-\s", after)[0])[:2]
    new_words = [w.rstrip(",") for w in new_words]
    if new is None and (not new_words or _shape(new_words[0]) == "word" and not _shape(new_words[-1]) != "word"):
        return None  # "… 4 users → does it fit?": an arrow to the question, not a new figure
    before = [b for b in _TOKEN.finditer(text[:m.start()]) if b.group(0).strip(",")]
    for n in (min(2, len(new_words)), 1):
        if n == 0 or len(before) < n:
            continue
        old = before[-n:]
        if text[old[-1].end():m.start()].strip() or not all(_same_kind(o.group(0), w) for o, w in zip(old, new_words[:n])):
            continue
        if [o.group(0).lower() for o in old] == [w.lower() for w in new_words[:n]]:
            continue  # nothing changed
        said = text[old[0].start():old[-1].end()]
        if new is not None:  # the correction in brackets takes the old words' place
            return text[:old[0].start()] + new + text[m.end():], f"“{said}” corrected to “{new}”"
        return text[:old[0].start()] + text[m.end():], f"“{said}” corrected to “{' '.join(new_words[:n])}”"
    arrow = new is None and m.re is _ARROW
    near = [b for b in before[-3:] if new_words and _shape(new_words[0]) != "word" and _same_kind(b.group(0), new_words[0])]
    if near and not arrow:  # "32k ctx, er, 64k", "llama 3 70b (3.1, sorry)": the figure a word or two back
        old = near[-1]
        rest = text[m.end():]
        rest = rest[len(new_words[0]):] if new is None and rest.startswith(new_words[0]) else rest
        return (text[:old.start()] + (new or new_words[0]) + text[old.end():m.start()] + rest,
                f"“{old.group(0)}” corrected to “{new or new_words[0]}”")
    if new is not None and _shape(new) == "named":  # "gpt-oss-20b … (gpt-oss-120b, sorry)": the name it corrects
        same = [b for b in before if _shape(b.group(0)) == "named" and b.group(0)[:3].lower() == new[:3].lower()]
        if same:
            old = same[-1]
            return (text[:old.start()] + new + text[old.end():m.start()] + text[m.end():],
                    f"“{old.group(0)}” corrected to “{new}”")
    return None


def _same_kind(old: str, new: str) -> bool:
    """Two figures or two names of one kind: "b200"/"b300", "7b"/"13b", "2"/"4", "tp"/"tp" (not "70GB"/"32r")."""
    shape = _shape(old)
    if shape != _shape(new):
        return False
    if shape == "word":
        return old.lower() == new.lower()
    if shape == "named":
        if old[:1].isdigit():
            return re.sub(r"[\d.,]", "", old).lower() == re.sub(r"[\d.,]", "", new).lower()
        return old[:1].lower() == new[:1].lower()
    return old[-1:].isdigit() == new[-1:].isdigit() and (old[-1:].isdigit() or old[-1:].lower() == new[-1:].lower())


def _shape(word: str) -> str:
    """A number, a name with a number in it, or a word."""
    if re.fullmatch(r"[\d.,]+[kmbtKMBT]?", word):
        return "number"
    return "named" if re.search(r"\d", word) else "word"

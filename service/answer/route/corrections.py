"""A reader who corrects themselves as they type: the corrected figure or name is the one computed on.

"does llama 3.1 8b fit on one h100? sorry, 70b not 8b", "kv for 8 users — wait, make that 16 users",
"EDIT: 64 gpus, not 32", "(typo: 16k context, not 6k)", "s/int4/fp8/", "scratch that, use h100s", "I wrote 512
but it's 128", "nvm the fp16 part, it's int8", a Slack-style "*64k" on its own line. Read as typed, the
question holds both values and the router would bind the one taken back, with confidence. Each correction
is applied to the text before it and then removed: the value it names (`old`) is replaced, or, when it names
none, the last value of the same kind (a GPU replaces the GPU, "16 users" the user count, "the 8b" the size
in "llama 3.1 70b"). A correction whose new words hold no value ("what does it actually store") is no
correction, and the question is left as it is.
"""
from __future__ import annotations

import re
from .rewrite import each_match_rewritten
from .tagger import Tag, tag

_VALUE_LABELS = ("MODEL", "GPU", "PRECISION", "QUANTITY", "COUNT", "NUMBER", "LINK", "COLLECTIVE", "UNKNOWN_MODEL",
                 "UNKNOWN_GPU")
_END = r"(?=\s*(?:[;!?\n)]|\.(?!\d)|\s[—–-]\s|—|,\s|$))"  # where a correction's words end ("3.1" goes on)
_NEW = r"(?P<new>(?:[^;.!?\n—)]|\.(?=\d))+?)"
_OLD = r"(?:,?\s+(?:not|instead of|rather than)\s+(?:the\s+)?(?P<old>(?:[^,;.!?\n—)]|\.(?=\d))+?))?"
_CORRECTIONS = [re.compile(pattern, re.I | re.M) for pattern in (
    r"\bs/(?P<old>[^/\n]+)/(?P<new>[^/\n]*)/",  # sed
    rf"\bI (?:wrote|typed|said) (?P<old>[^,;\n]+?) but (?:it'?s|it is|I meant|meant) (?:really |actually )?{_NEW}{_END}",
    rf"\bnvm (?:the )?(?P<old>[^,;\n]+?) part,?\s*(?:it'?s|use|it should be) {_NEW}{_END}",
    # a marker, then the new words, then perhaps what they replace
    r"(?:\b(?:sorry|w?hoops|typo|correction|edit(?!\w)|scratch that|i mean|i meant|call it|correcting[^:\n]*|"
    r"corrected (?:it |that |this )?to)|\bno,?\s+wait|"
    r"(?:(?<=[—–-]\s)|(?<=—)|(?<=[,.?!]\s)|^)(?:wait|actually)|(?:(?<=[—–-]\s)|(?<=—))no(?=,))"
    rf"\s*[:,!—–-]?\s*(?:i mean(?:t)?|make (?:that|it)|use|it'?s|it should be|should be)?\s*(?:the\s+)?{_NEW}{_OLD}{_END}",
    r"^\s*\*(?P<new>[^\s*][^\n*]*)$",  # Slack's correction: "*64k" on a line of its own
    # a figure said again as it is meant: "double the usual 4k context (so 8k)", "(i.e. 16 gpus)"
    r"\(\s*(?:so|i\.?e\.?,?|that'?s|which is|=)\s+(?P<new>[^()\n]+?)\s*\)",
)]


def corrected(question: str) -> tuple[str, list[str]]:
    """The question with each of its self-corrections applied, then removed, and a note of each (a dictated
    question, with no digit in it, says its corrections in words: spoken.py reads those)."""
    if not re.search(r"\d", question):
        return question, []
    fixed, notes = question, []
    for pattern in _CORRECTIONS:
        fixed, said = each_match_rewritten(pattern, fixed, _apply)
        notes += said
    fixed, said = each_match_rewritten(_ARROW, fixed, _arrowed)
    notes += said
    if fixed == question:
        return question, []
    # the dashes a clause stood between
    return re.sub(r"[ \t]{2,}", " ", re.sub(r"(?:\s*[—–]\s*){2,}", " — ", fixed)), notes


# "kv at 128k → 100k tokens", "2T tokens -> 4T tokens": the figure is changed to the one after the arrow
_ARROW = re.compile(r"(?<![\w:.,])(?P<old>\d[\d.,]*\s*[A-Za-z]{0,2}(?:\s+[A-Za-z]+)?)\s*(?:→|->|=>)\s*"
                    r"(?P<new>\d[\d.,]*\s*[A-Za-z]{0,2}\b(?:\s+[A-Za-z]+)?)")


def _arrowed(match: re.Match, text: str) -> tuple[str, str] | None:
    """Only a figure changed into one of the same kind ("1 GB → 6 ms?" states a result, and stays)."""
    old, new = (_figure(match.group(k)) for k in ("old", "new"))
    if old is None or new is None or not _same_kind(old, new):
        return None
    return (f"{text[:match.start()]}{match.group('new')}{text[match.end():]}",
            f"“{match.group(0).strip()}” read as {match.group('new').strip()}")


def _figure(words: str) -> Tag | None:
    figures = [t for t in tag(words).tags if t.label in ("QUANTITY", "COUNT")]
    return figures[0] if len(figures) == 1 else None


def _apply(match: re.Match, text: str) -> tuple[str, str] | None:
    fixed = _applied(match, text)
    return None if fixed is None else (fixed, f"“{match.group(0).strip(' ,;(*')}” read as a correction: {match.group('new').strip()}")


def _applied(match: re.Match, text: str) -> str | None:
    new = match.group("new").strip()
    old = (match.group("old") or "").strip() if "old" in match.re.groupindex else ""
    new_values = _values(new)
    if not new_values and not (old and _values(old)):  # "EDIT: tesla p4, not l4": a name the tagger does not know
        return None
    rest = text[:match.start()] + text[match.end():]
    if old:
        replacement = _number_of(new) if _is_number(old) and _number_of(new) else new
        fixed = _replace_last(rest, old, replacement, before=match.start())
        return fixed if fixed is not None else _put_back(match, text, new)
    leading = re.match(r"(\d[\d.,]*(?:[kKmMbBtT]\b)?)(?![\w.])", new)
    bare = (leading and len(new_values) == 1 and (new_values[0].label == "NUMBER" or new_values[0].key == "size_name")
            and not match.group(0).lstrip().startswith("("))  # "(so 2.2T)" says a figure again, it corrects none
    if bare and _figure_just_before(rest, match.start()):  # "1T tokens — whoops, 10T"
        return _replace_nearest_figure(rest, leading.group(1), before=match.start())
    fixed = text
    for value in new_values:  # each value the correction names replaces the last one of its kind before it
        step = _replace_same_kind(fixed, value, new, before=match.start())
        if step is not None:
            fixed = step
    # "intensity 500 flop/B at 4k — actually 1200 after we fused": the clause's last figure
    if fixed == text and bare:
        nearest = _replace_nearest_figure(rest, leading.group(1), before=match.start())
        if nearest is not None:
            return nearest
    shift = len(fixed) - len(text)
    # the new words stay where the correction stood ("batch 8 with 2k ctx each" may add what was not said before)
    return f"{fixed[:match.start() + shift]} {new} {fixed[match.end() + shift:]}"


def _put_back(match: re.Match, text: str, new: str) -> str:
    """Nothing the correction names is left to replace: its new words stand where it was, without its marker."""
    return f"{text[:match.start()]} {new} {text[match.end():]}"


def _values(text: str) -> list[Tag]:
    return [t for t in tag(text).tags if t.label in _VALUE_LABELS]


def _replace_same_kind(text: str, value: Tag, new_words: str, before: int) -> str | None:
    """Replace the last value of `value`'s kind before the correction (`before`: where it stood) with it."""
    head = text[:before]
    earlier = [t for t in tag(head).tags if _same_kind(t, value)]
    if value.label == "NUMBER":  # "batch 8": the figure its label word names
        label = re.search(rf"(\w+)\s*[=:]?\s*{re.escape(value.text)}\b", new_words)
        if label is None:  # "64 gpus — no wait, 32": a bare figure is for the figure just before it (below)
            return None
        found = list(re.finditer(rf"\b{re.escape(label.group(1))}\s*[=:]?\s*(\d[\d.,]*\w*)", head, re.I))
        if not found:
            return None
        last = found[-1]
        return text[:last.start(1)] + value.text + text[last.end(1):]
    if not earlier:
        return None
    target = earlier[-1]
    if value.label == "QUANTITY" and value.key == "size_name" and target.label == "MODEL":  # "the 8b" in "llama 70b"
        sized = re.sub(r"\d+(?:\.\d+)?\s*b\b", value.text, target.text, count=1, flags=re.I)
        return _replace_last(text, target.text, sized, before)
    return _replace_last(text, target.text, value.text, before)


def _same_kind(earlier: Tag, value: Tag) -> bool:
    if value.label == "QUANTITY" and value.key == "size_name":
        return earlier.label == "MODEL" or (earlier.label == "QUANTITY" and earlier.key == "size_name")
    if value.label in ("MODEL", "UNKNOWN_MODEL"):
        return earlier.label in ("MODEL", "UNKNOWN_MODEL")
    if value.label in ("GPU", "UNKNOWN_GPU"):
        return earlier.label in ("GPU", "UNKNOWN_GPU")
    if value.label in ("QUANTITY", "COUNT"):
        return earlier.label == value.label and _kind_of(earlier.key) == _kind_of(value.key)
    return earlier.label == value.label


def _figure_just_before(text: str, before: int) -> bool:
    """A figure, perhaps with its unit, then only a dash or a comma before the correction: "64 gpus — "."""
    return bool(re.search(r"(?<![\w.])\d[\d.,]*(?:\s*[kKmMbBtT])?(?:\s+[\w/]+)?\s*[—–,-]?\s*$", text[:before]))


def _replace_nearest_figure(text: str, new: str, before: int) -> str | None:
    """The last figure in the clause before the correction made `new` ("1T tokens — whoops, 10T")."""
    clause = re.split(r"[.;?!\n]\s", text[:before])[-1]
    found = list(re.finditer(r"(?<![\w.])\d[\d.,]*(?:\s*[kKmMbBtT])?(?![\w.])", clause))
    if not found:
        return None
    start = before - len(clause) + found[-1].start()
    return text[:start] + new + text[start + len(found[-1].group()):]


def _kind_of(key: str) -> str:
    return "tokens" if key.startswith("tokens") else key


def _replace_last(text: str, old: str, new: str, before: int | None = None) -> str | None:
    """`text` with the last whole-word `old` (before `before`) made `new`, or None when it has none."""
    multiplier = "|x" if _is_number(old) else ""  # "4x h200" is 4 of them
    found = [m for m in re.finditer(rf"(?<![\w.]){re.escape(old)}(?=(?:s|'s{multiplier})?(?!\w))", text, re.I)
             if before is None or m.start() < before]
    if not found:
        return None
    last = found[-1]
    return text[:last.start()] + new + text[last.end():]


def _is_number(text: str) -> bool:
    return bool(re.fullmatch(r"\d[\d.,]*\s*\w{0,2}", text))  # "32", "8k", "6k"


def _number_of(text: str) -> str:
    """The one figure of the new words ("we actually got 8 h200s" → "8"), or "" when they hold none or several."""
    numbers = re.findall(r"(?<![\w.])(\d[\d.,]*\s*[kKmMbBtT]?)\b", text)
    return numbers[0].strip() if len(numbers) == 1 else ""

"""Two options weighed, one figure asked: the option the reader picks is the setup; the other one's figures go.

"we're torn between 8 h100s and 4 h200s — for the h200 option, how much is left per gpu?", "option A: llama 3.1 70b
in fp8 across 2 h100s, option B: the same model in bf16 across 4 h100s … how much does option A leave?", "2,048
trainium2 at 35% mfu, or 1,024 h200 at 40% mfu — for the h200 option, how long …?". Read as typed, two parts or
two models make the question a comparison (retrieval), and two precisions or counts a muddle. Here the options are
found (labelled "option A / plan 2 / config 1 / cluster Y", or two sides of "or", "vs", "versus"), then the one the
reader picks ("for option A", "the second layout", "going with the v6e", "for the 5090 route", "of the h100?"), and
from the other option the figures and names of the kinds the picked one states are taken out: what the options
share ("the same model", "bf16 either way") stays. The Assumed line says which option was read.
"""
from __future__ import annotations

import math
import re

from rapidfuzz import fuzz

from calculators.precision import BITS, normalize
from calculators.registry import models

from .described import traits_of
from .tagger import tag

_LABEL = (r"(?:option|plan|config|cluster|setup|layout|route|choice|proposal|box|candidate|variant|scenario|quote|"
          r"offer|build|design|deployment|alternative|run|job)\s+(?:#\s*)?([a-z]|\d)\b")
_LABELLED = re.compile(rf"\b{_LABEL}(?:\s*[:=])?(?=\s*(?:\S|$))(?<=[:=])|\b{_LABEL}(?=\s+(?:runs|is|uses|has|sends|takes|"
                       r"goes|over|on|with|at|puts|keeps|spreads|gives|needs|serves|trains|would|costs)\b)"
                       r"|\b(first|second)(?:\s+(?:candidate|option|setup|plan|choice))?\s*:", re.I)
_ASKED_LABEL = re.compile(rf"\b{_LABEL}", re.I)
# ("… / …", "…; …", "2x h200 | 2x mi325x": a bar only where it is the one in the question, not a table's)
# (a word parts the options before a mark does: "… at 45% mfu; 1024 tpu v5p or 2048 tpu v5e" has its options in "or")
_SEPARATORS = (re.compile(r"(?:,\s*|\s+)(?:or|vs\.?|versus|against)\s+", re.I), re.compile(r"\s+/\s+|;\s+|\s+\|\s+"))
# "torn between 4 l40s and 2 h100 nvl", "comparing gpt-oss-20b and gpt-oss-120b", "candidates are an l40s and an h100",
# "two runs, a gpt oss 20b finetune and a llama 3 70b finetune"
_BETWEEN = re.compile(r"\b(?:between|comparing|weighing|candidates are|candidates:|(?:two|both)\s+(?:runs|models|jobs|"
                      r"options|setups|deployments|clusters|configs|finetunes|fine-tunes)\s*[,:])\s+(?:an?\s+)?(?P<left>[^,.;?—]+?)\s+(?:and|against)\s+",
                      re.I)
# "two nccl-tests results: all_reduce on 16 ranks at 180 GB/s busbw, all_gather on 8 ranks at 350 GB/s busbw"
_TWO_LISTED = re.compile(r"\b(?:two|both)\s+(?:[\w-]+\s+)?(?:results|runs|measurements)\s*:\s+(?P<left>[^,.;?—]+?),\s+",
                         re.I)
_JOINS = re.compile(r"\s*,?\s*(?:or|vs\.?|versus|against|and|/|;|\|)\s*", re.I)
_LABEL_SAID = re.compile(r"^\s*(?:is|are|=)\b|(?<=[,;.])\s*(?:is|are)\b")  # what "choice 1 is …" leaves
_TP = re.compile(r"\(?\b(?:tp|pp)\s*=?\s*\d+\)?|\bzero[- ]?(?:stage[- ]?)?[0-3]\b|\bfsdp(?:\s+full\s+shard)?\b", re.I)
_COMPARING = re.compile(r"\b(?:(?:we'?re|i'?m)\s+)?(?:comparing|torn between|weighing)\b", re.I)
_CLAUSE_END = re.compile(r"(?:[.;?!](?=\s|$)|—|\s-\s|,\s)")
_LEFT_START = re.compile(rf"{_CLAUSE_END.pattern}|:\s")
_ASK_AFTER_COLON = re.compile(r":\s")
_SENTENCE_END = re.compile(r"[.;?!](?:\s|$)|—|\s-\s")
_ORDINAL = re.compile(r"\b(?:the\s+)?(first|second|former|latter|1st|2nd)\s+(?:one|option|layout|route|setup|plan|config|"
                      r"choice|cluster|run|model|job|deployment)\b|\bthe\s+(former|latter|ltter|lattr|formr)\b"
                      r"|\bthe\s+(first|second|1st|2nd|secnd|frist)\b(?=\s*(?:[?,.!;:—]|-\s|$))", re.I)
_PICKED = re.compile(
    r"\b(?:going with|go with|goes with|taking|take|starting with|let'?s say|let'?s go with|say|picking|pick|do|doing|"
    r"sticking with|stick with|staying with|stay with|"
    r"choosing|choose|we'?ll use|settled on|for)\s+(?:the\s+)?(?P<x>[\w.+-]+(?:\s+[\w.+-]+){0,2}?)\s+"
    r"(?:option|route|one|setup|layout|config|plan|path|variant|chips|cards|gpus|gradients)\b"
    r"|\b(?:going with|go with|taking|take|starting with|let'?s say|let'?s go with|picking|choosing|settled on|"
    r"sticking with|stick with|for the single|for|if we go|if we use|give me|just|only)\s+"
    r"(?:the\s+)?(?P<y>[\w.+-]+(?:\s+[\w.+-]+){0,5}?)\s*(?=[—,:;.?!(]|\s-\s|$)"
    r"|\b(?:of|on|for|does|do|need|needs|with|wiht|over|using)\s+(?:(?:the|one|a|an)\s+)?(?P<z>[\w.+-]+(?:\s+[\w.+-]+)?)(?:\s+one)?"
    r"(?:\s+(?:need|needs|gpu|card|chip)\b)?(?:\s+(?:in|at)\b[^?]*)?(?:\?|\s*$)"  # ("… days on the v100s")
    # "— the single-card int4 route, does it fit?", "the zero-3 variant —", "on the h200 rental", "the gaudi's peak"
    r"|(?:^|[—:;.?!]\s*|,\s*|\s-\s|\b(?:on|for|with|in|under|need|want|is|are)\s+)the\s+(?P<w>[\w.+-]+(?:\s+[\w.+-]+){0,2}?)\s+"
    r"(?:option|route|setup|layout|config|plan|path|variant|case|box|rental|run|pair|cluster|build|proposal|choice|one|"
    r"side|number|nubmer|figure|value|kv|cache)\b"
    # "the gaudi's peak", "the v4 please", and one said last: "mi300x vs b200, the amd"
    r"|\bthe\s+(?P<p>[\w.+-]+(?:\s+[\w.+-]+)?)(?:'s\b|\s+(?:please|pls|plz)\b|\s*[?!.]?\s*$)"
    r"|(?:^|[—:;.?!,]\s*)(?P<q>[\w.+-]+(?:\s+[\w.+-]+)?)\s+(?:please|pls|plz)\s*[?!.]?\s*$",  # "…? r1 pls"
    re.I)
_ORDER = {"first": 0, "former": 0, "second": 1, "latter": 1, "1st": 0, "2nd": 1, "secnd": 1, "frist": 0, "ltter": 1,
          "lattr": 1, "formr": 0}
# "budget the disk for the bigger of the two", "the smaller model": the option whose model is the bigger one
_BY_SIZE = re.compile(r"\bthe\s+(?:(?P<big>bigger|larger|biggest|largest)|(?P<small>smaller|smallest))"
                      r"(?:\s+(?:of\s+the\s+two|one|model|modle|of\s+them)|\s+model's)\b", re.I)
# "time for the bigger cluster?" (4 nodes x 8 vs 8 nodes x 8), "algbw for the smaller group?": the option with more
# (or fewer) GPUs
_BY_COUNT = re.compile(r"\bthe\s+(?:(?P<big>bigger|larger|biggest|largest)|(?P<small>smaller|smallest))\s+"
                       r"(?:cluster|group|layout|setup|job|fleet|deployment|node\s+count|slice|pod)\b", re.I)
# "gpus needed for the tighter deadline" (in 14 days vs in 7 days): the option with fewer (or more) days
_BY_DEADLINE = re.compile(r"\bthe\s+(?:(?P<small>tighter|shorter|sooner|earlier)|(?P<big>looser|longer|later))\s+"
                          r"(?:deadline|schedule|timeline|window)\b", re.I)
# "cache size for the smaller batch" (batch 64 vs batch 128), "the bigger batch one": the option with fewer (or more)
# sequences at once
_BY_BATCH = re.compile(r"\bthe\s+(?:(?P<big>bigger|larger|biggest|largest|higher)|(?P<small>smaller|smallest|lower))\s+"
                       r"(?:batch|concurrency|user\s+count)\b", re.I)
# "days with the fewer gpus", "the setup with fewer gpus", "wall clock for the fewer gpus"
_BY_FEWER = re.compile(r"\b(?:with|for|on)\s+(?:the\s+)?(?:(?P<big>more|most)|(?P<small>fewer|fewest|less))\s+"
                       r"(?:gpus|chips|cards|nodes|accelerators)\b", re.I)
# each comparative above, and the counts or amounts it compares the options by
_GPU_COUNTS = ("gpus", "ranks", "nodes")
_BY_AMOUNT = ((_BY_COUNT, _GPU_COUNTS), (_BY_FEWER, _GPU_COUNTS), (_BY_DEADLINE, ("days",)), (_BY_BATCH, ("batch",)))
# "for the longer run" (2T vs 4T tokens), "the shorter context one": the option with the more (or fewer) tokens
_BY_LENGTH = re.compile(r"\bthe\s+(?:(?P<long>longer|longest|bigger\s+context)|(?P<short>shorter|shortest|smaller\s+context))"
                        r"(?:\s+(?:of\s+the\s+two|one|run|job|context|prompt|request|sequence|ctx|window|option))\b", re.I)
# a part picked by its vendor or architecture ("on the amd box", "the intel part"): the word is no part of the question
_VENDOR_PICK = re.compile(r"\bthe\s+(?:nvidia|amd|intel|google|aws|amazon|geforce|instinct|hopper|blackwell|ampere|ada)\s+"
                          r"(?:part|one|box|pair|side|option|gpus?|cards?|"
                          r"chips?|route|setup|node|nodes)\b", re.I)
_WIDTH_PICK = re.compile(r"\bthe\s+(?:4|8|16)[\s-]?bits?\s+(?:option|one|route|choice|variant|version|path)\b", re.I)
_THE_MISTYPED = re.compile(r"\b(?:teh|hte)\b", re.I)
_ONE_SEQ = re.compile(r"\b(1|one|a single)\s+seq\b(?=\s+(?:at|@|of|with|each|filled)\b)", re.I)
_STOP = {"the", "a", "an", "one", "option", "route", "in", "on", "of", "with"}
_KINDS = ("GPU", "MODEL", "PRECISION", "NUMBER", "COUNT", "QUANTITY", "UNKNOWN_GPU", "UNKNOWN_MODEL", "LINK", "STAGE",
          "COLLECTIVE")


def as_one_option(question: str) -> tuple[str, list[str]]:
    """The question with the options it does not pick taken out of its setup, and a note of the one it picks."""
    question = _THE_MISTYPED.sub("the", question)  # ("on teh amd pair")
    question = _ONE_SEQ.sub(r"\1 sequence", question)  # ("1 seq at 64k vs 4 seqs at 16k": a count of one, like "4 seqs")
    named = _named(question)
    labelled = named[0] if named else _labelled(question) or _lettered(question)
    options = labelled or _either_side(question)
    if options is None:
        return question, []
    # (regular expressions first: most questions with an "or" stop here, untagged)
    picked = named[1] if named else _picked(question, options)
    if picked is None or not (labelled or all(_names_something(question[s:e]) for s, e in options)):
        return question, []
    if not labelled and _unlike_sides(question, options):
        return question, []
    keep = options[picked]
    kept_tags = tag(question[keep[0]:keep[1]]).tags
    kept_kinds = {_kind(t, kept_tags) for t in kept_tags if t.label in _KINDS}
    if ("GPU", "") in kept_kinds:  # ("8 H100 over NVLink or 8 MI300X": the other part's link goes with it)
        kept_kinds.add(("LINK", ""))
    pieces, at = [], 0
    for i, (start, end) in enumerate(options):
        between = question[at:start]
        # "vs", "or" between the options go ("h100 sxm vs h20": two things compared)
        pieces.append(", " if i and _JOINS.fullmatch(between) else between)
        pieces.append(question[start:end] if i == picked else _without_kinds(question[start:end], kept_kinds))
        at = end
    kept = question[keep[0]:keep[1]]
    pieces.append(_without_restated_names(_without_restated_figures(question[at:], kept), kept))
    # "option A:" before each option (a letter and a colon would read as a quiz item's answer options) and the
    # words that say options are weighed go too
    out = _COMPARING.sub(" ", _LABEL_SAID.sub(" ", _LABELLED.sub(" ", _LETTER.sub(" ", "".join(pieces)))))
    out = _ASKED_LETTER.sub(lambda m: m.group(0)[:m.start(1) - m.start()] + "it", out)  # "for A," → "for it,"
    out = _ASKED_LABEL.sub("it", out)  # "… does option A leave?": its letter is no figure
    out = _VENDOR_PICK.sub("it", out)  # "on the intel part": a vendor is no part
    out = _WIDTH_PICK.sub("it", out)  # "with the 8-bit option": no int8 of its own
    return out, [f"read as the option asked about: “{question[keep[0]:keep[1]].strip(' ,.;:—')}”"]


_FIGURE_WORD = re.compile(r"(?<=\bthe\s)\d+(?:\.\d+)?\s*[a-z]{0,2}(?=\s*(?:[?.!,;]|$)|\s+(?:please|pls|plz|one|option)\b)",
                          re.I)


def _without_restated_figures(ask: str, kept: str) -> str:
    """"… for the 20b?", "give me the 40gb": a figure that points at the picked option is no figure of the ask."""
    return _FIGURE_WORD.sub(lambda m: "it" if m.group().replace(" ", "").lower() in _words(kept.lower()) else m.group(), ask)


def _without_restated_names(ask: str, kept: str) -> str:
    """"total for the mixtrl one": a name in the ask that only restates the picked option (as typed, in part, or
    mistyped) is no second model or part."""
    kept_words, kept_names = _words(kept.lower()), _names(kept)
    for t in tag(ask).tags:
        if t.label in ("MODEL", "GPU", "UNKNOWN_MODEL", "UNKNOWN_GPU") and t.key not in kept_names and all(
                _holds(w, kept_words) for w in re.findall(r"[\w.+-]+", t.text.lower())):
            ask = _without_said(ask, t.text)  # (the option's own name said again is left: it names that option)
    return ask


def _without_kinds(span: str, kinds: set[tuple[str, str]]) -> str:
    """An option not asked about, without its figures and names of the kinds the asked one states."""
    tags = tag(span).tags
    for t in sorted(tags, key=lambda t: -len(t.text)):
        if t.label in _KINDS and _kind(t, tags) in kinds and (t.label != "NUMBER" or _counts_a_part(t, tags)):
            span = _without_said(span, t.text)
    return _TP.sub(" ", span)  # "(tp2)", "zero-3", "fsdp": how that option spreads its work


def _without_said(span: str, text: str) -> str:
    """The span without a tag's words, as typed: the tagger's text is normalised ("sxm h100s" is tagged "h100 sxms"),
    so its words may come in either order, each with or without a plural s."""
    words = [re.escape(w[:-1] if w.endswith("s") and len(w) > 2 else w) + "s?" for w in text.split()]
    for order in (words, words[::-1]):
        said = r"[\s._-]*".join(order)
        out, n = re.subn(rf"(?<![\w.]){said}(?![\w.])", " ", span, count=1, flags=re.I)
        if n:
            return out
    return span


def _counts_a_part(number, tags) -> bool:
    """A bare number is the option's own only as a count of its parts ("2 h100s", "2,048 trainium2")."""
    return any(t.label in ("GPU", "UNKNOWN_GPU") and 0 <= t.start - number.end <= 1 for t in tags)


def _kind(t, tags) -> tuple[str, str]:
    """What a tag says, as options differ in it: a part (known or not), a model, a precision, an amount of its key
    ("96 gaudi 3" and "64 tpu v5p chips" both count parts, whether tagged as a number or as a count)."""
    if t.label == "NUMBER" and _counts_a_part(t, tags):
        return "COUNT", "gpus"
    if t.label in ("QUANTITY", "COUNT"):
        return t.label, t.key
    return t.label.replace("UNKNOWN_", ""), ""


def _labelled(question: str) -> list[tuple[int, int]] | None:
    """Spans of "option A: …", "option B: …" (each up to the next label, the last up to its sentence's end)."""
    marks = list(_LABELLED.finditer(question))
    if len({next(g for g in m.groups() if g).lower() for m in marks}) < 2:
        return None
    return _spans(question, marks)


# "A) llama 3.1 405b int4 across 4 mi300x  B) … fp8 across 8 h200. for A, headroom per card?": capital letters,
# the one asked named after the options (a quiz item asks before its options, and its letters are answers)
_LETTER = re.compile(r"(?:^|(?<=[\s:]))\(?([A-D])\)\s")
_ASKED_LETTER = re.compile(r"\b(?:for|under|with|on|of|pick|picking|take|taking|choose|choosing|going with|option)\s+"
                           r"\(?([A-D])\b\)?(?!['’]\w)")


# "baseline: … candidate: … for the candidate, …", "today: … next quarter: … next quarter's free memory?": options
# named by a word or two and a colon where a sentence starts, the one asked named again after them
_NAMED = re.compile(r"(?:^|(?<=[.;!?\n—])\s*)(?P<name>[a-z][a-z']*(?:\s+[a-z][a-z']*){0,2})\s*:\s", re.I)
_NOT_NAMES = {"question", "q", "note", "notes", "context", "setup", "given", "find", "answer", "edit", "update", "ps",
              "btw", "model", "gpu", "gpus", "hardware", "ask", "task", "goal", "background", "fyi", "re", "subject"}


def _named(question: str) -> tuple[list[tuple[int, int]], int] | None:
    """Options named with a colon, and the one the question names again after them."""
    marks = [m for m in _NAMED.finditer(question) if m.group("name").lower() not in _NOT_NAMES]
    names = [m.group("name").lower() for m in marks]
    if len(marks) < 2 or len(set(names)) != len(names):
        return None
    spans = _spans(question, marks)
    after = question[spans[-1][1]:].lower()
    asked = [i for i, name in enumerate(names) if re.search(rf"\b{re.escape(name)}(?:'s|s')?\b", after)]
    return (spans, asked[0]) if len(asked) == 1 else None


def _lettered(question: str) -> list[tuple[int, int]] | None:
    marks = list(_LETTER.finditer(question))
    letters = [m.group(1) for m in marks]
    if len(marks) < 2 or letters != sorted(set(letters)):
        return None
    spans = _spans(question, marks)
    asked = _ASKED_LETTER.search(question, spans[-1][1])
    return spans if asked and asked.group(1) in letters else None


def _spans(question: str, marks: list[re.Match]) -> list[tuple[int, int]]:
    """Each option from its mark up to the next one, the last up to its sentence's end."""
    return [(m.start(), after.start() if after else _sentence_end(question, m.end()))
            for m, after in zip(marks, [*marks[1:], None])]


def _either_side(question: str) -> list[tuple[int, int]] | None:
    """The two sides of the first "or" / "vs" (whether both name something is checked once one is picked)."""
    sep = _BETWEEN.search(question) or _TWO_LISTED.search(question)
    if sep is not None:  # the left side is what follows "between"
        left_start, left_end = sep.start("left"), sep.end("left")
    else:
        sep = _SEPARATORS[0].search(question) or _SEPARATORS[1].search(question)
        if sep is None or "|" in sep.group() and question.count("|") > 1:
            return None
        # (a colon ends the setup the options share: "on 500B tokens: 96 gaudi 3 …, or 64 tpu v5p …")
        left_start = max((m.end() for m in _LEFT_START.finditer(question, 0, sep.start())), default=0)
        left_end = sep.start()
    # (the right side ends with its clause, or at a colon before the ask: "l40s vs rtx 4090: aggregate tok/s …")
    ends = [m.start() for m in (_CLAUSE_END.search(question, sep.end()), _ASK_AFTER_COLON.search(question, sep.end()))
            if m]
    return [(left_start, left_end), (sep.end(), min(ends, default=len(question)))]


def _unlike_sides(question: str, options: list[tuple[int, int]]) -> bool:
    """Two sides parted by a semicolon that say different kinds of things are two statements, not two options ("the
    70B at 16k for 24 users; the 8B drafter runs 4k contexts at batch 128"; "180 GB/s on 8 gpus; 170 GB/s on 16" are
    options). Checked only once a pick is found: it tags both sides."""
    if len(options) != 2 or question[options[0][1]:options[1][0]].strip() != ";":
        return False
    shapes = set()
    for start, end in options:
        tags = tag(question[start:end]).tags
        shapes.add(frozenset(_kind(t, tags) for t in tags if t.label in _KINDS))
    return len(shapes) > 1


def _names_something(span: str) -> bool:
    """A side of an "or" is an option when it names a part, a model, a precision or a figure."""
    return any(t.label in _KINDS for t in tag(span).tags)


def _sentence_end(question: str, start: int) -> int:
    end = _SENTENCE_END.search(question, start)
    return end.start() if end else len(question)


def _picked(question: str, options: list[tuple[int, int]]) -> int | None:
    """Which option the question asks about: by its label, its place, or a name only it holds."""
    after = question[options[-1][1]:]
    letters = [_LETTER.match(question, s) for s, _ in options]
    asked = _ASKED_LETTER.search(after)
    if all(letters) and asked:
        named = [m.group(1) for m in letters]
        return named.index(asked.group(1)) if asked.group(1) in named else None
    labels = [_ASKED_LABEL.search(question[s:e]) for s, e in options]
    for m in _ASKED_LABEL.finditer(after):
        for i, label in enumerate(labels):
            if label is not None and label.group(1).lower() == m.group(1).lower():
                return i
    ordinal = _ORDINAL.search(question, options[-1][1] - 1)  # (a pick comes after the options it picks from)
    if ordinal:
        return min(_ORDER[next(g for g in ordinal.groups() if g).lower()], len(options) - 1)
    by_size = _BY_SIZE.search(question, options[-1][1] - 1)
    if by_size:
        return _by_model_size(question, options, bigger=bool(by_size.group("big")))
    for pattern, keys in _BY_AMOUNT:  # "the bigger cluster", "for the fewer gpus", "the tighter deadline", …
        comparative = pattern.search(question, options[-1][1] - 1)
        if comparative:
            return _by_amount(question, options, bigger=bool(comparative.group("big")), keys=keys)
    by_length = _BY_LENGTH.search(question, options[-1][1] - 1)
    if by_length:
        return _by_tokens(question, options, longer=bool(by_length.group("long")))
    held: dict[int, set[str]] = {}  # the registry names each option holds, tagged once and only when a pick needs them

    def names_held(i: int) -> set[str]:
        return held[i] if i in held else held.setdefault(i, _names(question[options[i][0]:options[i][1]]))

    for m in _PICKED.finditer(question, options[-1][1] - 1):
        said = next(g for g in m.group("x", "y", "z", "w", "p", "q") if g is not None)
        words = {w for w in re.findall(r"[\w.+-]+", said.lower())} - _STOP
        if not words:
            continue
        apart = [i for i, (s, e) in enumerate(options) if s > m.start() or e <= m.start()]  # (not the pick's own text)
        said_tags = tag(said).tags
        names = {t.key for t in said_tags if t.label in ("GPU", "MODEL")}  # ("trainium2's" picks the "trn2" option)
        holding = [i for i in apart if names and names <= names_held(i)]
        if len(holding) == 1:
            return holding[0]
        # a vendor, architecture or brand for its part ("on the amd pair", "the intel part", "on the geforce card",
        # "the hopper one", "the instinct pair")
        singular = words | {w.removesuffix("'s").removesuffix("s") for w in words}  # ("on intels chip")
        holding = [i for i in apart if any(singular & traits_of(key) for key in names_held(i))]
        if len(holding) == 1:
            return holding[0]
        # a model by its maker or its kind ("the meta one", "the google one", "the moe one")
        holding = [i for i in apart if _by_maker_or_kind(words, question[options[i][0]:options[i][1]], names_held(i))]
        if len(holding) == 1:
            return holding[0]
        # a family for one of its members ("on the trainium side" picks "trn2 chips", "the mistral number" "mistral 7b")
        families = {re.sub(r"[\s._-]", "", t.text.lower()) for t in said_tags if t.label in ("UNKNOWN_GPU", "UNKNOWN_MODEL")}
        holding = [i for i in apart if families
                   and any(key.replace("-", "").startswith(f) for f in families for key in names_held(i))]
        if len(holding) == 1:
            return holding[0]
        texts = [question[s:e].lower() for s, e in options]
        # a precision by its width ("with the 8-bit option" of "bf16 or fp8")
        widths = _widths({w for w in words if "bit" in w})
        holding = [i for i in apart if widths and widths & _widths(_words(texts[i]))]
        if len(holding) == 1:
            return holding[0]
        holding = [i for i in apart if all(_holds(w, _words(texts[i])) for w in words)]
        if len(holding) == 1:
            return holding[0]
        # else the one option holding the most of the words ("going with fp8 at 128k for 2 seqs")
        shared = [sum(w in texts[i] for w in words) if i in apart else 0 for i in range(len(options))]
        if shared.count(max(shared)) > 1:  # ("for the 20b": "gpt-oss-120b" holds "20b" too, but not as a word)
            shared = [sum(w in _words(texts[i]) for w in words) if i in apart else 0 for i in range(len(options))]
        if max(shared) and shared.count(max(shared)) == 1:
            return shared.index(max(shared))
    return _named_in_the_ask(after, options, question)


def _widths(words: set[str]) -> set[int]:
    """The bit widths of the precisions among the words, as the calculators' formats hold them ("fp8", "8-bit": 8;
    "awq", "mxfp4": 4)."""
    return {int(BITS[key]) for w in words if (key := normalize(w))}


def _words(text: str) -> set[str]:
    """A text's words, hyphenated names both whole and in pieces ("gpt-oss-20b", "20b")."""
    whole = set(re.findall(r"[\w.+-]+", text))
    return whole | {piece for w in whole for piece in w.split("-")}


def _holds(word: str, option_words: set[str]) -> bool:
    """An option holds a pick's word as typed, in the plural ("the a40s"), with an o typed for a 0 ("the h2oo pair",
    "the 509o"), or mistyped when the word is long enough to tell ("the trainum option" for "1024 trainium2"; a
    mistyped word with digits keeps them: "zero3" is no "zero" of "zero-2")."""
    if (word in option_words or word.endswith("s") and word[:-1] in option_words
            or bool(re.search(r"\d", word)) and word.replace("o", "0") in option_words):
        return True
    alike = [w for w in option_words if len(word) >= 5 and fuzz.ratio(word, w) >= 85]
    return any(_digits(w) == _digits(word) for w in alike) if _digits(word) else bool(alike)


def _digits(word: str) -> str:
    return re.sub(r"\D", "", word)


_MAKER_FAMILIES = {"meta": ("llama",), "google": ("gemma",), "alibaba": ("qwen",), "mistral": ("mistral", "mixtral"),
                   "openai": ("gpt-oss", "oss"), "deepseek": ("deepseek",), "microsoft": ("phi",)}


def _by_maker_or_kind(words: set[str], option: str, names: set[str]) -> bool:
    """An option's model is picked by its maker (its family named in the option) or by being a mixture of experts."""
    makers = {w.removesuffix("'s") for w in words} & set(_MAKER_FAMILIES)
    if makers:
        return any(family in option.lower() for maker in makers for family in _MAKER_FAMILIES[maker])
    experts = [bool(models().entries[key].config.num_experts) for key in names if key in models().entries]
    if words & {"moe", "sparse"}:
        return any(experts)
    return bool(words & {"dense"}) and bool(experts) and not any(experts)


def _names(text: str) -> set[str]:
    """The registry's models and parts a text names."""
    return {t.key for t in tag(text).tags if t.label in ("GPU", "MODEL")}


def _names_or_unknown(text: str) -> set[str]:
    """The models and parts a text names, those the registry lacks by their words ("8 v100s": "v100")."""
    return {t.key if t.label in ("GPU", "MODEL") else t.text.lower().rstrip("s") for t in tag(text).tags
            if t.label in ("GPU", "MODEL", "UNKNOWN_GPU", "UNKNOWN_MODEL")}


def _named_in_the_ask(ask: str, options: list[tuple[int, int]], question: str) -> int | None:
    """"… on one mi325x vs on one b200. mi325x tok/s?": the one option holding what the ask names (an ask naming
    both options' parts compares them, and picks none)."""
    named = [_names_or_unknown(question[s:e]) for s, e in options]  # ("… vs 8 a100s on nvlink 3. v100 time?")
    held = {i for key in _names_or_unknown(ask) for i in range(len(options)) if key in named[i]
            and not all(key in names for names in named)}
    return held.pop() if len(held) == 1 else None


def _by_model_size(question: str, options: list[tuple[int, int]], bigger: bool) -> int | None:
    """The option whose one model has the most (or fewest) parameters; None unless each option names one model."""
    sizes = []
    for start, end in options:
        tags = tag(question[start:end]).tags
        named = {t.key for t in tags if t.label == "MODEL"}
        # a model the registry lacks is sized by its name ("gemma 2 27b"), so the pick still finds it
        unknown = [float(m.group(1)) * 1e9 for t in tags if t.label == "UNKNOWN_MODEL"
                   for m in [re.search(r"(\d+(?:\.\d+)?)\s*b\b", t.text, re.I)] if m]
        if len(named) + len(unknown) != 1:
            return None
        sizes.append(models().entries[named.pop()].params.total if named else unknown[0])
    return sizes.index(max(sizes) if bigger else min(sizes))


def _by_tokens(question: str, options: list[tuple[int, int]], longer: bool) -> int | None:
    """The option with the most (or fewest) tokens; None unless each option states one token figure."""
    lengths, kinds = [], set()
    for start, end in options:
        said = [t for t in tag(question[start:end]).tags if t.label == "QUANTITY" and t.key.startswith("tokens")]
        if len(said) != 1:
            return None
        lengths.append(said[0].value)
        kinds.add(said[0].key)
    if len(kinds) != 1:  # (like with like: "2T tokens" against "4T tokens", "at 32k context" against "at 128k")
        return None
    return _the_one_most(lengths, longer)


def _by_amount(question: str, options: list[tuple[int, int]], bigger: bool, keys: tuple[str, ...]) -> int | None:
    """The option with the most (or fewest) GPUs, counted as said ("4 nodes x 8 h100" is 32, "across 8 h200" 8), or
    of the counts or amounts of `keys` ("batch 64", "in 7 days"); None unless each option says some and they differ."""
    totals = []
    for start, end in options:
        tags = tag(question[start:end]).tags
        counts = [t.value for t in tags if t.label in ("COUNT", "QUANTITY") and t.key in keys
                  or "gpus" in keys and t.label == "NUMBER" and _counts_a_part(t, tags)
                  or t.label == "NUMBER" and any(c.label == "CUE" and c.key in keys and c.end == t.start for c in tags)]
        if not counts:
            return None
        totals.append(math.prod(counts))
    return _the_one_most(totals, bigger)


def _the_one_most(values: list[float], most: bool) -> int | None:
    """Which option holds the greatest (or least) value, when only one does."""
    best = max(values) if most else min(values)
    return values.index(best) if values.count(best) == 1 else None

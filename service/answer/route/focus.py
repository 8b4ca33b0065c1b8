"""One model (or part) asked about among several named: what is said of the others goes.

"Llama 3.1 70B serving 48 sessions of 12k each with an int8 cache; the 8B autocomplete model sees 2k contexts at
batch 200, we have 6 H100s. How big is the 70B's cache altogether?", "HBM bandwidth of one H20? … the H100s we
lost to export rules had 3.35 TB/s …". Read whole, two models or two parts make such a message a comparison
(retrieval), or its figures a muddle. Here the message is cut into clauses; the part of it that asks names its
subject (by name, or by a size or family of a model named elsewhere: "the 70B", "the Mistral setup"), and every
clause that names another model (or part) and not the subject is left out. An ask naming no subject, or two, or
leaning on what was said ("what about the 70B?", "same for …") leaves the message as it is.
"""
from __future__ import annotations

import re
from functools import lru_cache

from calculators.registry import find_gpu, find_model, gpus, models

from .tagger import tag

# where a clause ends: a sentence's end, a semicolon, a comma before a space, a dash, and the words that start a
# clause about something else ("while the 7B run …", "where last quarter's pilot …", "and the 20b canary …")
_CLAUSE = re.compile(r"(?<=[.;?!])\s+|(?<=[;,])\s+|\s+[—–]\s+|\s+-\s+|\n+"
                     r"|\s+(?=(?:while|whereas|where|but)\s)|\s+(?=and\s+(?:the|our|my|a|an|we|its)\s)", re.I)
# "I'm asking about the small tier: …": what follows the colon is the sentence that asks
_ASKING_ABOUT = re.compile(r"(\b(?:i'?m|i am|we'?re|we are)\s+(?:asking|wondering)\s+about\s+[^:.;?!]{1,30}):\s+", re.I)
_ASKS = re.compile(r"\?|\b(?:how|what(?:'s)?|whats|which|estimate|compute|calculate|give me|tell me|need is)\b", re.I)
_ASK_WORDS = re.compile(r"\b(?:how|what(?:'s)?|whats|which)\b", re.I)
# "and across 4 RTX 6000 Ada cards?", "what if it went to …", "what's the tpu v5p one?": the ask borrows its setup
_LEANS_BACK = re.compile(r"\b(?:what|how)\s+about\b|\bwhat\s+if\b|\bsame\b|\binstead\b|\bthat one\b|\bthose\b"
                         r"|^\s*(?:\w+:\s*)?(?:and|or|then|now)\b|\bone\s*\?", re.I)
# "the 70B", "a 7b", "the 8x22B"
_SIZE = re.compile(r"\b(?:the|a|an|our|that|their)\s+((?:\d+x)?\d+(?:\.\d+)?)\s*b\b(?!\s*/)", re.I)
_ANY_SIZE = re.compile(r"(?<![\w.])((?:\d+x)?\d+(?:\.\d+)?)\s*b\b(?!\s*/)", re.I)  # "falcon 40b", "the 8B" (not "16 B/param")
_PART_CODE = re.compile(r"\b[a-z]{1,3}\d{2,4}[a-z]{0,3}\b")  # "h100", "v100", "a10g", "mi300x"
_NOT_A_PART = re.compile(r"(?:bf|fp|int|tp|pp|dp|ep|cp|nvfp|mxfp|fp8e|e\d|k|b|m|t|gb|tb|ms|us|x|v\d|q\d)\d", re.I)
_NAMES = {"model": ("MODEL", "UNKNOWN_MODEL"), "gpu": ("GPU", "UNKNOWN_GPU")}


def as_one_subject(question: str) -> tuple[str, list[str]]:
    """The question with the clauses about other models (or parts) than the one asked about left out, and a note
    saying which was read; unchanged when the ask picks no single subject among several."""
    if not _several_named(question):  # (most questions name one model and one part: no clause is tagged)
        return question, []
    question = _ASKING_ABOUT.sub(r"\1. ", question)  # ("but I'm asking about the small tier: Llama 3.1 8B …")
    pieces = re.split(f"({_CLAUSE.pattern})", question, flags=re.I)  # clause, what ends it, clause, …
    clauses, ends = pieces[0::2], pieces[1::2] + [""]
    if len(clauses) < 2:
        return question, []
    asking = [k for k, c in enumerate(clauses) if _ASKS.search(c)]
    if not asking:
        return question, []
    # the clause that asks in words, else the one with the question mark ("…: how large is the cache in total,
    # knowing that the 8x22B … is capped at 64k?" asks in its third clause)
    ask = next((k for k in reversed(asking) if _ASK_WORDS.search(clauses[k])),
               next((k for k in reversed(asking) if "?" in clauses[k]), asking[-1]))
    if _LEANS_BACK.search(clauses[ask]):
        return question, []
    tagged = [tag(c).tags for c in clauses]
    named = {kind: _resolved([_names(tags, c, kind) for c, tags in zip(clauses, tagged)]) for kind in _NAMES}
    # the ask's sentence: the clauses from the last sentence end before the ask up to the ask itself; an ask whose
    # sentence names nothing ("… Main model: Mixtral 8x22B on 8 B200, batch 512. Compute-bound time of one decode
    # step?") is about what the nearest sentence before it names
    ends_at = [k for k in range(ask) if re.search(r"[.;?!]\s*$", clauses[k]) or "\n" in ends[k]]
    sentences = [range(a + 1, b + 1) for a, b in zip([-1] + ends_at, ends_at)][::-1]  # the ones before, nearest first
    start = ends_at[-1] + 1 if ends_at else 0
    subjects = {kind: _asked_about(names, ask, start, sentences, clauses) for kind, names in named.items()
                if len(set().union(*names)) > 1}  # (only where the message names more than one)
    # a clause goes when what it names are others: one naming a subject stays, and so does one naming the only part
    # (or model) of a kind the ask leaves open ("llama 3.1 8b does 50 tok/s on an a100. on an h100?": the model)
    others = {k for k in range(len(clauses)) if k != ask and any(named[kind][k] for kind in _NAMES)
              and not any(subjects.get(kind) in named[kind][k] for kind in _NAMES)
              and any(subjects.get(kind) for kind in _NAMES if named[kind][k])}
    staying = {kind: set().union(*(names[k] for k in range(len(clauses)) if k not in others))
               for kind, names in named.items()}
    dropped = {k for k in others if all(staying[kind] for kind in _NAMES if named[kind][k] and not subjects.get(kind))}
    if not dropped:
        return question, []
    said = " on ".join(_shown(kind, subject) for kind, subject in subjects.items() if subject)
    kept = "".join(c + end for k, (c, end) in enumerate(zip(clauses, ends)) if k not in dropped)
    return kept, [f"read as about {said}; what the question says of the others is left out"]


def _several_named(question: str) -> bool:
    """Does the message name two models or two parts, by the registry's spellings, a bare size ("the 8B") or a family
    word no named model has? A cheap look before each clause is tagged."""
    lowered = question.lower()
    named = models().named_in(lowered)
    own = {part for n in named for part in re.split(r"[-_]", n)}  # ("llama 3.1 70b": its 70b is its own)
    loose = {m.group(1) for m in _ANY_SIZE.finditer(question) if f"{m.group(1).lower()}b" not in own} | {
        w for w in re.findall(r"[a-z]+", lowered) if w in _families() and not any(n.startswith(w) for n in named)}
    parts = gpus().named_in(lowered)
    codes = {c for c in _PART_CODE.findall(lowered) if not _NOT_A_PART.match(c)
             and not any(c in p.replace("-", "") for p in parts)}  # ("v100", "a10g": parts the registry lacks)
    return len(named) + len(loose) > 1 or len(parts) + len(codes) > 1


def _names(tags: list, clause: str, kind: str) -> set[str]:
    """The models (or parts) a clause names: registry ids, and "?"-marked what the registry does not hold as
    written ("?mistral" for "the Mistral setup", "?7b" for "the 7B run")."""
    names = {t.key if t.label in ("MODEL", "GPU") else "?" + t.text.lower() for t in tags if t.label in _NAMES[kind]}
    if kind == "model" and not names:
        names = {f"?{_size(m.group(1))}b" for m in _SIZE.finditer(clause)}
        names |= {"?" + w for w in re.findall(r"[a-z]+", clause.lower()) if w in _families()}
    return names


def _size(said: str) -> str:
    """"70" → "70", "7.0" → "7", "8x22" → "8x22": a size as the registry's ids write it."""
    return said.lower() if "x" in said.lower() else f"{float(said):g}"


@lru_cache(maxsize=1)
def _families() -> frozenset[str]:
    """The family words of the registry's models: "llama", "qwen", "mixtral", "deepseek"…"""
    return frozenset(_family(i) for i in models().entries) - {""}


def _family(name: str) -> str:
    """A model name's family word: its first letters, when there are four or more ("qwen" of "qwen2.5-72b")."""
    m = re.match(r"[a-z]{4,}", name.lstrip("?"))
    return m.group() if m else ""


def _resolved(named: list[set[str]]) -> list[set[str]]:
    """A loose name stands for the one fuller name said elsewhere that it is part of ("the 70B" after "Llama 3.1
    70B", "the Mistral setup" after "Mistral 7B", "the 32B" after an unknown "Qwen3 32B", "tpus" for "tpu v5p")."""
    every = {n for names in named for n in names}
    def resolved(n: str) -> str:
        same = [m for m in every if m != n and _words(n) < _words(m)]
        return same[0] if n.startswith("?") and len(same) == 1 else n
    return [{resolved(n) for n in names} for names in named]


def _words(name: str) -> set[str]:
    """A name's words and its family word, a plural read as its singular ("tpus" is a "tpu")."""
    words = [w[:-1] if len(w) > 3 and w.endswith("s") else w for w in re.split(r"[-_ ]+", name.lstrip("?")) if w]
    return set(words) | ({_family(words[0])} - {""} if words else set())


def _shown(kind: str, name: str) -> str:
    """A subject as the answer names it: the registry's name, or the reader's words for what it does not hold."""
    spec = (find_model if kind == "model" else find_gpu)(name) if not name.startswith("?") else None
    return spec.name if spec else name.lstrip("?")


def _asked_about(names: list[set[str]], ask: int, start: int, sentences: list[range], clauses: list[str]) -> str | None:
    """The subject: what the asking clause names, else what its sentence names before it, else what the clauses
    sharing the ask's own word name ("Total cache for the ten agents?" of "Ten support agents … on Mixtral 8x7B"),
    else (its sentence naming nothing) what the nearest sentence before names."""
    if names[ask]:
        return _subject(names[ask])
    if any(names[start:ask]):
        return _subject(set().union(*names[start:ask]))
    return _by_shared_word(names, ask, clauses) or _nearest_named(names, sentences)


# words of an ask that say nothing of which setup it means
_PLAIN = {"what", "whats", "what's", "total", "cache", "memory", "much", "many", "tokens", "token", "bytes", "left",
          "free", "that", "this", "with", "from", "need", "needs", "does", "long", "time", "size", "each", "they",
          "their", "them", "give", "please", "only", "just", "about", "into", "over", "across", "which", "would",
          "could", "should", "there", "here", "weights", "plus", "together", "hold", "holds", "take", "takes", "want",
          "figure", "number", "then", "those", "these", "than", "more", "less", "used", "using", "come", "comes"}


def _by_shared_word(names: list[set[str]], ask: int, clauses: list[str]) -> str | None:
    """The one subject named by the clauses that share a word of the ask that is its own ("agents", "moderation")."""
    words = {w.rstrip("s") for w in re.findall(r"[a-z]{4,}", clauses[ask].lower()) if w not in _PLAIN}
    sharing = [k for k, c in enumerate(clauses) if k != ask and names[k]
               and words & {w.rstrip("s") for w in re.findall(r"[a-z]{4,}", c.lower())}]
    subjects = set().union(*(names[k] for k in sharing)) if sharing else set()
    return _subject(subjects) if not any(n.startswith("?") for n in subjects) else None


def _nearest_named(names: list[set[str]], sentences: list[range]) -> str | None:
    """The one model (or part) named by the nearest sentence before the ask that names any, when every name in the
    message is one the registry holds (a loose "the 8b one" on its own line sets no "llama 3.1" aside)."""
    if any(n.startswith("?") for clause in names for n in clause):
        return None  # a name the registry lacks is never set aside by this guess: it is said unknown, not replaced
    named = next((set().union(*(names[k] for k in sentence)) for sentence in sentences
                  if any(names[k] for k in sentence)), set())
    return _subject(named)


def _subject(named: set[str]) -> str | None:
    """The one model (or part) the asking clause names, or else the one its sentence names before it ("Mixtral 8x7B
    on the 2 L40S box, …: how large is the cache in total, knowing that the 8x22B …")."""
    return next(iter(named)) if len(named) == 1 else None

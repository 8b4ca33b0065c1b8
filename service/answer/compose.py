"""Extractive answers that answer: the sentence that states what was asked comes first.

Every quotable sentence and list item of the best passages is scored (the trained sentence scorer,
`learned/sentence_ranker.json`, over features.py-style numbers: how much of the question it covers with
and without its headings, its own cosine to the question (from the sentence vectors the index stores), how
well its passage ranked, where it sits, and whether it has what the question kind wants — a definition for "what is", a figure for "how much", a name for "who", a reason for "why").
The best one leads; a sentence that introduces a list brings the list with it; a comparison gets a
sentence on each side; a few more sentences follow only if they score close to the lead, say something
new and keep the answer short (≤ 3 sentences, ~80 words; one line when the reader asked for one). Each
carries an `[n]` whose citation snippet contains it, and citations of one section are one source.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from ingest.index import Hit
from ingest.sentences import Unit, first_sentence, units

from .features import REFERENCE_SECTIONS
from .learned import LinearModel
from .expansion import asked_abbreviations, spells_out
from .markers import MARKER
from .models import Citation
from .reading import Reading, defined_subject
from .terms import TermWeights, terms

SENTENCE_FEATURES = ("cov", "cov_ctx", "cov_subject", "cov_rare", "head_cov", "first_match", "meta", "passage_rr",
                     "passage_cos", "sent_cos", "sent_cos_gap", "first", "position", "words", "is_item", "is_leadin",
                     "is_refs", "has_number", "defines", "defines_asked", "has_name", "has_year", "has_reason", "kind_match", "sides_covered",
                     "mentions_subject", "kind_definition", "kind_figure", "kind_who", "kind_compare", "kind_why",
                     "kind_how")
PASSAGES = 4  # the best passages an answer is drawn from
# A further sentence joins the lead if it scores at least this share of the lead's: 0.05 of the trained scorer's
# probability, 0.6 of the rule's score. Tuned on dev: readers answer_facts 0.612 at 0.3 → 0.619 at 0.15 → 0.636 at
# 0.05 (= at 0), median 58 → 74 words (77 at 0); the word limit keeps the answer short, and the lead still leads.
EXTRA_SHARE, RULE_EXTRA_SHARE = 0.05, 0.6
MAX_WORDS = 80
# The sentence that defines what a "what is" question asks about leads if it scores at least this share of the best
# one; a side's defining sentence ("Reduce: each rank …") gets this bonus in a comparison (both chosen on held-out dev)
DEFINER_SHARE, SIDE_DEFINES = 0.2, 0.3
_NUMBER = re.compile(r"\d")
_DEFINES = re.compile(r"^(?:\S+\s+){0,8}?(?:is|are|means|refers to|stands for|short for|is called|are called)\b|\(\s*[A-Z][A-Za-z0-9-]+\s*\)")
_NAME = re.compile(r"(?:\b(?:by|from|at|of)\s+|\s)[A-Z][a-z]+(?:\s+(?:[A-Z][a-z]+|et al\.?))|\b[A-Z]{2,}\s+\d{4}\b|\bet al\b")
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_CONTRAST = re.compile(r"\b(?:rather than|instead of)\s+([^?.!,;]+)", re.IGNORECASE)
# A sentence about the page itself ("This page shows…", "as above", "next sections") answers nothing.
_META = re.compile(r"\b(this (?:page|article|section|guide)|the (?:next|previous) sections?|as (?:above|below)|"
                   r"(?:see|covered) (?:above|below)|in this (?:page|article))\b", re.I)
_REASON = re.compile(r"\b(because|since|so that|therefore|which is why|the reason|due to|as a result|that is why)\b", re.I)
_KIND_CUE = {"definition": "defines", "figure": "has_number", "who": "has_name", "when": "has_year", "why": "has_reason"}
_CARRIED_ITEMS = 6
_RARE_WEIGHT = 0.6  # a term is rare when its weight is at least this share of an unseen term's


@dataclass
class Quote:
    """A unit of a passage as a candidate for the answer."""

    unit: Unit
    rank: int  # its passage's rank among the hits
    hit: Hit
    terms: frozenset[int]
    text: str  # as the answer would say it (a lead-in with its list carried)
    covers: frozenset[int] = frozenset()  # the units of its passage it says (a lead-in: its list's items too)
    features: dict[str, float] = field(default_factory=dict)
    score: float = 0.0


class ExtractiveComposer:
    def __init__(self, weights: TermWeights, max_sentences: int = 3, scorer: LinearModel | None = None,
                 max_words: int = MAX_WORDS):
        self.weights, self.max_sentences, self.scorer, self.max_words = weights, max_sentences, scorer, max_words

    def compose(self, reading: Reading | str, hits: list[Hit], numbering: str = "compact",
                quotes: list[Quote] | None = None) -> tuple[str, list[Citation]]:
        """The answer with `[n]` markers and its citations.

        `compact` numbers the cited sections 1, 2, 3… in order of use (one number per section); `rank`
        numbers by the passage's position in `hits` (1-based), the numbers an LLM was given for them.
        `quotes` are these hits' candidates already scored (the judge needed them), if any.
        """
        chosen = self.choose(Reading.plain(reading) if isinstance(reading, str) else reading, hits, quotes)
        numbers: dict[object, int] = {}
        quoted: dict[object, list[str]] = {}
        passages: dict[object, Hit] = {}
        parts = []
        for quote in chosen:
            key = quote.hit.passage.section_id if numbering == "compact" else quote.rank
            if key not in numbers:
                numbers[key] = len(numbers) + 1 if numbering == "compact" else quote.rank + 1
                quoted[key], passages[key] = [], quote.hit
            quoted[key].append(quote.text)
            parts.append(f"{quote.text} [{numbers[key]}]")
        citations = [Citation.of(n, passages[key].passage, " … ".join(quoted[key])) for key, n in numbers.items()]
        return " ".join(parts), citations

    def choose(self, reading: Reading, hits: list[Hit], quotes: list[Quote] | None = None) -> list[Quote]:
        """The quotes of the answer, in the order it says them: the lead first."""
        quotes = self.candidates(reading, hits) if quotes is None else quotes
        ranked = sorted(quotes, key=lambda q: (-q.score, q.rank, q.unit.index))
        if not ranked:
            return []
        abbreviations = asked_abbreviations(reading.corrected, reading.text)
        spelled = next((q for q in ranked if any(spells_out(a, q.unit.text) for a in abbreviations)), None)
        if spelled is not None:  # "what does fsdp stand for": the sentence that spells it out leads
            ranked = [spelled] + [q for q in ranked if q is not spelled]
        elif (defined := terms(defined_subject(reading.corrected))) and not reading.sides:
            # "what is context parallelism": a sentence that opens on the term and says what it is leads
            definer = next((q for q in ranked if q.score >= DEFINER_SHARE * ranked[0].score
                            and _defines(q.unit.text, defined)), None)
            if definer is not None:
                ranked = [definer] + [q for q in ranked if q is not definer]
        if reading.sides:  # a comparison: one sentence on each side, in the order the reader named them
            picked: list[Quote] = []
            for side in map(terms, reading.sides):
                on_side = [q for q in ranked if self.weights.coverage(side, q.terms) >= 0.5
                           and q not in picked and not self._repeats(q, picked)]
                # a sentence about the side names it first ("TTFT is …"), not in passing ("… TPOT − TTFT …")
                best = max(on_side, key=lambda q: q.score + 0.5 * _names_first(q.unit.text, side)
                           + SIDE_DEFINES * _defines(q.unit.text, side, label=True), default=None)
                if best is not None:
                    picked.append(best)
            if picked:
                # the best sentence overall joins the sides when it says something they do not ("TTFT is …;
                # TPOT is …" and then what sets them apart), within the length limit
                lead = ranked[0]
                if (lead not in picked and not self._repeats(lead, picked) and not reading.one_line
                        and len(picked) < self.max_sentences
                        and sum(q.unit.words for q in picked) + lead.unit.words <= self.max_words):
                    picked.append(lead)
                return picked
        lead = ranked[0]
        chosen = [lead]
        for part in map(terms, reading.parts[1:]):  # a two-part question: a sentence for each part
            if not part or any(self.weights.coverage(part, q.terms) >= 0.5 for q in chosen):
                continue
            best = next((q for q in ranked if q not in chosen and self.weights.coverage(part, q.terms) >= 0.5
                         and not self._repeats(q, chosen) and q.score >= 0.3 * lead.score), None)
            if best is not None:
                chosen.append(best)
        if not reading.one_line:
            asked = asked_terms(reading.corrected)
            while len(chosen) < self.max_sentences:
                covered = frozenset().union(*(q.terms for q in chosen))
                new = lambda q: self.weights.coverage(asked - covered, q.terms) if asked - covered else 0.0  # noqa: E731
                fits = [q for q in ranked if q not in chosen and not self._repeats(q, chosen)
                        and sum(c.unit.words for c in chosen) + q.unit.words <= self.max_words]
                best = max(fits, key=lambda q: q.score * (0.7 + 0.3 * new(q)), default=None)
                if best is None or best.score < (EXTRA_SHARE if self.scorer else RULE_EXTRA_SHARE) * lead.score:
                    break
                chosen.append(best)
        return [lead] + sorted(chosen[1:], key=lambda q: (q.rank, q.unit.index))

    def candidates(self, reading: Reading, hits: list[Hit]) -> list[Quote]:
        """Every unit of the best passages, with its features and score."""
        asked = asked_terms(reading.corrected)
        searched = terms(reading.text)
        subject = frozenset(searched - asked)
        rare = frozenset(t for t in asked if self.weights.weight(t) >= _RARE_WEIGHT * self.weights.unseen)
        sides = [terms(side) for side in reading.sides]
        kinds = {f"kind_{k}": float(reading.kind == k) for k in ("definition", "figure", "who", "compare", "why", "how")}
        quotes = []
        for rank, hit in enumerate(hits[:PASSAGES]):
            p = hit.passage
            heading = terms(f"{p.title} {p.section}")
            passage_units = units(p.text)
            for unit in passage_units:
                if not (unit.quotable or unit.leads is not None):
                    continue  # too short or too long to quote, and introduces nothing: never part of an answer
                text, covers = _carry(unit, passage_units)
                if MARKER.search(text):
                    continue  # "scores [1, 3]" would read as citation markers to the widget and to every check
                unit_terms = terms(unit.text)
                quote = Quote(unit, rank, hit, terms(text), text, covers)
                cues = _cues(unit.text)
                quote.features = {
                    "cov": self.weights.coverage(asked, unit_terms),
                    "cov_ctx": self.weights.coverage(asked, unit_terms | heading),
                    "cov_subject": self.weights.coverage(searched, unit_terms | heading),
                    "cov_rare": self.weights.coverage(rare, unit_terms) if rare else 0.0,
                    "head_cov": self.weights.coverage(asked, heading),
                    "first_match": _first_match(unit.text, asked),
                    "defines_asked": cues["defines"] * float(bool(asked & terms(_opening(unit.text)))), **kinds,
                    "meta": cues["meta"],
                    "passage_rr": 1.0 / (1 + rank), "passage_cos": hit.dense_score,
                    # the sentence's own cosine to the question (the passage's, in a release without unit vectors)
                    "sent_cos": hit.unit_cosines[unit.index] if hit.unit_cosines else hit.dense_score,
                    "first": float(unit.index == 0), "position": unit.index / max(len(passage_units), 1),
                    "words": min(unit.words, 80) / 80, "is_item": float(unit.item_of is not None),
                    "is_leadin": float(unit.leads is not None),
                    "is_refs": float(p.section.strip().lower() in REFERENCE_SECTIONS),
                    **cues, "kind_match": cues.get(_KIND_CUE.get(reading.kind, ""), 0.0),
                    "sides_covered": float(sum(self.weights.coverage(s, unit_terms) >= 0.5 for s in sides)),
                    "mentions_subject": float(bool(subject & unit_terms)),
                }
                quotes.append(quote)
        best_cos = max((q.features["sent_cos"] for q in quotes), default=0.0)
        for q in quotes:
            q.features["sent_cos_gap"] = best_cos - q.features["sent_cos"]
        self._score(quotes)
        return quotes

    def _score(self, quotes: list[Quote]) -> None:
        if self.scorer is not None:
            for quote, probability in zip(quotes, self.scorer.probabilities([q.features for q in quotes])):
                quote.score = float(probability)
            return
        for q in quotes:  # the rule it replaced: coverage, the passage's match, a small rank penalty
            f = q.features
            q.score = (0.5 if f["is_refs"] else 1.0) * (f["cov"] + 0.5 * f["passage_cos"]) - 0.02 * q.rank

    @staticmethod
    def _repeats(quote: Quote, chosen: list[Quote]) -> bool:
        """Says again what a chosen quote says: the same units of the same passage, or nearly the same words."""
        return any((quote.hit is q.hit and quote.covers & q.covers) or _similar(quote.terms, q.terms) for q in chosen)


def asked_terms(question: str) -> frozenset[int]:
    """The question's terms, less those of what it contrasts with: "why is the KV cache exact rather than an
    approximation" asks about exactness, and a sentence about approximations does not answer it."""
    asked = terms(question)
    contrast = _CONTRAST.search(question)
    if contrast is None:
        return asked
    main = asked - terms(contrast.group(0))  # "rather than an approximation", its connective included
    return main or asked


def _names_first(text: str, wanted: frozenset[int]) -> float:
    """1 when the first few words name what is wanted (the sentence is about it), else 0."""
    return float(bool(terms(" ".join(text.split()[:5])) & wanted))


def _defines(text: str, wanted: frozenset[int], label: bool = False) -> bool:
    """Does the sentence open on what is wanted and say what it is ("Context parallelism (CP) splits …", "X is …";
    with `label`, also a labelled line: "Reduce: each rank …")?"""
    opening = " ".join(text.split()[:8])
    return wanted <= terms(opening) and bool(_DEFINES.search(text) or (label and ":" in opening))


def _opening(text: str) -> str:
    """The words a definition would open with ("The KV cache is …")."""
    return " ".join(text.split()[:6])


def _first_match(text: str, asked: frozenset[int]) -> float:
    """How early the sentence names something the question asked about (1 = its first word, 0 = never)."""
    for i, word_terms in enumerate(_opening_terms(text)):
        if word_terms & asked:
            return 1.0 - i / 24
    return 0.0


@lru_cache(maxsize=32768)
def _opening_terms(text: str) -> tuple[frozenset[int], ...]:
    return tuple(terms(word) for word in text.split()[:24])


@lru_cache(maxsize=32768)
def _cues(text: str) -> dict[str, float]:
    """What kind of answer a sentence holds: a figure, a definition, a name, a year, a reason."""
    return {"has_number": float(bool(_NUMBER.search(text))), "defines": float(bool(_DEFINES.search(text))),
            "has_name": float(bool(_NAME.search(text))), "has_year": float(bool(_YEAR.search(text))),
            "has_reason": float(bool(_REASON.search(text))), "meta": float(bool(_META.search(text)))}


def _carry(unit: Unit, passage_units: tuple[Unit, ...]) -> tuple[str, frozenset[int]]:
    """A sentence that introduces a list says the list too: "It has three parts: a; b; c." """
    items = [u for u in passage_units if unit.leads is not None and u.item_of == unit.leads][:_CARRIED_ITEMS]
    while len(items) > 1 and sum(u.words for u in items) + unit.words > MAX_WORDS:
        items.pop()
    if not items:
        return unit.text, frozenset({unit.index})
    said = "; ".join(u.text.rstrip(".;") for u in items)
    return f"{unit.text} {said}.", frozenset({unit.index, *(u.index for u in items)})


def citations_by_rank(hits: list[Hit]) -> list[Citation]:
    """Every passage as a citation numbered by rank, its first sentence as the snippet (what an LLM was given)."""
    return [Citation.of(rank + 1, hit.passage, first_sentence(hit.passage.text)) for rank, hit in enumerate(hits)]


def _similar(a: frozenset[int], b: frozenset[int]) -> bool:
    return bool(a and b) and len(a & b) / len(a | b) > 0.6



"""What the rankers see: a few plain numbers per retrieved passage and per question.

Passage features say how well a passage matches the question (cosine, its best sentences' cosines, the share
of the question's rarer terms its text and its headings contain), where it came from (its rank on the page the
reader is on and across the site) and what it is (an article, a concept page, a source, a lead, a reference list).
Question features say how the question relates to the site as a whole: how much of it the best passage
covers, and how many of its words the site never uses at all ("pastry", "pbtxt").
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from ingest.index import Hit
from ingest.sentences import units

from .reading import Reading, content_words
from .terms import TermWeights, terms

PASSAGE_FEATURES = ("cos", "cos_gap", "unit_cos", "unit_cos_top2", "unit_cos_gap", "cov", "cov_gap", "head_cov",
                    "title_cov", "pair_cov", "section_cos", "section_hits", "site_rr", "page_rr", "on_page", "in_article", "linked", "is_article",
                    "is_concept", "is_source", "is_lead", "is_refs", "doc_start", "subject_added", "n_terms")
QUESTION_FEATURES = ("top_score", "score_gap", "top_cos", "top_cov", "top_head_cov", "max_cov", "asked_cov",
                     "rare_terms", "rare_missing", "rarest_missing", "oov_share", "oov_words", "oov_english",
                     "oov_names", "asks_now", "asks_price", "asks_procedure",
                     "injection", "n_terms", "on_page", "top_in_article", "subject_added")
_RARE_SHARE = 20  # a term is rare when at most one section in this many contains it
_WORD = re.compile(r"[a-z0-9][a-z0-9_.+-]*[a-z0-9]|[a-z0-9]")
# The site is dated and does not track markets: "right now", "today", "this week" and prices ask what it cannot know.
_NOW = re.compile(r"\b(today|tonight|right now|currently|this (?:week|month|year|quarter)|last (?:week|month|year)|"
                  r"latest|as of now|at the moment|nowadays)\b", re.IGNORECASE)
_PRICE = re.compile(r"\b(price[sd]?|pricing|cost[s]?|charg(?:e|es|ing)|rent(?:al)?|tariff|valued?|valuation|revenue|"
                    r"stock|salary|cheap(?:est)?|buy|\$)\b", re.IGNORECASE)
# A tool's how-to ("how do i turn on the kv cache in llama.cpp", "config.pbtxt for triton", "the mlxfwmanager
# command"): the site explains how systems work, and its sentences about a tool rarely say which buttons to press.
_PROCEDURE = re.compile(r"\bhow (?:do|can|would|should) (?:i|we|you)\b|\bhow to\b|\b(?:commands?|cli|flags?|"
                        r"config(?:uration)?|install(?:ing)?|set ?up|configure|enable|turn on|steps to|tutorial|script|"
                        r"helm|yaml|syntax|example code|snippet)\b", re.IGNORECASE)
REFERENCE_SECTIONS = frozenset({"sources", "references", "further reading"})  # lists of sources, not explanations


@dataclass
class Candidate:
    """A passage retrieval found, with where it was found and its features."""

    hit: Hit
    site_rank: int | None = None
    page_rank: int | None = None
    features: dict[str, float] | None = None
    score: float = 0.0  # the ranker's

    @property
    def key(self) -> tuple[str, str, int]:
        p = self.hit.passage
        return p.kind, p.doc_id, p.position


def passage_features(reading: Reading, candidates: list[Candidate], weights: TermWeights, article: str | None,
                     linked: set[tuple[str, str]]) -> None:
    """Fill each candidate's `features` (relative ones compare it with the best candidate)."""
    q_terms = terms(reading.text)
    n_terms = float(len(q_terms))
    q_pairs = _pairs(reading.text)
    section_cos: dict[str, float] = {}
    section_hits: Counter = Counter()
    for c in candidates:
        sid = c.hit.passage.section_id
        section_cos[sid] = max(section_cos.get(sid, -1.0), c.hit.dense_score)
        section_hits[sid] += 1
    rows = []
    for c in candidates:
        p = c.hit.passage
        rows.append({
            "pair_cov": len(q_pairs & _pairs(f"{p.section} {p.text}")) / len(q_pairs) if q_pairs else 0.0,
            "section_cos": section_cos[p.section_id], "section_hits": float(section_hits[p.section_id]),
            "doc_start": float(p.position == 0),
            "cos": c.hit.dense_score, **_unit_cos(c.hit),
            "cov": weights.coverage(q_terms, terms(f"{p.title} {p.section} {p.text}")),
            "head_cov": weights.coverage(q_terms, terms(f"{p.title} {p.section}")),
            "title_cov": weights.coverage(q_terms, terms(p.title)),
            "site_rr": 1.0 / (1 + c.site_rank) if c.site_rank is not None else 0.0,
            "page_rr": 1.0 / (1 + c.page_rank) if c.page_rank is not None else 0.0,
            "on_page": float(article is not None),
            "in_article": float(p.kind == "article" and p.doc_id == article),
            "linked": float((p.kind, p.doc_id) in linked),
            "is_article": float(p.kind == "article"), "is_concept": float(p.kind == "concept"),
            "is_source": float(p.kind == "source"),
            "is_lead": float(not p.section), "is_refs": float(p.section.strip().lower() in REFERENCE_SECTIONS),
            "subject_added": float(reading.subject_added), "n_terms": n_terms,
        })
    best_cos = max((r["cos"] for r in rows), default=0.0)
    best_cov = max((r["cov"] for r in rows), default=0.0)
    best_unit = max((r["unit_cos"] for r in rows), default=0.0)
    for c, row in zip(candidates, rows):
        row["cos_gap"], row["cov_gap"] = best_cos - row["cos"], best_cov - row["cov"]
        row["unit_cos_gap"] = best_unit - row["unit_cos"]
        c.features = row


def _unit_cos(hit: Hit) -> dict[str, float]:
    """How well the passage's best two quotable sentences match the question: a passage with one sentence that
    answers beats one that matches on average (the passage's own cosine without unit vectors)."""
    quotable = [cos for unit, cos in zip(units(hit.passage.text), hit.unit_cosines) if unit.quotable]
    best = sorted(quotable or hit.unit_cosines or (hit.dense_score,), reverse=True)
    return {"unit_cos": best[0], "unit_cos_top2": best[1] if len(best) > 1 else best[0]}


@lru_cache(maxsize=16384)
def _pairs(text: str) -> frozenset[tuple[str, str]]:
    """Adjacent content words ("pipeline bubble", "paged attention"), crudely singular."""
    words = [w.rstrip("s") if len(w) > 3 else w for w in content_words(" ".join(_WORD.findall(text.lower())))]
    return frozenset(zip(words, words[1:]))


def unknown_words(text: str, weights: TermWeights) -> list[str]:
    """The question's words the site never uses, in any form ("recommend" is known if "recommends" is)."""
    out = []
    for word in content_words(text):
        parts = [p for p in re.split(r"[-./_]", word.split("'")[0]) if len(p) > 2 and not any(ch.isdigit() for ch in p)]
        if any(not all(t in weights.idf for t in terms(p)) for p in parts):  # a stop word has no terms: known
            out.append(word)
    return out


def question_features(reading: Reading, ranked: list[Candidate], english: frozenset[str],
                      weights: TermWeights) -> dict[str, float]:
    """Features of the question against what was found (candidates best first, scored)."""
    words = [w for w in content_words(reading.corrected) if len(w) > 2 and not any(ch.isdigit() for ch in w)]
    unknown = unknown_words(reading.corrected, weights)
    top = ranked[0].features if ranked else {}
    asked = terms(reading.corrected)  # the reader's own words, without the page's subject
    passage_terms = [terms(f"{c.hit.passage.title} {c.hit.passage.section} {c.hit.passage.text}") for c in ranked[:3]]
    found = frozenset().union(*passage_terms) if passage_terms else frozenset()
    rare = [t for t in asked if weights.weight(t) > math.log(1 + weights.n / _RARE_SHARE)]
    return {
        "asked_cov": weights.coverage(asked, passage_terms[0]) if passage_terms else 0.0,
        "rare_terms": float(len(rare)),
        "rare_missing": float(sum(t not in found for t in rare)),
        "rarest_missing": max((weights.weight(t) for t in asked - found), default=0.0) / math.log(1 + weights.n),
        "asks_now": float(bool(_NOW.search(reading.corrected))),
        "asks_price": float(bool(_PRICE.search(reading.corrected))),
        "asks_procedure": float(bool(_PROCEDURE.search(reading.corrected))),
        "injection": float(reading.injection),
        "top_score": ranked[0].score if ranked else 0.0,
        "score_gap": ranked[0].score - ranked[1].score if len(ranked) > 1 else 0.0,
        "top_cos": top.get("cos", 0.0), "top_cov": top.get("cov", 0.0), "top_head_cov": top.get("head_cov", 0.0),
        "max_cov": max((c.features["cov"] for c in ranked[:6]), default=0.0),
        "oov_share": len(unknown) / len(words) if words else 0.0, "oov_words": float(len(unknown)),
        "oov_english": float(sum(w in english for w in unknown)),  # real words the site never uses: "marathon"
        "oov_names": float(sum(w not in english for w in unknown)),  # names it never mentions: "sdxl", "opencl"
        "n_terms": top.get("n_terms", 0.0), "on_page": top.get("on_page", 0.0),
        "top_in_article": top.get("in_article", 0.0), "subject_added": float(reading.subject_added),
    }

"""Per-question scores and their aggregates: ragas 0.4 where it has the metric, ours where it does not.

ragas (offline, no LLM):
- retrieval: `IDBasedContextPrecision` / `IDBasedContextRecall` on section ids (`doc_id#anchor`);
  `NonLLMContextRecall` (Levenshtein ≥ 0.5) of each gold section's text against the retrieved passages
  of that section, concatenated in reading order — "at least half of the section was retrieved";
- answers: `StringPresence` per key fact, `SemanticSimilarity` with the local embedding model (all texts
  are embedded once, in batches, before ragas scores them), `RougeScore` (ROUGE-L F1).
ragas with an LLM judge (`LlmJudge`): `Faithfulness`, `ResponseRelevancy`, `LLMContextPrecisionWithReference`.
Ours: hit@k and MRR over the ranked distinct sections, citation validity, route / scope accuracy,
calculator exactness within the item's tolerance, no-answer precision and recall, latency percentiles.
"""
from __future__ import annotations

import asyncio
import math
import re
import unicodedata
import warnings
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ingest.embedding import offline  # noqa: F401 - RAGAS_DO_NOT_TRACK before ragas is imported: no network call
from service.answer.markers import markers, strip as strip_markers

from .datasets import Item
from .runner import Answer
from .settings import EvalSettings

HIT_KS = (1, 3, 6)

# Metric name → (group, higher is better). The order is the report's.
METRICS: dict[str, tuple[str, bool]] = {
    "hit@1": ("retrieval", True), "hit@3": ("retrieval", True), "hit@6": ("retrieval", True), "mrr": ("retrieval", True),
    "context_precision": ("retrieval", True), "context_recall": ("retrieval", True),
    "nonllm_context_recall": ("retrieval", True),
    "key_facts": ("answers", True), "answer_facts": ("answers", True), "context_facts": ("answers", True),
    "answer_words": ("answers", False), "semantic_similarity": ("answers", True), "rouge_l": ("answers", True),
    "citation_validity": ("answers", True),
    "route_accuracy": ("routing", True), "scope_accuracy": ("routing", True), "calculator_exact": ("routing", True),
    "no_answer_precision": ("routing", True), "no_answer_recall": ("routing", True),
    "false_refusal_rate": ("routing", False), "must_not_route_accuracy": ("routing", True),
    "latency_p50_ms": ("latency", False), "latency_p95_ms": ("latency", False),
    "faithfulness": ("llm judge", True), "response_relevancy": ("llm judge", True),
    "llm_context_precision": ("llm judge", True),
}
# Per-question scores averaged into the metric of the same name (the rest are computed over the set).
_MEAN_OF = {"hit@1": "hit@1", "hit@3": "hit@3", "hit@6": "hit@6", "mrr": "mrr", "context_precision": "context_precision",
            "context_recall": "context_recall", "nonllm_context_recall": "nonllm_context_recall",
            "key_facts": "key_facts", "answer_facts": "answer_facts", "context_facts": "context_facts",
            "must_not_route_accuracy": "not_routed", "semantic_similarity": "semantic_similarity", "rouge_l": "rouge_l",
            "citation_validity": "citation_validity", "route_accuracy": "route_correct",
            "scope_accuracy": "scope_correct", "calculator_exact": "calculator_exact",
            "faithfulness": "faithfulness", "response_relevancy": "response_relevancy",
            "llm_context_precision": "llm_context_precision"}
# What makes one question "bad": the mean of these, where they apply (used for the worst-questions table).
QUALITY_PARTS = ("route_correct", "calculator_exact", "mrr", "context_recall", "answer_facts", "citation_validity",
                 "semantic_similarity")

_SPACE = re.compile(r"\s+")
_EMPHASIS = re.compile(r"\*{1,3}|`")


# ---------------------------------------------------------------------------------------------------
# Per-question scores


def section_texts(corpus) -> dict[str, str]:
    """`doc_id#anchor` → the section's text (pages of different kinds that share an id are merged)."""
    out: dict[str, str] = {}
    for doc in corpus.documents:
        for section in doc.sections:
            key = f"{doc.id}#{section.anchor}"
            out[key] = f"{out[key]}\n\n{section.text}" if key in out else section.text
    return out


def ranked_sections(answer: Answer) -> list[str]:
    """Distinct section ids of the retrieved passages, best first."""
    return list(dict.fromkeys(c.section_id for c in answer.contexts))


def routing_scores(item: Item, answer: Answer) -> dict[str, float | None]:
    scores: dict[str, float | None] = {"route_correct": float(answer.route == item.route)}
    if item.route == "retrieval" and item.scope:
        scores["scope_correct"] = float(answer.route == "retrieval" and answer.scope == item.scope)
    if item.kind == "must_not_route":
        scores["not_routed"] = float(answer.route not in (None, "calculator") and answer.calculation is None)
    if item.expected.get("unknown_model") or item.expected.get("unknown_gpu"):
        said = "I don't know that model" if item.expected.get("unknown_model") else "I don't know that GPU"
        scores["calculator_exact"] = float(answer.route == "calculator" and answer.calculation is None
                                           and answer.answer.startswith(said))
    elif item.expected.get("calculator"):
        scores["calculator_exact"] = float(calculation_matches(item.expected, answer.calculation))
    return scores


def calculation_matches(expected: dict, calculation: dict | None) -> bool:
    if not calculation or calculation.get("calculator") != expected["calculator"]:
        return False
    for quantity in [calculation.get("primary") or {}] + list(calculation.get("quantities") or []):
        if quantity.get("name") == expected["quantity"]:
            if expected.get("unit") and quantity.get("unit") != expected["unit"]:
                return False
            value, want = float(quantity.get("value", math.nan)), float(expected["value"])
            return math.isclose(value, want, rel_tol=float(expected.get("tolerance", 0.001)), abs_tol=1e-12)
    return False


def normalized(text: str) -> str:
    """What a reader sees, for matching a key fact: markers, emphasis and code ticks gone, case and
    spacing folded (a fact that wraps across lines in the page is still the same fact)."""
    return _SPACE.sub(" ", _EMPHASIS.sub("", strip_markers(unicodedata.normalize("NFKC", text)))).strip().casefold()


def fact_scores(item: Item, answer: Answer) -> dict[str, float]:
    """`answer_facts`: the share of key facts the answer text itself states (a refusal states none);
    `context_facts`: the share found in any retrieved passage — the ceiling the composer can reach;
    `answer_words`: the answer's length, for an answered question."""
    if not (_scores_answer(item) and item.key_facts) or answer.route is None:
        return {}
    said = normalized(answer.answer) if answer.route != "no_answer" else ""
    passages = normalized(" ".join(c.text for c in answer.contexts))
    facts = [normalized(f) for f in item.key_facts]
    out = {"answer_facts": sum(f in said for f in facts) / len(facts),
           "context_facts": sum(f in passages for f in facts) / len(facts)}
    if answer.route != "no_answer":
        out["answer_words"] = float(len(strip_markers(answer.answer).split()))
    return out


def rank_scores(item: Item, answer: Answer) -> dict[str, float]:
    """hit@k and reciprocal rank of the first gold section among the distinct retrieved sections."""
    ranked = ranked_sections(answer)
    gold = set(item.anchors)
    first = next((i for i, s in enumerate(ranked) if s in gold), None)
    scores = {f"hit@{k}": float(first is not None and first < k) for k in HIT_KS}
    scores["mrr"] = 1.0 / (first + 1) if first is not None else 0.0
    return scores


def citation_validity(answer: Answer, sections: dict[str, str]) -> float | None:
    """1 when every `[n]` resolves to a citation of a real section whose snippet contains the sentence it marks."""
    marked = markers(answer.answer)
    if answer.route is None or (not answer.citations and not marked):
        return None
    by_n = {c["n"]: c for c in answer.citations}
    for sentence, n in marked:
        citation = by_n.get(n)
        if citation is None or f"{citation['doc_id']}#{citation['anchor']}" not in sections:
            return 0.0
        if _norm(sentence) not in _norm(citation.get("snippet", "")):
            return 0.0
    return 1.0 if marked else 0.0  # citations without a single marker are not citations


def _norm(text: str) -> str:
    return _SPACE.sub(" ", text).strip().casefold()


class RagasScorer:
    """The offline ragas metrics, scored per sample; texts are embedded once, in batches, up front."""

    def __init__(self, encode: Callable[[list[str]], np.ndarray]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from ragas.metrics import IDBasedContextPrecision, IDBasedContextRecall, NonLLMContextRecall, StringPresence
            from ragas.metrics.collections import RougeScore, SemanticSimilarity

        self.embeddings = _cached_embeddings(encode)
        self.precision, self.recall = IDBasedContextPrecision(), IDBasedContextRecall()
        self.nonllm_recall, self.presence = NonLLMContextRecall(), StringPresence()
        self.similarity = SemanticSimilarity(embeddings=self.embeddings)
        self.rouge = RougeScore(rouge_type="rougeL", mode="fmeasure")

    def score(self, pairs: list[tuple[Item, Answer]], sections: dict[str, str]) -> list[dict[str, float | None]]:
        texts = {t for item, answer in pairs if _scores_answer(item) and item.reference for t in (item.reference, answer.answer)}
        self.embeddings.prefill(sorted(texts))
        return asyncio.run(self._score_all(pairs, sections))

    async def _score_all(self, pairs, sections):
        return [await self._score_one(item, answer, sections) for item, answer in pairs]

    async def _score_one(self, item: Item, answer: Answer, sections: dict[str, str]) -> dict[str, float | None]:
        from ragas import SingleTurnSample

        out: dict[str, float | None] = {}
        if item.route == "retrieval" and item.anchors and answer.route is not None:
            out.update(rank_scores(item, answer))
            retrieved = ranked_sections(answer)
            sample = SingleTurnSample(retrieved_context_ids=retrieved, reference_context_ids=list(item.anchors))
            out["context_precision"] = await self.precision.single_turn_ascore(sample) if retrieved else 0.0
            out["context_recall"] = await self.recall.single_turn_ascore(sample)
            gold = [sections[a] for a in item.anchors if a in sections]
            if gold:
                joined = _passages_by_section(answer)
                sample = SingleTurnSample(retrieved_contexts=[joined[a] for a in item.anchors if a in joined] or [""],
                                          reference_contexts=gold)
                out["nonllm_context_recall"] = await self.nonllm_recall.single_turn_ascore(sample)
        if _scores_answer(item) and answer.route is not None:
            if item.key_facts:
                found = [await self.presence.single_turn_ascore(SingleTurnSample(response=answer.answer, reference=fact))
                         for fact in item.key_facts]
                out["key_facts"] = float(np.mean(found))
            if item.reference:
                out["semantic_similarity"] = max(0.0, (await self.similarity.ascore(reference=item.reference,
                                                                                   response=answer.answer)).value)
                out["rouge_l"] = (await self.rouge.ascore(reference=item.reference, response=answer.answer)).value
        return {k: None if v is None or math.isnan(v) else float(v) for k, v in out.items()}


def _scores_answer(item: Item) -> bool:
    return item.route in ("retrieval", "calculator") and not item.expected.get("unknown_model")


def _passages_by_section(answer: Answer) -> dict[str, str]:
    """The retrieved passages of each section, joined in reading order."""
    grouped: dict[str, list] = {}
    for c in answer.contexts:
        grouped.setdefault(c.section_id, []).append(c)
    return {k: "\n\n".join(c.text for c in sorted(v, key=lambda c: c.position)) for k, v in grouped.items()}


def _cached_embeddings(encode: Callable[[list[str]], np.ndarray]):
    from ragas.embeddings.base import BaseRagasEmbedding

    class CachedLocalEmbeddings(BaseRagasEmbedding):
        """ragas' embedding interface over our local sentence-transformers model, with a text → vector cache."""

        def __init__(self):
            super().__init__()
            self.vectors: dict[str, list[float]] = {}

        def prefill(self, texts: list[str]) -> None:
            todo = [t for t in texts if t not in self.vectors]
            for start in range(0, len(todo), 256):
                batch = todo[start:start + 256]
                for text, vector in zip(batch, encode(batch)):
                    self.vectors[text] = vector.tolist()

        def embed_text(self, text: str, **kwargs) -> list[float]:
            text = text or " "
            if text not in self.vectors:
                self.prefill([text])
            return self.vectors[text]

        async def aembed_text(self, text: str, **kwargs) -> list[float]:
            return self.embed_text(text)

        # The legacy interface (ResponseRelevancy) asks for these names.
        def embed_query(self, text: str) -> list[float]:
            return self.embed_text(text)

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            self.prefill(list(texts))
            return [self.embed_text(t) for t in texts]

        async def aembed_query(self, text: str) -> list[float]:
            return self.embed_text(text)

        async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
            return self.embed_documents(texts)

    return CachedLocalEmbeddings()


@dataclass
class JudgeConfig:
    base_url: str
    model: str
    api_key: str = "not-needed"
    concurrency: int = 4
    timeout_s: float = 120.0

    @classmethod
    def from_env(cls, base_url: str | None = None, model: str | None = None) -> "JudgeConfig | None":
        """The judge named on the command line, else by EVAL_LLM_BASE_URL / EVAL_LLM_MODEL; None without one."""
        settings = EvalSettings()
        base_url, model = base_url or settings.llm_base_url, model or settings.llm_model
        if not (base_url and model):
            return None
        return cls(base_url, model, settings.llm_api_key)


class LlmJudge:
    """ragas' LLM-judged metrics through an OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp, a hosted API)."""

    def __init__(self, config: JudgeConfig, encode: Callable[[list[str]], np.ndarray]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from langchain_openai import ChatOpenAI
            from ragas.llms import LangchainLLMWrapper
            from ragas.metrics import Faithfulness, LLMContextPrecisionWithReference, ResponseRelevancy

        llm = LangchainLLMWrapper(ChatOpenAI(base_url=config.base_url, model=config.model, api_key=config.api_key,
                                             temperature=0, timeout=config.timeout_s, max_retries=2))
        self.config = config
        self.metrics = {"faithfulness": Faithfulness(llm=llm),
                        "response_relevancy": ResponseRelevancy(llm=llm, embeddings=_cached_embeddings(encode)),
                        "llm_context_precision": LLMContextPrecisionWithReference(llm=llm)}

    def score(self, pairs: list[tuple[Item, Answer]]) -> list[dict[str, float | None]]:
        return asyncio.run(self._score_all(pairs))

    async def _score_all(self, pairs):
        gate = asyncio.Semaphore(self.config.concurrency)

        async def one(item: Item, answer: Answer) -> dict[str, float | None]:
            from ragas import SingleTurnSample

            if item.route != "retrieval" or answer.route != "retrieval":
                return {}
            sample = SingleTurnSample(user_input=item.question, response=answer.answer, reference=item.reference or "",
                                      retrieved_contexts=[c.text for c in answer.contexts] or [""])
            out: dict[str, float | None] = {}
            async with gate:
                for name, metric in self.metrics.items():
                    if name == "llm_context_precision" and not item.reference:
                        continue
                    try:
                        value = float(await metric.single_turn_ascore(sample))
                        out[name] = None if math.isnan(value) else value
                    except Exception:  # a judge that fails on one sample must not sink the run
                        out[name] = None
            return out

        return await asyncio.gather(*(one(i, a) for i, a in pairs))


# ---------------------------------------------------------------------------------------------------
# Aggregates


def aggregate(records: list[dict], mode: str) -> dict[str, float | None]:
    """Every metric of METRICS for one mode over `records` (the report's per-question entries)."""
    rows = [r["modes"][mode] for r in records if mode in r["modes"]]
    out: dict[str, float | None] = {}
    for metric, key in _MEAN_OF.items():
        values = [row["scores"][key] for row in rows if row["scores"].get(key) is not None]
        out[metric] = round(float(np.mean(values)), 4) if values else None
    expected_decline = [r["route"] == "no_answer" for r in records if mode in r["modes"]]
    declined = [row["route"] == "no_answer" for row in rows]
    tp = sum(e and d for e, d in zip(expected_decline, declined))
    out["no_answer_precision"] = round(tp / sum(declined), 4) if sum(declined) else None
    out["no_answer_recall"] = round(tp / sum(expected_decline), 4) if sum(expected_decline) else None
    answerable = [row["route"] == "no_answer" for r, row in zip(_with_mode(records, mode), rows)
                  if r["route"] != "no_answer" and row.get("route")]
    out["false_refusal_rate"] = round(sum(answerable) / len(answerable), 4) if answerable else None
    words = [row["scores"]["answer_words"] for row in rows if row["scores"].get("answer_words") is not None]
    out["answer_words"] = float(np.median(words)) if words else None
    latencies = [row["latency_ms"] for row in rows if row.get("route")]
    out["latency_p50_ms"] = _percentile(latencies, 50)
    out["latency_p95_ms"] = _percentile(latencies, 95)
    return {k: out.get(k) for k in METRICS}


def _with_mode(records: list[dict], mode: str) -> list[dict]:
    return [r for r in records if mode in r["modes"]]


def latency_by_route(records: list[dict], mode: str) -> dict[str, dict]:
    by_route: dict[str, list[float]] = {}
    for r in records:
        row = r["modes"].get(mode)
        if row and row.get("route"):
            by_route.setdefault(row["route"], []).append(row["latency_ms"])
    return {route: {"n": len(v), "p50_ms": _percentile(v, 50), "p95_ms": _percentile(v, 95)}
            for route, v in sorted(by_route.items())}


def quality(scores: dict) -> float | None:
    parts = [scores[k] for k in QUALITY_PARTS if scores.get(k) is not None]
    return round(float(np.mean(parts)), 4) if parts else None


def _percentile(values: list[float], q: float) -> float | None:
    return round(float(np.percentile(values, q)), 2) if values else None

"""One eval run, top to bottom: load the golden questions → ask them in every mode → score → the report dict.

The report dict is what `report.py` writes (report.json is exactly this) and what `gate.py` and
`compare.py` read back, so a baseline is just an earlier report.json.
"""
from __future__ import annotations

import datetime as dt
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from . import datasets as golden, metrics
from .runner import MODES, Answer, HttpTarget, InProcessTarget, run

PRIMARY_MODE = "hybrid"  # the pipeline the service runs; the other modes are baselines beside it
REPORT_VERSION = 2  # 2: by_split, by_dataset_split, answer/context facts


@dataclass
class RunOptions:
    datasets: list[str] | None = None  # default: every dataset that exists
    datasets_dir: Path = golden.DATASETS_DIR
    modes: tuple[str, ...] = MODES
    url: str | None = None  # a deployed service instead of the in-process one
    settings: object = None  # service Settings for the in-process target (and the corpus / embedding model)
    judge: metrics.JudgeConfig | None = None
    limit: int | None = None  # the first N questions of each dataset (smoke runs)
    progress: bool = True
    notes: dict = field(default_factory=dict)


def evaluate(options: RunOptions) -> dict:
    from service.settings import Settings

    started = time.perf_counter()
    settings = options.settings or Settings()
    items = golden.load(options.datasets, options.datasets_dir)
    if options.limit:
        items = _first_of_each(items, options.limit)
    target = HttpTarget(options.url) if options.url else InProcessTarget(settings)
    with target:
        answers = run(items, target, options.modes, options.progress)
        asked_s = time.perf_counter() - started
        if isinstance(target, InProcessTarget):
            corpus, encode = target.corpus, target.assistant.searcher.embedder.encode
        else:
            from ingest.corpus import load_corpus

            corpus, encode = load_corpus(settings.corpus_dir), settings.embedder().encode
        sections = metrics.section_texts(corpus)
        by_id = {item.id: item for item in items}
        pairs = [(by_id[a.item_id], a) for a in answers]
        scores = metrics.RagasScorer(encode).score(pairs, sections)
        for (item, answer), s in zip(pairs, scores):
            s.update(metrics.routing_scores(item, answer))
            s.update(metrics.fact_scores(item, answer))
            validity = metrics.citation_validity(answer, sections)
            if validity is not None:
                s["citation_validity"] = validity
        if options.judge is not None:
            judged = [(i, a) for i, a in pairs if a.mode == PRIMARY_MODE]
            verdicts = dict(zip((a.item_id for _, a in judged), metrics.LlmJudge(options.judge, encode).score(judged)))
            for (item, answer), s in zip(pairs, scores):
                if answer.mode == PRIMARY_MODE:
                    s.update(verdicts.get(item.id, {}))
        release = target.release
    modes = [m for m in options.modes if m in target.modes]
    records = _records(items, pairs, scores)
    unknown = sorted({a for item in items for a in item.anchors if a not in sections})
    failed = [f"{a.item_id} ({a.mode}): {a.error}" for a in answers if a.error]
    report = {
        "version": REPORT_VERSION,
        "run": {
            "started_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            "target": target.name, "release": release, "modes": modes, "primary_mode": _primary(modes),
            "datasets": sorted({i.dataset for i in items}), "questions": len(items),
            "judge": {"base_url": options.judge.base_url, "model": options.judge.model} if options.judge else None,
            "generators": dict(Counter(a.generator or "error" for a in answers)), "limit": options.limit,
            "seconds": round(time.perf_counter() - started, 1), "ask_seconds": round(asked_s, 1),
            **options.notes,
        },
        "metrics": {m: metrics.aggregate(records, m) for m in modes},
        "by_dataset": {m: {d: metrics.aggregate([r for r in records if r["dataset"] == d], m)
                           for d in sorted({r["dataset"] for r in records})} for m in modes},
        "by_article": {m: {a: metrics.aggregate([r for r in records if r["article"] == a], m)
                           for a in sorted({r["article"] for r in records if r["article"]})} for m in modes},
        # dev is what rules and models were tuned on; test is what the report quotes
        "by_split": {m: {sp: metrics.aggregate([r for r in records if r["split"] == sp], m)
                         for sp in sorted({r["split"] for r in records if r["split"]})} for m in modes},
        "by_dataset_split": {m: {f"{d}/{sp}": metrics.aggregate([r for r in records if (r["dataset"], r["split"]) == (d, sp)], m)
                                 for d, sp in sorted({(r["dataset"], r["split"]) for r in records if r["split"]})}
                             for m in modes},
        "latency": {m: metrics.latency_by_route(records, m) for m in modes},
        "worst": worst(records, _primary(modes)),
        "warnings": [f"{len(unknown)} gold anchor(s) name no section of the corpus: {', '.join(unknown[:20])}"
                     + (" …" if len(unknown) > 20 else "")] * bool(unknown)
                    + [f"{len(failed)} request(s) failed: " + "; ".join(failed[:10])] * bool(failed),
        "questions": records,
    }
    return report


def worst(records: list[dict], mode: str, n: int = 10) -> list[str]:
    """Ids of the n questions with the lowest quality in `mode` (ties: lowest semantic similarity first)."""
    scored = [(r["modes"][mode]["quality"], r["modes"][mode]["scores"].get("semantic_similarity") or 0.0, r["id"])
              for r in records if mode in r["modes"] and r["modes"][mode]["quality"] is not None]
    return [rid for _, _, rid in sorted(scored)[:n]]


def _primary(modes: list[str]) -> str:
    return PRIMARY_MODE if PRIMARY_MODE in modes else modes[0]


def _records(items, pairs: list[tuple], scores: list[dict]) -> list[dict]:
    records = {item.id: {"id": item.id, "dataset": item.dataset, "article": item.article, "question": item.question,
                         "route": item.route, "scope": item.scope, "kind": item.kind, "split": item.split,
                         "style": list(item.style), "anchors": list(item.anchors),
                         "key_facts": list(item.key_facts), "reference": item.reference, "modes": {}}
               for item in items}
    for (item, answer), s in zip(pairs, scores):
        records[item.id]["modes"][answer.mode] = _row(answer, s)
    return list(records.values())


def _row(answer: Answer, scores: dict) -> dict:
    return {
        "route": answer.route, "scope": answer.scope, "answer": answer.answer,
        "citations": [{"n": c["n"], "section": f"{c['doc_id']}#{c['anchor']}"} for c in answer.citations],
        "calculation": _calculation_summary(answer.calculation),
        "retrieved": [{"section": c.section_id, "dense": c.dense_score, "text": c.text[:160]} for c in answer.contexts],
        "latency_ms": answer.latency_ms, "error": answer.error,
        "scores": {k: (round(v, 4) if isinstance(v, float) else v) for k, v in scores.items()},
        "quality": metrics.quality(scores),
    }


def _calculation_summary(calculation: dict | None) -> dict | None:
    if not calculation:
        return None
    primary = calculation.get("primary") or {}
    return {"calculator": calculation.get("calculator"), "primary": primary.get("name"), "value": primary.get("value"),
            "unit": primary.get("unit"), "display": primary.get("display")}


def _first_of_each(items: list, limit: int) -> list:
    counts: dict[str, int] = {}
    out = []
    for item in items:
        counts[item.dataset] = counts.get(item.dataset, 0) + 1
        if counts[item.dataset] <= limit:
            out.append(item)
    return out

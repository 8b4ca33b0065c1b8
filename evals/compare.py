"""A run against a baseline report: metric deltas and the questions that got worse.

Metrics are compared twice: on each run's full question set (the headline numbers) and on the
questions both runs share (what the gate's regression limits use, so questions added to a growing
corpus neither hide nor fake a regression).
"""
from __future__ import annotations

import json
from pathlib import Path

from . import metrics
from .errors import EvalError

# A per-question score that falls by at least this much counts as "got worse".
QUESTION_DROP = 0.25
_QUESTION_KEYS = ("route_correct", "calculator_exact", "hit@6", "mrr", "context_recall", "key_facts", "citation_validity",
                  "scope_correct")
_NOISE = {"latency_p50_ms": 0.25, "latency_p95_ms": 0.25}  # relative change below which latency is noise


class BaselineError(EvalError):
    pass


def find_baseline(spec: str | Path, reports_dir: Path, exclude: Path | None = None) -> Path | None:
    """`last` = the newest report in `reports_dir` that did not fail its gate; otherwise a report.json or its folder."""
    if str(spec) == "last":
        for folder in sorted((p for p in reports_dir.glob("*") if p.is_dir()), reverse=True):
            path = folder / "report.json"
            if not path.exists() or (exclude and folder.resolve() == exclude.resolve()):
                continue
            try:
                gate = json.loads(path.read_text()).get("gate") or {}
            except (OSError, ValueError):
                continue
            if gate.get("passed", True):
                return path
        return None
    path = Path(spec)
    path = path / "report.json" if path.is_dir() else path
    if not path.exists():
        raise BaselineError(f"baseline report {path} does not exist")
    return path


def load_report(path: Path) -> dict:
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise BaselineError(f"cannot read baseline report {path}: {exc}") from exc


def compare(current: dict, baseline: dict, baseline_path: str | None = None) -> dict:
    modes = [m for m in current["run"]["modes"] if m in baseline["run"]["modes"]]
    base_ids = {r["id"] for r in baseline["questions"]}
    cur_ids = {r["id"] for r in current["questions"]}
    shared = base_ids & cur_ids
    cur_shared = [r for r in current["questions"] if r["id"] in shared]
    base_shared = [r for r in baseline["questions"] if r["id"] in shared]
    per_mode = {}
    for mode in modes:
        now, before = metrics.aggregate(cur_shared, mode), metrics.aggregate(base_shared, mode)
        full_now, full_before = current["metrics"].get(mode, {}), baseline["metrics"].get(mode, {})
        per_mode[mode] = [_row(m, now.get(m), before.get(m), full_now.get(m), full_before.get(m)) for m in metrics.METRICS
                          if any(v is not None for v in (now.get(m), before.get(m)))]
    primary = current["run"]["primary_mode"]
    return {
        "baseline": {"path": baseline_path, "release": baseline["run"].get("release"),
                     "started_at": baseline["run"].get("started_at")},
        "shared_questions": len(shared), "added_questions": len(cur_ids - base_ids),
        "removed_questions": len(base_ids - cur_ids),
        "metrics": per_mode,
        "worse_questions": worse_questions(cur_shared, base_shared, primary),
        "better_questions": len(worse_questions(base_shared, cur_shared, primary, limit=None)),
    }


def worse_questions(current: list[dict], baseline: list[dict], mode: str, limit: int | None = 50) -> list[dict]:
    """Questions where a per-question score fell by ≥ QUESTION_DROP (or the route became wrong), worst drop first."""
    before = {r["id"]: r for r in baseline}
    out = []
    for r in current:
        old, new = before[r["id"]]["modes"].get(mode), r["modes"].get(mode)
        if not old or not new:
            continue
        changes = {k: [old["scores"][k], new["scores"].get(k)] for k in _QUESTION_KEYS
                   if old["scores"].get(k) is not None and (new["scores"].get(k) or 0.0) <= old["scores"][k] - QUESTION_DROP}
        if changes:
            drop = (old["quality"] or 0.0) - (new["quality"] or 0.0)
            out.append({"id": r["id"], "question": r["question"], "article": r["article"], "changes": changes,
                        "quality": [old["quality"], new["quality"]], "drop": round(drop, 4),
                        "retrieved_before": [c["section"] for c in old.get("retrieved", [])][:3],
                        "retrieved_now": [c["section"] for c in new.get("retrieved", [])][:3],
                        "route": [old["route"], new["route"]]})
    out.sort(key=lambda q: (-q["drop"], q["id"]))
    return out if limit is None else out[:limit]


def _row(metric: str, now, before, full_now, full_before) -> dict:
    higher_better = metrics.METRICS[metric][1]
    delta = None if now is None or before is None else round(now - before, 4)
    regressed = False
    if delta is not None:
        if metric in _NOISE:
            regressed = before > 0 and (now - before) / before > _NOISE[metric]
        else:
            regressed = (delta < -1e-9) if higher_better else (delta > 1e-9)
    return {"metric": metric, "baseline": before, "current": now, "delta": delta, "regressed": regressed,
            "full_baseline": full_before, "full_current": full_now, "higher_is_better": higher_better}

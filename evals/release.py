"""Conclude a run (baseline diff → gate → report files) and `make release`: stage, evaluate, promote only on a pass.

    build a staging release (not promoted) → eval it, pinned to that release → gate
        pass: promote it (the same atomic switch as `ingest promote`) and prune old releases
        fail: the live index is untouched; the report says which gates failed and which questions got worse
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from . import compare as comparing
from . import report as reporting
from .gate import Gates, check
from .suite import RunOptions, evaluate


@dataclass
class Outcome:
    report: dict
    folder: Path
    failures: list[str]
    promoted: str | None = None

    @property
    def passed(self) -> bool:
        return not self.failures


def conclude(report: dict, gates: Gates | None, baseline: str | None, reports_dir: Path,
             gates_file: Path | None = None) -> Outcome:
    """Diff against the baseline (if any), apply the gate (if any) and write the three report files."""
    folder = reporting.new_report_dir(reports_dir)
    if baseline:
        path = comparing.find_baseline(baseline, reports_dir, exclude=folder)
        if path is not None:
            report["diff"] = comparing.compare(report, comparing.load_report(path), str(path))
        else:
            report["warnings"].append(f"no baseline report found for '{baseline}' in {reports_dir}: nothing to diff against")
    failures = check(report, gates, report.get("diff")) if gates is not None else []
    if gates is not None:
        report["gate"] = {"passed": not failures, "failures": failures,
                          "gates_file": str(gates_file) if gates_file else None, "mode": gates.mode}
    reporting.write(report, folder)
    return Outcome(report, folder, failures)


def release(settings, options: RunOptions, gates: Gates, reports_dir: Path, baseline: str | None = "last",
            gates_file: Path | None = None, store=None) -> Outcome:
    """Build a staging release, evaluate it, and promote it only if the gate passes."""
    from ingest.build import build
    from ingest.claims import check_corpus
    from ingest.index import open_store

    store = store or open_store(settings)
    live_before = store.live_release()
    staged = build(settings, promote=False, progress=options.progress, store=store).release_id
    report = evaluate(replace(options, settings=settings.model_copy(update={"index_release": staged}),
                              notes={**options.notes, "staged_release": staged, "live_release_before": live_before}))
    # the build refused a corpus whose figures disagree (validate); record what was checked
    report["run"]["claims"] = check_corpus(settings.corpus_dir).summary()
    outcome = conclude(report, gates, baseline, reports_dir, gates_file)
    if outcome.passed:
        store.promote(staged)
        store.prune(settings.keep_releases)
        outcome.promoted = staged
        note = f"release {staged} promoted (was {live_before or 'none'})"
    else:
        note = (f"release {staged} NOT promoted: {len(outcome.failures)} gate(s) failed; "
                f"the live index is unchanged ({live_before or 'none'})")
    report["run"]["promotion"] = note
    reporting.write(report, outcome.folder)  # again, now saying what happened to the release
    return outcome

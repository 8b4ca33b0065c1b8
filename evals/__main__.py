"""Command line: `python -m evals run | gate | release | split | train | candidates` (a thin layer over
evals.suite / evals.release / evals.split / evals.train / evals.candidates).

    python -m evals run                          # every dataset, in-process, hybrid + dense + bm25, gate applied
    python -m evals run --datasets numeric --limit 10 --no-gate
    python -m evals run --url http://127.0.0.1:8000
    python -m evals run --release 20261130T…Z --baseline last
    python -m evals run --llm-base-url http://localhost:8001/v1 --llm-model llama3.1:8b --modes hybrid
    EVAL_LLM_BASE_URL=… EVAL_LLM_MODEL=… python -m evals run   # + ragas Faithfulness, ResponseRelevancy, …
    python -m evals gate reports/<ts>/report.json --baseline reports/<older>/report.json
    python -m evals release                      # build a staging index → eval → promote only if the gate passes
    python -m evals split readers                # give a dataset's new items a dev/test split (seeded, once)
    python -m evals train                        # refit the answer path's three small models on the dev halves
    python -m evals candidates --since 2026-11-01 --out candidates.yaml   # golden stubs from what readers asked

Exit status: 0 pass, 1 a gate failed, 2 the run could not be made (bad dataset, no index, unreachable URL).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ingest.embedding import offline  # noqa: F401 - no hub downloads, no ragas tracking, before any import of theirs


def main(argv: list[str] | None = None) -> int:
    from .datasets import DATASETS_DIR
    from .gate import GATES_FILE
    from .report import REPORTS_DIR
    from .runner import MODES

    parser = argparse.ArgumentParser(prog="python -m evals", description="Eval suite and release gate.")
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p):
        p.add_argument("--datasets", help="comma-separated: articles,concepts,numeric,adversarial (default: all)")
        p.add_argument("--datasets-dir", type=Path, default=DATASETS_DIR, help="where the golden YAML files are")
        p.add_argument("--modes", default=",".join(MODES), help="retrieval modes to compare (in-process only)")
        p.add_argument("--corpus", type=Path, help="corpus directory (default: CORPUS_DIR or ./corpus)")
        p.add_argument("--llm-base-url", help="answer with this OpenAI-compatible LLM (the service's LLM_BASE_URL); "
                                             "default: whatever the settings say (extractive when unset)")
        p.add_argument("--llm-model", help="the answering model (LLM_MODEL)")
        p.add_argument("--extractive", action="store_true", help="ignore LLM_BASE_URL: evaluate extractive answers")
        p.add_argument("--judge-base-url", help="OpenAI-compatible endpoint of the ragas LLM judge (or EVAL_LLM_BASE_URL)")
        p.add_argument("--judge-model", help="the judge model (or EVAL_LLM_MODEL); without a judge the run is offline")
        p.add_argument("--baseline", help="a report.json (or its folder) to diff against, or 'last'")
        p.add_argument("--out", type=Path, default=REPORTS_DIR, help="reports root; the run writes <out>/<timestamp>/")
        p.add_argument("--gates", type=Path, default=GATES_FILE, help="gates file (default evals/gates.yaml)")
        p.add_argument("--limit", type=int, help="at most N questions per dataset (a smoke run)")
        p.add_argument("--quiet", action="store_true", help="no progress bar")

    p_run = sub.add_parser("run", help="run the eval suite and apply the gate")
    common(p_run)
    p_run.add_argument("--url", help="evaluate a deployed service (POST {url}/v1/ask) instead of the in-process one")
    p_run.add_argument("--release", help="evaluate this index release instead of the live one")
    p_run.add_argument("--no-gate", action="store_true", help="report only; exit 0 whatever the numbers")

    p_release = sub.add_parser("release", help="build a staging index, eval it, promote it only if the gate passes")
    common(p_release)
    p_release.set_defaults(baseline="last")

    p_split = sub.add_parser("split", help="give a dataset's items a dev/test split, once (items that have one keep it)")
    p_split.add_argument("dataset")
    p_split.add_argument("--seed", type=int, default=None, help="default: 20261201")
    p_split.add_argument("--datasets-dir", type=Path, default=DATASETS_DIR)

    p_gate = sub.add_parser("gate", help="apply the gate to a saved report.json")
    p_gate.add_argument("report", type=Path)
    p_gate.add_argument("--baseline", help="a report.json (or its folder) to check regressions against")
    p_gate.add_argument("--gates", type=Path, default=GATES_FILE)

    sub.add_parser("train", add_help=False, help="refit the passage ranker, sentence ranker and answerability model "
                   "(python -m evals train --help)")

    p_candidates = sub.add_parser("candidates", help="golden-question stubs from the question log's gaps and down-votes")
    p_candidates.add_argument("--since", type=_when, help="from this ISO date/time, UTC (default: 30 days ago)")
    p_candidates.add_argument("--until", type=_when, help="up to (not including) this ISO date/time (default: now)")
    p_candidates.add_argument("--out", type=Path, help="YAML file to write (default: standard output)")
    p_candidates.add_argument("--per-gap", type=int, default=3, help="questions per content gap (default 3)")

    args, rest = parser.parse_known_args(argv)
    if args.command == "train":  # its own options (evals/train.py)
        from . import train

        return train.main(rest)
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    try:
        if args.command == "gate":
            return _gate(args)
        if args.command == "split":
            return _split(args)
        if args.command == "candidates":
            return _candidates(args)
        return _run(args)
    except _Fatal as exc:
        print(f"evals: {exc}", file=sys.stderr)
        return 2


class _Fatal(Exception):
    pass


def _settings(args):
    from service.settings import Settings

    settings = Settings()
    if args.corpus:
        settings.corpus_dir = args.corpus
    if getattr(args, "release", None):
        settings.index_release = args.release
    if args.extractive:
        settings.llm_base_url = None
    if args.llm_base_url:
        settings.llm_base_url = args.llm_base_url
    if args.llm_model:
        settings.llm_model = args.llm_model
    return settings


def _options(args, settings):
    from .metrics import JudgeConfig
    from .suite import RunOptions

    judge = JudgeConfig.from_env(args.judge_base_url, args.judge_model)
    if (args.judge_base_url or args.judge_model) and judge is None:
        raise _Fatal("an LLM judge needs both --judge-base-url and --judge-model (or EVAL_LLM_BASE_URL and EVAL_LLM_MODEL)")
    modes = tuple(m.strip() for m in args.modes.split(",") if m.strip())
    return RunOptions(datasets=[d.strip() for d in args.datasets.split(",")] if args.datasets else None,
                      datasets_dir=args.datasets_dir, modes=modes, url=getattr(args, "url", None), settings=settings,
                      judge=judge, limit=args.limit, progress=not args.quiet)


def _run(args) -> int:
    from ingest.errors import IngestError

    from .errors import EvalError
    from .gate import Gates
    from .release import conclude, release

    settings = _settings(args)
    try:
        options = _options(args, settings)
        gates = None if getattr(args, "no_gate", False) else Gates.load(args.gates)
        if args.command == "release":
            outcome = release(settings, options, gates, args.out, args.baseline, args.gates)
        else:
            from .suite import evaluate

            outcome = conclude(evaluate(options), gates, args.baseline, args.out, args.gates)
    except (EvalError, IngestError) as exc:
        raise _Fatal(str(exc)) from exc
    _print_summary(outcome.report, outcome.folder)
    for failure in outcome.failures:
        print(f"GATE FAILED: {failure}")
    worse = (outcome.report.get("diff") or {}).get("worse_questions") or []
    if outcome.failures and worse:
        print(f"{len(worse)} question(s) got worse, e.g.: " + "; ".join(f"{q['id']}" for q in worse[:10]))
    if outcome.report["run"].get("promotion"):
        print(outcome.report["run"]["promotion"])
    return 1 if outcome.failures else 0


def _split(args) -> int:
    from . import split
    from .errors import EvalError

    try:
        return split.main(args.dataset, args.seed or split.DEFAULT_SEED, args.datasets_dir)
    except EvalError as exc:
        raise _Fatal(str(exc)) from exc


def _gate(args) -> int:
    from .compare import compare, find_baseline, load_report
    from .errors import EvalError
    from .gate import Gates, check

    try:
        report = load_report(args.report)
        gates = Gates.load(args.gates)
        diff = None
        if args.baseline:
            path = find_baseline(args.baseline, args.report.parent.parent, exclude=args.report.parent)
            diff = compare(report, load_report(path), str(path)) if path else None
    except EvalError as exc:
        raise _Fatal(str(exc)) from exc
    failures = check(report, gates, diff)
    for failure in failures:
        print(f"GATE FAILED: {failure}")
    print("gate passed" if not failures else f"gate failed: {len(failures)} check(s)")
    return 1 if failures else 0


def _when(value: str):
    import datetime as dt

    try:
        return dt.datetime.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an ISO date or date-time: {value!r}") from None


def _candidates(args) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from .candidates import run

    try:
        text, count = run(args.since, args.until, args.out, args.per_gap)
    except (ValueError, SQLAlchemyError) as exc:
        raise _Fatal(str(exc).splitlines()[0]) from exc
    if args.out is None:
        sys.stdout.write(text)
    else:
        print(f"{count} candidate(s) written to {args.out}", file=sys.stderr)
    return 0


def _print_summary(report: dict, folder: Path) -> None:
    from .report import _fmt

    run = report["run"]
    shown = ("hit@1", "hit@6", "mrr", "context_facts", "answer_facts", "false_refusal_rate", "citation_validity",
             "route_accuracy", "calculator_exact", "no_answer_recall", "latency_p95_ms")
    print(f"{run['questions']} questions × {len(run['modes'])} mode(s), release {run.get('release')}, {run['seconds']} s")
    print(f"{'mode':8} " + " ".join(f"{m:>14}" for m in shown))
    for mode in run["modes"]:
        print(f"{mode:8} " + " ".join(f"{_fmt(m, report['metrics'][mode].get(m)):>14}" for m in shown))
    print(f"report: {folder / 'report.html'} (also report.md, report.json)")
    gate = report.get("gate")
    if gate:
        print("gate passed" if gate["passed"] else f"gate failed: {len(gate['failures'])} check(s)")


if __name__ == "__main__":
    sys.exit(main())

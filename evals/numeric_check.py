"""How well the free-text router reads numeric questions, without retrieval or HTTP.

    python -m evals.numeric_check                          # dev split of numeric, numeric_readers, articles, concepts
    python -m evals.numeric_check --split test             # the held-out split (look once, at the end)
    python -m evals.numeric_check --datasets numeric_readers --failures 0

Each question is routed as a first question (no history), its calculator is run, and the outcome is
scored with `evals.metrics.routing_scores`, the scorer of the full eval run, on an `Answer` built the way
the assistant builds one: an unknown name is a calculator answer with no calculation whose text is the
"I don't know that …" message; a request the calculator refuses goes to retrieval. Without retrieval
this cannot tell `retrieval` from `no_answer`, so a question that does not route is credited with the
non-calculator route its item expects: route accuracy here is "calculator or not". An explain + compute
question counts as routed (the assistant attaches its calculation to a retrieval answer when retrieval
finds support); `explain` reports how many questions were read that way.

Printed per dataset and split, and per `style`: route accuracy, calculator_exact, must-not-route accuracy,
and how many unknown names were answered with a calculation anyway ("silently replaced"); then each
failure with what the router bound.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache

from calculators import calculate
from service.answer.route.numeric import NumericRequest, UnknownName, route_numeric

from .datasets import DATASETS_DIR, DatasetError, load
from .metrics import routing_scores
from .runner import Answer

DEFAULT_DATASETS = ("numeric", "numeric_readers", "articles", "concepts")
_METRICS = (("route", "route_correct"), ("calc_exact", "calculator_exact"), ("must_not_route", "not_routed"))


@dataclass
class Checked:
    item: object
    routed: object
    answer: Answer
    scores: dict
    error: str | None = None

    @property
    def silently_replaced(self) -> bool:
        """An unknown model or GPU answered with a calculation of something else."""
        expected = self.item.expected
        return bool(expected.get("unknown_model") or expected.get("unknown_gpu")) and self.answer.calculation is not None

    @property
    def failed(self) -> bool:
        return self.silently_replaced or any(self.scores.get(key) == 0.0 for _, key in _METRICS)


@lru_cache(maxsize=1)
def _page_calculators() -> dict[str, str]:
    """The calculator each article's page is about, as the assistant reads it (service/catalogue.py)."""
    from service.catalogue import Catalogue
    from service.settings import Settings

    return Catalogue.load(Settings().corpus_dir).page_calculators()


def check(item) -> Checked:
    """Route one item, run its calculator, score it as the eval run would."""
    routed, error = route_numeric(item.question, computes=_page_calculators().get(item.article or "")), None
    calculation = None
    if isinstance(routed, UnknownName):
        answer = Answer(item.id, "router", "calculator", answer=routed.message)
    else:
        if isinstance(routed, NumericRequest):
            try:
                calculation = calculate(routed.calculator, routed.inputs).model_dump()
            except ValueError as exc:  # pydantic's ValidationError is a ValueError: the assistant retrieves
                error = str(exc).splitlines()[0]
        route = "calculator" if calculation else (item.route if item.route != "calculator" else "retrieval")
        answer = Answer(item.id, "router", route, calculation=calculation)
    return Checked(item, routed, answer, routing_scores(item, answer), error)


def _mean(rows: list[Checked], key: str) -> tuple[float | None, int]:
    values = [r.scores[key] for r in rows if r.scores.get(key) is not None]
    return (sum(values) / len(values) if values else None), len(values)


def _line(label: str, rows: list[Checked]) -> str:
    parts = [f"{label:<34} n={len(rows):<4}"]
    for name, key in _METRICS:
        value, n = _mean(rows, key)
        parts.append(f"{name} {'—':>6} (0)  " if value is None else f"{name} {value:6.3f} ({n})  ")
    parts.append(f"silently_replaced {sum(r.silently_replaced for r in rows)}  ")
    parts.append(f"explain {sum(isinstance(r.routed, NumericRequest) and r.routed.explain for r in rows)}")
    return "".join(parts)


def _bound(r: Checked) -> str:
    routed = r.routed
    if routed is None:
        return "not routed"
    if isinstance(routed, UnknownName):
        return routed.message
    got = ""
    if r.answer.calculation:
        q = next((q for q in r.answer.calculation["quantities"] if q["name"] == r.item.expected.get("quantity")),
                 r.answer.calculation["primary"])
        got = f" → {q['name']} = {q['value']:.6g} {q['unit']}"
    refused = f" (calculator refused: {r.error})" if r.error else ""
    return f"{routed.calculator} {routed.inputs}{got}{refused}; assumed {routed.assumed}"


def _expected(item) -> str:
    e = item.expected
    if e.get("unknown_model") or e.get("unknown_gpu"):
        return "unknown model" if e.get("unknown_model") else "unknown GPU"
    if e.get("calculator"):
        return f"{e['calculator']} {e['quantity']} = {float(e['value']):.6g} {e.get('unit', '')}"
    return f"{item.route} (not a calculation)" + (f" [{item.kind}]" if item.kind else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.numeric_check", description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "test", "all"), default="dev")
    parser.add_argument("--datasets", default=",".join(DEFAULT_DATASETS), help="comma-separated dataset names")
    parser.add_argument("--datasets-dir", type=Path, default=DATASETS_DIR, help="where the golden YAML files are")
    parser.add_argument("--failures", type=int, default=200, help="print at most N failures (default 200)")
    args = parser.parse_args(argv)

    checked: list[Checked] = []
    for name in args.datasets.split(","):
        try:
            items = load([name.strip()], root=args.datasets_dir)
        except (DatasetError, Exception) as exc:  # a dataset another editor left malformed: say so, go on
            print(f"{name}: cannot be loaded: {str(exc).splitlines()[0][:200]}", file=sys.stderr)
            continue
        checked += [check(i) for i in items if args.split == "all" or i.split == args.split]

    by_set: dict[tuple, list[Checked]] = defaultdict(list)
    by_style: dict[str, list[Checked]] = defaultdict(list)
    for r in checked:
        by_set[(r.item.dataset, r.item.split)].append(r)
        for style in r.item.style:
            by_style[style].append(r)
    print("per dataset and split")
    for (dataset, split), rows in by_set.items():
        print(_line(f"  {dataset} [{split}]", rows))
    if by_style:
        print("per style")
        for style, rows in sorted(by_style.items()):
            print(_line(f"  {style}", rows))
    failures = [r for r in checked if r.failed]
    print(f"{len(failures)} failure(s) of {len(checked)} question(s)")
    for r in failures[: args.failures]:
        print(f"- {r.item.dataset}/{r.item.id}: {r.item.question!r}\n    expected {_expected(r.item)}\n    got {_bound(r)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

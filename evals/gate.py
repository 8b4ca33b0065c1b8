"""The release gate: absolute floors and ceilings, and the largest regression allowed against a baseline.

`evals/gates.yaml` holds the numbers. A gate reads the report of one run (and the comparison with the
baseline, when there is one) and returns one line per failed check; no line means the gate passed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .errors import EvalError
from .metrics import METRICS

GATES_FILE = Path(__file__).parent / "gates.yaml"


class GateConfigError(EvalError):
    pass


@dataclass
class Gates:
    mode: str = "hybrid"
    floors: dict[str, float] = field(default_factory=dict)
    ceilings: dict[str, float] = field(default_factory=dict)
    max_regression: dict[str, float] = field(default_factory=dict)
    max_errors: int = 0
    min_questions: int = 1
    # floors for one dataset ("readers") or one split of it ("readers/test"), e.g. the reader set's answer_facts
    dataset_floors: dict[str, dict[str, float]] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path = GATES_FILE) -> "Gates":
        try:
            raw = yaml.safe_load(Path(path).read_text()) or {}
        except (OSError, yaml.YAMLError) as exc:
            raise GateConfigError(f"cannot read gates file {path}: {exc}") from exc
        unknown = set(raw) - {"mode", "floors", "ceilings", "max_regression", "max_errors", "min_questions",
                              "dataset_floors"}
        if unknown:
            raise GateConfigError(f"{path}: unknown key(s) {', '.join(sorted(unknown))}")
        gates = cls(mode=raw.get("mode", "hybrid"), floors=dict(raw.get("floors") or {}),
                    ceilings=dict(raw.get("ceilings") or {}), max_regression=dict(raw.get("max_regression") or {}),
                    max_errors=int(raw.get("max_errors", 0)), min_questions=int(raw.get("min_questions", 1)),
                    dataset_floors={k: dict(v or {}) for k, v in (raw.get("dataset_floors") or {}).items()})
        sections = [("floors", gates.floors), ("ceilings", gates.ceilings), ("max_regression", gates.max_regression)]
        sections += [(f"dataset_floors: {name}", floors) for name, floors in gates.dataset_floors.items()]
        for section, values in sections:
            for metric, value in values.items():
                if metric not in METRICS:
                    raise GateConfigError(f"{path}: {section}: unknown metric '{metric}'")
                if not isinstance(value, (int, float)):
                    raise GateConfigError(f"{path}: {section}: {metric} must be a number")
        return gates


def check(report: dict, gates: Gates, comparison: dict | None = None) -> list[str]:
    """One line per failed gate; an empty list means the release may ship."""
    failures = []
    mode = gates.mode if gates.mode in report["metrics"] else report["run"]["primary_mode"]
    values = report["metrics"][mode]
    questions = report["run"]["questions"]
    if questions < gates.min_questions:
        failures.append(f"only {questions} questions were asked; the gate needs at least {gates.min_questions}")
    errors = sum(1 for r in report["questions"] if (r["modes"].get(mode) or {}).get("error"))
    if errors > gates.max_errors:
        failures.append(f"{errors} question(s) failed with an error in {mode} mode (at most {gates.max_errors} allowed)")
    for metric, floor in gates.floors.items():
        value = values.get(metric)
        if value is None:
            continue  # not measured in this run (e.g. no LLM judge): nothing to hold it to
        if value < floor:
            failures.append(f"{metric} = {value:.3f} is below the floor {floor:.3f} ({mode})")
    for name, floors in gates.dataset_floors.items():
        table = report.get("by_dataset_split" if "/" in name else "by_dataset", {}).get(mode, {})
        if name not in table:
            continue  # that dataset was not part of this run
        for metric, floor in floors.items():
            value = table[name].get(metric)
            if value is not None and value < floor:
                failures.append(f"{metric} = {value:.3f} on {name} is below its floor {floor:.3f} ({mode})")
    for metric, ceiling in gates.ceilings.items():
        value = values.get(metric)
        if value is not None and value > ceiling:
            shown = (lambda v: f"{v:.1f}") if metric.endswith(("_ms", "_words")) else (lambda v: f"{v:.3f}")
            failures.append(f"{metric} = {shown(value)} is above the ceiling {shown(ceiling)} ({mode})")
    if comparison:
        rows = {r["metric"]: r for r in comparison["metrics"].get(mode, [])}
        shared = comparison["shared_questions"]
        base = comparison["baseline"].get("release") or comparison["baseline"].get("path")
        for metric, allowed in gates.max_regression.items():
            row = rows.get(metric)
            if not row or row["delta"] is None:
                continue
            drop = -row["delta"] if row["higher_is_better"] else row["delta"]
            if drop > allowed + 1e-9:
                failures.append(f"{metric} regressed by {drop:.3f} vs baseline {base} ({row['baseline']:.3f} → "
                                f"{row['current']:.3f} on {shared} shared questions; at most {allowed:.3f} allowed)")
    return failures

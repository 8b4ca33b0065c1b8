"""Command line: `python -m calculators memory --model llama-3.1-70b --precision fp8 --gpu h100`.

A thin layer over `calculate`: one sub-command per calculator, one option per input field (the
pydantic input model is the only place the fields are declared), output as rich tables.
"""

from __future__ import annotations

import argparse
import json
import sys

from pydantic import ValidationError
from rich.console import Console
from rich.table import Table

from . import CALCULATOR_NAMES, INPUT_MODELS, calculate
from .result import Calculation


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m calculators", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="calculator", required=True)
    for name in CALCULATOR_NAMES:
        model = INPUT_MODELS[name]
        cmd = sub.add_parser(name, help=(model.__doc__ or name).splitlines()[0])
        for field_name, info in model.model_fields.items():
            cmd.add_argument(f"--{field_name.replace('_', '-')}", dest=field_name, help=info.description)
        cmd.add_argument("--json", action="store_true", help="print the calculation object as JSON")
    return parser


def render(calc: Calculation, console: Console) -> None:
    steps = Table(title=f"{calc.calculator}: {calc.primary.name} = {calc.primary.display}", show_lines=False)
    steps.add_column("#", justify="right", style="dim")
    steps.add_column("step")
    for i, text in enumerate(calc.steps, 1):
        steps.add_row(str(i), text)
    console.print(steps)
    quantities = Table(title="quantities")
    for column in ("name", "value", "unit", "display"):
        quantities.add_column(column)
    for q in calc.quantities:
        style = "bold" if q.name == calc.primary.name else None
        quantities.add_row(q.name, f"{q.value:,}" if isinstance(q.value, int) else f"{q.value}", q.unit,
                           q.display, style=style)
    console.print(quantities)
    for title, lines, style in (("assumptions", calc.assumptions, "dim"), ("warnings", calc.warnings, "bold yellow")):
        if lines:
            console.print(f"[{style}]{title}:[/{style}]")
            for line in lines:
                console.print(f"  • {line}", style=style, markup=False, highlight=False)


def main(argv: list[str] | None = None) -> int:
    args = vars(build_parser().parse_args(argv))
    name = args.pop("calculator")
    as_json = args.pop("json")
    inputs = {k: v for k, v in args.items() if v is not None}
    console = Console()
    try:
        calc = calculate(name, inputs)
    except ValidationError as e:
        for err in e.errors():
            where = ".".join(str(p) for p in err["loc"]) or "inputs"
            console.print(f"error: {where}: {err['msg']}", style="red", markup=False, highlight=False)
        return 2
    if as_json:
        print(json.dumps(calc.model_dump(), indent=2, ensure_ascii=False))
    else:
        render(calc, console)
    return 0


if __name__ == "__main__":
    sys.exit(main())

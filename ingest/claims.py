"""`python -m ingest claims`: recompute every checkable figure in the corpus with the calculators.

A figure a calculator can recompute carries, on its line, a comment readers never see
(docs/writing-the-corpus.md, "Checkable figures"):

    … one step takes about 41.5 ms. <!-- check: decode model=llama-3.1-70b gpu=h100-sxm | step_time_s = 41.5 ms -->

Grammar: `<!-- check: CALCULATOR field=value … | QUANTITY = STATED [±TOLERANCE] -->`. The fields are
the calculator's input fields (values with spaces in double quotes); QUANTITY is one of the quantities
the calculation returns; STATED is the figure as the prose prints it, with its unit. The figure agrees
when the calculator's value, in the stated unit, rounds to it at the stated number of digits (42.1 ms:
[42.05, 42.15) ms), or lies within the explicit tolerance (`±3%`, or `±0.5` / `±0.5 ms` absolute).
"""
from __future__ import annotations

import math
import re
import shlex
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from .corpus import _FENCE, CHECK_MARKUP, document_paths

_OPENING = re.compile(r"<!--\s*check\b")
_GRAMMAR = "'<!-- check: CALCULATOR field=value … | QUANTITY = STATED -->'"


class ClaimError(Exception):
    """Markup that cannot be checked: bad grammar, unknown calculator, field, quantity or unit."""


@dataclass(frozen=True)
class Claim:
    """One marked figure, parsed."""

    path: Path
    line: int
    calculator: str
    inputs: dict[str, str]
    quantity: str
    stated: str
    tolerance: str | None = None


@dataclass(frozen=True)
class Finding:
    """A figure the calculators disagree with, or markup that could not be checked."""

    path: Path
    line: int
    message: str
    malformed: bool = False

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass
class ClaimsReport:
    checked: int = 0  # well-formed figures recomputed (agreeing or not)
    findings: list[Finding] = field(default_factory=list)

    @property
    def disagree(self) -> int:
        return sum(not f.malformed for f in self.findings)

    @property
    def malformed(self) -> int:
        return sum(f.malformed for f in self.findings)

    @property
    def ok(self) -> bool:
        return not self.findings

    def summary(self) -> dict:
        """What a release report records."""
        return {"checked": self.checked, "disagree": self.disagree}

    def summary_line(self) -> str:
        text = f"{self.checked} figures checked, {self.disagree} disagree"
        return f"{text}, {self.malformed} malformed" if self.malformed else text


# --- finding and parsing the markup ------------------------------------------------------------------

def scan(text: str, path: Path) -> tuple[list[Claim], list[Finding]]:
    """Every markup of a file's text (outside code fences), parsed; malformed ones as findings."""
    claims, problems = [], []
    in_fence = False
    for number, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line):
            in_fence = not in_fence
        if in_fence or not _OPENING.search(line):
            continue
        for match in CHECK_MARKUP.finditer(line):
            try:
                if not match.group("colon"):
                    raise ClaimError(f"check markup must read {_GRAMMAR}")
                claims.append(parse_claim(match.group("body"), path, number))
            except ClaimError as exc:
                problems.append(Finding(path, number, str(exc), malformed=True))
        if _OPENING.search(CHECK_MARKUP.sub("", line)):
            problems.append(Finding(path, number, "check markup is not closed with '-->' on the same line",
                                    malformed=True))
    return claims, problems


def parse_claim(body: str, path: Path, line: int) -> Claim:
    """`CALCULATOR field=value … | QUANTITY = STATED [±TOL]` (the text after `check:`)."""
    if "|" not in body:
        raise ClaimError("check markup needs '| QUANTITY = STATED' after the inputs")
    left, right = body.rsplit("|", 1)
    try:
        words = shlex.split(left)
    except ValueError as exc:
        raise ClaimError(f"check markup inputs cannot be read ({exc})") from None
    if not words:
        raise ClaimError("check markup names no calculator")
    calculator, inputs = words[0], {}
    for word in words[1:]:
        name, eq, value = word.partition("=")
        if not eq or not name or not value:
            raise ClaimError(f"expected field=value, got {word!r}")
        if name in inputs:
            raise ClaimError(f"field {name!r} given twice")
        inputs[name] = value
    quantity, eq, stated = right.partition("=")
    quantity, stated = quantity.strip(), stated.strip()
    if not eq or not quantity or not stated:
        raise ClaimError("expected 'QUANTITY = STATED' after '|'")
    tolerance = None
    for sign in ("±", "+/-", "+-"):
        if sign in stated:
            stated, tolerance = (part.strip() for part in stated.split(sign, 1))
            if not tolerance:
                raise ClaimError(f"empty tolerance after '{sign}'")
            break
    return Claim(path, line, calculator, inputs, quantity, stated, tolerance)


# --- units (pint, with a registry of only the units the corpus states) -------------------------------

_UNIT_DEFINITIONS = """
kilo- = 1e3 = k- = K-
mega- = 1e6 = M-
giga- = 1e9 = G-
tera- = 1e12 = T-
peta- = 1e15 = P-
exa- = 1e18 = E-
zetta- = 1e21 = Z-
milli- = 1e-3 = m-
micro- = 1e-6 = µ- = u- = μ-
nano- = 1e-9 = n-
kibi- = 2**10 = Ki-
mebi- = 2**20 = Mi-
gibi- = 2**30 = Gi-
tebi- = 2**40 = Ti-
pebi- = 2**50 = Pi-
byte = [information] = B
bit = byte / 8 = b
second = [time] = s = sec
minute = 60 * second = min
hour = 60 * minute = h = hr
day = 24 * hour = d
week = 7 * day
FLOP = [flop] = flop
token = [token] = tok
GPU = [] = GPUs
parameter = [] = param = params
percent = 0.01 = %
"""


@lru_cache(maxsize=1)
def units():
    """The unit registry: decimal KB/MB/GB/TB, binary KiB/MiB/GiB, bits, times, FLOP, tokens, counts."""
    import pint

    registry = pint.UnitRegistry(None)
    for definition in _UNIT_DEFINITIONS.strip().splitlines():
        registry.define(definition)
    return registry


def _unit(text: str):
    """A pint unit from how the prose or a calculator writes it ('GB/s', 'tokens/s', 'GPU-h', '')."""
    text = re.sub(r"(?<=[A-Za-z])-(?=[A-Za-z])", "*", text.strip())  # GPU-h, GPU-hours
    text = re.sub(r"\s+per\s+", "/", text)
    if not text:
        return units().dimensionless
    try:
        return units().parse_units(text)
    except Exception:  # pint raises several kinds (undefined unit, syntax)
        raise ClaimError(f"unknown unit {text!r}") from None


# --- the stated figure -----------------------------------------------------------------------------

_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_FIGURE = re.compile(
    r"(?P<number>[-−]?(?:\d[\d,]*(?:\.\d+)?|\.\d+))"
    r"(?:[eE](?P<exp>[-+−]?\d+)"
    r"|\s*[×x*]\s*10\s*(?:\^|\*\*)\s*(?P<exp2>[-+−]?\d+)"
    r"|\s*[×x]\s*10(?P<exp3>[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+))?"
    r"(?:(?P<suffix>[kKMBT]|bn)(?![A-Za-z])|\s+(?P<word>thousand|million|billion|trillion)\b)?"
    r"\s*(?P<unit>.*)$"
)
_MULTIPLIERS = {"k": 1e3, "K": 1e3, "thousand": 1e3, "M": 1e6, "million": 1e6, "B": 1e9, "bn": 1e9,
                "billion": 1e9, "T": 1e12, "trillion": 1e12}


@dataclass(frozen=True)
class Figure:
    """A stated figure: mantissa (as printed) × scale, in `unit_text`."""

    mantissa: float
    decimals: int
    scale: float  # 10^exponent × count multiplier
    unit_text: str
    grouped: bool  # the prose writes thousands separators
    exponent: int | None
    multiplier: str | None

    @property
    def value(self) -> float:
        return self.mantissa * self.scale

    def show(self, value_in_unit: float, extra_digits: int = 2) -> str:
        """A value in this figure's unit, printed the way the figure is, with more digits."""
        mantissa = value_in_unit / self.scale
        digits = self.decimals + extra_digits
        number = f"{mantissa:,.{digits}f}" if self.grouped else f"{mantissa:.{digits}f}"
        if self.exponent is not None:
            number += f"e{self.exponent}"
        if self.multiplier:
            number += self.multiplier if len(self.multiplier) <= 2 else f" {self.multiplier}"
        return f"{number} {self.unit_text}".strip()


def parse_figure(text: str, information: bool = False) -> Figure:
    """'41.5 ms', '131,072 B', '3.8e25 FLOP', '3.8 × 10^25 FLOP', '70.55B params', '24 tokens/s'.

    A B straight after the number is a billion unless the quantity is in bytes (`information`)."""
    match = _FIGURE.match(text.strip())
    if not match:
        raise ClaimError(f"stated figure {text!r} does not start with a number")
    number = match.group("number").replace("−", "-")
    exponent_text = match.group("exp") or match.group("exp2") or (match.group("exp3") or "").translate(_SUPERSCRIPT)
    exponent = int(exponent_text.replace("−", "-")) if exponent_text else None
    suffix, unit_text = match.group("suffix"), match.group("unit").strip()
    if suffix == "B" and information and not unit_text:
        suffix, unit_text = None, "B"
    multiplier = suffix or match.group("word")
    decimals = len(number.split(".")[1]) if "." in number else 0
    scale = (10.0 ** exponent if exponent is not None else 1.0) * (_MULTIPLIERS[multiplier] if multiplier else 1.0)
    return Figure(float(number.replace(",", "")), decimals, scale, unit_text, "," in number, exponent, multiplier)


# --- checking -----------------------------------------------------------------------------------------

@lru_cache(maxsize=512)
def _calculate(calculator: str, inputs: tuple[tuple[str, str], ...]):
    import calculators
    from pydantic import ValidationError

    if calculator not in calculators.CALCULATOR_NAMES:
        raise ClaimError(f"unknown calculator {calculator!r}; known: {', '.join(calculators.CALCULATOR_NAMES)}")
    fields = calculators.INPUT_MODELS[calculator].model_fields
    for name, _ in inputs:
        if name not in fields:
            raise ClaimError(f"{calculator} has no input field {name!r}; fields: {', '.join(fields)}")
    try:
        return calculators.calculate(calculator, dict(inputs))
    except ValidationError as exc:
        messages = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err["loc"])
            message = err["msg"].removeprefix("Value error, ")
            messages.append(f"{where}: {message}" if where else message)
        raise ClaimError(f"{calculator} refuses these inputs: {'; '.join(messages)}") from None


def check_claim(claim: Claim) -> Finding | None:
    """None when the calculators agree with the stated figure; raises ClaimError when it cannot be checked."""
    calc = _calculate(claim.calculator, tuple(sorted(claim.inputs.items())))
    names = [q.name for q in calc.quantities]
    if claim.quantity not in names:
        raise ClaimError(f"{claim.calculator} gives no quantity {claim.quantity!r} for these inputs; "
                         f"it gives: {', '.join(names)}")
    quantity = calc.quantity(claim.quantity)
    if quantity.value is None:
        raise ClaimError(f"{claim.calculator} cannot compute {claim.quantity} for these inputs")
    source_unit = _unit(quantity.unit)
    information = units().Quantity(1, source_unit).check("[information]")
    figure = parse_figure(claim.stated, information=information)
    stated_unit = _unit(figure.unit_text)
    computed = units().Quantity(float(quantity.value), source_unit)
    if computed.dimensionality != units().Quantity(1, stated_unit).dimensionality:
        if not figure.unit_text:
            raise ClaimError(f"stated figure {claim.stated!r} has no unit ({claim.quantity} is in {quantity.unit})")
        raise ClaimError(f"{claim.quantity} is in {quantity.unit}: {claim.stated!r} is in a unit of another kind")
    value = computed.to(stated_unit).magnitude
    if _agrees(value, figure, claim.tolerance, stated_unit):
        return None
    return Finding(claim.path, claim.line, f"stated {claim.stated}, calculators give {figure.show(value)} "
                                           f"({claim.calculator} {claim.quantity})")


def _agrees(value: float, figure: Figure, tolerance: str | None, stated_unit) -> bool:
    if tolerance is None:  # rounds to the stated figure at its digits: [stated − ½ unit, stated + ½ unit)
        mantissa = value / figure.scale
        half = 0.5 * 10.0 ** -figure.decimals
        eps = 1e-9 * half
        return figure.mantissa - half - eps <= mantissa < figure.mantissa + half - eps
    tol = tolerance.replace(" ", "")
    if tol.endswith("%"):
        try:
            allowed = abs(figure.value) * float(tol[:-1]) / 100
        except ValueError:
            raise ClaimError(f"tolerance {tolerance!r} is not a percentage") from None
    else:
        bound = parse_figure(tolerance)
        unit = _unit(bound.unit_text) if bound.unit_text else stated_unit
        try:
            allowed = units().Quantity(bound.value, unit).to(stated_unit).magnitude
        except Exception:
            raise ClaimError(f"tolerance {tolerance!r} is not in the stated figure's unit") from None
    return math.isclose(value, figure.value, abs_tol=abs(allowed) * (1 + 1e-9))


def check_text(text: str, path: Path, report: ClaimsReport | None = None) -> ClaimsReport:
    """Check the markup of one file's text, adding to `report`."""
    report = report if report is not None else ClaimsReport()
    claims, problems = scan(text, path)
    report.findings += problems
    for claim in claims:
        try:
            finding = check_claim(claim)
        except ClaimError as exc:
            report.findings.append(Finding(claim.path, claim.line, str(exc), malformed=True))
            continue
        report.checked += 1
        if finding:
            report.findings.append(finding)
    report.findings.sort(key=lambda f: (str(f.path), f.line))
    return report


def check_corpus(root: Path) -> ClaimsReport:
    """Every marked figure under `root`, recomputed; findings in file and line order."""
    report = ClaimsReport()
    for path in document_paths(Path(root)):
        check_text(path.read_text(encoding="utf-8"), path, report)
    return report


__all__ = ["Claim", "ClaimError", "ClaimsReport", "Finding", "check_claim", "check_corpus", "check_text",
           "parse_claim", "parse_figure", "scan", "units"]

"""The unit a reader asks a figure in ("… in GiB?", "how many µs", "in GPU-days"), and the figure said in it.

Calculators display each quantity in one convention (decimal GB, the time unit that reads best, GPU-hours, FLOP/s
with an SI prefix). A reader who asks "kv cache in GiB?" or "finance wants it in GPU-days" should not have to
convert: the answer's lead adds the figure in the unit asked ("**KV cache: 34.4 GB = 32 GiB**"). Sizes and byte
rates are converted by pint (decimal and binary prefixes alike); times, FLOP prefixes and GPU-time by their factors. A
unit of another kind than the quantity's ("in ms" for a size) is ignored: the quantity's own unit stands.
"""
from __future__ import annotations

import re
from functools import lru_cache

from calculators.units import fmt_num, four_figures

# each unit a figure can be asked in: (the quantity unit it converts from, how the answer writes it, the factor to
# that unit, or None when pint converts it)
_UNITS: dict[str, tuple[str, str, float | None]] = {
    **{u: ("B", u, None) for u in ("KB", "MB", "GB", "TB", "PB", "KiB", "MiB", "GiB", "TiB", "PiB")},
    **{f"{u}/s": ("B/s", f"{u}/s", None) for u in ("MB", "GB", "TB", "MiB", "GiB", "TiB")},
    "ns": ("s", "ns", 1e-9), "µs": ("s", "µs", 1e-6), "ms": ("s", "ms", 1e-3), "s": ("s", "s", 1.0),
    "min": ("s", "min", 60.0), "h": ("s", "h", 3600.0), "days": ("s", "days", 86400.0),
    "weeks": ("s", "weeks", 604800.0), "years": ("s", "years", 31557600.0),
    "GPU-h": ("GPU-h", "GPU-h", 1.0), "GPU-days": ("GPU-h", "GPU-days", 24.0),
    "GPU-weeks": ("GPU-h", "GPU-weeks", 168.0), "GPU-years": ("GPU-h", "GPU-years", 8766.0),
    **{f"{p}FLOP/s": ("FLOP/s", f"{p}FLOP/s", f) for p, f in (("G", 1e9), ("T", 1e12), ("P", 1e15), ("E", 1e18))},
    **{f"{p}FLOP": ("FLOP", f"{p}FLOP", f) for p, f in (("T", 1e12), ("P", 1e15), ("E", 1e18), ("Z", 1e21))},
}
# how readers type them (lower case) → the unit
_ALIASES = {
    **{u.lower(): u for u in _UNITS},
    "us": "µs", "μs": "µs", "micros": "µs", "microseconds": "µs", "microsecond": "µs", "milliseconds": "ms", "millisecond": "ms",
    "seconds": "s", "second": "s", "secs": "s", "sec": "s", "minutes": "min", "minute": "min", "mins": "min",
    "hours": "h", "hour": "h", "hrs": "h", "hr": "h", "day": "days", "week": "weeks", "year": "years",
    **{f"{gpu}{sep}{span}": unit for gpu in ("gpu", "chip") for sep in ("-", " ", "")
       for span, unit in (("h", "GPU-h"), ("hours", "GPU-h"), ("hour", "GPU-h"), ("days", "GPU-days"),
                          ("day", "GPU-days"), ("weeks", "GPU-weeks"), ("years", "GPU-years"))},
    **{f"{p}flops": f"{p.upper()}FLOP/s" for p in "gtpe"}, "teraflops": "TFLOP/s", "petaflops": "PFLOP/s",
}
_WORD = "|".join(sorted((re.escape(a) for a in _ALIASES), key=len, reverse=True))
# "… in GiB?", "answer in µs please", "give it in GPU-days", "how many GiB", "how many µs does it take"
_ASKED = re.compile(rf"\b(?:in|as|into)\s+(?P<unit>{_WORD})(?=\s*(?:[?.!,;)]|$|\s+(?:not|rather|instead|please|pls|"
                    rf"per|each|total)\b))|\bhow\s+many\s+(?P<many>{_WORD})(?![\w/])", re.I)


def units_asked(question: str) -> list[str]:
    """The units the question asks its figure in (keys of _UNITS), the likeliest first: "in X" said last before
    "how many Y" ("how many GPU-hours …? in GPU-days please"); the answer uses the first of the quantity's kind."""
    found = [(m.group("unit") is not None, m.start(), _unit(m.group("unit") or m.group("many")))
             for m in _ASKED.finditer(question)]
    return [unit for *_, unit in sorted(found, reverse=True) if unit is not None]


def _unit(typed: str) -> str | None:
    if re.fullmatch(r"[KMGTP]i?b(?:/s)?", typed):
        return None  # "Gb/s", "Mb": bits, which no answer is given in (lower case "gb" is read as bytes, as elsewhere)
    # (lower-casing the micro sign "µ" gives the Greek "μ" readers also type: both are the micro sign here)
    return _ALIASES.get(typed.lower().replace("μ", "µ"))


def said_in(value: float, unit: str, asked: list[str], display: str = "") -> str | None:
    """The value in the first asked unit of its kind, unless the calculator's own `display` is already in it."""
    said = next((said for a in asked if (said := in_unit(value, unit, a)) is not None), None)
    return None if said is None or display.endswith(" " + said.split(" ", 1)[1]) else said


def asks_a_time(question: str) -> bool:
    """A time unit is asked for ("in μs?", "how many ms"): a time, not a rate."""
    return any(_UNITS[u][0] == "s" for u in units_asked(question))


def in_unit(value: float, unit: str, asked: str) -> str | None:
    """'9.965 GiB' for a value in `unit` (the quantity's: B, s, B/s, FLOP/s, FLOP, GPU-h) asked in `asked`, or None
    when the kinds differ."""
    kind, written, factor = _UNITS[asked]
    if kind != unit:
        return None
    if factor is None:  # sizes and byte rates: pint knows decimal and binary prefixes alike
        factor = _factor(written.removesuffix("/s"))
    return f"{fmt_num(value / factor, four_figures(value / factor))} {written}"


@lru_cache(maxsize=32)
def _factor(unit: str) -> float:
    from .route.tagger import unit_factor

    return unit_factor("kB" if unit == "KB" else unit, "B")  # (pint spells the kilobyte "kB")

"""Unit formatting and parsing, in one place so every calculator prints numbers the same way.

DESIGN §6: decimal units for totals (1 GB = 10^9 B, 400 Gb/s = 50 GB/s); per-token KV sizes are
also shown in KiB. Parsing accepts what people type ("4 GiB", "500MB", "400 Gb/s", "50 GB/s").
"""

from __future__ import annotations

import math
import re

_PREFIXES = ((1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))


def fmt_int(n: float) -> str:
    """70553706496 -> '70,553,706,496' (rounded to the nearest integer)."""
    return f"{round(n):,}"


def fmt_num(x: float, decimals: int = 2) -> str:
    """A plain number with thousands separators and trailing zeros trimmed."""
    if float(x).is_integer():
        return fmt_int(x)
    text = f"{x:,.{decimals}f}".rstrip("0").rstrip(".")
    return text


def _si(value: float, unit: str, decimals: int, trim: bool) -> str:
    sign = "−" if value < 0 else ""
    v = abs(value)
    for factor, prefix in _PREFIXES:
        if v >= factor:
            scaled = v / factor
            break
    else:
        scaled, prefix = v, ""
    text = f"{scaled:,.{decimals}f}"
    if trim and "." in text:
        text = text.rstrip("0").rstrip(".")
    return f"{sign}{text} {prefix}{unit}"


def fmt_bytes(n: float) -> str:
    """Decimal bytes with one decimal: 141,107,412,992 -> '141.1 GB' (80,000,000,000 -> '80 GB')."""
    if abs(n) < 1000:
        return f"{fmt_num(n)} B"
    return _si(n, "B", 1, trim=True)


def fmt_kib(n: float) -> str:
    """Binary KiB for per-token KV sizes: 131,072 -> '128 KiB'."""
    return f"{fmt_num(n / 1024, 1)} KiB"


def four_figures(x: float) -> int:
    """The decimals that keep about four significant figures: 9.966, 99.66, 996.6, 9,966."""
    size = abs(x)
    return 0 if size >= 1000 else 1 if size >= 100 else 2 if size >= 10 else 3


def _rate(value: float, unit: str) -> str:
    """Rates keep about four significant figures: '2.039 TB/s', '255.3 GB/s', '989 TFLOP/s'."""
    scaled = abs(value)
    for factor, _ in _PREFIXES:
        if scaled >= factor:
            scaled /= factor
            break
    return _si(value, unit, four_figures(scaled), trim=True)


def fmt_bandwidth(bps: float) -> str:
    """Bytes per second, decimal: 3.35e12 -> '3.35 TB/s'."""
    return _rate(bps, "B/s")


def fmt_flops(flops_per_s: float) -> str:
    """FLOP/s with SI prefix: 989e12 -> '989 TFLOP/s'."""
    return _rate(flops_per_s, "FLOP/s")


def fmt_flop(flop: float) -> str:
    """A FLOP count in scientific notation: 3.8e25 -> '3.80e25 FLOP'."""
    if flop == 0:
        return "0 FLOP"
    exponent = math.floor(math.log10(abs(flop)))
    return f"{flop / 10**exponent:.2f}e{exponent} FLOP"


def fmt_seconds(s: float) -> str:
    """Seconds in the unit a reader would use: '42.12 ms', '3.4 s', '5.2 h (0.2 days)'."""
    if s == 0:
        return "0 s"
    if s < 1e-3:
        return f"{fmt_num(s * 1e6, 1)} µs"
    if s < 1:
        return f"{fmt_num(s * 1e3, 2)} ms"
    if s < 120:
        return f"{fmt_num(s, 2)} s"
    if s < 7200:
        return f"{fmt_num(s / 60, 1)} min"
    hours = s / 3600
    if hours < 48:
        return f"{fmt_num(hours, 1)} h"
    return f"{fmt_num(hours / 24, 1)} days"


def fmt_tokens_per_s(x: float) -> str:
    return f"{fmt_num(x, 1)} tokens/s"


def fmt_flop_per_byte(x: float) -> str:
    return f"{fmt_num(x, 1)} FLOP/B"


def fmt_count(x: float, unit: str) -> str:
    return f"{fmt_num(x, 1)} {unit}"


DISPLAY = {
    "B": fmt_bytes,
    "B/s": fmt_bandwidth,
    "s": fmt_seconds,
    "tokens/s": fmt_tokens_per_s,
    "FLOP": fmt_flop,
    "FLOP/s": fmt_flops,
    "FLOP/B": fmt_flop_per_byte,
}


def display(value: float, unit: str) -> str:
    """The human display string for a value in one of the DESIGN §5 units."""
    formatter = DISPLAY.get(unit)
    return formatter(value) if formatter else fmt_count(value, unit)


# --- parsing -----------------------------------------------------------------------------------

_SIZE_UNITS = {
    "b": 1, "byte": 1, "bytes": 1,
    "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
    "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40,
}
NUMBER = r"\d[\d,]*(?:\.\d+)?"
SIZE_RE = re.compile(rf"({NUMBER})\s*(kib|mib|gib|tib|kb|mb|gb|tb|bytes?|b)\b", re.I)
# Case matters for bandwidth: Gb/s and Gbps are bits, GB/s and GBps are bytes.
BANDWIDTH_RE = re.compile(
    rf"({NUMBER})\s*([kMGT])(B|b|bit|byte)?\s*(?:/\s*s(?:ec)?\b|ps\b)"
)
_RATE_PREFIX = {"k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


def to_number(text: str) -> float:
    return float(text.replace(",", ""))


def _unit_match(text, pattern: re.Pattern, what: str, example: str) -> re.Match | float:
    """The unit pattern's match, or the plain number (already in base units). Raises ValueError."""
    if isinstance(text, (int, float)):
        return float(text)
    if not isinstance(text, str):  # a JSON object or list: a clear 422, not an AttributeError (500)
        raise ValueError(f"not a {what}: {text!r}")
    m = pattern.fullmatch(text.strip())
    if m:
        return m
    try:
        return to_number(text.strip())
    except ValueError:
        raise ValueError(f"not a {what}: {text!r} (try {example})") from None


def parse_size(text: str | int | float) -> int:
    """'4 GiB' -> 4294967296; '1 GB' -> 10^9; plain numbers are bytes. Raises ValueError."""
    m = _unit_match(text, SIZE_RE, "size", "'1 GB', '4 GiB', '500MB'")
    if isinstance(m, float):
        return int(m)
    return int(round(to_number(m.group(1)) * _SIZE_UNITS[m.group(2).lower()]))


def parse_bandwidth(text: str | int | float) -> float:
    """'400 Gb/s' -> 5e10 B/s; '50 GB/s' -> 5e10 B/s; plain numbers are B/s. Raises ValueError."""
    m = _unit_match(text, BANDWIDTH_RE, "bandwidth", "'400 Gb/s', '50 GB/s'")
    if isinstance(m, float):
        return m
    value = to_number(m.group(1)) * _RATE_PREFIX[m.group(2)]
    return value / 8 if m.group(3) in (None, "b", "bit") else value

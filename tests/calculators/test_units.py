"""Display and parsing of units (DESIGN §6: decimal totals, KiB per token, Gb/s vs GB/s)."""

import pytest

from calculators.units import display, fmt_bytes, fmt_kib, parse_bandwidth, parse_size


@pytest.mark.parametrize(
    ("value", "text"),
    [(141_107_412_992, "141.1 GB"), (80_000_000_000, "80 GB"), (1_875_000_000, "1.9 GB"),
     (512, "512 B"), (-61_107_412_992, "−61.1 GB")],
)
def test_fmt_bytes(value, text):
    assert fmt_bytes(value) == text


def test_kib():
    assert fmt_kib(131_072) == "128 KiB"


@pytest.mark.parametrize(
    ("value", "unit", "text"),
    [(3.35e12, "B/s", "3.35 TB/s"), (2.039e12, "B/s", "2.039 TB/s"), (989e12, "FLOP/s", "989 TFLOP/s"),
     (0.0421, "s", "42.1 ms"), (23.7408, "tokens/s", "23.7 tokens/s"), (295.22, "FLOP/B", "295.2 FLOP/B"),
     (3.8e25, "FLOP", "3.80e25 FLOP")],
)
def test_display(value, unit, text):
    assert display(value, unit) == text


@pytest.mark.parametrize(("text", "size"), [("1 GB", 10**9), ("4 GiB", 4 * 2**30), ("500MB", 5 * 10**8),
                                            ("1,024 bytes", 1024), (2048, 2048)])
def test_parse_size(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize(("text", "bps"), [("400 Gb/s", 50e9), ("50 GB/s", 50e9), ("400 Gbps", 50e9),
                                           ("3.35 TB/s", 3.35e12), ("800 Gbit/s", 100e9)])
def test_parse_bandwidth(text, bps):
    assert parse_bandwidth(text) == pytest.approx(bps)


def test_bad_size_is_a_value_error():
    with pytest.raises(ValueError):
        parse_size("lots")

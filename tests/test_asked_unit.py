"""A figure asked in a unit ("in GiB?", "how many µs", "in GPU-days") is also said in that unit."""
import pytest

from service.answer.asked_unit import said_in, units_asked


@pytest.mark.parametrize("question, units", [
    ("kv cache for 32 users at 8k, in GiB?", ["GiB"]),
    ("how many µs does the all-reduce take", ["µs"]),
    ("all-reduce time in μs?", ["µs"]), ("all-reduce time in µs?", ["µs"]), ("time in US?", ["µs"]),  # Greek mu, micro sign
    ("decode step in microseconds please", ["µs"]),
    ("attainable in PFLOP/s?", ["PFLOP/s"]),
    # "in X" said last is likelier than "how many Y"; both are kept for the quantity's kind to choose
    ("how many GPU-hours does it cost? finance wants it in days, not hours", ["days", "GPU-h"]),
    # no unit asked: counts, scopes, "in practice"
    ("bus bandwidth in Gb/s?", []),  # bits: no answer is given in them
    ("how many gpus do i need", []), ("memory in total?", []), ("what do we get in practice?", []),
    ("all-reduce on 8 h100 in bf16", []),
])
def test_the_unit_asked_is_read(question, units):
    assert units_asked(question) == units


def test_the_figure_is_said_in_the_first_asked_unit_of_its_kind():
    assert said_in(34_359_738_368, "B", ["GiB"]) == "32 GiB"
    assert said_in(0.010374, "s", ["µs"]) == "10,374 µs"
    assert said_in(483_308, "GPU-h", ["days", "GPU-days"]) == "20,138 GPU-days"  # days are a time, not GPU time
    assert said_in(1.979e15, "FLOP/s", ["PFLOP/s"]) == "1.979 PFLOP/s"
    assert said_in(1e9, "B", ["ms"]) is None  # another kind: the quantity's own unit stands


@pytest.mark.parametrize("unit", ["KB", "MB", "GB", "TB", "PB", "KiB", "MiB", "GiB", "TiB", "PiB", "GB/s", "TiB/s"])
def test_every_size_unit_converts(unit):
    said = said_in(2 ** 40, "B/s" if unit.endswith("/s") else "B", [unit])
    assert said is not None and said.endswith(" " + unit)


def test_a_time_unit_asked_of_a_decode_step_asks_the_step_time():
    from service.answer.route.numeric import route_numeric

    # found by hand in a fresh clone: "in μs" had led with tokens/s
    routed = route_numeric("decode step of llama 3.1 8b bf16 on one h100, in μs?")
    assert routed.calculator == "decode" and routed.inputs["primary"] == "step_time_s"

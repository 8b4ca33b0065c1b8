"""Every quantity a calculator gives is named in words when an answer leads with it (not "Hierarchical time s")."""
import pytest

from calculators import calculate
from service.answer.prose import calculation_answer

_SAMPLES = [
    ("memory", {"model": "llama-3.1-8b", "context": 8192, "batch": 4}),
    ("memory", {"model": "llama-3.1-8b", "mode": "training", "gpus": 8}),
    ("kv_cache", {"model": "gpt-oss-20b", "context": 65536}),
    ("decode", {"model": "llama-3.1-8b", "gpu": "h100-sxm", "batch": 8, "context": 4096}),
    ("collective", {"op": "all_reduce", "size": "2 GB", "nodes": 4, "gpus_per_node": 8}),
    ("collective", {"op": "all_gather", "ranks": 16, "algbw": "40 GB/s"}),
    ("training", {"model": "llama-3.1-8b", "tokens": "1T", "gpus": 64}),
    ("roofline", {"gpu": "h100-sxm", "intensity": 100}),
]


@pytest.mark.parametrize("calculator, inputs", _SAMPLES)
def test_each_quantity_leads_in_words(calculator, inputs):
    calc = calculate(calculator, inputs)
    for quantity in calc.quantities:
        calc.primary = quantity
        lead = calculation_answer(calc, [], None).splitlines()[0]
        assert "_" not in lead and not lead.split(":")[0].endswith((" s", " bytes")), lead


def test_a_two_level_all_reduce_leads_with_its_name():
    calc = calculate("collective", {"op": "all_reduce", "size": "2 GB", "nodes": 8, "gpus_per_node": 8,
                                    "primary": "hierarchical_time_s"})
    assert calculation_answer(calc, [], None).startswith("**Two-level (hierarchical) time: ")

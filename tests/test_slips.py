"""Short names typed with one slip are read as the name; figures, settings and other parts never are."""
import pytest

from service.answer.route.numeric import route_numeric
from service.answer.route.slips import mended


@pytest.mark.parametrize(("typed", "meant"), [
    ("quantised to itn8", "quantised to int8"), ("llama 3.1 70b in fo8", "llama 3.1 70b in fp8"),
    ("qwn2.5 7b", "qwen2.5 7b"), ("qwenn 2.5 7b", "qwen 2.5 7b"), ("mistrall 7b", "mistral 7b"),
    ("a sinlge rtz 5090", "a single rtx 5090"), ("an h200d in bf16", "an h200 in bf16"), ("the hmb bandwith", "the hbm bandwith"),
    ("the h100 pcei", "the h100 pcie"), ("8 guadi3 cards", "8 gaudi3 cards"), ("8 acsend 910b", "8 ascend 910b"),
    ("a 34b modle in 4bti", "a 34b modle in 4bit"), ("al-to-all of 512 MB", "all-to-all of 512 MB"),
    ("how much is lfet on the cadr", "how much is left on the card"),
    ("fourty users", "forty users"), ("sixten gpus", "sixteen gpus"), ("a thousnad requests", "a thousand requests"),
])
def test_a_slipped_name_is_typed_right(typed, meant):
    assert mended(typed) == meant


@pytest.mark.parametrize("typed", [
    "gh200", "mi300a", "b100", "h100x2", "8 h100s", "bs16", "tp8", "ctx8k", "8bin bf16", "64gpu", "7.5B", "GEMM",
    "bf61",  # a figure is never mended
    "thirsty", "forth", "fifth", "singles",  # English words, never number words
])
def test_other_parts_settings_and_figures_are_left_as_typed(typed):
    assert mended(typed) == typed


def test_a_slipped_precision_is_computed_with_not_replaced_by_the_default():
    routed = route_numeric("qwn2.5 7b quantsied to itn8, szie of the weigths?")
    assert routed.calculator == "memory"
    assert routed.inputs["model"] == "qwen2.5-7b" and routed.inputs["precision"] == "int8"


def test_a_slipped_number_word_counts_what_it_counts():
    # "singel" had been no count, so the 8 nodes got the default 8 GPUs each: 64 ranks, not 8
    routed = route_numeric("8 nodes with a singel h100 each, NDR 400 IB, ring allreduce of 1 GB - how long?")
    assert routed.calculator == "collective"
    assert routed.inputs["nodes"] == 8 and routed.inputs["gpus_per_node"] == 1

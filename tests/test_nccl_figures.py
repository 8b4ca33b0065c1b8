"""nccl-tests figures as readers quote them: a busbw or algbw without a unit is GB/s, "the 4G row" a size (batch 188, dev)."""
import pytest

from routing import assert_routed
from service.answer.route.nccl_figures import as_nccl_figures


@pytest.mark.parametrize("question, calculator, expected, note", [
    ("nccl gives us ~370 busbw on the 8x h100 box for all_reduce. at that rate how long does a 2 GB all-reduce take?",
     "collective", {"busbw": 370e9, "size": 2_000_000_000, "primary": "time_s"}, "“370 busbw” read as 370 GB/s"),
    ("my all-gather shows busbw 300 on 16 ranks, whats the algbw?", "collective",
     {"op": "all_gather", "busbw": 300e9, "ranks": 16}, "“busbw 300” read as 300 GB/s"),
    ("all_gather_perf -b 512M -e 4G -f 2 -g 8 run across 2 nodes (16 ranks total), the 4G row reports algbw 40 GB/s. "
     "whats that as busbw?", "collective", {"algbw": 40e9, "ranks": 16}, "“the 4G row” read as the 4 GB message size"),
])
def test_nccl_figures_get_their_units(question, calculator, expected, note):
    routed = assert_routed(question, calculator, expected)
    assert any(n.startswith(note) for n in routed.assumed)


@pytest.mark.parametrize("question", [
    "all to all algbw=70GB/s nranks=16 busbw?",  # the 16 is the ranks'
    "nccl-tests shows algbw 3 × 60 GB/s on an 8-rank all_gather — busbw?",  # 3 × 60 GB/s is worked out, not 3 GB/s
    "why is busbw 2(n-1)/n times algbw",
    "nccl all_reduce on 8 busbw?",  # a bare count before the label may be ranks: no measured figure is read
])
def test_other_numbers_near_the_labels_are_left_alone(question):
    assert as_nccl_figures(question) == (question, [])


def test_a_label_said_earlier_in_the_sentence_is_the_figures_own():
    # "busbw … tops out at ~95 GB/s. convert that to algbw?": the busbw is measured, the algbw asked
    assert_routed("our all_reduce busbw on 16 h200 (2 nodes of 8) tops out at ~95 GB/s. convert that to algbw?",
                  "collective", {"busbw": 95e9, "ranks": 16, "primary": "algbw", "nic_bandwidth": None})

"""Dictated questions (speech-to-text output) are read as they would have been typed."""
import pytest

from service.answer.route.spoken import written


@pytest.mark.parametrize(("dictated", "typed"), [
    ("um how many gigs is llama three point one seventy b in bee float sixteen",
     "um how many gigs is llama 3.1 70 b in bf 16"),
    ("will llama three point one four oh five b in f p eight fit on four b three hundreds",
     "will llama 3.1 405 b in fp 8 fit on 4 b300s"),
    ("quen two point five seventy two b in int four no wait int eight", "qwen 2.5 72 b in int 8"),
    ("on four no sorry eight h two hundreds", "on 8 h200s"),
    ("okay so mist roll seven b in half precision on a forty ninety", "okay so mistral 7 b in half precision on a 4090"),
    ("t p u v five p int eight kernel at five hundred ops per byte", "tpu v 5 p int 8 kernel at 500 ops per byte"),
    ("two hundred fifty six m i three hundred x at forty five percent m f u", "256 mi300x at 45 percent mfu"),
    ("intensity sixty four on an a one hundred forty gig", "intensity 64 on an a100 40 gig"),
    ("mist roll seven b f p sixteen on an l four", "mistral 7 b fp 16 on an l4"),
    ("a hundred twenty eight k context on one point five trillion tokens", "128 k context on 1.5 trillion tokens"),
    ("how much is left on each one", "how much is left on each one"),
    # mishearings, a card's number said as a pair of tens, and spelt parts
    ("mixed trawl eight by twenty two b in f p eight", "mixtral 8 x 22 b in fp 8"),
    ("quinn two point five seven b", "qwen 2.5 7 b"),
    ("deep sea v three on two thousand forty eight h one hundreds", "deepseek v 3 on 2048 h100s"),
    ("on an r t x fifty ninety sixteen users", "on an rtx 5090 16 users"),
    ("two p cs with one fifty ninety each", "2 pcs with 1 5090 each"),
    ("ridge point of the h one hundred p c i e", "ridge point of the h100 pcie"),
    ("on g b three hundreds", "on gb300s"),
    ("how many m i four hundred fifty x", "how many mi450x"),
    ("an a one hundred s x m the forty gig version", "an a100 sxm 40gb"),
])
def test_a_dictated_question_is_written_as_it_would_be_typed(dictated, typed):
    assert written(dictated) == typed


def test_a_typed_question_is_left_exactly_as_it_is():
    for typed in ("Llama 3.1 70B in fp8 on eight H100s", "what is the kv cache", "zero 1 vs 2 vs 3 in one line each"):
        assert written(typed) == typed


def test_only_the_words_it_reads_change_case_and_zero_stays_a_name():
    # "ZeRO stage three" is the optimizer's stage, and "Gb/s" stays bits (a lower-cased "gb/s" would be open)
    assert written("What does ZeRO stage three shard across thirty two GPUs?") == \
        "What does ZeRO stage 3 shard across 32 GPUs?"
    assert written("all reduce over four hundred Gb/s infiniband") == "all reduce over 400 Gb/s infiniband"


def test_a_number_said_from_its_scale_word_is_read_and_never_crashes_the_router():
    # word2number raises IndexError on a run that starts with "thousand" or "billion"; the reader gets an answer
    from service.answer.route.numeric import route_numeric
    routed = route_numeric("kv for llama 3.1 8b at thousand five hundred tokens?")
    assert routed.inputs["context"] == 1500
    assert route_numeric("the seventy-two billion one") is None
    assert written("billion one") == "billion one"  # (a run it cannot read stays as said)

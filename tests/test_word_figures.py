"""Figures said in words are read as the numbers they say, never as a smaller or a default one."""
import pytest

from service.answer.route.numeric import route_numeric
from service.answer.route.word_figures import as_digits


@pytest.mark.parametrize(("said", "written"), [
    ("at zero point three mfu", "at 0.3 mfu"), ("point eight efficiency", "0.8 efficiency"),
    ("point three five mfu", "0.35 mfu"), ("fourteen point eight trillion tokens", "14.8 trillion tokens"),
    ("three quarters of a million tokens", "0.75 million tokens"), ("a quarter of a trillion tokens", "0.25 trillion tokens"),
    ("a million and a half tokens", "1.5 million tokens"), ("two and a half flops per byte", "2.5 flops per byte"),
    ("batch of two-fifty-six", "batch of 256"), ("an eight-bit integer cache", "an 8-bit cache"),
    ("two gibibytes", "two GiB"), ("the ridge point of an h100", "the ridge point of an h100"),
])
def test_figures_in_words_are_written_as_digits(said, written):
    assert as_digits(said) == written


def test_a_decimal_in_words_is_not_read_ten_times_too_small():
    routed = route_numeric("deepseek v3 on fourteen point eight trillion tokens using two thousand and forty-eight h100 "
                           "sxm in fp8 at zero point three mfu — wall clock?")
    assert routed.inputs["mfu"] == 0.3 and routed.inputs["tokens"] == 14.8e12 and routed.inputs["gpus"] == 2048


def test_edition_is_no_edit():
    routed = route_numeric("for the report (edition 3): total training compute of deepseek v3 on 14.8T tokens, 6ND?")
    assert not any("correction" in a for a in routed.assumed)

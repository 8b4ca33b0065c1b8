"""Text read off a screenshot or a scan: OCR's letters for digits and "rn" for "m" are read as meant."""
import pytest
from routing import assert_routed

from service.answer.route.scanned import as_read_from_scan


@pytest.mark.parametrize("typed, read", [
    ("Qwen2.5 72B --- ctx 8l92 --- batch l6 --- kv FP8", "Qwen2.5 72B --- ctx 8192 --- batch 16 --- kv FP8"),
    ("Llama 3.1 70B on l5T tokens, 2,O48 Hl00 SXM, bf16, 0 .4 mfu", "Llama 3.1 70B on 15T tokens, 2,048 H100 SXM, bf16, 0.4 mfu"),
    ("reduce-scatter of 5l2 MB on 8 MI3OOX", "reduce-scatter of 512 MB on 8 MI300X"),
    ("llarna 3.1 8B on one RTX 4O90", "llama 3.1 8B on one RTX 4090"),
    ("A1OO 4OGB SXM", "A100 40GB SXM"),
])
def test_ocr_letters_for_digits_are_read_as_digits(typed, read):
    assert as_read_from_scan(typed) == read


@pytest.mark.parametrize("typed", [
    "llama 3.1 8b on an l4 and 4 l40s, I think",  # the L of L4 and L40S is the part's letter
    "l3.1-8b|1T tok|64×tpu-v5p bf16|mfu.5 → hrs",  # Llama shorthand
    "I want 16 users, is it OK?",
])
def test_real_letters_stay(typed):
    assert as_read_from_scan(typed) == typed


def test_a_scanned_question_is_computed_with_its_figures():
    assert_routed("Qwen2.5 72B --- ctx 8l92 --- batch l6 --- kv FP8 --- total KV cache?", "kv_cache",
                  {"context": 8192, "batch": 16, "kv_precision": "fp8"})

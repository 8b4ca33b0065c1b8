"""A power user's compact spec ("70b/fp8/2xh100/32k/16u → kv?") is read field by field; sentences, pasted tables,
links, run names and an arrow that corrects a figure are left to their own readings."""
import pytest
from routing import assert_routed

from service.answer.route.compact_specs import as_spelled_spec


@pytest.mark.parametrize(("question", "calculator", "expected"), [
    ("q2.5-72b | kv fp8 | ctx 32k | 16u → kv GiB?", "kv_cache", {"batch": 16, "context": 32768, "kv_precision": "fp8"}),
    ("mixtral8x7b@fp8 on 2xh200 tp2 bs32 ctx4k kvfp8 => agg tps", "decode",
     {"precision": "fp8", "kv_precision": "fp8", "gpus": 2, "batch": 32, "primary": "aggregate_tokens_per_s"}),
    ("13b|3T tok|512×h100|bf16|mfu.42 → days", "training",
     {"params": 13e9, "tokens": 3 * 10**12, "gpus": 512, "mfu": 0.42}),
    ("AR 1GB @ 8n×8 h200, xdr, 2-level → t", "collective", {"nodes": 8, "gpus_per_node": 8, "size": 10**9}),
    ("ds-r1 kv@fp8 → bytes/tok?", "kv_cache", {"model": "deepseek-r1", "kv_precision": "fp8"}),
])
def test_compact_specs_are_read_field_by_field(question, calculator, expected):
    assert_routed(question, calculator, expected)


@pytest.mark.parametrize("text", [
    "kv for llama 3.1 70b at 128k → 100k tokens (not the full window), batch 2",  # an arrow that corrects a figure
    "llama 3.1 8b int4 on an l4, batch 1 tok/s — s/int4/fp8/",
    "llama3.1-70b_fp8_tp8_8xb200_bs128_ctx8k_kvfp8 → aggregate tok/s?",  # a run name
    "| kernel | gpu |\n|---|---|\n| rmsnorm | l40s |\nattainable?",
    "how much kv for llama 3.1 8b at 8k, 16 users in GB/s terms?",
])
def test_what_is_no_compact_spec_is_left_alone(text):
    assert as_spelled_spec(text) == text

"""A requirements list before the question: constraints the question does not ask about give no figure."""
import pytest
from routing import assert_routed

from service.answer.route.requirements import as_required


def test_a_constraint_not_asked_about_is_left_out_and_said():
    text, notes = as_required("Requirements:\n- Mixtral 8x7B in bf16\n- 24 concurrent users\n- SLO: 40 ms/token\n"
                              "- budget: 2 GPUs max\nQuestion: total memory for weights plus KV cache?")
    assert "40 ms/token" not in text and "budget" not in text and "24 concurrent users" in text
    assert notes == ["requirement “SLO: 40 ms/token” not asked about: not used",
                     "requirement “budget: 2 GPUs max” not asked about: not used"]


@pytest.mark.parametrize("text", [
    "Requirements:\n- SLO: 40 ms/token\n- Llama 3.1 8B on one H100\nQuestion: can we meet the SLO at batch 64?",  # asked
    "- per-rank link: 800 Gb/s each direction, no latency term\nQuestion: reduce-scatter of 6 GB on 32 ranks, time?",
    "## Repro DeepSeek-V3 budget\n- tokens: 14.8T\n- deadline: 30 days\nQ: how many H100s?",  # names the model; a deadline
    "llama 3.1 8b, SLO 40 ms/token, tok/s?",  # no requirements list
])
def test_what_the_question_needs_stays(text):
    assert as_required(text) == (text, [])


@pytest.mark.parametrize(("question", "calculator", "expected"), [
    ("Requirements:\n- Mixtral 8x7B in bf16\n- 24 concurrent users\n- context up to 4096 tokens (size for 4096)\n- bf16 "
     "KV cache\n- SLO: 40 ms/token\n- budget: 2 GPUs max\nQuestion: total memory for weights plus KV cache?", "memory",
     {"batch": 24, "context": 4096, "gpus": None}),
    ("Requirements:\n- model: DeepSeek-R1\n- reasoning traces up to 64k tokens (plan for 64k)\n- 10 concurrent sessions\n"
     "- KV cache in bf16\n- should: keep p50 under 30 ms/token\nQuestion: how big is the KV cache for all sessions?",
     "kv_cache", {"batch": 10, "context": 65536}),
    ("Requirements:\n- model: Llama 3.1 8B continued pretraining\n- ZeRO-2 across 16 MI300X (192 GB each)\n- bf16 "
     "mixed-precision AdamW\n- data parallel only (no TP/PP)\n- seq 8192, micro-batch 4, selective recompute\n- "
     "nice-to-have: finish in 10 days\nQuestion: how much memory is left free per GPU once state + activations are in?",
     "memory", {"zero_stage": 2, "gpus": 16, "primary": "free_bytes"}),
    # a count after a label ("batch job: 1024 sequences", "each request: 1,500 tokens") is no job or request id;
    # "peak load" loads no model
    ("Requirements:\n- model: Llama 3.1 8B, fp8\n- GPU: one B300\n- offline batch job: 1024 sequences decoded "
     "together\n- KV ignored for this one (we only want the matmul side)\n- budget: finish overnight\nQuestion: "
     "compute-bound time per decode step?", "decode", {"batch": 1024, "primary": "compute_time_s"}),
    ("Requirements:\n- model: Llama 3 8B\n- peak load: 256 concurrent requests\n- each request: 1,500 tokens of "
     "context\n- int8 KV cache\n- latency: best effort\nQuestion: how much memory does the KV cache need at peak?",
     "kv_cache", {"batch": 256, "context": 1500}),
])
def test_a_requirements_list_gets_the_calculation_its_question_asks(question, calculator, expected):
    assert_routed(question, calculator, expected)

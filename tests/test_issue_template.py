"""A question pasted from a GitHub issue template is read without its headings, checkboxes, versions and the
sections that say what the reader expected."""
import pytest
from routing import assert_routed

from service.answer.route.issue_template import as_issue_question
from service.answer.route.numeric import UnknownGpu, UnknownModel, route_numeric


def test_the_template_goes_and_the_setup_stays():
    text = as_issue_question("### Describe the question\nLlama 3.1 70B with fp8 weights, tensor parallel 4, batch 1. "
                             "tok/s?\n\n### Environment\n- 4x H100 SXM, NVLink, TP=4\n- TensorRT-LLM 0.12.0, driver "
                             "550.90.07\n\n### Expected behavior\nWe measure ~70 tok/s.\n\n- [x] I searched existing "
                             "issues")
    assert "Describe" not in text and "searched" not in text and "70 tok/s" not in text
    assert "550.90.07" not in text and "0.12.0" not in text
    assert "4x H100 SXM, NVLink, TP=4" in text and "Llama 3.1 70B with fp8 weights" in text


@pytest.mark.parametrize("text", [
    "## Sizing\n1. `llama-3.1-405b`, weights **bf16**\n2. 16 users at 128k",  # a heading, kept: no template section
    "# nThread 1 nGpus 8 minBytes 33554432\n#  Rank  0 device 0 NVIDIA A100-SXM4-40GB",  # nccl-tests comments
    "llama 3.1 8b on one h100, tok/s?",
])
def test_what_is_no_template_keeps_its_lines(text):
    out = as_issue_question(text)
    assert all(line.strip() in out for line in text.splitlines() if not line.startswith("##"))


@pytest.mark.parametrize(("question", "calculator", "expected"), [
    ("### Describe the question\nWhat's the KV cache per token for Llama 3.1 405B when `kv_cache_dtype=fp8`?\n\n### "
     "Environment\n- vLLM 0.7.2, 8x H200, CUDA 12.4\n\n- [x] I searched existing issues", "kv_cache",
     {"kv_precision": "fp8", "primary": "kv_bytes_per_token"}),
    ("### Environment\n- nccl-tests 2.13.9, NCCL 2.21.5\n- 1 node, 8x H100 SXM over NVLink 4\n\n### Describe the "
     "question\nWith `NCCL_ALGO=Ring`: how long should a ring all-reduce of a 256 MB buffer across the 8 GPUs take "
     "(link default latency)?\n\n### Expected behavior\nUnder a couple of ms?", "collective",
     {"size": 256e6, "ranks": 8, "alpha_s": None}),  # what the reader expected sets no latency
    ("### Environment\n- 2x A100 80GB PCIe, TP=2\n- vLLM 0.5.4, torch 2.4.0, driver 535.104.05\n\n### Describe the "
     "question\nQwen2.5-72B with int8 weights (W8A16), tensor parallel over the two cards, batch 4, each sequence at "
     "16k context (16,384 tokens), fp16 KV cache. Per-sequence decode speed in tok/s, bandwidth bound?", "decode",
     {"precision": "int8", "gpu": "a100-80gb-pcie", "gpus": 2}),  # W8A16 is int8 weights, no A16 card
    ("**Describe the question**\nall_gather_perf, 8 GPUs in one node, reports busbw 350 GB/s. What algbw does that "
     "correspond to?\n\n**Environment**\nNCCL 2.23.4 · CUDA 12.6 · nccl-tests @ 2c3a6b1", "collective",
     {"busbw": 350e9, "ranks": 8}),
    ("### Describe the question\nWhat's the HBM memory bandwidth of one H200 NVL card?\n\n### Environment\n2x H200 NVL "
     "(PCIe, NVLink bridge), driver 565.57.01, Ubuntu 22.04\n\n### Additional context\n`nvidia-smi` reports 141 GB.",
     "roofline", {"gpu": "h200-nvl", "primary": "bandwidth"}),
])
def test_a_templated_question_gets_its_calculation(question, calculator, expected):
    assert_routed(question, calculator, expected)


def test_unknown_names_in_a_template_are_said():
    assert isinstance(route_numeric("**Describe the question**\nKV cache bytes per token for Phi-4 with a bf16 cache?\n\n"
                                    "**Environment**\ntransformers 4.47.0, 1x A100 80GB"), UnknownModel)
    assert isinstance(route_numeric("**Describe the question**\nbf16 ridge point of an RTX 3090 for my roofline plot?\n\n"
                                    "**Environment**\nCUDA 12.1, driver 535.154.05"), UnknownGpu)

"""A figure or a name corrected where it stands is read as the corrected one, and the correction is said."""
import pytest

from service.answer.route.inline_corrections import as_corrected_inline
from service.answer.route.numeric import route_numeric


@pytest.mark.parametrize(("typed", "read"), [
    ("how much vram for ~~llama 3.1 8b~~ llama 3.1 70b weights", "how much vram for llama 3.1 70b weights"),
    ("can 2 (no, 4) h100s hold it", "can 4 h100s hold it"),
    ("zero-2 (no wait, zero-3) full finetune", "zero-3 full finetune"),
    ("mixtral 8x7b (8x22b, sorry)?", "mixtral 8x22b?"),
    ("llama 3 8b (3.1, sorry) kv", "llama 3.1 8b kv"),
    ("training, tp 4 -> tp 8, seq 4096", "training, tp 8, seq 4096"),
    ("on an L4 → an L40S, batch 1", "on an L40S, batch 1"),
    ("14.8T tokens on 2,048 h100s -> 2,048 h200s, fp8", "14.8T tokens on 2,048 h200s, fp8"),
    ("8 users at 32k ctx, er, 64k, bf16", "8 users at 64k ctx, bf16"),
])
def test_the_corrected_figure_replaces_the_old_one(typed, read):
    assert as_corrected_inline(typed)[0] == read


@pytest.mark.parametrize("typed", [
    "- 4 users → does it fit per gpu?",  # an arrow to the question
    "bcast 70GB ckpt → 32r over roce 800G, secs?",  # a size and a rank count are no correction of each other
    "dense fp8 peak of the h100 (not the sparsity number)",  # "not" is no "no,"
    "across um five hundred twelve gpus",  # a dictated "um" corrects nothing
])
def test_what_corrects_nothing_is_left_alone(typed):
    assert as_corrected_inline(typed)[0] == typed


def test_the_correction_is_said_in_the_assumed_line():
    routed = route_numeric("gpt-oss-20b (mxfp4) on an L4 → an L40S, batch 1, kv ignored: per-token latency?")
    assert routed.inputs["gpu"] == "l40s"
    assert "“an L4” corrected to “an L40S”" in routed.assumed

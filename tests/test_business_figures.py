"""People, quotas and prices in a product or ops message are no figure of the calculation (batch 187, dev)."""
import pytest

from routing import assert_routed


@pytest.mark.parametrize("question, calculator, expected, set_aside", [
    # the sequences in flight are the batch, the people around them are not
    ("internal helpdesk with 350 employees, but realisticly 8 chats in flight at once, each up to 6,000 tokens. "
     "gpt-oss-120b in mxfp4 on one h100 80gb, bf16 kv - free memory at peak?", "memory", {"batch": 8, "context": 6000},
     "“350 employees” is no batch"),
    ("legal team (14 ppl) needs it by friday: mixtral 8x22b with fp8 kv, 10 contracts of 32,000 tokens processed "
     "concurently. kv cache total?", "kv_cache", {"batch": 10, "context": 32000}, "“14 ppl” is no batch"),
    ("out of 2,000 daily users, 50 reasoning traces run at the same time and each sits at 20,000 tokens. deepseek r1, "
     "latent kv in fp8 - total cache?", "kv_cache", {"batch": 50, "context": 20000}, "“2,000 daily users” is no batch"),
    ("we bill 0.6 credits per 1k tokens and have 450 beta users. For Llama 3.1 8B bf16 on an L40S at batch 128 with 2k "
     "context and bf16 kv, what's the compute-bound time of one decode step?", "decode", {"batch": 128, "context": 2048},
     "“450 beta users” is no batch"),
    # a quota is not the job's count
    ("we have 128 h100s of quota this quarter but this job only gets 32 of them: llama 3.1 70b full finetune with "
     "zero-3 across those 32. model states per gpu?", "memory", {"gpus": 32, "zero_stage": 3}, "“128 h100s” is a quota"),
    ("we got 64 chips of trn2 quota but only 48 are free this mnoth. llama 3 8b on 200B tokens on those 48, bf16 at "
     "30% mfu - how long will it run?", "training", {"gpus": 48, "gpu": "trainium2"}, "“64 chips” is a quota"),
    ("gaudi3 pilot, 3 cards on loan until 30 june. mixtral 8x22b in 4-bit on one card, weights only - how much hbm is "
     "free?", "memory", {"gpus": 1, "gpu": "gaudi-3"}, "“3 cards” is a quota"),
    ("trillium quota came thru yesterday (asked in March, got 64 chips in us-east5). Llama 3 8B bf16 on one v6e chip, "
     "batch 1, 4k ctx, bf16 kv — per-stream tok/s?", "decode", {"gpus": 1, "gpu": "tpu-v6e"}, "“64 chips” is a quota"),
    # a price per tokens is no context
    ("we resell at $0.15 per 1M tokens. llama 3.1 8b bf16 on one l4, singel stream, no kv - tokens/sec?", "decode",
     {"context": None, "batch": 1}, "“$0.15 per 1M tokens” is a price"),
])
def test_business_figures_are_set_aside_and_said(question, calculator, expected, set_aside):
    routed = assert_routed(question, calculator, expected)
    assert any(note.startswith(set_aside) for note in routed.assumed)



def test_the_jobs_count_said_again_is_no_unused_figure():
    routed = assert_routed("we got 64 chips of trn2 quota but only 48 are free this mnoth. llama 3 8b on 200B tokens on "
                           "those 48, bf16 at 30% mfu - how long will it run?", "training", {"gpus": 48})
    assert not any(note.startswith("“48”") for note in routed.assumed)


def test_users_served_stay_a_workload_beside_another_batch():
    # "serve 8 users" is this deployment's batch; "batch 32" is the canary's
    assert_routed("On a trn2 instance we'd shard Llama 3.1 70B in bf16 across 4 Trainium2 chips (TP 4) and serve 8 users "
                  "at 8k each with a bf16 cache; the instance has 16 chips in all, the 8B canary uses 1 chip at batch 32 "
                  "and the SLA says 25 tok/s. What per-user decode speed should we expect on those 4 chips?", "decode",
                  {"batch": 8, "gpus": 4})


def test_a_count_of_people_alone_is_read_as_before():
    # no other workload said: the users are the batch, as they were
    assert_routed("llama 3.1 8b bf16 kv cache for 40 users at 4k?", "kv_cache", {"batch": 40, "context": 4096})

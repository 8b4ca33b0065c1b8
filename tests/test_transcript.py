"""A pasted chat transcript is a conversation: the reader's last turn follows the reader's earlier ones, and the
other side's answers give no figure."""
import pytest
from routing import assert_routed

from service.answer.route.numeric import UnknownModel, route_numeric
from service.answer.route.transcript import turns, without_answer


def test_a_transcript_is_read_turn_by_turn():
    assert turns("User: kv per token for llama 3.1 8b?\nAssistant: 131,072 B.\nUser: and in fp8?") == [
        ("reader", "kv per token for llama 3.1 8b?"), ("answerer", "131,072 B."), ("reader", "and in fp8?")]
    assert turns("ChatGPT said: it is 208 GB.\nUser: redo it") == [("answerer", "it is 208 GB."), ("reader", "redo it")]


@pytest.mark.parametrize("text", [
    "model: llama-3.1-70b\nbatch: 16\nkv cache?",  # a pasted config's keys are no speakers
    "Q: kv per token for llama 3.1 8b?",  # a label alone, no answer
    "User: llama 8b tok/s?\nAssistant: about 200 tok/s.",  # the last turn answers: nothing is asked now
])
def test_what_is_no_transcript_is_read_as_typed(text):
    assert turns(text) == []


def test_an_answers_own_figures_go_and_its_setup_stays():
    assert without_answer("To train a 30B model on 6T tokens in 45 days at 40% MFU on H100s (bf16), you need about "
                          "2,000 GPUs.") == "To train a 30B model on 6T tokens in 45 days at 40% MFU on H100s (bf16)."


@pytest.mark.parametrize(("question", "calculator", "expected"), [
    # the answer's "3.35 TB/s / 16 GB = about 209 tok/s" gives nothing; the L40S replaces the H100
    ("User: llama 3.1 8b bf16 tok/s on one h100, batch 1, ignore the kv?\nAssistant: 3.35 TB/s / 16 GB = about 209 "
     "tok/s.\nUser: and on an L40S with the same settings?", "decode",
     {"gpu": "l40s", "model": "llama-3.1-8b", "batch": 1}),
    ("me: llama 3.1 8b, kv for 1 seq at 128k, bf16?\nbot: 16 GiB-ish\nme: now two hundred fifty-six users at 4k each, "
     "same cache precision - total kv?", "kv_cache", {"batch": 256, "context": 4096, "kv_precision": "bf16"}),
    ("me: full adamw checkpoint size for llama 3.1 8b? (bf16 weights + fp32 master + both moments)\nbot: ~8B x 14 B = "
     "about 112 GB.\nme: cool, same question for qwen 2.5 72b", "memory",
     {"model": "qwen2.5-72b", "primary": "checkpoint_bytes"}),
    ("User: nccl-tests all_reduce, 8 ranks, busbw 380 GB/s - algbw?\nAssistant: 380 x 8 / 14 = about 217 GB/s.\nUser: "
     "and for reduce_scatter with the same busbw but 32 ranks?", "collective",
     {"op": "reduce_scatter", "ranks": 32, "busbw": 380e9, "bandwidth": None}),
    ("User: qwen2.5 72b fp8 on an h100 nvl, batch 1, no kv - tok/s?\nAssistant: about 54 tok/s at full bandwidth.\n"
     "User: assume we only hit 75% of peak memory bandwidth - then?", "decode", {"efficiency": 0.75}),
    ("me: how long to all-reduce llama 3.1 8b's bf16 grads over 8 a100s on nvlink 3?\nbot: ~16 GB at 300 GB/s... "
     "roughly 95 ms\nme: and if the grads are fp32?", "collective", {"precision": "fp32", "size": None}),
    # only the other side's turn sets anything up: its setup, without the sentence's answer
    ("ChatGPT said: To train a 30B model on 6T tokens in 45 days at 40% MFU on H100s (bf16), you need about 2,000 "
     "GPUs.\nUser: redo it for B200s at 35% MFU - same model size, tokens, deadline, bf16", "training",
     {"gpu": "b200", "mfu": 0.35, "params": 30e9, "gpus": None}),
    # the latest turn's figure is the one meant where it gives one again ("fifty users" had kept the earlier 16)
    ("Human: llama 3.1 70b, 16 users at 8k, bf16 kv - total cache?\nAssistant: About 43 GB.\nHuman: make it fifty "
     "users at 12,000 tokens each, int8 cache", "kv_cache", {"batch": 50, "context": 12000, "kv_precision": "int8"}),
    # a relative amount needs the earlier turn's figure
    ("User: Mixtral 8x7B, FSDP full shard over 16 GPUs - weights + grads + Adam state per GPU?\nAssistant: ~46.7B "
     "params x 16 B / 16 = ~47 GB per GPU.\nUser: and if we double the GPU count, same full shard?", "memory",
     {"gpus": 32, "fsdp": "full"}),
])
def test_the_last_turn_is_asked_after_the_readers_earlier_ones(question, calculator, expected):
    assert_routed(question, calculator, expected)


def test_an_unknown_model_in_the_last_turn_is_said():
    routed = route_numeric("User: kv bytes per token for llama 3.1 8b, bf16 cache?\nAssistant: 131,072 B.\n"
                           "User: and for gemma 3 27b, same cache precision?")
    assert isinstance(routed, UnknownModel)


@pytest.mark.parametrize("text", [
    "**You:** kv per token for llama 3.1 8b?\n**Gemini:** 131,072 B.\n**You:** and in fp8?",  # markdown bold
    "<ana> kv per token for llama 3.1 8b?\n<calcbot> 131,072 B.\n<ana> and in fp8?",  # IRC
    "[me] kv per token for llama 3.1 8b?\n[llm] 131,072 B.\n[me] and in fp8?",
    "You (09:12): kv per token for llama 3.1 8b?\nBot (09:12): 131,072 B.\nYou (09:14): and in fp8?",
    "Oleg, [02.04.2025 11:05]\nkv per token for llama 3.1 8b?\nServingBot, [02.04.2025 11:05]\n131,072 B.\n"
    "Oleg, [02.04.2025 11:07]\nand in fp8?",  # Telegram: the label on its own line
    "Rivera, Ana  10:14\nkv per token for llama 3.1 8b?\nCopilot  10:14\n131,072 B.\nRivera, Ana  10:16\nand in fp8?",
    "dev: kv per token for llama 3.1 8b?\nPerplexity: 131,072 B.\ndev: and in fp8?",  # any one-word speaker
])
def test_chat_apps_labels_are_turns(text):
    assert [role for role, _ in turns(text)] == ["reader", "answerer", "reader"]
    assert_routed(text, "kv_cache", {"model": "llama-3.1-8b", "kv_precision": "fp8"})


def test_a_config_key_that_looks_like_a_speaker_is_no_turn():
    assert turns("services:\n  vllm:\n    environment:\n      VLLM_MODEL: openai/gpt-oss-120b\n"
                 "VLLM_MAX_NUM_SEQS: 4\nports: 443") == []


@pytest.mark.parametrize(("question", "calculator", "expected"), [
    # the last turn names no model: the reader's setup, with what the turn changes
    ("Human: mistral 7b bf16, 8 users at 8k each, bf16 kv - total memory?\nAI: about 18.8 GB.\n"
     "Human: bump it to forty users at 3,000 tokens each, same weights and cache - total?", "memory",
     {"model": "mistral-7b", "batch": 40, "context": 3000}),
    ("You (10:02): mistral 7b on 8T tokens with 256 MI355X, bf16 at 40% MFU - days?\nBot (10:02): about 5 days.\n"
     "You (10:05): with fp8 on those same 256 and 35% MFU?", "training",
     {"model": "mistral-7b", "precision": "fp8", "mfu": 0.35, "gpus": 256}),
    # a new measured figure replaces the earlier one
    ("Q: all_reduce busbw for 16 ranks with algbw 90 GB/s?\nA: about 169 GB/s.\n"
     "Q: now all_gather on 16 ranks shows busbw 360 GB/s - algbw?", "collective",
     {"op": "all_gather", "busbw": 360e9, "algbw": None}),
])
def test_the_last_turn_continues_the_readers_setup(question, calculator, expected):
    assert_routed(question, calculator, expected)


def test_a_bold_heading_is_no_speaker():
    assert turns("**gpt-oss-20b** question\n- kv cache `bf16`\n\n**Q:** bytes of KV each new token adds?") == []


def test_a_transcript_pasted_on_one_line_is_read_turn_by_turn():
    assert [role for role, _ in turns("User: kv per token for llama 3.1 8b? Assistant: 131,072 B. User: and in fp8?")] \
        == ["reader", "answerer", "reader"]
    assert_routed("User: kv per token for llama 3.1 8b? Assistant: 131,072 B. User: and in fp8?", "kv_cache",
                  {"model": "llama-3.1-8b", "kv_precision": "fp8"})


@pytest.mark.parametrize("text", [
    "User: kv cache for llama 3.1 8b at 32k? Assistant: about 4.3 GB. User: ok so why does the cache keep growing as "
    "the chat gets longer?",
    "me: llama 3.1 70b bf16 decode on one h100? bot: about 24 tok/s. me: is it fair to call that a bandwidth limit?",
    "User: all-reduce of 2 GB over 16 h100s on 2 nodes? Assistant: the nic is the bottleneck. User: is the assistant "
    "right that nvlink stops mattering across nodes?",
])
def test_a_last_turn_that_asks_why_computes_nothing(text):
    assert route_numeric(text) is None

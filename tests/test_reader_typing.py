"""How readers type around their figures: pictures and doubled spaces between a count and its noun, brackets run
together with a colon, idioms that look like cue words, and an operation or a peak named only to be left out."""
import pytest

from routing import assert_routed
from service.answer.route.numeric import UnknownGpu, UnknownModel, route_numeric
from service.answer.route.typography import as_plain_characters

TYPED = [
    # an emoji (with its zero-width joiner) between a count and its noun: the count is still the noun's
    ("mixtral 8x7b ➡️ 16 🧑‍💻 users ➡️ 32,000 tokens each ➡️ fp8 kv ➡️ cache size?", "kv_cache",
     {"batch": 16, "context": 32000}),
    ("🔹 qwen2.5 7b bf16\n🔹 one a100 40gb\n🔹 64 👥 seqs @ 2k ctx, bf16 kv\n➡️ aggregate tok/s?", "decode",
     {"batch": 64, "gpu": "a100-40gb"}),
    # keycap bullets number a list; "🔟 users" is ten of them
    ("1️⃣ 13B dense model\n2️⃣ 1.5T tokens\n3️⃣ 256 🖥️ tpu v5p chips, bf16\n4️⃣ 45% mfu\n➡️ wall-clock days?",
     "training", {"gpus": 256, "tokens": 1_500_000_000_000}),
    ("rtx pro 6000 🖥️ qwen 7b fp16 🖥️ 🔟 users × 32k ctx 🖥️ fp16 kv 👉 room left on the card?", "memory",
     {"batch": 10, "primary": "free_bytes"}),
    # two spaces typed between a count and its noun
    ("mixtral 8x7b,  16  users at 32,000 tokens each, fp8 kv cache size?", "kv_cache", {"batch": 16}),
    # "(not 3.1):" sets the version aside up to its bracket; the KV cache is still what is asked
    ("Llama 3 70B (not 3.1): KV cache for 64 sequences of 8k tokens each in fp16, how many gigs?", "kv_cache",
     {"model": "llama-3-70b", "batch": 64}),
    # a free lunch is no free memory
    ("deepseek r1 at 250,000 tokens per sequence, 3 sequences, fp8 kv — total cache size? and is mla basically a "
     "free lunch or are there catches", "kv_cache", {"batch": 3, "context": 250000}),
    # "— total kv?" ends the message: the cache, even when the weights' precision is named
    ("https://huggingface.co/meta-llama/Llama-3.1-405B-FP8 serving 8 users at 64k each with an fp8 kv cache — total kv?",
     "kv_cache", {"batch": 8, "kv_precision": "fp8"}),
    # a bar set on the cache asks for the cache
    ("llama 3.1 405b serving 4 users at 128k with a bf16 kv cache — more than 250 GB of cache?", "kv_cache",
     {"batch": 4, "context": 131072}),
    # the collective left out of a decode estimate is no collective asked
    ("deepseek v3 fp8 tensor-parallel over 8 mi300x, batch 1, no kv. treat the 8 cards' bandwidth as one pool and "
     "ignore the all-reduces — tok/s?", "decode", {"gpus": 8, "op": None}),
    # the compute side of a decode step divides by the peak; the peak is not the figure asked
    ("just the FLOP side, and use the fp8 dense peak: compute time of one decode step for qwen2.5 72b fp8 on 2 H100 "
     "NVL (tp 2), batch 256, kv ignored?", "decode", {"primary": "compute_time_s", "batch": 256}),
    ("llama 3.1 8b at bf16 on one h20, batch 128 at 2k ctx each with a bf16 kv cache — just the compute-bound part of "
     "the step", "decode", {"primary": "compute_time_s", "batch": 128}),
]


def test_keycaps_are_bullets_on_a_list_and_a_count_alone():
    assert as_plain_characters("1️⃣ llama 3.1 70b\n2️⃣ 4 h100s") == " llama 3.1 70b\n 4 h100s"
    assert as_plain_characters("🔟 users").strip() == "10 users"
    assert as_plain_characters("2️⃣ mi300x").strip() == "2 mi300x"


# Efficiencies said as a share, a loss or a utilisation (second blind batch of the class)
EFFICIENCIES = [
    ("qwen2.5 7b in bf16 on one rtx pro 6000, batch 1, kv ignored. our MBU (model bandwidth utilization) tops out "
     "around 65% — tok/s?", "decode", {"efficiency": 0.65}),
    ("deepseek r1 in fp8 over eight b300s (tensor parallel 8), one user, skip the kv reads. realistic HBM throughput is "
     "two-thirds of nominal — per-token latency in ms?", "decode", {"efficiency": 0.6667}),
    ("ms/token for mixtral 8x22b fp8 across 4 h200 nvl (tp 4), batch 1, kv not counted, if a fifth of the memory "
     "bandwidth goes to overhead?", "decode", {"efficiency": 0.8}),
    ("one mi250x package, qwen2.5 7b fp16, batch 1, no kv; achieved/peak bandwidth ≈ 0.6. decode tok/s?", "decode",
     {"efficiency": 0.6}),
    ("qwen2.5 7b on 18T tokens, 1024 tpu v5p chips, bf16 — we lose 55% of peak to everything (comms, bubbles, "
     "stragglers). how long does it take?", "training", {"mfu": 0.45}),
    ("gpu-hours for a 70B-param dense model on 1.4T tokens on trn2 in bf16, assuming 36% of the bf16 peak is actually "
     "realised", "training", {"mfu": 0.36}),
    ("llama 3.1 8b on 2T tokens with 128 gaudi 3s training in fp8 — gpu-hours if the MFU is one half?", "training",
     {"mfu": 0.5}),
    # a collective's calculator takes no efficiency: the bandwidth it derates is scaled ("all-reducing" is one too)
    ("tree all-reduce of 1 GB on 64 ranks, 25 GB/s per rank (hdr) but assume only 88% of that is usable — time?",
     "collective", {"bandwidth": 22e9}),
    ("16 tpu v5p chips all-reducing 4 GB over ICI (600 GB/s per direction), link utilisation ~55%, no latency — how "
     "long?", "collective", {"bandwidth": 330e9}),
]

# Machines counted with the part named before them: "256 dgx h100 systems at 8 gpus apiece"
MACHINES = [
    ("llama 3 70b, 15T tokens, 256 dgx h100 systems at 8 gpus apiece, bf16, 40% mfu — wall-clock days?", "training",
     {"gpus": 2048, "gpu": "h100-sxm"}),
    ("qwen2.5 7b on 18T tokens, 16 trn2 instances × 16 chips, bf16 at 40% mfu — days?", "training",
     {"gpus": 256, "gpu": "trainium2"}),
    ("zero-3 across four nodes of 8 gpus for llama 3.1 70b, state per gpu", "memory", {"gpus": 32}),
]


@pytest.mark.parametrize("question", [
    "mistral 7b fp16 on nvidia's 24GB HBM2 ampere datacenter card (the 165W one), batch 1, no kv: tok/s?",
    "all-reduce 1 GB across 4 of amd's 48GB RDNA 3 workstation cards over pcie 4: time?",
    "llama 3.1 8b bf16 on nvidia's 48GB ada workstation card (not a server part), 8k ctx, 1 user: does it fit?",
])
def test_a_described_card_that_fits_no_registry_part_is_unknown_not_the_default(question):
    routed = route_numeric(question)
    assert isinstance(routed, UnknownGpu)
    vendor_parts = {"nvidia": "h100-sxm", "amd": "mi300x"}
    assert any(vendor in question and part in routed.closest for vendor, part in vendor_parts.items())


def test_a_described_card_that_fits_one_part_is_still_that_part():
    assert_routed("llama 3.1 8b on nvidia's 48GB ada datacenter card, 8k ctx, 1 user: does it fit?", "memory",
                  {"gpu": "l40s"})
    assert_routed("tokens per second for mistral 7b int8, one stream, kv ignored, on amd's 1000W 256GB instinct?",
                  "decode", {"gpu": "mi325x"})


# One option of two asked (second blind batch of the class): labels, letters, bare picks, possessives, ordinals
OPTIONS = [
    ("proposal 1 puts mixtral 8x22b in fp8 on 2 mi325x, proposal 2 puts it in bf16 on 4 h200s. under proposal 1, "
     "weights only, how much hbm stays free on each mi325x?", "memory", {"gpu": "mi325x", "precision": "fp8"}),
    ("A) llama 3.1 405b int4 across 4 mi300x  B) llama 3.1 405b fp8 across 8 h200. for A, headroom per card on weights "
     "alone?", "memory", {"gpu": "mi300x", "gpus": 4, "precision": "int4"}),
    ("llama 3 70b int8 split over a pair of l40s vs llama 3 70b int4 squeezed onto a single l40s — the single-card int4 "
     "route, does it fit and by how much? weights only", "memory", {"precision": "int4"}),
    ("two cache setups for gpt-oss-120b: bf16 at 32k × 8 seqs, or fp8 at 128k × 2 seqs. going with fp8 at 128k for 2 "
     "seqs — how many bytes of kv?", "kv_cache", {"batch": 2, "context": 131072, "kv_precision": "fp8"}),
    ("box #1 runs qwen2.5 7b in int8 on an rtx 5090, box #2 runs it in bf16 on an a100 40gb; single stream, kv not "
     "counted. tok/s on box #1?", "decode", {"gpu": "rtx-5090", "precision": "int8"}),
    ("batch 1024 on one b200 or batch 256 on one h100, llama 3.1 8b fp8, kv ignored — compute time per step for the "
     "first?", "decode", {"gpu": "b200", "batch": 1024}),
    ("gaudi 3 or mi300x for fp8 training — what's the gaudi's dense fp8 peak?", "roofline", {"gpu": "gaudi-3"}),
    ("we can rent 8 nodes × 8 h200 with one 800 Gb/s xdr nic per gpu, or 16 nodes × 4 a100 80gb on hdr. on the h200 "
     "rental, hierarchical all-reduce of 8 GB — time?", "collective", {"gpu": "h200", "nodes": 8}),
    ("purely bandwidth-bound workload, choosing between an l40s and an rtx pro 6000 — memory bandwidth of the latter "
     "in TB/s?", "roofline", {"gpu": "rtx-pro-6000"}),
]


def test_a_quiz_items_lettered_answers_are_still_no_options():
    assert_routed("Which is closest to the weight memory of Llama 3.1 70B in FP8? A) 35 GB B) 70 GB C) 140 GB", "memory",
                  {"precision": "fp8", "gpu": None})


# Names the registry does not hold, hidden the way readers hide them (second blind batch of unknown names)
@pytest.mark.parametrize("question, unknown", [
    ("llama 3.1 8b on 1T tokens over 64 ct4p-hightpu-4t hosts (4 chips each, so 256 chips), bf16, 45% mfu — days?",
     UnknownGpu),
    ("azure Standard_NC6s_v3 — roofline of its gpu in fp16 at 50 flop/byte, attainable TFLOP/s?", UnknownGpu),
    ("qwen2.5 7b fp16 on one card of an OCI BM.GPU.A10.4 shape, batch 8, 4096 tokens each — aggregate tok/s?",
     UnknownGpu),
    ("rtx 4090 d (the china one with fewer cuda cores) — llama 3.1 8b int8, batch 1, kv ignored, tok/s?", UnknownGpu),
    ("rtx pro 6000 max-q (the 300 W workstation edition) — qwen2.5 72b fp8, single stream, no kv, tok/s?", UnknownGpu),
    # an ollama tag's size that is only close to R1's active 37B is the 32B distill, not R1
    ("deepseek-r1:32b on an l40s, how much vram is free?", UnknownModel),
])
def test_an_unknown_name_is_never_computed_as_a_registry_entry(question, unknown):
    assert isinstance(route_numeric(question), unknown)


def test_a_known_instance_and_a_models_own_sizes_still_compute():
    assert_routed("on a p5.48xlarge, llama 3.1 70b fp8 tok/s?", "decode", {"gpu": "h100-sxm", "gpus": 8})
    assert_routed("deepseek r1 37b active, 671b total fp8 on 8 h200 free?", "memory", {"model": "deepseek-r1"})


# Two asks in one message (second blind batch of the class)
TWO_ASKS = [
    # the model named only in the qualitative half is the one the calculation is about
    ("does vllm store deepseek r1's mla latent as-is or decompress it? related number: 10 reasoning traces of 48,000 "
     "tokens each, bf16 cache, total kv size", "kv_cache", {"model": "deepseek-r1", "batch": 10}),
    ("is the 96 GB rtx pro 6000 blackwell a reasonable inference box or a trap? concretely: mixtral 8x7b int4 on one, "
     "batch 1, ignoring kv, tok/s", "decode", {"gpu": "rtx-pro-6000"}),
    # "curious whether …" is a qualitative ask without a question mark
    ("Curious whether ROCm's MoE kernels are good enough that I'd ever get near the bound. The bound itself: mixtral "
     "8x7b bf16 on one mi300x, batch 1, kv reads ignored, tok/s", "decode", {"gpu": "mi300x"}),
    ("is it normal for reduce-scatter to look worse than all-reduce in nccl-tests? mine: reduce_scatter_perf on 16 "
     "ranks prints algbw 24 GB/s, what busbw is that", "collective", {"algbw": 24e9, "primary": "busbw"}),
    # a figure asked in its own sentence after the setup is no qualitative ask
    ("(a) would you bother with cpu offload here at all?\n(b) numbers: fsdp full shard of llama 3.1 70b over 32 b200s, "
     "seq len 4k, micro-batch 1, selective recompute. free memory per gpu after state + activations?", "memory",
     {"primary": "free_bytes", "gpus": 32}),
    # a judgement asked beside the figure: the figure is computed, the judgement is the pages'
    ("kv cache for qwen2.5 72b at 16k for 24 users in fp8? is fp8 worth it here?", "kv_cache",
     {"batch": 24, "kv_precision": "fp8"}),
    ("aggregate tok/s for llama 3.1 8b on one l40s at batch 64, 2k ctx — worth it vs an h100?", "decode",
     {"gpu": "l40s", "batch": 64}),
    ("total kv for llama 3.1 70b, 48 users at 8k, bf16 cache, is that overkill for 2 h200s", "kv_cache", {"batch": 48}),
    ("deepseek v3 fp8 on 8 h200s, 16 users at 32k fp8 kv: free memory per gpu, and what's the risk of going to 32 "
     "users?", "memory", {"batch": 16, "primary": "free_bytes"}),
]


@pytest.mark.parametrize("question, calculator, expected", TWO_ASKS)
def test_the_calculation_half_of_two_asks_is_computed(question, calculator, expected):
    assert assert_routed(question, calculator, expected).explain


def test_an_unknown_part_in_the_calculation_half_is_said_unknown():
    routed = route_numeric("is the l20 a sensible china-market alternative to the h20? and what would llama 3.1 8b "
                           "bf16 do on one l20, batch 1, no kv, tok/s")
    assert isinstance(routed, UnknownGpu) and routed.name == "l20"


# Pasted monitoring output (second blind batch of the class)
METRICS = [
    # Prometheus' JSON result; an idle pod's zero running requests is no batch; DCGM's modelName is the card
    ('{"metric":{"__name__":"vllm:num_requests_running","model_name":"mistralai/Mistral-7B-Instruct-v0.1"},'
     '"value":[1718031200.5,"0"]}\n{"metric":{"__name__":"DCGM_FI_DEV_FB_TOTAL","gpu":"0","modelName":"NVIDIA L4"},'
     '"value":[1718031200.5,"23034"]}\n\nif I requantize that model to int8, weights only, how much of the card is left?',
     "memory", {"model": "mistral-7b", "gpu": "l4", "batch": None}),
    # the cache's dtype label is the KV precision ("auto" says nothing)
    ('vllm:num_requests_running{model_name="openai/gpt-oss-20b"} 11\nvllm:cache_config_info{cache_dtype="fp8"} 1.0\n\n'
     'all far past the 128-token window. what does each further token add to the kv cache?', "kv_cache",
     {"kv_precision": "fp8", "primary": "kv_bytes_per_token_past_window"}),
    ('llamacpp:kv_cache_tokens{model="Meta-Llama-3-70B-Instruct-Q4_K_M"} 40960\n\nf16 cache. kv_cache_tokens is the '
     'number of tokens held across all slots — in bytes that is? (llama 3 70b)', "kv_cache", {"context": 40960}),
    # a card's product label, RCCL's metrics, and bytes per second printed without a prefix
    ('rccl_reducescatter_bytes{comm="zero",nranks="8"} 1073741824\ngpu_gfx_activity{gpu_id="0",card_model="AMD Instinct '
     'MI325X"} 66\n\nreduce-scatter of that buffer over infinity fabric: time per call?', "collective",
     {"gpu": "mi325x", "size": 1073741824, "ranks": 8}),
    ('nccl_allgather_busbw_bytes_per_second{nranks="64",job="fsdp-405b"} 3.8e10\n\nwhat algbw was that op seeing?',
     "collective", {"busbw": 38e9, "ranks": 64}),
]




# Page follow-ups and background after the ask
FOLLOW_UPS = [
    ("kv for llama 3 8b, 52 × 8k, total?", "kv_cache", {"batch": 52, "context": 8192}),
    ("hbm left per h200 once llama 3.1 70b's bf16 weights are split over 8 of them?", "memory", {"gpus": 8}),
    # "Background:" after the ask: an endpoint's uptime in days sets nothing up
    ("Qwen2.5 72B with an int8 KV cache: how big is the cache for 40 concurrent requests of 10,000 tokens each? "
     "Background: this replaces a Llama 3 70B endpoint that has been up for 412 days and serves 9 tenants.", "kv_cache",
     {"model": "qwen2.5-72b", "batch": 40}),
]


def test_a_count_of_them_does_not_drop_the_part_it_counts():
    routed = route_numeric("we have old v100 32gb boxes; if we trained llama 3.1 8b on 1T tokens with 256 of them at "
                           "40% mfu, how many days?")
    assert isinstance(routed, UnknownGpu)


# Sequences split evenly over replicas, asked of one: each one's share is the batch
SPLIT_EVENLY = [
    ("llama 3 8b, 96 chats split evenly over 3 l4 nodes, 6,000 tokens each, int8 kv — kv per node?", "kv_cache",
     {"batch": 32}),
    ("600 requests load-balanced evenly over 24 gpus, one qwen2.5 7b replica per gpu, 4k each, fp8 kv — kv cache per "
     "gpu?", "kv_cache", {"batch": 25}),
    # the boxes counted earlier in the message
    ("llama 3.1 70b fp8 on 3 boxes of 8 h20, tp 8 per box, 96 users split evenly over the boxes at 16k, fp8 kv — "
     "per-user tok/s?", "decode", {"batch": 32, "gpus": 8}),
    # the total across all of them keeps every sequence
    ("llama 3 8b, 96 chats split evenly over 3 nodes, 6k each — total kv across all nodes?", "kv_cache", {"batch": 96}),
]


def test_how_many_times_a_weight_is_read_is_a_mechanism_not_a_rate():
    assert route_numeric("at batch 64 how many times does llama 3.1 8b read each weight matrix per decode step on an "
                         "h100, once for the whole batch? explain the sharing") is None


# What the reader says beside the ask sets nothing up
BESIDE_THE_ASK = [
    # an MFU said "separately" does not make a training-state question a training run
    ("zero-2 across 128 gpus, llama 3.1 8b: training state per gpu with 16 B/param mixed-precision adam? we plan for 45% "
     "MFU but that's a separate question", "memory", {"zero_stage": 2, "gpus": 128}),
    # ", but I'm sizing for …" parts the history from what is asked now
    ("We've logged 2.3 million chats since launch in 2024 and the median is 1,400 tokens, but I'm sizing for the worst "
     "case: Llama 3.1 405B, 8 concurrent sessions at 128k each, bf16 KV. Total cache?", "kv_cache",
     {"batch": 8, "context": 131072}),
    ("Since the NCCL 2.21 -> 2.23 upgrade last Tuesday, 2 of our 24 nodes look slow. Expected number first: ring "
     "all-reduce of 1 GiB across the eight B200s of one node over NVLink 5, how long?", "collective", {"ranks": 8}),
]


def test_a_figure_asked_of_a_model_named_only_in_the_first_ask_is_computed_or_said_unknown():
    assert assert_routed("is qwen2.5 72b decode at batch 1 on an h200 purely bandwidth-bound? and what tok/s does the "
                         "bound give with fp8 weights, one gpu, kv reads ignored?", "decode",
                         {"model": "qwen2.5-72b", "gpu": "h200"}).explain
    assert isinstance(route_numeric("is qwen3-32b's thinking mode worth the extra tokens? also what's its kv cache at "
                                    "32k ctx for 4 users, bf16 cache"), UnknownModel)


@pytest.mark.parametrize("question", [
    "before i calculate memory for mixtral 8x22b on 8 h100s, does vllm shard the experts with tp by default or do i "
    "have to turn on expert parallel?",
    "whats the config.json field that gives qwen2.5 72b its 8 kv heads, num_key_value_heads? and which other fields "
    "does the kv formula read",
    "how much does gqa with 8 kv heads cut what ring attention passes around in context parallel for llama 3.1 70b, "
    "in words? why is the rotation cheap",
    # a figure quoted and asked about: what it holds, what it is per, why it is so (in the reader's language)
    "the answer said 640 GB for training qwen2.5 72b — does that include the optimizer or only weights and grads?",
    "all_reduce_perf prints busbw 360 GB/s across 8 h200 — is that per gpu or for the whole node?",
    "¿por qué la caché kv de llama 3.1 70b a 32k es 10.7 GB y no 21 GB si tiene 80 capas?",
    "pourquoi llama 3.1 8b fait 16,06 Go en bf16 et pas 16 Go pile ?",
    "warum braucht mixtral 8x7b 93 GB in bf16, obwohl nur 13B aktiv sind?",
    # a judgement of a full setup, with no figure asked
    "fp8 weights and an fp8 kv cache for qwen2.5 72b on 2 h200s at 32k, 16 users — sane default or too aggressive?",
    "llama 3.1 405b on 16 h100s across 2 nodes: tp or pp? we care about latency",
    "mixtral 8x22b on 4 mi300x, 128k context, 8 users: is --kv-cache-dtype fp8 still worth it?",
])
def test_near_misses_that_open_like_a_sum_are_not_computed(question):
    assert route_numeric(question) is None


def test_what_the_reader_will_calculate_later_leaves_a_real_ask_computed():
    assert_routed("before i calculate it myself, what's the kv cache of llama 3.1 70b at 32k?", "kv_cache",
                  {"context": 32768})


# Each list above is one way readers type or say a setup; each question gets the figures it means
@pytest.mark.parametrize("question, calculator, expected", TYPED + EFFICIENCIES + MACHINES + OPTIONS + METRICS
                         + FOLLOW_UPS + SPLIT_EVENLY + BESIDE_THE_ASK)
def test_the_figures_are_read_as_the_reader_means_them(question, calculator, expected):
    assert_routed(question, calculator, expected)

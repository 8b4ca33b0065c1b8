"""The numeric router's tagger: a question's tokens, and the spans a calculator cares about.

A blank English spaCy pipeline (a tokenizer and rules, no model weights) reads the question:

- the tokenizer also splits a number from the letters glued to it ("80GB" → 80 GB, "h100s" → h 100 s,
  "8x7b" → 8 x 7 b), and a hyphen or underscore between words is read as a space ("llama-3.1-70b",
  "all_reduce"), so one set of rules sees every spelling of a unit, a count or a name;
- number words become one number token ("sixty-four", "two thousand", "a million": word2number);
- misspelt domain words get their intended spelling as the token's NORM ("allredcue" → allreduce,
  "tokns" → tokens: rapidfuzz), which is what the patterns match;
- a `PhraseMatcher` on the tokens' NORMs tags MODEL, GPU and LINK (patterns built from every registry
  spelling), PRECISION, COLLECTIVE, STAGE (ZeRO / FSDP) and CUE spans (the words that say what is
  asked, label a number, or make a question conceptual); overlapping matches keep the longest;
- a token-pattern `Matcher` tags each number with what follows it: QUANTITY with its unit (bytes, bandwidth, tokens,
  parameters, percent, FLOP/B, days; units converted with pint) or COUNT with its noun (GPUs, ranks,
  nodes, users…); any other number is a bare NUMBER;
- names the registries do not hold are found by their shape (a model family and a version, a GPU-like
  code) and resolved with the registries' exact and fuzzy lookups; what stays unresolved is tagged
  UNKNOWN_MODEL or UNKNOWN_GPU, never replaced by a default.

`tag(question)` returns a `Reading`: the tags in reading order. Binding them to a calculator's inputs is
slots.py's job.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
import sys
from dataclasses import dataclass, field
from functools import lru_cache

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA
from word2number import w2n

from calculators.registry import (
    ambiguous_model,
    find_gpu,
    find_gpu_fuzzy,
    find_model,
    find_model_fuzzy,
    gpus,
    links,
    models,
)

# --- the pipeline -----------------------------------------------------------------------------------


def _import_spacy():
    """spaCy, without the torch import its thinc layer attempts (≈2 s and ≈180 MB this router never uses)."""
    if "torch" in sys.modules or "spacy" in sys.modules:
        import spacy
        return spacy
    sys.modules["torch"] = None  # type: ignore[assignment]  # makes `import torch` raise ImportError
    try:
        import spacy
    finally:
        del sys.modules["torch"]
    return spacy


spacy = _import_spacy()
from spacy.matcher import Matcher  # noqa: E402
from spacy.tokens import Doc, Span, Token  # noqa: E402
from spacy.util import compile_infix_regex, compile_prefix_regex, filter_spans  # noqa: E402

from .languages import in_english  # noqa: E402
from .logs import without_log_figures  # noqa: E402
from .options import without_options  # noqa: E402
from .pasted import as_stated  # noqa: E402
from .phone import as_keyed  # noqa: E402
from .tables import as_fields  # noqa: E402
from .compounds import with_compounds_unpacked  # noqa: E402
from .nicknames import as_registered, with_generations_as_digits  # noqa: E402
from .parts import with_parts_added  # noqa: E402
from .runcard import with_run_settings_as_tokens, with_run_tokens  # noqa: E402
from .shorthand import spelled_out  # noqa: E402
from .slips import mended  # noqa: E402
from .specsheet import as_read, counts_both_ways  # noqa: E402
from .spoken import written  # noqa: E402
from .word_figures import as_digits  # noqa: E402
from ..spelling import english_words  # noqa: E402


# The number a token stands for, kept in its doc's user_data by character offset (merging a run of number words
# keeps the first word's offset). A Token extension (`token._.value`) did the same at several times the cost.
def _value(t: Token) -> float | None:
    return t.doc.user_data.get(("value", t.idx))


def _set_value(t: Token, value: float) -> None:
    t.doc.user_data[("value", t.idx)] = value


_INFIXES = (
    r"(?<=[a-zA-Z])(?=[0-9])", r"(?<=[0-9])(?=[a-zA-Z])",  # 80GB, h100, 8x7b, 128k
    r"(?<=[a-zA-Z0-9.])[\-_](?=[a-zA-Z0-9])",  # llama-3.1-70b, all_reduce, zero-2
    r"[=×~≈/()?:;→]", r"->",
)
_PREFIXES = (r"~", r"≈", r"\$", r"→")
_JOINERS = {"-", "_"}
_NUM, _BIG = "#num", "#big"  # the NORM a number token gets once names are tagged (#big: a million or more)


@dataclass(frozen=True)
class Tag:
    """One span of the question: what it is (`label`), which one (`key`), where, and its value."""

    label: str  # MODEL GPU LINK PRECISION COLLECTIVE STAGE CUE QUANTITY COUNT NUMBER UNKNOWN_MODEL UNKNOWN_GPU
    key: str  # registry id, precision, op, stage, cue name, unit kind ("bytes") or noun ("gpus")
    start: int  # token indices [start, end)
    end: int
    text: str  # as typed
    value: float | None = None  # QUANTITY (in base units: B, B/s, tokens…), COUNT, NUMBER
    unit: str = ""  # the unit or multiplier as typed ("GiB", "Gb/s", "k")
    note: str = ""  # how a name was read, when it was not spelt as the registry spells it


@dataclass
class Reading:
    """A tagged question."""

    question: str
    words: list[str]  # the tokens' NORMs (lower case, typos mended)
    tags: list[Tag] = field(default_factory=list)

    def of(self, label: str, key: str | None = None) -> list[Tag]:
        return [t for t in self.tags if t.label == label and (key is None or t.key == key)]

    def cue(self, *keys: str) -> Tag | None:
        return next((t for t in self.tags if t.label == "CUE" and t.key in keys), None)

    def has(self, *keys: str) -> bool:
        return self.cue(*keys) is not None

    def first(self, label: str) -> Tag | None:
        return next((t for t in self.tags if t.label == label), None)


# --- word lists ---------------------------------------------------------------------------------------

# CUE name → phrases. A phrase is matched on the tokens' NORMs; "-" and "_" between words are optional.
CUES: dict[str, tuple[str, ...]] = {
    # what is asked
    "how_much": ("how much", "what do i get", "what do i actually get", "what do we get", "what would i get"),
    "how_many": ("how many", "min number of", "minimum number of", "minimum", "fewest", "number of", "smallest number of",
                 "smallest n of", "smallest count of", "least number of", "lowest number of"),
    "how_long": ("how long", "how much time"),
    "time_to_train": ("training time", "time to train", "train time", "time to pretrain", "wall clock", "wallclock",
                      "wall-clock time"), "how_fast": ("how fast", "how quick", "how quickly"),
    "how_big": ("how big", "how large", "how heavy", "how many gb", "how many gigabytes", "how many bytes",
                "how many gigs", "how many gig", "how many gib", "how many tb", "how many mb", "how many terabytes"),
    "compute": ("compute", "calculate", "estimate", "estimated", "closest to", "which is closest to",
                "which is closest",
                "which is nearest to", "which value is closest to", "approximately", "select the correct",
                "correct statement", "___", "work out", "figure out", "what is the size", "size of",
                "determine", "show whether", "show that",
                # "explain like I am 5, then the number: …": the explanation and the figure
                "then the number", "and the number", "give me the number", "just the number", "then the figure",
                "and then the number", "plus the number"),
    "what_is": ("what is", "what's", "whats", "what are", "what'll", "what would", "what will be"),
    # memory
    "memory": ("memory", "vram", "gpu memory", "ram", "hbm", "gpu ram", "footprint", "disk", "on disk"),
    "weights": ("weights", "weight", "weights size",
                # in a non-specialist's words: the model's "brain"
                "brain", "brain only", "the brain", "just the brain"),
    "size": ("size", "sizes", "sized", "big", "large"),
    "fit": ("fit", "fits", "fitting", "hold", "holds", "load", "loads", "loading", "host", "oom", "ooms", "go oom"),
    "run": ("run", "runs", "serve", "serving", "deploy", "can it do", "handle", "handles", "can it handle"),
    "enough": ("enough", "sufficient", "enuf", "enogh", "enought", "big enough"),
    "left": ("left", "free", "remaining", "headroom", "spare", "left over", "leftover", "how far over", "how much over",
             "memory rest", "remain", "remains", "stay free", "stays free",  # (non-native: "how many memory rest")
             "over by how much", "how far short", "short by how much"),
    "need": ("need", "needs", "needed", "require", "requires", "required", "take", "takes"),
    "binary_unit": ("gib", "in gib", "gibibytes", "mib", "tib", "in mib", "in tib"),
    "release": ("release format", "as released", "released", "release precision", "native precision"),
    # kv cache
    "kv": ("kv", "kv cache", "kv-cache", "kvcache", "key value cache", "key-value cache", "kv memory",
           "reservation", "reserve", "kv size", "latent cache", "mla cache", "latent kv", "kv latent",
           "compressed kv",
           # disaggregated serving: what prefill ships to decode is the prompt's KV cache
           "shipped to the decode side", "shipped to decode", "sent to the decode side", "sent to decode",
           "transferred to the decode side", "moved to the decode side",
           # in a beginner's words: what the model keeps of the conversation
           "memory of the conversation", "conversation memory", "memory of the chat", "chat memory",
           "remembering", "to remember", "memory of past tokens"),
    "per_token": ("per token", "each token", "each extra token", "per-token", "a token", "every token",
                  "per additional token", "each additional token", "each new token", "each further token",
                  "every further token", "bytes/token", "bytes per token", "b/token",
                  "per tok", "/token", "per word", "each new word", "each extra word", "every new word"),
    "past_window": ("past the window", "past the sliding window", "beyond the window", "past the sliding-window",
                    "beyond the sliding window", "once past", "past window", "outside the window",
                    "window layers are full", "windows are full", "window is full", "window fills", "windows fill",
                    "longer than the window", "longer than its window", "past its window", "beyond its window",
                    "windowed layers stop growing", "window layers stop growing", "windowed layers are full"),
    # decode
    "tokens_per_s": ("tokens/s", "tokens / s", "tok/s", "toks/s", "token/s", "tokens per second", "tokens per sec",
                     "tokens a second", "tok per sec", "tokens/sec", "tok/sec", "tps", "t/s", "tokens per s",
                     "token/sec", "token per second", "token per sec", "tk/s", "tk/sec", "tks/s",
                     "words per second", "words a second", "words per sec", "words/s", "word per second",
                     "tokens by second", "token by second", "tokens for second", "tokens in a second"),
    "decode": ("decode", "decodes", "decoding", "generation", "generate", "generates", "inference speed"),
    "speed": ("speed", "fast", "rate", "velocity"),  # not "quick": "quick one", "quick q" ask nothing about speed
    "latency": ("latency", "per-token time", "per token time", "ms per token", "milliseconds per token", "ms/token",
                "ms/tok", "ms / token",
                "time per token", "step time", "tpot", "inter-token", "inter token", "itl", "time per step",
                "ms per step", "ms per decode step", "milliseconds per decode step", "time per decode step",
                "decode step time",
                "per-token latency", "seconds per token", "time per output token", "each token take",
                "each new token take", "each new word take", "each word take", "milliseconds per generated token",
                "ms per generated token", "ms per output token", "milliseconds per output token",
                "time per generated token", "microseconds per token", "µs per token", "us per token",
                "microseconds per generated token"),
    "aggregate": ("aggregate", "total tok/s", "total tokens/s", "total throughput", "combined", "overall",
                  "across all users", "across users", "all users", "summed"),
    "total": ("total", "in total", "altogether", "all told", "all in all", "all up", "all-up"),
    "throughput": ("throughput",),
    "per_sequence": ("per sequence", "per user", "per usr", "per stream", "single stream", "single-stream", "each user",
                     "per request", "one stream", "each sequence", "per conversation"),
    "compute_time": ("compute-bound time", "compute bound time", "compute time", "time if compute bound",
                     "compute side of one step", "compute side of a step", "compute side of the step",
                     "compute-bound seconds", "compute bound seconds", "compute-bound ms", "compute bound ms",
                     "compute-bound step time", "compute bound step time", "compute-bound latency",
                     # plain words: "how long does just the math take"
                     "just the math", "the math alone", "only the math",
                     "compute-bound part", "compute bound part", "compute part of the step", "compute part of one step",
                     "compute part of a step", "compute part of a decode step", "flop side of the step",
                     "number crunching", "number-crunching", "crunching numbers", "crunching the numbers"),
    "memory_time": ("memory-bound step time", "memory bound step time", "memory-bound time", "memory bound time",
                    "memory-bound seconds", "memory bound seconds", "memory-bound ms", "memory bound ms",
                    "memory-bound latency",
                    "memory time", "time if memory bound", "memory read time", "memory-read time", "weight read time",
                    "hbm read time", "hbm-read time", "memory read time per step", "memory read time per decode step",
                    "memory time per step", "memory time per decode step", "memory-read part", "memory read part",
                    "memory-bound part", "memory bound part", "memory-bound component", "memory bound component",
                    "memory part of the step", "memory part of one step",
                    "memory part of a step", "just reading memory", "reading memory", "only reading memory",
                    "reading from memory", "reading its ram", "reading its vram", "reading its memory",
                    "reading its hbm", "reading the ram", "reading the vram"),
    "compute_bound": ("compute bound", "compute-bound", "become compute bound", "becomes compute bound",
                      "turn compute bound", "waiting on math", "waiting on compute", "waits on math"),
    "memory_bound": ("memory bound", "memory-bound", "bandwidth bound", "bandwidth-bound", "waiting on memory",
                     "waits on memory"),
    # training
    "train": ("train", "training", "trained", "pretrain", "pre-train", "pretraining", "pre-training",
              "fine-tune", "finetune", "fine tune", "fine-tuning", "finetuning", "fine tuning", "full fine-tuning",
              "teach"),  # (not "teaching": "a teaching lab")
    "adam": ("adam", "adamw", "optimizer", "optimiser", "mixed precision", "mixed-precision", "adam moments",
             "optimizer states", "optimiser states"),
    "no_activations": ("no activations", "ignoring activations", "without activations", "excluding activations",
                       "ignore activations", "not counting activations", "activations aside", "minus activations",
                       "skip activations", "skipping activations", "leave out activations", "leaving out activations",
                       "drop activations", "no acts", "activations excluded", "activations left out"),
    "activations": ("activations", "activation memory", "activation", "act mem", "act memory", "activation mem",
                    "acts estimate", "acts memory", "in-between results", "states + acts", "+ acts", "and acts"),
    "checkpoint": ("checkpoint", "checkpoints", "ckpt", "checkpoint size", "save file", "saved file", "saved checkpoint",
                   "saved checkpoints", "every save", "each save", "per save", "save game", "save-game", "save point",
                   "save points", "savepoint"),
    # activation recomputation (memory in training mode)
    "recompute_full": ("full recompute", "full recomputation", "full activation checkpointing", "full checkpointing",
                       "full gradient checkpointing",
                       "recompute everything", "recompute all layers", "full activation recomputation",
                       "full activation recompute", "full act recompute", "full activation ckpt",
                       "recompute full", "recomputation full"),  # a config's "recompute: full"
    "recompute_none": ("no recompute", "no recomputation", "activation checkpointing none",
                       "activation checkpointing off", "checkpointing off", "recompute none", "recompute off",
                       "recomputation off", "without recompute", "without recomputation",
                       "without any recompute", "without any recomputation",
                       "no activation checkpointing", "without activation checkpointing", "no checkpointing"),
    "recompute_selective": ("selective recompute", "selective recomputation", "selective checkpointing",
                            "selective activation checkpointing", "selective activation recomputation",
                            "recompute selective", "recomputation selective"),
    "training_state": ("training state", "model state", "model states", "optimizer state", "optimiser state",
                       "adam state", "optimizer memory", "state per gpu", "training memory", "states"),
    "state": ("state",),
    "gpu_hours": ("gpu hours", "gpu-hours", "gpu hour", "gpuhours", "chip hours", "chip-hours", "chip hour",
                  "accelerator hours", "accelerator-hours", "device hours", "device-hours",
                  # the same quantity in longer units (the answer adds the unit asked: asked_unit.py)
                  "gpu days", "gpu-days", "gpu day", "gpu-day", "gpu weeks", "gpu-weeks", "gpu years", "gpu-years",
                  "chip days", "chip-days"),
    "hours": ("hours", "hour"),
    "flops": ("flops", "flop", "flop count", "training compute", "total compute", "compute budget",
              "floating point operations"),
    "days": ("days", "weeks", "day", "wall clock", "wall-clock", "time to train", "how many days"),
    "mfu": ("mfu", "model flops utilization", "model flop utilization", "utilization", "utilisation"),
    # collectives
    "busbw": ("busbw", "busbw gbps", "bus bandwidth", "bus bw", "bus-bw"),
    "algbw": ("algbw", "algbw gbps", "algorithm bandwidth", "alg bw", "algo bandwidth", "alg bandwidth", "algorithmic bandwidth"),
    "bandwidth": ("bandwidth", "bw",
                  # plain words: "how fast can it move data in and out of its VRAM"
                  "move data in and out", "move data to and from", "shovel data", "in and out of its vram",
                  "to and from its vram", "in and out of its ram", "to and from its ram", "in and out of its memory"),
    "two_level": ("two-level", "two level", "hierarchical", "2-level", "two-tier", "2 level"),
    "flat": ("flat", "flat ring", "single ring", "one ring"),
    "ring": ("ring",), "tree": ("tree", "double binary tree"),
    "measured": ("nccl", "nccl-tests", "nccl tests", "shows", "measured", "measures", "got", "getting", "observed"),
    "grads": ("gradients", "grads", "gradient", "grad"),
    "nic": ("nic", "nics", "port", "ports", "per gpu", "hca", "rail", "rails"),
    "between": ("between",),
    "alpha": ("alpha", "α", "per-step latency", "hop latency", "latency per hop", "per hop", "a hop", "each hop",
              "startup latency", "launch latency"),
    "root": ("root", "rank 0", "to one rank", "from one rank", "from 1 rank", "from a single rank", "from rank 0"),
    # roofline
    "ridge": ("ridge point", "ridge pt", "ridge", "knee", "knee point", "break-even", "breakeven", "break even", "saturate", "π/β",
              "pi/beta", "π / β", "pi / beta",
              "flop per byte needed", "flops per byte needed", "balance point", "machine balance",
              "stop being held back", "stops being held back", "no longer held back"),
    "intensity": ("arithmetic intensity", "intensity", "flop/byte", "flops/byte", "flop per byte", "flops per byte",
                  "flops for each byte", "flop for each byte", "ops per byte", "operations per byte",
                  "ops for every byte", "operations for every byte", "math ops per byte", "calculations per byte",
                  "calculations for each byte", "calculations for every byte", "math per byte"),
    "peak_flops": ("compute roof", "flat roof", "flat compute roof", "peak flops", "peak flop/s", "peak compute",
                   "peak tflops", "compute ceiling", "flops roof", "compute peak",
                   # plain words: "how many trillion operations a second", "its top math speed"
                   "operations a second", "operations per second", "calculations a second", "calculations per second",
                   "math speed", "math a second", "math per second", "flat out"),
    "roofline": ("roofline", "roof line", "flat part", "flat part of the roofline", "dense peak", "bf16 peak",
                 "fp8 peak", "fp16 peak"),
    "peak_bandwidth": ("memory roof", "bandwidth roof", "bw roof", "memory bw roof", "hbm roof", "memory bandwidth roof",
                       "slanted roof", "sloped roof", "memory ceiling", "bandwidth ceiling", "diagonal roof"),
    "attainable": ("attainable", "achievable", "how many flop/s", "how many flops/s", "the roof", "how many tflops",
                   "how many tflop/s", "cap it at", "caps it at", "speed ceiling", "best speed it can reach",
                  "top speed it can reach", "can it actually reach", "can actually reach"),
    # number labels
    "batch": ("batch", "batch size", "batchsize", "bs", "bsz", "max num seqs", "concurrency", "concurrent",
              "batched", "micro batch", "micro-batch",
              "microbatch", "mbs", "micro batch size", "micro-batch size", "at a time", "at once", "in flight",
              "in-flight", "concurrently", "simultaneously", "in parallel", "max seqs", "micro bs", "n seq", "n seqs",
              "num seqs"),
    "gpu_count": ("card count", "gpu count", "device count", "cards needed", "gpus needed", "number of cards",
                  "number of gpus", "how many cards", "how many of them"),
    "context": ("context", "ctx", "context length", "context window", "sequence length", "seq len", "seqlen",
                "max model len",  # vLLM's --max-model-len
                "seq", "seq length", "seq_len",
                "sequence len", "sequence", "prompt", "prompt length", "prompts", "contexts", "history", "input length",
                "max len", "max length", "max seq len", "max sequence length"),  # (printed configs: "max_len=24576")
    "each": ("each", "per node", "per server", "per box", "in each", "apiece", "per host"),
    "tp": ("tp", "tensor parallel", "tensor parallelism", "tensor-parallel", "tensor parallel degree",
           "tensor parallelism degree", "tensor", "tp degree", "tp size", "tensor model parallel size",
           "tensor parallel size"),
    "pp": ("pp", "pipeline parallel", "pipeline parallelism", "pipeline-parallel", "pipeline stages", "pipeline",
           "pipeline model parallel size", "pipeline parallel size"),
    "dp": ("dp", "data parallel", "data parallelism", "data-parallel", "dp degree", "dp ranks", "data parallel ranks",
           "dp size", "replicas"),
    "ranks_label": ("nranks", "n ranks", "world size", "num ranks", "nproc", "ngpus", "num gpus"),
    "shard_group": ("shard group", "shard groups", "shard group size", "sharding group", "sharding groups"),
    "nodes_label": ("nnodes", "num nodes", "node count"),  # torchrun's --nnodes and --nproc-per-node
    "per_node_label": ("nproc per node", "gpus per node", "ngpus per node"),
    "efficiency": ("efficiency", "hbm eff", "bw eff", "mem eff", "bandwidth eff", "of peak", "of peak bandwidth", "bandwidth efficiency", "of the bandwidth",
                   "of bandwidth", "of hbm bandwidth", "of theoretical", "of the memory bandwidth",
                   "of memory bandwidth", "of its bandwidth", "of its memory bandwidth", "of its hbm bandwidth",
                   "of its peak", "of peak bw", "of the bw", "of its bw"),
    "way": ("way",),
    "of": ("of", "=", ":", "is", "at", "with", "as", "equals", "was"),
    "to": ("to", "into", "->", "→", "in terms of"),
    "question_mark": ("?",),
    "per": ("per",),
    # what makes a question conceptual (it goes to retrieval unless it also asks for a number)
    "why": ("why", "how come", "reason",
            # a cause asked of a figure: "was it cuz of the 2.788m gpu hours"
            "was it because", "was it cuz", "is it because", "is it cuz", "was that because",
            # what a figure depends on, not the figure: "what actually sets decode speed … — flops or bandwidth?"
            "what sets", "what actually sets", "what determines", "what actually determines", "what limits",
            "what actually limits", "what bounds", "what governs", "what dominates", "what decides", "what makes",
            # a mechanism asked about: "how many times does it read each weight …"
            "how many times does", "how many times do",
            # what a quoted figure holds: "you said 1.13 TB — does that include activations?", "is that per link?"
            "does that include", "does it include", "does this include", "is that per", "is this per",
            # where a figure comes from: "where does the extra 0.5 come from?"
            "come from", "comes from", "coming from"),
    # a judgement asked of a setup, not a figure: "… is fp8 kv still worth it?", "sane default or too aggressive?"
    "judgement": ("worth it", "is it worth", "is it even worth", "worth tuning", "worth optimizing",
                  "worth the effort", "sane default", "too aggressive", "good idea", "bad idea", "overkill",
                  "what's the risk", "whats the risk", "the actual risk", "what could go wrong", "tp or pp",
                  "pp or tp", "tp vs pp", "reshard",
                  # whether an earlier answer's reading holds: "is it fair to call that a bandwidth limit", "is the bot
                  # right that gqa …"
                  "is it fair", "is that fair", "fair to call", "is the bot right", "is the assistant right",
                  "is the ai right", "is chatgpt right", "which one is right", "which is right",
                  # whether a published figure holds: "is bytedance's number legit or cherry picked", "which one is
                  # lying", "could one slot like that drag a 64-rank allreduce down", "will rocm vllm hit it or lag"
                  "legit", "cherry picked", "cherry-picked", "the real number", "twitter math", "lying", "drag",
                  "or lag",
                  # advice on what to do: "whats the usual playbook", "what risks should a doc flag", "where would you
                  # start looking?", "what should we ask that the mlperf numbers wont answer?"
                  "playbook", "what risks", "which risks", "where would you start", "where should i start",
                  "where do i start", "where do we start", "start looking", "what would you check",
                  "what should i check", "what should we check", "what should we ask", "what should i ask",
                  # whether a measured change is normal: "step time went up ~33%, is that expected or a bug on our side"
                  "is that expected", "is this expected", "is it expected", "expected or a bug", "a bug on our side",
                  # "bad node or just normal?", "is our setup broken?", "whats the catch", "which one is wrong?"
                  "just normal", "or normal", "is that normal", "is this normal", "bad node", "setup broken",
                  "is our setup", "the catch", "which one is wrong", "which is wrong",
                  # a setting or a log asked about, pasted with its figures: "whats going on and what should i set",
                  # "is that list the problem", "what are those counters telling me", "does expandable_segments fix
                  # it", "is this number usable for sizing" ("what should it be?" asks a figure)
                  "what should i set", "what should we set", "what should i put",
                  "what should we put", "what should i use", "what should we use", "whats going on",
                  "what's going on", "what is going on", "is that the problem", "is this the problem",
                  "the problem here", "telling me", "tell me about", "fix it", "fixes it", "fix this", "usable for",
                  # a tool's bug, the reader's own mistake, whether to touch a setting (must-not batches 15-17):
                  # "known bug? fixed in 0.6.4?", "what did i do wrong", "is the gpu busy or idle", "should i mess with
                  # bucket_cap_mb", "was that bc of the 2.788M gpu hours figure", "should the cp group sit inside nvlink"
                  "known bug", "known issue", "fixed in", "what did i do wrong", "what am i doing wrong", "busy or idle",
                  "mess with", "was that bc", "was that because", "list the problem", "sit inside", "or is spanning",
                  "should i put in"),
    # what asks for no figure even after "how much": "how much does gqa cut …, in words?", "the config.json field that"
    "no_figure": ("in words", "conceptually", "qualitatively", "which field", "which fields", "what field",
                  "config.json field", "json field", "config field"),
    "how_does": ("how does", "how do", "how did", "how is", "how are", "how can", "how would", "how should",
                 "how to", "how do i", "how does one", "in what way"),
    "explain": ("explain", "describe", "walk me through", "intuition", "tell me about", "what happens",
                # what goes wrong, asked of a setup: "what breaks when they get reclaimed", "is something else going on"
                "what breaks", "what goes wrong", "something else going on", "is my file broken", "is it broken"),
    "what_does": ("what does", "what do", "what did", "what's the point", "what is the point", "what is the role",
                  "whats the point", "what's even the point", "whats even the point", "what is even the point",
                  "what's the role", "what is meant"),
    "who": ("who", "whom", "whose"), "which": ("which",), "should": ("should", "shall", "would you", "recommend"),
    "vs": ("vs", "vs.", "versus", "compared to", "compared with", "compare"),
    "difference": ("difference", "differ", "differs", "different", "differences"),
    "mean": ("mean", "means", "meaning", "stand for", "stands for", "definition"),
    "where": ("where", "when"),
    # quantities no calculator computes: a question about one of them is not a calculation
    "outside": ("cost", "costs", "price", "prices", "priced", "pricing", "charge", "charges", "charging",
                "licence", "license", "licensing", "eula", "mau", "monthly active users", "terms of use",
                "write speed", "disk write", "dollar", "dollars", "$", "usd", "cheap",
                "cheaper", "lora", "qlora", "adapter", "adapters", "storage", "read bandwidth", "write bandwidth",
                "read throughput", "write throughput", "ssd", "nvme", "interrupted", "interruption", "interruptions",
                "failure", "failures", "fail", "failed", "requests per second", "requests/s", "qps", "rps",
                "per day", "a day", "calories", "script", "python", "code", "accurate", "accuracy", "good",
                "buy", "rental", "rent", "ship", "ships", "shipped", "how often", "frequency", "mtbf", "tile",
                "tiles", "tiling", "gemm", "matmul", "fusion", "fused", "speculative", "draft",
                "acceptance", "page", "pages", "paged", "block", "blocks", "mig", "traffic", "each stage", "every stage",
                "all stages", "all three stages", "each of the", "how much faster", "how much slower", "how much more",
                "how much less", "how much bigger", "how much smaller", "faster than", "slower than", "more than",
                "less than", "bigger than", "smaller than", "than", "not fit", "what now",
                # advice, not a figure ("what should it take?" asks for the expectation)
                "what should i do", "what should we do", "what should i check", "what should we check",
                "what should i change", "what should we change", "what should i ask", "what should i use",
                "what should we use", "what should i buy", "what should we buy", "what should i pick",
                "what should i choose", "what should i try", "what should a",
                "how many kv heads", "how many heads", "how many layers", "how many experts", "how many parameters",
                "how many params", "hidden size", "hidden dim", "vocab size", "vocabulary", "head dim", "cold start", "cold starts",
                "replica count", "quality", "perplexity", "energy", "power", "watts", "tdp", "temperature", "heat",
                "stall", "stalls", "stalled", "congestion", "s3", "object store", "filesystem", "file system",
                "evaluate", "claim", "claims", "groq", "cerebras", "move per step", "sparse attention",
                "full multi-head", "prefill", "ttft", "time to first token", "queue", "queueing", "goodput",
                "slo", "percentile", "p99", "p50", "wait", "waiting", "cache hit", "hit rate", "hit ratio",
                "prefix caching", "eviction", "swap", "offload", "offloading", 
                "more requests", "how many requests", "how many sequences", "how many users", "sequences fit",
                "users fit", "requests fit", "times faster", "x faster", "speedup", "speed-up", "improvement",
                "reduction", "saving", "savings", "save", "saves", "saved", "waste", "wasted", "fragmentation",
                "what percent", "what percentage", "how many percent", "memory leak", "leak",
                "expected behaviour", "expected behavior", "is this normal", "is that normal", "share of", "fraction of",
                "utilization of",
                "overhead", "bubble",
                "iphone", "ipad", "android", "smartphone", "phone", "laptop", "macbook", "raspberry pi", "mac mini",
                "mac studio", "chromebook"),
}
# Words that are not names even when a number follows them ("batch 32", "tp 8", "over 8 gpus").
_NOT_NAMES = {
    "batch", "tp", "pp", "dp", "context", "ctx", "zero", "stage", "on", "over", "at", "with", "for", "of", "in", "and",
    "across", "to", "by", "from", "x", "the", "a", "an", "is", "are", "k", "m", "b", "t", "per", "each", "top", "n",
    "rank", "ranks", "nodes", "node", "gpus", "gpu", "users", "user", "sequences", "size", "mfu", "step", "steps",
    "layer", "layers", "heads", "head", "dim", "window", "version", "v", "gen", "gb", "mb", "tb", "gib", "kb", "bit",
    "bits", "byte", "bytes", "fp", "bf", "int", "float", "tokens", "token", "days", "hours", "ms", "s", "us",
    "nranks", "ngpus", "world", "phase", "figure", "table", "section", "chapter", "page", "paper", "part", "level",
    "nvlink", "pcie", "ndr", "hdr", "xdr", "infiniband", "roce", "ib", "ici", "sxm", "sxm5", "nvl", "each", "around",
    "about", "only", "just", "than", "under", "within", "up", "all", "has", "have", "had", "get", "gets", "got",
    "way", "year", "years", "q", "e", "r", "p", "h", "l", "c", "d", "f", "g", "i", "j", "o", "u", "w", "y", "z",
}
# Model families: a family word followed by a version is a model name, known to the registry or not.
FAMILIES = _FAMILIES = (
    "llama", "mistral", "mixtral", "deepseek", "qwen", "gemma", "phi", "falcon", "grok", "yi", "olmo", "dbrx",
    "jamba", "nemotron", "kimi", "glm", "chatglm", "snowflake", "command", "bloom", "claude", "gemini", "gpt", "opt", "mpt",
    "starcoder", "codellama", "vicuna", "baichuan", "internlm", "granite", "arctic", "minimax", "ernie", "stablelm",
    "pythia", "mamba", "zephyr", "hermes", "smollm", "exaone", "hunyuan", "codestral", "ministral", "nemo",
    "palm", "chinchilla", "gopher", "megatron", "bert", "t5", "deepseekv3", "qwq", "dsv", "gptoss", "solar",
    "aya", "dolly", "orca", "wizardlm", "openchat", "llava", "pixtral", "magistral", "devstral", "seed",
    "tinyllama", "openllama", "gptj", "gpt-j", "gpt-neox", "neox", "cerebras-gpt", "persimmon", "xgen", "rwkv",
)
# Family names that are also everyday words: a name only with a version or size after them.
_COMMON_WORDS = {"command", "opt", "seed", "solar", "palm", "orca", "aya", "mamba", "hermes", "dolly", "arctic",
                 "granite", "nemo", "phi", "yi", "glm", "mpt", "bloom", "gopher", "chinchilla", "megatron", "bert",
                 "ernie", "gemini", "claude", "gpt", "dsv"}
_NAME_SUFFIXES = {
    "maverick", "scout", "behemoth", "large", "small", "medium", "mini", "nano", "pro", "plus", "ultra", "coder",
    "instruct", "chat", "base", "moe", "turbo", "flash", "lite", "r", "nemo", "air", "max", "preview", "it", "hf",
    "oss", "distill", "vl", "math", "code", "sonnet", "opus", "haiku", "ironwood", "trillium", "sxm", "pcie", "nvl",
    "v", "x", "b", "e", "p", "a", "m", "k", "t", "s", "g", "xs", "se", "ti", "super", "o", "reasoning", "thinking",
    "xtx", "xt", "gre", "spark", "station",
}
_GPU_SHAPE = re.compile(  # a trailing "s" is the plural ("8 a6000s", "inf2s")
    r"^(?:[habv]\d{2,3}[a-z]*|p(?!999)\d{3}|g[bh]\d{3}[a-z]*|gb10|mi\d{1,3}[a-z]*|r\d{3}|m[1-5](?:pro|max|ultra)?|sn\d{2}l?|br\d{3}|wse\d?|"
    r"91\d[a-z]|[lt]\d{1,2}[a-z]?|a\d{1,2}g?|l\d{2}[a-z]?|"
    r"(?:rtx|gtx|geforce|quadro|radeon|rx)(?:pro)?[a-z]?\d{3,4}[a-z]*|tpuv?\d+[a-z]*(?:ironwood|lite)?|"
    r"(?:trainium|trn|inferentia|inf|gaudi|maia|mtia)\d*|ironwood|a\d{4}|rtx\w*|"
    r"p(?:100|40|4|6)|k(?:80|40|20|10)|m(?:60|40|10)|(?:titan|jetson|ascend)\w*)s?$"  # older Teslas; not p50/p99
)
_GPU_WORDS = ("tpu", "trainium", "trn", "inferentia", "gaudi", "rtx", "gtx", "geforce", "radeon", "rx", "instinct", "dgx",
              "rubin", "ipu", "lpu", "wse", "sambanova", "graphcore", "tenstorrent", "wormhole", "blackhole", "biren",
              "mtt", "ponte", "apple", "qualcomm", "cpu", "cpus", "xeon", "epyc",
              "ironwood", "maia", "mtia", "quadro", "titan", "jetson", "ascend", "intel", "kunlun", "kunlunxin", "tesla", "hygon", "cambricon", "etched", "furiosa",
              "rebellions", "d-matrix", "dmatrix", "corsair")
# Parts whose names are ordinary words and a number, which no code shape gives away: said to be unknown
UNLISTED = "unlisted card"  # what a described card that fits no registry part is read as (route/described.py)
UNKNOWN_PARTS = (UNLISTED, *(f"{UNLISTED} of {vendor}" for vendor in ("nvidia", "amd", "intel", "google")),
                 "cloud ai 100", "cloud ai 100 ultra", "cloud ai 080", "data center gpu max", "arc a770",
                 *(f"{chip} {tier}" for chip in ("m1", "m2", "m3", "m4") for tier in ("pro", "max", "ultra")))  # Apple
# a vendor's name among _GPU_WORDS: a part by itself ("intel max 1550"), or a known part's prefix ("intels": typed fast)
_VENDORS = {"intel", "intels"}
# A GeForce card written as its bare number ("on a 3090", "two 4090s"); only where a GPU name can stand
_CONSUMER_NUMBER = re.compile(r"^(?:10[6-8]0|16[56]0|20[6-8]0|30[5-9]0|40[6-9]0|50[6-9]0)$")
_BEFORE_CARD = {"on", "a", "an", "my", "single", "dual", "x", "*", "one", "of", "with", "per", "vs", "or", "and", "can",
                "could", "will", "would", "does", "do", "is", "are"}
# Words after a number that make it a figure, not a card ("4090 tokens", "3090 GB"); "tokens/s" is a rate
_FIGURE_UNITS = {"tokens", "token", "tok", "toks", "ctx", "context", "b", "k", "m", "gb", "mb", "gib", "tb", "params",
                 "parameters", "steps", "users", "sequences", "requests", "ms", "seconds", "days", "words", "layers"}

# Nouns a count can have, and the role each gives it.
COUNT_NOUNS: dict[str, tuple[str, ...]] = {
    "gpus": ("gpu", "gpus", "device", "devices", "accelerator", "accelerators", "chip", "chips", "card", "cards",
             "xpu", "xpus", "graphics", "hoppers", "blackwells"),  # "graphics cards": the number is next to "graphics"
    "ranks": ("rank", "ranks", "process", "processes", "worker", "workers", "participants", "peers"),
    "nodes": ("node", "nodes", "server", "servers", "machine", "machines", "host", "hosts", "box", "boxes", "pc", "pcs",
              "workstation", "workstations", "rig", "rigs", "desktop", "desktops", "instance", "instances"),
    "batch": ("user", "users", "sequence", "sequences", "seqs", "request", "requests", "chat", "chats", "stream",
              "streams", "conversation", "conversations", "session", "sessions", "client", "clients", "prompts",
              "queries", "usr", "usrs", "ppl", "people", "req", "reqs", "slot", "slots", "rollouts", "samples",
              "completions", "convo", "convos", "threads", "traces", "loops", "agents", "trajectories", "dialogs",
              "dialogues", "customers", "visitors", "shoppers", "students", "employees", "callers", "players",
              "analysts", "reviewers", "annotators", "testers"),
}
# Units: the typed word → (kind, pint unit).
_BYTE_UNITS = {
    "b": None, "byte": "B", "bytes": "B", "kb": "kB", "mb": "MB", "gb": "GB", "tb": "TB", "pb": "PB",
    "kib": "KiB", "mib": "MiB", "gib": "GiB", "tib": "TiB", "gig": "GB", "gigs": "GB", "gigabyte": "GB",
    "gigabytes": "GB", "megabyte": "MB", "megabytes": "MB", "terabyte": "TB", "terabytes": "TB",
    "kilobyte": "kB", "kilobytes": "kB", "meg": "MB", "megs": "MB",
    # a size in bits ("a 16 Gbit buffer"); "800 gigabit" is a NIC's speed (a bandwidth)
    "kbit": "kbit", "mbit": "Mbit", "gbit": "Gbit", "tbit": "Tbit",
}
BYTE_WORDS = frozenset(_BYTE_UNITS) - {"b"}  # "b" is also a billion
_MULTIPLIERS = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "mn": 1e6, "b": 1e9, "bn": 1e9,
                "billion": 1e9, "t": 1e12, "trillion": 1e12, "tn": 1e12}
_FLOP_RATES = {"gflops": 1e9, "gflop": 1e9, "tflops": 1e12, "tflop": 1e12, "teraflops": 1e12, "pflops": 1e15, "petaflops": 1e15,
               "tops": 1e12, "pflop": 1e15, "flop": 1.0}  # ("1.6e15 FLOP in total": an amount of work)
_TOKEN_WORDS = ("token", "tokens", "tok", "toks", "tokns")
_PARAM_WORDS = ("param", "params", "parameter", "parameters", "model", "models", "llm", "dense", "network",
                "transformer", "weights")
_DURATIONS = {"day": 1.0, "days": 1.0, "week": 7.0, "weeks": 7.0, "month": 30.0, "months": 30.0,
              "hour": 1 / 24, "hours": 1 / 24, "h": 1 / 24}
_SECONDS = {"ms": 1e-3, "milliseconds": 1e-3, "µs": 1e-6, "us": 1e-6, "microseconds": 1e-6, "ns": 1e-9,
            "nanoseconds": 1e-9, "minutes": 60.0, "min": 60.0, "mins": 60.0}
_SCALE_WORDS = {"hundred", "thousand", "million", "billion", "trillion", "dozen", "couple", "pair", "trio", "single"}
_WORD_NUMBERS = set(w2n.american_number_system) - {"zero", "point"} | {"trillion", "dozen", "couple", "pair", "trio",
                                                                      "single", "a"}
_FEW = {"couple": "two", "pair": "two", "trio": "three"}  # "a couple hundred users", "a trio of seqs"
_FRACTIONS = {"quarter": 0.25, "quarters": 0.25, "third": 1 / 3, "thirds": 1 / 3}  # "a quarter million", "two thirds of"

PRECISIONS: dict[str, tuple[str, ...]] = {
    "fp32": ("fp32", "float32", "f32", "full precision", "32-bit", "32 bit", "fp 32", "single precision"),
    "bf16": ("bf16", "bfloat16", "bfloat 16", "bf 16", "16-bit", "16 bit", "brain float"),
    "fp16": ("fp16", "float16", "f16", "half precision", "half", "fp 16"),
    "fp8": ("fp8", "float8", "e4m3", "e5m2", "fp 8", "fp8 e4m3"),
    "int8": ("int8", "8-bit", "8 bit", "8bit", "int 8", "w8a8", "w8a16", "8-bits", "q8"),
    "int4": ("int4", "4-bit", "4 bit", "4bit", "awq", "gptq", "w4a16", "int 4", "4-bits", "q4"),
    "mxfp4": ("mxfp4", "mx fp4", "mx-fp4", "mxfp 4"),
    "nvfp4": ("nvfp4", "nv fp4", "nv-fp4", "nvfp 4", "fp4"),
}
# Bit widths no calculator holds (GGUF's Q3/Q5/Q6 quants, "6-bit", FP6; "Q3" alone is a quarter): named so that a calculation that needs the
# weights' or the cache's precision says it does not know it, never computes on the default precision
UNHELD_PRECISIONS: dict[str, tuple[str, ...]] = {
    str(bits): (*([f"q{bits}"] if bits > 4 else []), f"{bits}-bit", f"{bits} bit", f"{bits}bit", f"{bits}-bits", f"int{bits}", f"int {bits}",
                f"fp{bits}", f"fp {bits}", f"{bits} bits")
    for bits in (2, 3, 5, 6)
}
OPS: dict[str, tuple[str, ...]] = {
    "all_reduce": ("all-reduce", "allreduce", "all reduce", "all_reduce", "all-reduces", "all-reduced",
                   "all-reducing", "allreduces", "allreducing", "average", "averaging", "psum"),  # (jax.lax.psum)
    "all_gather": ("all-gather", "allgather", "all gather", "all_gather", "all-gathers", "all-gathering",
                   "allgathers", "all-gathered"),
    "reduce_scatter": ("reduce-scatter", "reducescatter", "reduce scatter", "reduce_scatter", "reduce-scatters",
                       "reduce-scattering", "psum_scatter", "psum scatter"),
    "all_to_all": ("all-to-all", "alltoall", "all to all", "all_to_all", "a2a", "alltoallv", "all2all", "all-2-all",
                   "all-to-al", "all to al",
                   "alltoal"),
    "broadcast": ("broadcast", "broadcasts", "broadcasting", "bcast", "sends the same", "send the same",
                  "to all the others"),
    "reduce": ("reduce", "reduces", "reduction to root"),
    "send_recv": ("send/recv", "sendrecv", "send recv", "send-recv", "p2p", "point-to-point", "point to point",
                  "send", "sends", "recv", "peer-to-peer", "handoff", "hand-off", "handoffs", "transfer",
                  "one to one", "one-to-one", "to one other chip", "to one other gpu", "to one other card"),
    "gather": ("gather", "gathers"),
    "scatter": ("scatter", "scatters"),
}
# Words that are verbs as often as they are collectives: a collective only next to a buffer, ranks or a link.
WEAK_OPS = {"reduce", "reduces", "send", "sends", "gather", "gathers", "scatter", "scatters", "handoff", "hand-off",
            "handoffs", "transfer", "average", "averaging", "to all the others"}
STAGES: dict[str, tuple[str, ...]] = {
    "zero_0": ("zero-0", "zero 0", "zero stage 0", "zero0", "stage 0", "ddp", "plain data parallel"),
    "zero_1": ("zero-1", "zero 1", "zero stage 1", "zero1", "stage 1", "zero-one", "zero stage one", "stage one"),
    "zero_2": ("zero-2", "zero 2", "zero stage 2", "zero2", "stage 2", "zero-two", "zero stage two", "stage two"),
    "zero_3": ("zero-3", "zero 3", "zero stage 3", "zero3", "stage 3", "zero-three", "zero stage three",
               "stage three", "zero-infinity"),
    "fsdp_full": ("fsdp", "fsdp full shard", "full shard", "full_shard", "fully sharded", "fully sharded data parallel",
                  "fsdp2", "full sharding"),
    "fsdp_hybrid": ("hsdp", "hybrid shard", "hybrid sharding", "hybrid_shard", "fsdp hybrid", "fsdp hybrid shard",
                    "hybrid-shard", "hybrid-sharded", "hybrid sharded", "hybrid-sharding"),
}


# --- building the pipeline -----------------------------------------------------------------------------


def _tokenizer_nlp():
    nlp = spacy.blank("en")
    nlp.tokenizer.infix_finditer = compile_infix_regex(list(nlp.Defaults.infixes) + list(_INFIXES)).finditer
    nlp.tokenizer.prefix_search = compile_prefix_regex(list(nlp.Defaults.prefixes) + list(_PREFIXES)).search
    return nlp


@dataclass(frozen=True)
class _Phrase:
    label: str
    key: str
    glued: tuple[int, ...]  # offsets of words that must have no space after them ("h100": the "h")


def _phrases(nlp) -> dict[str, tuple[list, _Phrase]]:
    """Every name and word list as PhraseMatcher patterns (match key → pattern docs, what they tag).

    Where a registry spelling glues a letter to a digit ("h100", "a100") the question must too ("a 100 MB"
    is not an A100): that is checked on each match. A GPU's last word may take an "s" ("MI300Xs").
    """
    out: dict[str, tuple[list, _Phrase]] = {}

    def add(label: str, key: str, phrases, glue: bool = False, plural: bool = False):
        for n, phrase in enumerate(phrases):
            doc = nlp.make_doc(_unjoin(phrase.lower()))
            if not len(doc):
                continue
            glued = tuple(t.i for t in doc[:-1] if glue and not t.whitespace_ and t.is_alpha
                          and doc[t.i + 1].text[:1].isdigit())
            docs = [doc]
            if plural and doc[-1].is_alpha:
                docs.append(nlp.make_doc(doc.text + "s"))
            out[f"{label}|{key}|{n}"] = (docs, _Phrase(label, key, glued))

    for label, registry in (("MODEL", models()), ("GPU", gpus()), ("LINK", links())):
        for entry in registry.entries.values():
            spellings = {entry.id, *entry.aliases}
            if "(" not in entry.name:
                spellings.add(entry.name)
            add(label, entry.id, sorted(spellings), glue=True, plural=label == "GPU")
    add("UNKNOWN_GPU", "gpu", UNKNOWN_PARTS, plural=True)
    for key, phrases in PRECISIONS.items():
        add("PRECISION", key, phrases, glue=True)
    for key, phrases in UNHELD_PRECISIONS.items():
        add("UNHELD_PRECISION", key, phrases, glue=True)
    for key, phrases in OPS.items():
        add("COLLECTIVE", key, phrases)
    for key, phrases in STAGES.items():
        add("STAGE", key, phrases)
    for key, phrases in CUES.items():
        add("CUE", key, phrases)
    return out


# "params=2B tokens=2T chips=256": a pasted setting whose key is the figure's noun reads as "2B params" (not a
# count's noun: "128 gpus = 16 nodes", "32 ranks: 120 GB/s")
_KEY_VALUE = re.compile(r"\b(params|parameters|tokens|chips|gpus|cards|nodes|ranks|users|seqs|sequences|requests)"
                        r"\s*[=:][ \t]*(\d[\d.,]*[ \t]?[kmbtKMBT]?)(?![\w.])")  # (not past the line: "nodes: 8\n  gpus…")


def _value_first(m: re.Match) -> str:
    before = m.string[:m.start()].split()
    if before and before[-1].replace(",", "").isdigit():
        return m.group(0)  # the noun of a count before it: "128 gpus = 16 nodes"
    return f"{m.group(2)} {m.group(1)}"


# Papers' notation (a researcher's question): powers written out, and the symbols of the site's formulas
# set to a figure ("s = 4096", "B = 8", "t = 2", "N = 8", "D = 1.8e13") read as the words they stand for.
_TEN_POWER = re.compile(r"(?:(\d+(?:\.\d+)?)\s*[x*·]\s*10\s*\^\s*(\d+)|(?<![\d.])10\s*\^\s*(\d+))(\s*B\b)?")
_TWO_POWER = re.compile(r"(?<![\d.])2\s*\^\s*(\d+)(\s*B\b)?")
_SYMBOLS = [(re.compile(pattern), words) for pattern, words in (
    (r"(?<![\w.])(?:s|L_seq|seq)\s*=\s*(?=\d)", "context "),
    (r"(?<![\w.])[bB]\s*=\s*(?=\d+(?:[\s,;:)?]|$))", "batch "),
    (r"(?<![\w.])t\s*=\s*(?=\d)", "tp "), (r"(?<![\w.])p\s*=\s*(?=\d)", "pp "),
    (r"(?<![\w.])N_d\s*=\s*(?=\d)", "dp "),
    (r"(?<![\w.])D\s*=\s*(\d(?:[\d.,e+]*\d)?)(?![\d.e+]|,\d)(?!\s*(?:tokens|T\b))", r"\1 tokens"),
    (r"(?<![\w.])N\s*=\s*(\d+(?:\.\d+)?[eE](?:[6-9]|1\d))(?![\d.])", r"\1 parameters"),  # "N = 7e9": a model's size
    (r"(?<![\w.])N\s*=\s*(\d[\d,]*)(?=\s*[,;:)?]|\s*$)", r"\1 ranks"),
    (r"(?<![\w.])n\s*=\s*(\d+)(?=\s*[,;:)?$]|\s*$)", r"\1 ranks"),  # "$n = 16$" in a collective's formula
    (r"(?<![\w.])[NSD]\s*=\s*(?=\d)", ""),  # "N = 2.8e11 params", "S = 64 MiB": the figure says what it is
    (r"(?<![\w.])α\s*=\s*(?=\d)", "alpha "), (r"(?<![\w.])β\s*=\s*(?=\d)", "bandwidth "),
    (r"(?<![\w.])η\s*=\s*(?=\d)", "efficiency "),
    (r"(?<![\w.])I\s*=\s*(?=\d)", "intensity "), (r"(?<![\w.])MFU\s*=\s*(?=\d)", "MFU "),
    (r"(?<![\w.])M_w\b", "weights"), (r"(?<![\w.])t_step\b", "step time"),
)]


# Numbers written in other formats: digit groups ("1 000 000", "4 096", "70_000_000_000") and arithmetic
# ("2**15", "16*1024", "4*1024**3 bytes", "8 x 1024 tokens") are the number they make. A space groups digits
# only where it cannot be two numbers ("16 384", "1 000 000", "4 096"; not "tp 8 256 gpus").
_UNDERSCORE_GROUPS = re.compile(r"(?<![\w.])\d{1,3}(?:_\d{3})+(?![\w.])")
_SPACE_GROUPS = re.compile(r"(?<![\w.,])(\d{1,3})((?: \d{3})+)(?![\w]|[.,]\d)")
_ARITHMETIC = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?:\s*(?:(?:\*\*|\^)\s*-?|\*\s*)\d+(?:\.\d+)?)+(?![\w.])")  # ("2^-2")
# code's ways of writing a number: a shift ("1<<30", "3 << 29") and hex ("0x8000")
_SHIFT = re.compile(r"(?<![\w.])(\d+)\s*<<\s*(\d+)(?![\w.])")
_HEX = re.compile(r"(?<![\w.])0x([0-9a-f]+)\b", re.I)
_INTEGER_POWER = re.compile(r"(?<![\w.*])(\d+)\s*\*\*\s*(\d{1,2})(?![\w.*])")  # "2**31" (not inside "4*1024**3")
_TIMES_1024 = re.compile(r"(?<![\w.])(\d+)\s*[x×]\s*1024(?=\s*(?:-?tokens?|tok|ctx|context)\b)|"
                         r"\b(len|seq|of|at) (\d+)\s*[x×]\s*1024\b")


def _grouped(m: re.Match) -> str:
    groups = m.group(2).split()
    if len(groups) > 1 or groups[0].startswith("0") or int(m.group(1)) >= 10:
        return m.group(1) + "".join(groups)
    return m.group(0)


def _evaluated(m: re.Match) -> str:
    """'4*1024**3' → '4294967296' (numbers, *, ** and ^ only: nothing else is evaluated)."""
    parts = re.findall(r"-?\d+(?:\.\d+)?|\*\*|\*|\^", m.group(0))
    numbers = [float(p) for p in parts[0::2]]
    operators = ["**" if p == "^" else p for p in parts[1::2]]
    for i in reversed(range(len(operators))):  # powers first, right to left
        if operators[i] == "**":
            numbers[i:i + 2] = [numbers[i] ** numbers[i + 1]]
            del operators[i]
    value = math.prod(numbers)
    return f"{value:.12g}" if value < 1e15 else f"{value:.6e}"


def _times_1024(m: re.Match) -> str:
    """'8 x 1024 tokens' → '8192 tokens'; 'seq len 8 x 1024' → 'seq len 8192'."""
    return str(int(m.group(1)) * 1024) if m.group(1) else f"{m.group(2)} {int(m.group(3)) * 1024}"


def code_numbers(text: str) -> str:
    """Numbers spelt the way code spells them, as the number they make: "65_536", "1<<30", "0x8000", "2**31"."""
    text = _UNDERSCORE_GROUPS.sub(lambda m: m.group(0).replace("_", ""), text)
    text = _SHIFT.sub(lambda m: str(int(m.group(1)) << int(m.group(2))), text)
    text = _HEX.sub(lambda m: str(int(m.group(1), 16)), text)
    return _INTEGER_POWER.sub(lambda m: str(int(m.group(1)) ** int(m.group(2))), text)


def _numbers_written_out(text: str) -> str:
    text = code_numbers(text)
    text = _SPACE_GROUPS.sub(_grouped, text)
    text = _TIMES_1024.sub(_times_1024, text)
    return _ARITHMETIC.sub(_evaluated, text)


def _notation(text: str) -> str:
    def ten(m: re.Match) -> str:
        figure = f"{m.group(1)}e{m.group(2)}" if m.group(1) else f"1e{m.group(3)}"
        return figure + (" bytes" if m.group(4) else "")

    def two(m: re.Match) -> str:
        return f"{2 ** int(m.group(1))}" + (" bytes" if m.group(2) else "")  # "2^30 B": bytes, not a billion

    text = _numbers_written_out(_TWO_POWER.sub(two, _TEN_POWER.sub(ten, text)))
    # bytes per second with no prefix, as metrics print them: said in GB/s (before "e10" is read as a power)
    text = _BARE_BYTE_RATE.sub(lambda m: f"{float(m.group(1)) / 1e9:g} GB/s", text)
    text = _SIGNED_EXPONENT.sub(lambda m: format(Decimal(m.group(0)), "f"), text)  # "1e-5 s": 0.00001 s
    for pattern, words in _SYMBOLS:
        text = pattern.sub(words, text)
    return text


# a signed exponent, which the hyphen reader would split ("1e-5" is no "1e 5"); "3.8e25" the tokenizer reads
# "38000000000 B/s", "3.8e10 B/s" (whose "e10 B" would read as a size name: 10B parameters)
_DOUBLED_SPACES = re.compile(r"(?<=\S) {2,}(?=\S)")
_BARE_BYTE_RATE = re.compile(r"(?<![\w.])(\d{7,}(?:\.\d+)?|\d+(?:\.\d+)?[eE]\+?\d{1,2})\s*(?:B/s|bytes/s|bytes per second)"
                             r"(?![\w/])")
_SIGNED_EXPONENT = re.compile(r"(?<![\w.])\d+(?:\.\d+)?[eE][-+]\d{1,2}(?![\w.])")
_MODULE_CALL = re.compile(r"\b(?:torch\.distributed|dist|nccl|xm|hvd|jax\.lax|lax)\.(?=[a-z_]+\()")
_FLAG = re.compile(r"(?<!\S)--?(?=[A-Za-z])")  # a command line's "--nnodes", "--max-model-len": read as words
_JOINED = re.compile(r"(?<=[A-Za-z0-9.])[\-_](?=[A-Za-z0-9])")


def _unjoin(text: str) -> str:
    """'llama-3.1-70b' → 'llama 3.1 70b', 'all_reduce' → 'all reduce' (same length: offsets still hold)."""
    return _JOINED.sub(" ", text)


_NETWORK_WORDS = ["ib", "infiniband", "nic", "nics", "ethernet", "port", "ports", "link", "network", "networking"]


def _number_patterns() -> dict[str, list[list[dict]]]:
    """Matcher patterns: a number and what follows it."""
    num = {"NORM": {"IN": [_NUM, _BIG]}}
    joiner = {"ORTH": {"IN": sorted(_JOINERS)}, "OP": "?"}
    multiplier = {"NORM": {"IN": sorted(_MULTIPLIERS)}}
    rate_prefix = {"TEXT": {"REGEX": r"^(?:[kKmMgGtT](?:[bB]|bit|bits|byte|bytes)?|[kmgt]?bps|[KMGT]Bps)$"}}
    per_second = [{"ORTH": "/"}, {"NORM": {"IN": ["s", "s.", "sec", "second"]}}]
    nouns = {noun: {"NORM": {"IN": list(words)}} for noun, words in COUNT_NOUNS.items()}
    # "6 sillytavern chats", "50 beta users": any one word between the number and the sequences it counts
    any_word = {"IS_ALPHA": True, "LENGTH": {">=": 4}, "NORM": {"NOT_IN": sorted(_NOT_NAMES)}}
    return {
        "QUANTITY/bandwidth": [
            [num, rate_prefix, *per_second], [num, {"TEXT": {"REGEX": r"^(?:[kmgtKMGT]bps|[KMGT]Bps)$"}}],
            [num, rate_prefix, {"NORM": "per"}, {"NORM": {"IN": ["second", "sec", "s"]}}],
            [num, {"LOWER": {"IN": sorted(_SPELLED_RATES)}}, {"NORM": {"IN": ["per", "a"]}},
             {"NORM": {"IN": ["second", "sec", "s"]}}],
            # "800 gigabit" (a NIC's speed: bits per second), "400 gigabit ethernet"
            [num, {"LOWER": {"IN": ["gigabit", "terabit"]}}],
            [num, {"TEXT": {"REGEX": "^[gG]$"}, "SPACY": True}, {"NORM": {"IN": _NETWORK_WORDS}}],
            [num, {"TEXT": {"REGEX": "^[gG]$"}}],
        ],
        "QUANTITY/bytes": [[num, {"NORM": {"IN": [u for u in _BYTE_UNITS if u != "b"]}}]],
        "QUANTITY/tokens": [
            [num, multiplier, joiner, {"NORM": {"IN": list(_TOKEN_WORDS)}}],
            [num, joiner, {"NORM": {"IN": list(_TOKEN_WORDS)}}],
            [num, {"NORM": {"IN": ["k", "m", "thousand", "million"]}}],
        ],
        "QUANTITY/params": [
            [num, multiplier, joiner, {"NORM": {"IN": list(_PARAM_WORDS)}}],
            [{"NORM": _BIG}, joiner, {"NORM": {"IN": list(_PARAM_WORDS)}}],
            [num, {"NORM": {"IN": ["b", "bn", "billion", "t", "trillion"]}}],
        ],
        "QUANTITY/percent": [[num, {"NORM": {"IN": ["%", "percent", "pct"]}}],
                             [num, {"NORM": "per"}, {"NORM": "cent"}]],  # ("seventy per cent")
        "QUANTITY/flop_per_byte": [
            [num, {"NORM": {"IN": ["flop", "flops", "ops", "op"]}}, {"NORM": {"IN": ["/", "per"]}},
             {"NORM": {"IN": ["b", "byte"]}}],
        ],
        # a compute peak ("989 TFLOPS", "3,958 teraFLOPS"): no calculator takes one, the answer says it was not used
        "QUANTITY/flop_rate": [[num, {"NORM": {"IN": sorted(_FLOP_RATES)}}]],
        "QUANTITY/days": [[num, joiner, {"NORM": {"IN": list(_DURATIONS)}}]],
        "QUANTITY/seconds": [[num, {"NORM": {"IN": ["ms", "s", "sec", "secs", "seconds", "µs", "us", "milliseconds",
                                                  "microseconds", "ns", "nanoseconds", "minutes", "min", "mins"]}}]],
        **{f"COUNT/{noun}": [[num, joiner, pattern], [num, {"NORM": {"IN": ["concurrent", "parallel", "simultaneous",
                                                                             "active", "separate", "different",
                                                                             "total", "open", "live", "running",
                                                                             "ongoing"]}}, pattern]]
                             + ([[num, any_word, pattern]] if noun == "batch" else [])
           for noun, pattern in nouns.items()},
        "COUNT/way": [[num, joiner, {"NORM": "way"}]],
    }


@lru_cache(maxsize=1)
def _pipeline():
    from spacy.matcher import PhraseMatcher

    nlp = _tokenizer_nlp()
    phrases = _phrases(nlp)
    names = PhraseMatcher(nlp.vocab, attr="NORM")
    for key, (docs, _) in phrases.items():
        names.add(key, docs)
    numbers = Matcher(nlp.vocab)
    for key, patterns in _number_patterns().items():
        numbers.add(key, patterns)
    kinds = {nlp.vocab.strings[key]: phrase for key, (_, phrase) in phrases.items()}
    return nlp, names, kinds, numbers


@lru_cache(maxsize=1)
def _outside_words() -> frozenset[str]:
    return frozenset(w for phrase in CUES["outside"] for w in phrase.lower().split())


@lru_cache(maxsize=1)
def _known_words() -> frozenset[str]:
    return frozenset(_typo_vocabulary())


_COUNTED = frozenset(w for nouns in COUNT_NOUNS.values() for w in nouns)


@lru_cache(maxsize=1)
def _typo_vocabulary() -> tuple[str, ...]:
    words = set(_FAMILIES)
    for phrases in (*CUES.values(), *OPS.values(), *COUNT_NOUNS.values()):  # (COUNT_NOUNS: "24 sesions")
        for phrase in phrases:
            words.update(w for w in re.split(r"[\s\-_/]+", phrase.lower()) if len(w) >= 5 and w.isalpha())
    words |= {"allreduce", "allgather", "reducescatter", "alltoall", "sendrecv", "bandwidth", "tokens"}
    return tuple(sorted(words - {"outside"}))


@lru_cache(maxsize=1)
def _units():
    import pint

    return pint.UnitRegistry()


@lru_cache(maxsize=64)
def unit_factor(unit: str, base: str) -> float:
    """How many `base` one `unit` is (pint; cached: the same few units come back in every question)."""
    return float(_units().Quantity(1, unit).to(base).magnitude)


# --- tagging ---------------------------------------------------------------------------------------------------


def _typed_form(question: str) -> str:
    """The question as the tagger reads it, each step undoing one way readers write."""
    text = without_options(question)  # a quiz item's answer options
    text = as_fields(text)  # a pasted table's row, field by field
    text = with_run_settings_as_tokens(text)  # "--train-iters 50000 --global-batch-size 1024 --seq-length 4096"
    text = as_stated(text)  # pasted tool output and command lines
    text = without_log_figures(text)  # pasted logs and error messages
    # spaces typed twice or left where an emoji was ("16  users"): one space, or a count is cut from its noun (not in
    # a table's row, whose columns runs of spaces part: "|   0  NVIDIA H100 …" is no count of 0 H100s)
    if "  " in text:
        text = "\n".join(line if "|" in line else _DOUBLED_SPACES.sub(" ", line) for line in text.split("\n"))
    text = text.replace("×", "x").replace("–", "-").replace("—", "-").replace("’", "'")
    text = as_keyed(text)  # a phone keyboard's split names and glued commas
    text = mended(text)  # short names typed with one slip: "itn8", "qwn2.5", "rtz 5090", "h200d"
    text = with_compounds_unpacked(text)  # "a 70-billion-parameter llama 3.1", "two 8-GPU nodes"
    text = as_registered(text)  # "the 405", "amd's 300x", "sxm h100s"
    text = with_run_tokens(text)  # "global batch 4M tokens for 30k steps", "3 epochs of a 1T-token corpus"
    text = in_english(text)  # other languages' words and number formats
    text = written(text)  # dictation
    text = with_generations_as_digits(text)  # "intels gaudi three"
    text = as_digits(text)  # figures in words the number reader does not take: "zero point three", "two-fifty-six"
    text = spelled_out(text)  # terse shorthand
    text = as_read(text)  # pasted spec-sheet lines
    if _RARE_PHRASES.search(text):  # (one scan for the usual question, which has none of these)
        text = _FLOPS_PER_BIT.sub(_per_byte, text)  # "12.5 FLOP per bit", "2 FLOPs for every 16 bits"
        text = _MEMORY_TRAFFIC.sub(r"\1 reads", text)  # "DRAM traffic" is memory reads, not traffic to a service
        text = _FROM_ONE_SOURCE.sub("", text)  # "broadcast 1.5 GB from one chip to all 8": the source is no count
        text = _RUN_OUT_TO.sub("grow to", text)  # "if all 12 seqs run out to 131072 tokens": no "will it run"
        text = _CAPPED_COUNT.sub("", text)  # "we cap it at 24 slots": a count, no roofline's cap
        text = _FREE_LUNCH.sub("bargain", text)  # "is mla a free lunch?": an idiom, no free memory asked
    text = _notation(text)  # papers' notation, powers, digit groups, arithmetic
    text = _KEY_VALUE.sub(_value_first, _FLAG.sub("", text))  # command lines and pasted settings
    text = _MODULE_CALL.sub(" ", text)  # "dist.all_reduce(buf)": the collective, not "dist.all" and a reduce
    text = _CHOSEN_SIDE.sub(_chosen_side, text)  # "fp8 vs bf16 - just give me the fp8 one"
    text = _AGAINST_PEAK.sub(r"at the \g<precision>peak", text)  # "mfu 0.3 (vs the fp8 peak)": no comparison
    text = _GRADIENT_SYNC.sub(r"all-reduce \g<what>", text)  # "sync the fp32 gradients"
    text = _OF_THESE.sub(_these_gpus, text)  # "L40S, 48 GB … i have 4 of these"
    text = _OF_THEM_COUNTED.sub(r"\g<noun>, \g<n> \g<noun>", text)  # "reasoning traces, 20 of them at 64k each"
    text = _FOR_CONTEXT.sub(" ", text)  # "for context: a100 40gb, …" gives no context length
    text = _UNIT_THEN_STOP.sub(r"\1 .", text)  # "per-user tok/s." ends a sentence: the unit is "tok/s"
    text = _FEW_OF.sub(r"\1 ", text)  # "a couple of chats", "a pair of nodes": the count, next to its noun
    text = _TOKEN_PREFIX.sub(_tokens_written_out, text)  # "100 kilotokens", "a 1-megatoken context", "2 Mtok"
    return _unjoin(text)


# "a couple of chats", "a trio of seqs", "two dozen of the h100s" (never "a couple of the …": those are some of them)
_FEW_OF = re.compile(r"\b((?:a\s+)?(?:couple|pair|trio|dozen)|(?:two|three|four|half a)\s+dozen)\s+of\s+"
                     r"(?!the\b|that\b|those\b|these\b|its\b|their\b|our\b|my\b)", re.I)

# tokens with an SI prefix: "100 kilotokens" is 100,000 tokens ("16k-token" keeps its 1,024s), "2 Mtok" 2,000,000
_TOKEN_PREFIX = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*-?\s*(kilo|mega|giga|m|g)(?:-?tokens?|toks?)\b", re.I)


def _tokens_written_out(m: re.Match) -> str:
    scale = {"kilo": 1e3, "k": 1e3, "mega": 1e6, "m": 1e6, "giga": 1e9, "g": 1e9}[m.group(2).lower()]
    return f"{float(m.group(1)) * scale:.0f} tokens"


# a rate's unit, a unit or a name with a letter after its number at a sentence's end ("tok/s.", "256 MiB.",
# "the mi300a."), which the tokenizer would read as one abbreviation ("MiB.", "a.")
_UNIT_THEN_STOP = re.compile(r"(/[A-Za-z]{1,4}|\b[KMGTP]i?B|\b[A-Za-z]*\d+[A-Za-z]{1,3})\.(?=\s|$)")

_FOR_CONTEXT = re.compile(r"\b(?:for|some|more|a bit of)\s+(?:some\s+)?context\s*[:—–-]", re.I)

# an arithmetic intensity per bit, or per so many bytes: said per byte, as the roofline takes it
_FLOPS_PER_BIT = re.compile(r"(?P<flops>\d+(?:\.\d+)?)\s*FLOPs?\s+(?:per|for\s+every|for\s+each|/)\s*"
                            r"(?:(?P<n>\d+)\s*)?(?P<unit>bits?\b|bytes?\b)", re.I)


_FROM_ONE_SOURCE = re.compile(r"\bfrom\s+(?:one|a single|a|1|rank 0's|rank 0|the root)\s*(?:gpu|chip|card|rank|device|"
                              r"node|tpu|accelerator)?s?\s+(?=to\s+(?:all|every|each|the other|\d))", re.I)
_RUN_OUT_TO = re.compile(r"\bruns?\s+out\s+to\b", re.I)
_CAPPED_COUNT = re.compile(r"\bcaps?\s+(?:it|them|us|that)\s+at\s+(?=[\w-]+(?:\s+[\w-]+)?\s+(?:concurrent|concurent|slots?|"
                           r"users?|seqs?|sequences?|requests?|chats?|streams?)\b)", re.I)
_RARE_PHRASES = re.compile(r"\b(?:bits?|traffic|from|run|runs|cap|caps|lunch)\b", re.I)
_FREE_LUNCH = re.compile(r"\bfree\s+lunch\b", re.I)
_MEMORY_TRAFFIC = re.compile(r"\b(dram|hbm|memory|gmem|vram)\s+traffic\b", re.I)


def _per_byte(m: re.Match) -> str:
    bits = m.group("unit").lower().startswith("bit")
    if not bits and not m.group("n"):
        return m.group(0)  # "60 FLOP per byte": as the tagger reads it
    per_byte = float(m.group("flops")) / (float(m.group("n") or 1) / (8 if bits else 1))
    return f"{per_byte:.6g} FLOP/byte"


# "<the card's spec> … i have 4 of these", "weights split over 8 of them": the part named, that many times
_OF_THESE = re.compile(r"\b(?P<n>\d+)\s+of\s+(?:these|those)\b(?!\s+(?:nodes|servers|boxes|racks|machines)\b|"
                       r"\s+(?:concurrently|at\s+once|in\s+flight|in\s+parallel|simultaneously|at\s+a\s+time)\b)"
                       r"|(?:(?<=over )|(?<=onto )|(?<=across ))(?P<m>\d+)\s+of\s+them\b", re.I)

def _these_gpus(m: re.Match) -> str:
    if _HOLDS_BEFORE.search(m.string, 0, m.start()):
        return m.group(0)  # "the NVL72 rack holds 72 of these": what a rack holds, not the GPUs in use
    return f"{m.group('n') or m.group('m')} GPUs"


_HOLDS_BEFORE = re.compile(r"\b(?:holds|has|contains|houses|takes|fits|carries|packs)\s+$", re.I)


# what "N of them" counts, named just before it: "r1 reasoning traces, 20 of them at 64k each" is 20 traces
_OF_THEM_COUNTED = re.compile(r"\b(?P<noun>(?:traces|requests|sequences|sessions|chats|conversations|prompts|users|"
                              r"streams|rollouts|agents|documents|queries)),?\s+(?P<n>\d+)\s+of\s+them\b", re.I)

# syncing gradients across data-parallel ranks is an all-reduce (syncing weights to another engine is not)
_GRADIENT_SYNC = re.compile(r"\bsync(?:ing|hroni[sz]e|hroni[sz]ing)?\s+(?P<what>(?:[\w-]+\s+){0,3}?(?:gradients|grads)\b)",
                            re.I)

# "(vs the fp8 peak)", "versus bf16 peak": the peak an MFU is measured against, not two things compared
_AGAINST_PEAK = re.compile(r"\b(?:vs\.?|versus|against)\s+(?:the\s+)?(?P<precision>(?:[\w.-]+\s+)?)(?:dense\s+)?peak\b", re.I)

# "A vs B … just give me the A one": a comparison the reader narrows to one side, so one calculation is asked
_CHOSEN_SIDE = re.compile(r"\b(?P<a>[\w.-]+)\s+(?:vs\.?|versus)\s+(?P<b>[\w.-]+)(?P<rest>[^.?!]*?\b(?:just|only)\b"
                          r"[^.?!]*?\bthe\s+(?P<chosen>[\w.-]+)\s+(?:one|number|figure|value)\b)", re.I)


def _chosen_side(m: re.Match) -> str:
    side = {m["a"].lower(): m["a"], m["b"].lower(): m["b"]}.get(m["chosen"].lower())
    return m[0] if side is None else side + m["rest"]


def tag(question: str) -> Reading:
    """The question's tags, in reading order."""
    nlp, names, kinds, numbers = _pipeline()
    doc = nlp.make_doc(_typed_form(question))
    _merge_number_words(doc)
    _mend_typos(doc)
    tags = [_variant(doc, t) for t in _phrase_tags(doc, names, kinds) if not _figure_not_card(doc, t)]
    tags = _without_swallowed(tags)
    covered = {i for t in tags for i in range(t.start, t.end)}
    tags += _name_tags(doc, covered, {t.start for t in tags if t.label == "GPU"})
    tags += _consumer_cards(doc, {i for t in tags for i in range(t.start, t.end)})
    tags += _number_led_codes(doc, {i for t in tags for i in range(t.start, t.end)})
    tags += _unknown_sized_models(doc, {i for t in tags for i in range(t.start, t.end)})
    # a figure's unit may also be a cue word ("30 days", "50 flop/byte"): the figure wins that word
    named = {i for t in tags if t.label != "CUE" for i in range(t.start, t.end)}
    cue_spans = [(t.start, t.end) for t in tags if t.label == "CUE"]
    figures = _number_tags(doc, numbers, named, cue_spans)
    inside = [(f.start, f.end) for f in figures]
    tags = [t for t in tags if not (t.label == "CUE" and any(a <= t.start and t.end <= b for a, b in inside))]
    money = {t.end for t in tags if t.label == "CUE" and t.text == "$"}
    tags += [f for f in figures if f.start not in money]  # "$40k/month" is money, never a token count or size
    tags = _without_devices_named_by_chip(_without_generic_families(_distills(doc, _memory_first_variants(doc, tags))))
    tags.sort(key=lambda t: (t.start, -t.end))
    return Reading(question, [t.norm_ for t in doc], with_parts_added(doc, tags))


def _memory_first_variants(doc: Doc, tags: list[Tag]) -> list[Tag]:
    """"those 40 GB A100s", "an 80GB H100": a memory written just before a part names its variant, when the
    registry holds that variant (otherwise the figure stays what it was: "40 GB of H100 memory")."""
    out, ordered = list(tags), sorted(tags, key=lambda t: (t.start, -t.end))
    for size, part in zip(ordered, ordered[1:]):
        if not (size.label == "QUANTITY" and size.key == "bytes" and part.label == "GPU" and part.start == size.end):
            continue
        number = re.match(r"\d+", size.text)
        spec = find_gpu(f"{doc[part.start:part.end].text} {number.group()}gb") if number else None
        if spec is not None:
            typed = doc[size.start:part.end].text
            out = [t for t in out if t is not size and t is not part]
            out.append(Tag("GPU", spec.id, size.start, part.end, typed, note=_reading_note("GPU", typed, spec.id)))
    return out


def _distills(doc: Doc, tags: list[Tag]) -> list[Tag]:
    """"DeepSeek-R1-Distill-Llama-70B": a model distilled into another is neither of them — a model the registry
    lacks (read as typed, R1 itself was computed)."""
    models = [t for t in tags if t.label in ("MODEL", "UNKNOWN_MODEL")]
    for first, second in zip(models, models[1:]):
        if second.start - first.end == 1 and doc[first.end].lower_ in ("distill", "distilled"):
            merged = Tag("UNKNOWN_MODEL", "model", first.start, second.end, doc[first.start:second.end].text)
            return _distills(doc, [merged if t is first else t for t in tags if t is not second])
    return tags


_DEVICES = {"mac studio", "macbook", "mac mini", "laptop"}


def _without_devices_named_by_chip(tags: list[Tag]) -> list[Tag]:
    """"a mac studio M3 Ultra": the device names its chip, a part the registry lacks (an unknown GPU, said so), not a
    question about phones and laptops the calculators leave out."""
    chips = [t for t in tags if t.label == "UNKNOWN_GPU"]
    return [t for t in tags if not (t.label == "CUE" and t.key == "outside" and t.text.lower() in _DEVICES
                                    and any(abs(c.start - t.end) <= 2 or abs(t.start - c.end) <= 2 for c in chips))]


def _without_generic_families(tags: list[Tag]) -> list[Tag]:
    """"how long on tpus? … 4,096 tpu v5p chips": a family said bare ("tpus", "gaudis") is the part the message
    names of that family, no unknown part (said bare with none named, it stays unknown: no silent default)."""
    named = {re.match(r"[a-z]*", t.key).group() for t in tags if t.label == "GPU"}  # "tpu", "trainium", "gaudi"
    return [t for t in tags if not (t.label == "UNKNOWN_GPU" and not re.search(r"\d", t.text)
                                    and t.text.lower().rstrip("s") in named)]


def _phrase_tags(doc: Doc, matcher, kinds: dict) -> list[Tag]:
    spans = []
    for match_id, start, end in matcher(doc):
        kind = kinds[match_id]
        if all(not doc[start + k].whitespace_ for k in kind.glued if start + k < end):
            spans.append(Span(doc, start, end, label=kind.label, kb_id=kind.key))
    # a cue whose last word begins a part's name is not that cue: "how many gb200" is not "how many gb"
    names = {span.start for span in spans if span.label_ in ("GPU", "MODEL")}
    spans = [span for span in spans if not (span.label_ == "CUE" and span.end - 1 in names and len(span) > 1)]
    spans = [span for span in spans if not _says_a_length(doc, span) and not _host_memory(doc, span)
             and not _resumed_from(doc, span)]
    precisions = {span.start: span for span in spans if span.label_ == "PRECISION"}
    tags = []
    for span in filter_spans(spans):
        note = _reading_note(span.label_, span.text, span.kb_id_) if span.label_ in ("MODEL", "GPU", "LINK") else ""
        inner = precisions.get(span.start) if span.label_ == "CUE" else None
        if inner is not None and inner.end < span.end:  # "at fp8 peak": the precision, and the cue after it
            tags.append(Tag("PRECISION", inner.kb_id_, inner.start, inner.end, inner.text))
            tags.append(Tag("CUE", span.kb_id_, inner.end, span.end, doc[inner.end:span.end].text))
            continue
        tags.append(Tag(span.label_, span.kb_id_, span.start, span.end, span.text, note=note))
    return tags


# what runs to a length: "traces run 20k tokens", "our prompts run about 2k" ("can we run 8 users" still runs)
_RUN_TO_A_LENGTH = {"traces", "prompts", "requests", "sessions", "conversations", "chats", "docs", "documents",
                    "contexts", "sequences", "transcripts", "threads", "inputs", "outputs", "answers", "completions"}


def _host_memory(doc: Doc, span: Span) -> bool:
    """"from host memory", "host RAM": the CPU side's memory, not hosting a model."""
    return (span.label_ == "CUE" and span.text.lower() == "host" and span.end < len(doc)
            and doc[span.end].lower_ in ("memory", "ram", "dram", "cpu", "side", "dimms"))


def _resumed_from(doc: Doc, span: Span) -> bool:
    """"training Llama 3.1 8B from a checkpoint", "resumed from the last checkpoint": where a run starts, not a
    checkpoint's size asked."""
    if span.label_ != "CUE" or span.kb_id_ != "checkpoint":
        return False
    before = [t.lower_ for t in doc[max(span.start - 3, 0):span.start]]
    return "from" in before[-2:] or bool({"resume", "resumed", "resuming", "restart", "restarted", "restore",
                                          "restored", "restoring", "load", "loaded", "loading"} & set(before))


def _says_a_length(doc: Doc, span: Span) -> bool:
    """The "run" cue said of how long things are, not of running a model."""
    if span.label_ != "CUE" or span.kb_id_ != "run" or span.start == 0:
        return False
    if doc[span.start - 1].lower_ not in _RUN_TO_A_LENGTH and doc[span.start - 1].lower_ != "each":
        return False  # ("each serving 24 chats": what each replica carries, not whether it can)
    after = doc[span.end:span.end + 3]
    return any(t.like_num for t in after)


def _merge_number_words(doc: Doc) -> None:
    """Give every number its value; runs of number words ("sixty-four", "a million") become one token."""
    runs: list[tuple[int, int, float]] = []
    tokens = list(doc)  # read from one list: indexing a Doc builds a new Token every time
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if _scientific(tokens, i):  # "3e11 tokens", "3.8e25 FLOPs": the tokenizer split it in three
            runs.append((i, i + 3, float("".join(part.text for part in tokens[i:i + 3]))))
            i += 3
            continue
        if t.like_num and t.text[:1].isdigit():
            try:
                _set_value(t, float(t.text.replace(",", "")))
            except ValueError:
                pass
            i += 1
            continue
        j = i
        if t.lower_ == "half" and i + 1 < len(tokens) and tokens[i + 1].lower_ in ("a", "an"):
            scale = _words_value([tokens[i + 2].lower_]) if i + 2 < len(tokens) and tokens[i + 2].lower_ in _SCALE_WORDS else None
            end = i + 3 if scale else i + 2
            runs.append((i, end, 0.5 * (scale or 1.0)))  # "half a gigabyte", "half a million tokens"
            i = end
            continue
        if (fraction := _fraction(tokens, i)) is not None:  # "a quarter million tokens", "three quarters of its peak"
            runs.append(fraction)
            i = fraction[1]
            continue
        if t.lower_ in _SCALE_WORDS and i and _value(tokens[i - 1]) is not None and tokens[i - 1].text[:1].isdigit():
            i += 1  # "15 trillion tokens": the word is the number's multiplier
            continue
        if t.lower_ == "a" and not (i + 1 < len(tokens) and tokens[i + 1].lower_ in _SCALE_WORDS):
            i += 1
            continue
        while j < len(tokens) and (tokens[j].lower_ in _WORD_NUMBERS - {"a"} or (tokens[j].text in _JOINERS and j > i)
                                or (j == i and tokens[j].lower_ == "a") or _and_inside_number(tokens, i, j)):
            j += 1
        while j > i and (tokens[j - 1].text in _JOINERS or tokens[j - 1].lower_ == "a"):
            j -= 1
        value = _words_value([w.lower_ for w in tokens[i:j] if w.text not in _JOINERS and w.lower_ != "and"]) if j > i else None
        if value is not None:
            runs.append((i, j, value))
            i = j
        else:
            i += 1
    with doc.retokenize() as retokenizer:
        for start, end, _ in runs:
            if end - start > 1:
                retokenizer.merge(doc[start:end])
    for start, end, value in reversed(runs):
        # after merging, the run is one token at the position the earlier merges left it
        shift = sum(e - s - 1 for s, e, _ in runs if e <= start)
        _set_value(doc[start - shift], value)


def _fraction(doc: Sequence[Token], i: int) -> tuple[int, int, float] | None:
    """'a quarter million' (250,000), 'three quarters of' (0.75), 'two thirds of' (0.667): a fraction of a scale
    word, or of whatever follows 'of'; None for any other word ("a quarter" alone is left to its context)."""
    count = {"a": 1.0, "one": 1.0, "two": 2.0, "three": 3.0}.get(doc[i].lower_)
    if count is None or i + 1 >= len(doc) or doc[i + 1].lower_ not in _FRACTIONS:
        return None
    share = count * _FRACTIONS[doc[i + 1].lower_]
    after = doc[i + 2].lower_ if i + 2 < len(doc) else ""
    if after in ("million", "billion", "trillion", "thousand"):
        return i, i + 3, share * _MULTIPLIERS[after]
    return (i, i + 2, share) if after == "of" else None


def _scientific(doc: Sequence[Token], i: int) -> bool:
    """Tokens i..i+2 are one number in scientific notation, glued: "3", "e", "11" (not inside a code such as
    "stablelm-3b-4e1t", where a hyphen glued before or a letter glued after makes it part of a name)."""
    if not (i + 2 < len(doc) and doc[i + 1].lower_ == "e"):  # the cheap test first: this runs at every token
        return False
    in_a_name = (i and doc[i - 1].text == "-" and not doc[i - 1].whitespace_) or (
        i + 3 < len(doc) and not doc[i + 2].whitespace_ and doc[i + 3].is_alpha)
    return (doc[i].like_num and doc[i].text[:1].isdigit() and not doc[i].whitespace_
            and not doc[i + 1].whitespace_ and doc[i + 2].text.isdigit() and not in_a_name)


def _and_inside_number(doc: Sequence[Token], i: int, j: int) -> bool:
    """'four hundred and five', 'one point five': the 'and' after a hundred, or a 'point' between two number
    words, is part of the number."""
    joins = (doc[j].lower_ == "and" and doc[j - 1].lower_ in _SCALE_WORDS) or doc[j].lower_ == "point"
    return j > i and joins and j + 1 < len(doc) and doc[j + 1].lower_ in _WORD_NUMBERS - {"a"}


def _words_value(words: list[str]) -> float | None:
    if not words or words == ["a"]:
        return None
    if words in (["single"], ["a", "single"]):
        return 1.0
    if words[-1] in _FEW:
        return float(w2n.word_to_num(_FEW[words[-1]]))
    words = [_FEW.get(w, w) for i, w in enumerate(words) if not (w == "a" and words[i + 1:i + 2] and words[i + 1] in _FEW)]
    if words[-1] == "dozen":
        return 12.0 * (_words_value(words[:-1]) or 1.0)
    if "trillion" in words:
        k = words.index("trillion")
        head = _words_value(words[:k]) or 1.0
        tail = _words_value(words[k + 1:]) or 0.0
        return head * 1e12 + tail
    words = ["one" if w == "a" else w for w in words]
    if words and words[0] in _MULTIPLIERS:  # "thousand five hundred tokens": a thousand five hundred
        words = ["one", *words]
    if "point" in words and words[-1] in ("thousand", "million", "billion"):  # w2n reads "one point five billion" as 1
        head = _words_value(words[:-1])
        return head * _MULTIPLIERS[words[-1]] if head is not None else None
    if any(w not in w2n.american_number_system for w in words):
        return None
    try:
        return float(w2n.word_to_num(" ".join(words)))
    except (ValueError, IndexError):  # (word2number raises IndexError on some runs it cannot read)
        return None


def _mend_typos(doc: Doc) -> None:
    """A misspelt domain word gets its intended spelling as its NORM (same first letter, ≥ 85% alike)."""
    for t in doc:
        if len(t.lower_) >= 5 and t.is_alpha and (mended := _mended_word(t.lower_)) is not None:
            t.norm_ = mended


@lru_cache(maxsize=8192)
def _mended_word(word: str) -> str | None:
    """The domain word a misspelt word stands for, or None (cached: readers repeat their words)."""
    if word in _known_words():
        return None
    hit = process.extractOne(word, _typo_vocabulary(), scorer=fuzz.ratio, score_cutoff=85)
    if hit is None:  # two letters swapped ("gahter") is one slip, though the ratio counts it as two
        hit = process.extractOne(word, _typo_vocabulary(), scorer=OSA.distance, score_cutoff=1)
        hit = hit if hit and sorted(hit[0]) == sorted(word) else None
    if hit and hit[0][0] == word[0] and not (word.startswith(hit[0]) or hit[0].startswith(word)):
        if (hit[0] in _outside_words() or hit[0] in _COUNTED) and word in english_words():
            return None  # "filed" is a word, not a misspelt "failed" that would send the question elsewhere; "serves"
            # is no misspelt "servers" that would count nodes
        return hit[0]
    return None


@lru_cache(maxsize=1024)
def _reading_note(label: str, typed: str, entry_id: str) -> str:
    """'“llama 3.3 70b” read as Llama 3.1 70B' when the typed name is not the entry's own."""
    from calculators.registry import name_key

    spec = {"MODEL": models, "GPU": gpus, "LINK": links}[label]().entries[entry_id]
    key = name_key(typed).rstrip("s") if label == "GPU" else name_key(typed)
    if key in (name_key(spec.id), name_key(spec.name), name_key(spec.name).rstrip("s")):
        return ""
    return f"“{typed.strip()}” read as {spec.name}"


def _number_tags(doc: Doc, matcher: Matcher, covered: set[int], cues: list[tuple[int, int]]) -> list[Tag]:
    """QUANTITY and COUNT spans (a number and its unit or noun), and the bare NUMBERs left over.

    A figure may swallow a cue word whole ("30 days") but not cut one in half ("15 tokens per second").
    """
    for t in doc:
        if t.i not in covered and _value(t) is not None:
            t.norm_ = _BIG if _value(t) >= 1e6 else _NUM
    spans = []
    for match_id, start, end in matcher(doc):
        if any(i in covered for i in range(start, end)):
            continue
        if any(a < end and start < b and not (start <= a and b <= end) for a, b in cues):
            continue
        if any(doc[k].text in ("-", "–") and doc[k - 1].whitespace_ for k in range(start + 1, end)):
            continue  # "at mfu 0.25 - days?": a dash between clauses, not the hyphen of "10-day"
        label = doc.vocab.strings[match_id]
        if (label.startswith("COUNT") and start and len(doc[start - 1]) == 1 and doc[start - 1].is_alpha
                and not doc[start - 1].whitespace_):
            continue  # "r1 reasoning traces": the digit ends a name, it counts nothing
        spans.append(Span(doc, start, end, label=label))
    tags = []
    taken: set[int] = set()
    for span in filter_spans(spans):
        made = _quantity(span)
        if made is not None:
            tags.append(made)
            taken.update(range(span.start, span.end))
    in_cue = {i for a, b in cues for i in range(a, b)}
    for t in doc:
        if _value(t) is not None and t.i not in covered and t.i not in taken and t.i not in in_cue:
            tags.append(Tag("NUMBER", "number", t.i, t.i + 1, t.text, _value(t)))
    return tags


def _next_norm(span: Span) -> str:
    return span.doc[span.end].norm_ if span.end < len(span.doc) else ""


def _quantity(span: Span) -> Tag | None:
    label, kind = span.label_.split("/")
    number = _value(span[0])
    words = [t.norm_ for t in span[1:] if t.text not in _JOINERS]
    texts = [t.text for t in span[1:] if t.text not in _JOINERS]
    unit = " ".join(texts)
    value = number
    if label == "COUNT":
        return Tag("COUNT", kind, span.start, span.end, span.text, number, unit)
    if kind == "bytes" and words[0] in ("gig", "gigs") and _next_norm(span) in _NETWORK_WORDS:
        # "400 gig ethernet" is a link's speed: gigabits per second (the link's name is tagged apart)
        return Tag("QUANTITY", "bandwidth", span.start, span.end, span.text, number * 1e9 / 8, unit)
    if kind == "bytes":
        value = number * unit_factor(_BYTE_UNITS[words[0]], "B")
    elif kind == "flop_rate":
        value = number * _FLOP_RATES[words[0]]
    elif kind == "bandwidth":
        factor, reading = _rate(texts)
        value = number * factor
        doc = span.doc
        if counts_both_ways(doc[max(0, span.start - 2):min(len(doc), span.end + 2)].text):
            return Tag("QUANTITY", kind, span.start, span.end, span.text, value / 2, unit,
                       note=f"“{span.text}” counts both directions: {value / 2e9:g} GB/s each way used")
        if reading:
            return Tag("QUANTITY", kind, span.start, span.end, span.text, value, unit,
                       note=f"“{span.text}” read as bytes per second ({number:g} GB/s; Gb/s would be bits)")
    elif kind == "tokens":
        if words[0] in ("k", "thousand"):
            value = number * thousand(number, words[0])
            unit = texts[0]
        elif words[0] in _MULTIPLIERS:
            value = number * _MULTIPLIERS[words[0]]
            unit = texts[0]
        else:
            unit = ""
        kind = "tokens" if any(w in _TOKEN_WORDS for w in words) else "tokens_bare"
    elif kind == "params":
        value = number * _MULTIPLIERS.get(words[0], 1.0)
        unit = texts[0]
        kind = "params" if any(w in _PARAM_WORDS for w in words) else "size_name"
    elif kind == "percent":
        value = number / 100
    elif kind == "days":
        value = number * _DURATIONS[words[0]]
    elif kind == "seconds":
        value = float(f"{number * _SECONDS.get(words[0], 1.0):.12g}")  # 5 us is 5e-06 s, not 4.9999…e-06
    return Tag("QUANTITY", kind, span.start, span.end, span.text, value, unit)


def thousand(number: float, word: str = "k") -> float:
    """'k' on a token count: 1,024 (context windows: 32k = 32,768, 24k = 24,576), except on round hundreds
    ("100k" = 100,000) and fractions ("1.5k" = 1,500); "thousand" is always 1,000."""
    if word == "k" and number >= 1 and float(number).is_integer() and number % 100:
        return 1024.0
    return 1000.0


def in_thousands(tokens: float, rest: str) -> str:
    """A token count written back so that it reads as itself: "64k" (65,536), "110000 tokens" (not "110k")."""
    tokens = round(tokens, 6)  # 100k × 1.1 is 110,000, not 110,000.00000000001
    for unit in (1024, 1000):
        k = tokens / unit
        if k.is_integer() and k >= 1 and thousand(k) == unit:
            return f"{k:.0f}k{rest}"
    return (f"{tokens:,.0f}" if tokens.is_integer() else f"{tokens:.4g}") + (rest or " tokens")


# rates written out: "190 gigabytes per second", "400 gigabits per second"
_SPELLED_RATES = {"kilobytes": "kB", "megabytes": "MB", "gigabytes": "GB", "terabytes": "TB", "kilobits": "kbit",
                  "megabits": "Mbit", "gigabits": "Gbit", "terabits": "Tbit", "gigabit": "Gbit", "terabit": "Tbit"}


def _rate(texts: list[str]) -> tuple[float, str]:
    """B/s for one rate unit as typed, and a note when the case left bits and bytes open.

    'Gb/s', 'Gbps', 'Gbit/s' and a bare '400G' (a NIC's speed) are bits; 'GB/s' and 'GBps' bytes;
    'gb/s' typed in lower case is read as bytes, and says so.
    """
    unit = texts[0]
    if unit.lower() in _SPELLED_RATES:
        return unit_factor(f"{_SPELLED_RATES[unit.lower()]}/s", "B/s"), ""
    prefix = "k" if unit[0] in "kK" else unit[0].upper()
    rest = unit[1:]
    note = ""
    if rest.endswith("ps"):
        bits = rest[:-2] in ("", "b")
    elif rest in ("", "b", "bit", "bits"):
        bits = True
        if rest == "b" and unit.islower():
            bits, note = False, "bytes"
    else:
        bits = False
    return unit_factor(f"{prefix}{'bit' if bits else 'B'}/s", "B/s"), note


def _name_tags(doc: Doc, covered: set[int], known_parts: set[int]) -> list[Tag]:
    """Names the patterns did not match: misspelt, spaced differently, ambiguous, or unknown to the registry.
    `known_parts`: where the parts the patterns found start."""
    tags: list[Tag] = []
    i = 0
    while i < len(doc):
        if i in covered or not _name_start(doc, i):
            i += 1
            continue
        j = i + 1
        while j < len(doc) and j not in covered and _name_part(doc[j]):
            j += 1
        while j > i + 1 and doc[j - 1].text in _JOINERS | {"."}:
            j -= 1
        found = _resolve_name(doc, i, j)
        if found is not None and found.label == "UNKNOWN_GPU" and doc[i].lower_ in _VENDORS and found.end in known_parts:
            found = None  # a vendor's word before a part the patterns know: "intel gaudi 3"
        elif found is not None and found.label == "UNKNOWN_GPU" and found.end == i + 1 and doc[i].lower_ in _VENDORS \
                and known_parts:
            found = None  # the vendor alone beside a part it makes: "gaudi 3 … intel's peak"
        if found is not None:
            tags.append(found)
            i = found.end
        else:
            i += 1
    return tags


def _unit_follows(doc: Doc, i: int) -> bool:
    """Token i is a unit or noun that makes the number before it a figure ("4090 tokens", not "4090 tokens/s")."""
    if i >= len(doc) or doc[i].lower_ not in _FIGURE_UNITS:
        return False
    return not (i + 1 < len(doc) and doc[i + 1].text == "/")


def _figure_not_card(doc: Doc, t: Tag) -> bool:
    """A registry alias that is a bare number ("4090") followed by a unit is a figure: "at 4090 tokens"."""
    return t.label == "GPU" and t.text.isdigit() and _unit_follows(doc, t.end)


def _consumer_cards(doc: Doc, covered: set[int]) -> list[Tag]:
    """'on a 3090', 'two 4090s', '8x 5090': a bare GeForce number where a GPU is named, read as that RTX card
    (or as an unknown GPU when the registry lacks it), never left to become the default H100."""
    tags = []
    for t in doc:
        if t.i in covered or not _CONSUMER_NUMBER.match(t.text):
            continue
        before = doc[t.i - 1] if t.i else None
        after = doc[t.i + 1] if t.i + 1 < len(doc) else None
        counted = (before is None and after is not None and _card_opens(doc, t.i)) or (
            before is not None and (before.lower_ in _BEFORE_CARD or _value(before) is not None))
        if not counted or _unit_follows(doc, t.i + 1):
            continue
        end = t.i + 2 if after is not None and after.lower_ in ("ti", "super") else t.i + 1
        typed = doc[t.i:end].text
        spec = find_gpu(f"rtx {typed}")
        if spec is not None:
            tags.append(Tag("GPU", spec.id, t.i, end, typed, note=f"“{typed}” read as {spec.name}"))
        else:
            tags.append(Tag("UNKNOWN_GPU", "gpu", t.i, end, f"RTX {typed}"))
    return tags


def _unknown_sized_models(doc: Doc, covered: set[int]) -> list[Tag]:
    """'minicpm3 4b', 'tinyllama 1.1b': a word no list knows, and no English word, before a model's size is a model
    the registry lacks; read as typed, the size alone became a model of that many parameters."""
    tags = []
    for t in doc:
        word = t.lower_
        if (t.i in covered or not t.is_alpha or len(word) < 4 or word in english_words() or word in _known_words()
                or _gpu_shaped(doc, t.i, t.i + 1)):
            continue
        k = t.i + 1
        if k < len(doc) and not t.whitespace_ and doc[k].text.isdigit():  # "minicpm3": a version glued to the name
            k += 1
        if k + 1 < len(doc) and doc[k].like_num and doc[k].text[:1].isdigit() and doc[k + 1].lower_ == "b" \
                and not covered & set(range(t.i, k + 2)):
            tags.append(Tag("UNKNOWN_MODEL", "model", t.i, k + 2, doc[t.i:k + 2].text))
    return tags


def _number_led_codes(doc: Doc, covered: set[int]) -> list[Tag]:
    """'on a 910c', 'over 8 910cs': a part code that starts with its number (Huawei's Ascend 910B/910C) is an
    unknown GPU, not a figure the calculation leaves out while the default H100 stands in."""
    tags = []
    for t in doc[:-1]:
        letter = doc[t.i + 1]
        if (t.i in covered or t.whitespace_ or not t.text.isdigit() or not letter.is_alpha
                or letter.lower_ in ("k", "m", "b", "t", "g") or _unit_follows(doc, t.i + 1)  # "a 910b model"
                or not _GPU_SHAPE.match(t.text + letter.lower_)):
            continue
        typed = t.text + (letter.text[:-1] if len(letter.text) == 2 and letter.lower_.endswith("s") else letter.text)
        tags.append(Tag("UNKNOWN_GPU", "gpu", t.i, t.i + 2, typed))
    return tags


def _card_opens(doc: Doc, i: int) -> bool:
    """'5090 - can it do …', '2080 ti 11gb, …': a card number opening the question, then a break or its memory."""
    k = i + 2 if i + 1 < len(doc) and doc[i + 1].lower_ in ("ti", "super") else i + 1
    if k >= len(doc):
        return False
    return doc[k].text in ("-", ":", ",") or (doc[k].like_num and k + 1 < len(doc) and doc[k + 1].lower_ in ("gb", "g"))


def _name_start(doc: Doc, i: int) -> bool:
    """A word that may begin a name; a single letter only when a digit is glued to it ("t4", "a10g")."""
    t = doc[i]
    if not t.is_alpha:
        return False
    if len(t.text) == 1 or t.norm_ in _NOT_NAMES:
        return not t.whitespace_ and i + 1 < len(doc) and doc[i + 1].text[:1].isdigit() and len(t.text) <= 2
    return True


def _name_part(t: Token) -> bool:
    if t.text in _JOINERS or t.text == ".":
        return True
    if t.text[:1].isdigit() and t.like_num:
        return True
    if t.text.endswith("+") and t.lower_[:-1] in _NAME_SUFFIXES:
        return True  # "command r+"
    return t.is_alpha and (t.lower_ in _NAME_SUFFIXES or t.lower_ in _FAMILIES or len(t.text) == 1)


def _resolve_name(doc: Doc, i: int, j: int) -> Tag | None:
    """The longest span from token i that is a model or GPU name (known, misspelt, or unknown but name-shaped)."""
    first = doc[i].norm_
    family = first if first in _FAMILIES else None
    # "deep seek v3": two words that are one name
    if family is None and i + 1 < len(doc) and doc[i + 1].is_alpha and (first + doc[i + 1].lower_) in _FAMILIES:
        j = max(j, i + 2)
        while j < len(doc) and _name_part(doc[j]):
            j += 1
        family = first + doc[i + 1].lower_
    has_number = any(t.text[:1].isdigit() for t in doc[i:j])
    for end in range(j, i, -1):
        if end < j and _glued_letter(doc, end):
            break  # "mi300a" is not an MI300 with an "a" after it: the letter makes it another part
        span = doc[i:end]
        typed = span.text
        spec = find_model(typed)
        if spec is not None:
            return Tag("MODEL", spec.id, i, end, typed, note=_reading_note("MODEL", typed, spec.id))
        spec = find_gpu(typed)
        if spec is not None:
            return Tag("GPU", spec.id, i, end, typed, note=_reading_note("GPU", typed, spec.id))
    if not has_number and family is None and not _gpu_shaped(doc, i, j):
        return None
    typed = doc[i:j].text
    if has_number:
        modelish = family is not None or _family_typo(first)
        gpuish = _gpu_shaped(doc, i, j) or _gpu_word_typo(first)
        for end in range(j, i + 1, -1):
            if end < j and _glued_letter(doc, end):
                break
            span = doc[i:end].text
            spec = find_model_fuzzy(span) if modelish else None
            if spec is not None:
                return Tag("MODEL", spec.id, i, end, span, note=f"“{span}” read as {spec.name}")
            spec = find_gpu_fuzzy(span) if gpuish else None
            if spec is not None:
                return Tag("GPU", spec.id, i, end, span, note=f"“{span}” read as {spec.name}")
    ambiguous = ambiguous_model(typed) or (ambiguous_model(family) if family and not has_number else None)
    if ambiguous is not None:
        spec, words = ambiguous
        return Tag("MODEL", spec.id, i, j, typed, note=words)
    if family in _COMMON_WORDS and j == i + 1:
        return None  # "command", "opt", "seed" alone are words, not model names
    if family is not None or (_family_typo(first) and first not in _GPU_WORDS):  # "intel max 1550" is a part
        return Tag("UNKNOWN_MODEL", "model", i, j, typed)
    j = next((end for end in range(j, i, -1) if _gpu_shaped(doc, i, end)), j)  # "v100 32gb": the V100
    if _gpu_shaped(doc, i, j):
        if j - i > 2 and doc[j - 1].lower_ == "s" and doc[j - 2].text[:1].isdigit():
            j -= 1  # "H800s": the plural is not part of the name
        return Tag("UNKNOWN_GPU", "gpu", i, j, doc[i:j].text)
    return None


def _glued_letter(doc: Doc, k: int) -> bool:
    """Token k is one letter (not a plural "s") glued to the number before it: "mi300a", "h100a"; not a
    multiplier ("15T tokens") nor the "x" of a count ("h100x2")."""
    if k + 1 < len(doc) and doc[k].lower_ == "x" and doc[k + 1].like_num:
        return False
    return (k < len(doc) and 0 < k and not doc[k - 1].whitespace_ and doc[k - 1].text[-1:].isdigit()
            and doc[k].is_alpha and len(doc[k].text) == 1 and doc[k].lower_ not in "skmbt")


def _glued_variant(doc: Doc, t: Tag) -> Tag:
    """'mi300a': a known part's name with a letter glued on is another part (an APU, not the MI300X)."""
    if t.label != "GPU" or not _glued_letter(doc, t.end):
        return t
    typed = doc[t.start:t.end + 1].text
    spec = find_gpu(typed)
    if spec is not None:
        return Tag("GPU", spec.id, t.start, t.end + 1, typed, note=_reading_note("GPU", typed, spec.id))
    return Tag("UNKNOWN_GPU", "gpu", t.start, t.end + 1, typed)


def _variant(doc: Doc, t: Tag) -> Tag:
    """A part's name with what is written after it that says which variant: a glued letter, its memory and its
    form factor, in either order ("a100 40gb pcie", "mi355x oam 288gb")."""
    t = _glued_variant(doc, t)
    for _ in range(2):
        t = _form_factor_variant(doc, _memory_variant(doc, t))
    return _model_variant(doc, t)


def _model_variant(doc: Doc, t: Tag) -> Tag:
    """A size or a version written right after a model's name that is not the registry's: "deepseek-r1:14b" (an
    ollama tag), "deepseek r1 14b" (a distill), "mistral 7b v0.2" (the 32k-context release) are other models the
    registry lacks, not DeepSeek-R1 or Mistral 7B v0.1. Its own size, total or active, is the model itself."""
    if t.label != "MODEL":
        return t
    spec = find_model(t.key)
    k = t.end + (1 if t.end < len(doc) and doc[t.end].text == ":" else 0)
    if k + 1 < len(doc) and doc[k].like_num and doc[k].text[:1].isdigit() and not doc[k].whitespace_ \
            and doc[k + 1].lower_ == "b" and (k + 2 >= len(doc) or doc[k + 2].lower_ not in _TOKEN_WORDS):
        size, params = float(doc[k].text) * 1e9, spec.params
        # its total size, loosely ("llama 3.1 70b" of 70.6B), or its active size said closely ("37b" of R1; the
        # "deepseek-r1:32b" ollama tag is a 32B distill)
        if not (abs(size - params.total) <= 0.2 * params.total or abs(size - params.active) <= 0.05 * params.active):
            return Tag("UNKNOWN_MODEL", "model", t.start, k + 2, doc[t.start:k + 2].text)
    own = re.search(r"\(v(\d+(?:\.\d+)?)\)", spec.name)  # "Mistral 7B (v0.1)"
    typed = re.fullmatch(r"v(\d+(?:\.\d+)?)", "".join(w.lower_ for w in doc[t.end:t.end + 2]))
    if own and typed is None and t.end < len(doc):
        typed = re.fullmatch(r"v(\d+(?:\.\d+)?)", doc[t.end].lower_)
    if own and typed and typed.group(1) != own.group(1):
        end = t.end + (1 if doc[t.end].lower_ != "v" else 2)
        return Tag("UNKNOWN_MODEL", "model", t.start, end, doc[t.start:end].text)
    return t


_FORM_FACTORS = {"pcie", "sxm", "sxm4", "sxm5", "sxm6", "nvl", "oam"}
# variants of a known part that the registry does not hold: the H100 CNX converged card, laptop and mobile GPUs
_UNKNOWN_VARIANTS = {"cnx", "laptop", "mobile", "notebook"}
_FORM_FACTOR = re.compile(r"[-\s]*\b(?:sxm\d?|pcie|nvl|oam)\b", re.IGNORECASE)  # "A100-SXM4" → "A100"


def _form_factor_variant(doc: Doc, t: Tag) -> Tag:
    """'h100 pcie', 'a100 40gb pcie': a form factor written after a part names that variant; a PCIe variant the
    registry lacks is an unknown GPU, not the SXM part with a PCIe link beside it. A card that is PCIe already
    stays itself, and 'pcie 5' / 'pcie gen4' after a part is its link."""
    k = t.end
    if t.label == "GPU" and k < len(doc) and doc[k].lower_ in _UNKNOWN_VARIANTS:  # "H100 CNX": no H100 SXM
        return Tag("UNKNOWN_GPU", "gpu", t.start, k + 1, doc[t.start:k + 1].text)
    # "rtx 4090 d" (the cut-down export card), "rtx pro 6000 max-q": other cards than the registry's
    if (t.label == "GPU" and t.key.startswith("rtx") and k < len(doc)
            and (doc[k].lower_ in ("d", "maxq") or [w.lower_ for w in doc[k:k + 2]] == ["max", "q"])):
        end = k + (2 if doc[k].lower_ == "max" else 1)
        return Tag("UNKNOWN_GPU", "gpu", t.start, end, doc[t.start:end].text)
    if t.label != "GPU" or k >= len(doc) or doc[k].lower_ not in _FORM_FACTORS:
        return t
    if doc[k].lower_ == "pcie" and k + 1 < len(doc) and (doc[k + 1].like_num or doc[k + 1].lower_.startswith("gen")):
        return t
    typed = doc[t.start:k + 1].text
    spec = find_gpu(typed)
    if spec is not None:
        return Tag("GPU", spec.id, t.start, k + 1, typed, note=_reading_note("GPU", typed, spec.id))
    if doc[k].lower_ != "pcie" or _is_pcie_card(t.key):  # "b300 sxm6" is the B300; an L40S is a PCIe card anyway
        return Tag("GPU", t.key, t.start, k + 1, typed, note=t.note)
    return Tag("UNKNOWN_GPU", "gpu", t.start, k + 1, typed)  # "a100 40gb pcie": a PCIe part the registry lacks


def _is_pcie_card(gpu_id: str) -> bool:
    return (gpus().entries[gpu_id].link or "pcie").startswith("pcie")


def _without_swallowed(tags: list[Tag]) -> list[Tag]:
    """Tags inside a longer part name found after them (the "pcie" of "a100 40gb pcie")."""
    parts = [t for t in tags if t.label in ("GPU", "UNKNOWN_GPU")]
    return [t for t in tags if not any(p is not t and p.start <= t.start and t.end <= p.end and (p.start, p.end) != (
        t.start, t.end) for p in parts)]


def _memory_variant(doc: Doc, t: Tag) -> Tag:
    """'a100 40g', 'A100 (40GB SXM4 version)': a part's memory written after it names that variant (not a 40 Gb/s
    link, nor a buffer of 40 GB); a memory no variant in the registry has ('h100 96gb') is an unknown part."""
    restated = t.end < len(doc) and doc[t.end].text == ","  # "says L4, 24 GB": its memory, said again
    k = t.end + 1 if t.end < len(doc) and doc[t.end].text in ("(", ",") else t.end
    if t.label != "GPU" or k + 1 >= len(doc) or not doc[k].like_num:
        return t
    unit = doc[k + 1].lower_
    if not (unit == "g" and not doc[k].whitespace_) and unit not in ("gb", "gig"):
        return t
    if k + 2 < len(doc) and doc[k + 2].text in ("/", "per", "ps", "of"):
        return t  # "L40S (864 GB/s)": its bandwidth, not its memory; "h100, 80 GB of weights": a size
    name = doc[t.start:t.end].text
    typed = doc[t.start:k + 2].text
    if restated:  # after a comma only the part's own memory is part of its name
        if not _is_own_memory(t.key, _value(doc[k]) or 0, tolerance=0.02):
            return t
        return Tag("GPU", t.key, t.start, k + 2, typed, note=t.note)
    spec = find_gpu(f"{name} {doc[k].text}gb")
    if spec is None and (spec := find_gpu(f"{_FORM_FACTOR.sub('', name)} {doc[k].text}gb")) is not None:
        if "pcie" in name.lower() and not _is_pcie_card(spec.id):
            return Tag("UNKNOWN_GPU", "gpu", t.start, k + 2, typed)  # "a100-pcie-40gb": only the SXM has 40 GB here
    if spec is None:
        if not _is_own_memory(t.key, _value(doc[k]) or 0, tolerance=0.1):
            return Tag("UNKNOWN_GPU", "gpu", t.start, k + 2, typed)  # "h100 96gb": a variant the registry lacks
        return Tag("GPU", t.key, t.start, k + 2, typed, note=t.note)  # "h200 sxm 141gb": its own memory, said
    return Tag("GPU", spec.id, t.start, k + 2, typed, note=_reading_note("GPU", typed, spec.id))


def _is_own_memory(gpu_id: str, gigabytes: float, tolerance: float) -> bool:
    """The part's own memory, said in GB or GiB (within `tolerance` of the registry's figure)."""
    own = gpus().entries[gpu_id].memory_bytes
    return any(abs(gigabytes * scale - own) <= tolerance * own for scale in (1e9, 2**30))


def _family_typo(word: str) -> bool:
    """'lamma', 'mixtrel', 'qwne': a misspelt model family, which keeps its first letter and its length within
    one ('used' is not 'seed', nor is 'served')."""
    if len(word) < 4:
        return False
    found = process.extract(word, _FAMILIES, scorer=fuzz.ratio, score_cutoff=75, limit=5)
    return any(family[:1] == word[:1] and abs(len(family) - len(word)) <= 1 for family, _, _ in found)


def _gpu_word_typo(word: str) -> bool:
    """'trainum', 'inferntia', 'gaudy': a misspelt accelerator family, whose number then makes a GPU name."""
    return len(word) >= 5 and bool(process.extractOne(word, _GPU_WORDS, scorer=fuzz.ratio, score_cutoff=80))


def _gpu_shaped(doc: Doc, i: int, j: int) -> bool:
    """'V100', 'T4', 'A10G', 'H800', 'MI400', 'TPU v4', 'inferentia2': a code written like an accelerator's."""
    word = doc[i].lower_
    if word in _GPU_WORDS or (word.endswith("s") and word[:-1] in _GPU_WORDS):  # "8 rubins"
        return True
    if j - i < 2 or doc[i].whitespace_:
        return False  # the letters must be glued to the number ("a 100 MB" is not an A100)
    compact = "".join(t.lower_ for t in doc[i:j] if t.text not in _JOINERS)
    return bool(_GPU_SHAPE.match(compact))


def warm() -> None:
    """Build the pipeline now (≈1 s: the registries' patterns) rather than on the first question."""
    tag("warm-up: llama 3.1 8b on an h100, 1 GB all-reduce")


__all__ = ["Reading", "Tag", "tag", "unit_factor", "warm", "BYTE_WORDS", "COUNT_NOUNS", "CUES", "OPS", "WEAK_OPS"]

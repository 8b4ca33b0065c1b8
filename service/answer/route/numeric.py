"""Free-text routing of numeric questions to the calculators (DESIGN §5 step 1).

`route_numeric(question, previous)` reads the slots a calculator needs from the words (model,
precision, GPU, counts, sizes, bandwidths, context, batch, ZeRO stage, tokens…), picks the
calculator, and returns a `NumericRequest` whose `inputs` hold only what the question said; the
calculator fills documented defaults, listed in `assumed`. It returns `UnknownModel` for a model
that is not in the registry (never a guess) and `None` when the question is not a calculation
("What is the KV cache?") so that retrieval answers it. Pure and fast: regexes compiled once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from calculators import INPUT_MODELS, validate
from calculators import precision as prec
from calculators.registry import closest_gpus, closest_models, gpus, links, models, name_key
from calculators.units import BANDWIDTH_RE, parse_bandwidth, parse_size

from ..models import Turn
from .followup import opens_as_followup, user_questions


@dataclass
class NumericRequest:
    calculator: str
    inputs: dict[str, Any]
    assumed: list[str] = field(default_factory=list)
    explain: bool = False


@dataclass
class UnknownName:
    """A model or part the registries do not know: answered as such, never replaced by a default."""

    name: str
    closest: list[str]
    what = "name"

    @property
    def message(self) -> str:
        return f"I don't know that {self.what}; closest: {', '.join(self.closest)}"


class UnknownModel(UnknownName):
    what = "model"


def _re(pattern: str) -> re.Pattern:
    return re.compile(pattern, re.IGNORECASE)


_NUM = r"\d[\d,]*(?:\.\d+)?"
_WORD_NUMBERS = {"one": 1, "a single": 1, "single": 1, "two": 2, "three": 3, "four": 4, "five": 5,
                 "six": 6, "eight": 8, "ten": 10, "twelve": 12, "sixteen": 16, "thirty-two": 32,
                 "sixty-four": 64, "a pair of": 2, "a couple of": 2}
_COUNT = rf"({_NUM}|{'|'.join(sorted(_WORD_NUMBERS, key=len, reverse=True))})"

# --- what kind of question --------------------------------------------------------------------
_NUMERIC_CUE = _re(
    r"\b(how much|how many|how long|how fast|how big|how large|how quick(?:ly)?|calculate|compute|"
    r"estimate|size|sizes|sized|fits?|fitting|tokens?/s|tok/s|tokens per second|throughput|"
    r"time to|takes?|gpu[\s\-]?hours|flops|ridge point|need|needed|required|requires?|vram|"
    r"footprint|per token|per gpu|step time|latency|convert|speed|number of gpus|"
    r"memory(?![\s\-]bound)|gb|bytes|enough|can (?:i|we|you) (?:run|serve|host|load|fit))\b"
)
_EXPLAIN_VERB = _re(r"\b(explain|why|how does|how do|describe|walk me through|what does (?:the|a|an)|"
                    r"what does .* mean|intuition|difference between)\b")
_WHAT_IS_AND = _re(r"\bwhat (?:is|are)\b.*\band\b")

# Quantities the calculators do not compute. A question about one of them goes to retrieval even when
# it names a model and a GPU: a calculation of something else would be a confident wrong answer.
_OUTSIDE = _re(
    r"(?:\$|\b(?:costs?|price[sd]?|dollars?|lora|adapters?|checkpoint\w*|storage|read bandwidth|"
    r"write bandwidth|tiles?|tiling|gemm|matmul|fusion|fused|kv blocks?|\d+-token (?:kv )?blocks?|pages?|"
    r"stall\w*|acceptance|draft\w*|speculative|ship|transfer\w*|replicas?|requests?/s|qps|"
    r"requests per second|per day|a day|cold starts?|load(?:ing)? (?:the |its )?weights|mig|interruptions?|"
    r"failures?|congestion|sequences (?:of [\w.\s-]+ )?fit|kv pool|full multi-head|sparse attention|"
    r"claims?|evaluate|groq|cerebras|chips|move per step)\b)"
)
# A yes/no question about an effect ("Did temperature affect…?") is not a calculation; a fit check is.
_YES_NO = _re(r"^\s*(?:did|does|do|is|are|was|were|should|would|will)\b(?!.*\b(?:fit|fits|run|enough)\b)")

_COLLECTIVE_WORDS = _re(r"\b(collective|busbw|algbw|bus bandwidth|nccl)\b")
_ROOFLINE_WORDS = _re(r"\b(ridge point|roofline|arithmetic intensity|flops? per byte|flop/b)\b")
_TRAIN_WORDS = _re(r"\b(train|training|trained|pre-?train(?:ing)?|fine-?tun(?:e|ing))\b")
_TRAIN_COMPUTE_WORDS = _re(r"\b(gpu[\s\-]?hours|flops|how long|compute budget|mfu|days|weeks|"
                           r"wall[\s\-]?clock|time to train)\b")
_TRAIN_MEMORY_WORDS = _re(r"\b(memory|vram|zero|fsdp|optimi[sz]er state|adam|fit|gb|per gpu)\b")
_DECODE_WORDS = _re(r"(tokens?/s|tok/s|tokens per second|\bdecod(?:e|ing)\b|\bgeneration speed\b|"
                    r"\b(?:compute|memory|bandwidth)[\s\-]bound\b|"
                    r"\bthroughput\b|\bhow fast\b|\btpot\b|\binter-token\b|\btime per token\b|"
                    r"\bper-token latency\b|\bstep time\b|\bgenerate\b)")
_KV_WORDS = _re(r"\bkv(?:[\s\-]?cache)?\b|\bkey[\s\-]value cache\b")
_MEMORY_OVER_KV = _re(r"\b(fit|fits|total|weights|vram|serve|serving|how many gpus|gpus? do i need)\b")

# --- slots ---------------------------------------------------------------------------------------
_PREC_WORDS = (r"fp32|float32|bf16|bfloat16|fp16|float16|fp8|float8|e4m3|int8|int4|mxfp4|nvfp4|"
               r"8[\s\-]?bit|4[\s\-]?bit|16[\s\-]?bit|32[\s\-]?bit|half precision|awq|gptq")
_KV_PRECISION = _re(
    rf"\bkv(?:[\s\-]?cache)?\s+(?:(?:in|at|of|as|stored in|quantized to|quantised to)\s+)?"
    rf"(?<![a-z0-9])({_PREC_WORDS})(?![a-z0-9])|(?<![a-z0-9])({_PREC_WORDS})[\s\-]+kv\b"
)
_PRECISION = _re(rf"(?<![a-z0-9])({_PREC_WORDS})(?![a-z0-9])")
_FAMILY = _re(
    r"(?<![a-z0-9])(?:llama|mistral|mixtral|deepseek|qwen|gpt[\s\-]?oss|gemma|phi|falcon|grok|gpt|"
    r"yi|olmo|dbrx|jamba|nemotron|kimi|glm|command[\s\-]?r|bloom|claude|gemini)"
    r"(?:[\s\-_]*(?:v?\d[\w.]*|maverick|scout|large|small|medium|mini|nano|pro|coder|moe|base|"
    r"instruct|chat|r1|a\d+b))*"
)
_SIZE_ONLY = _re(rf"({_NUM})\s*(b|billion|t|trillion|m|million)[\s\-]*(?:param(?:eter)?s?|"
                 r"(?:dense\s+|moe\s+)?(?:model|llm|network|transformer))\b")
_TOKENS = _re(rf"({_NUM})\s*(t|b|trillion|billion)\s+tokens\b")
_SIZE = _re(rf"({_NUM})\s*-?\s*(kib|mib|gib|tib|kb|mb|gb|tb|bytes|byte)(?![a-z/])")
_CONTEXT_BEFORE = _re(rf"(?<![\w.])({_NUM})(\s*k\b)?[\s\-]*(?:tokens?[\s\-]+(?:of\s+)?)?(?:context|ctx)\b")
_CONTEXT_K = _re(rf"(?<![\w.])({_NUM})\s*k\b(?:[\s\-]*(?:tokens?|context|ctx))?")
_CONTEXT_WORDS = _re(rf"\b(?:context|ctx|sequence length|seq(?:uence)?[\s\-]?len(?:gth)?|prompts? of|"
                     rf"prompt length)\s*(?:length|window|size)?\s*(?:of|=|:|is)?\s*({_NUM})(\s*k\b)?")
_CONTEXT_TOKENS = _re(rf"({_NUM})[\s\-]*tokens?\b")
_BATCH = _re(
    rf"\bbatch(?:[\s\-]*size)?\s*(?:of|=|:)?\s*({_NUM})|\bconcurrency\s*(?:of|=|:)?\s*({_NUM})|"
    rf"{_COUNT}\s*(?:concurrent|parallel|simultaneous)?\s*(?:users|requests|sequences|streams|"
    rf"sessions|clients|conversations)\b|{_COUNT}\s+concurrent\b"
)
_DEVICES = _re(rf"{_COUNT}\s*(?:x\s*)?(gpus?|ranks?|nodes?|devices?|accelerators?|chips?|workers?)\b")
_GPU_COUNT_BEFORE = _re(rf"{_COUNT}\s*(?:x\s*)?$")
_GPU_COUNT_AFTER = _re(rf"^\s*x\s*({_NUM})\b")
_TP = _re(rf"\b(?:tp|tensor[\s\-]?parallel(?:ism)?)\s*(?:degree|size)?\s*(?:of|=|:)?\s*({_NUM})|"
          rf"({_NUM})[\s\-]*way tensor")
_PP = _re(rf"\b(?:pp|pipeline[\s\-]?parallel(?:ism)?)\s*(?:degree|size)?\s*(?:of|=|:)?\s*({_NUM})|"
          rf"({_NUM})[\s\-]*way pipeline")
_ZERO = _re(r"\bzero[\s\-_]*(?:stage[\s\-_]*)?([0-3])\b|\bstage[\s\-_]*([0-3])\b")
_FSDP = _re(r"\b(fsdp|hsdp|hybrid[\s\-]shard(?:ing)?)\b")
_OPS = (("reduce_scatter", r"reduce[\s\-_]?scatter(?:s|ed|ing)?"), ("all_reduce", r"all[\s\-_]?reduc(?:e|es|ed|ing)"),
        ("all_gather", r"all[\s\-_]?gather(?:s|ed|ing)?"), ("all_to_all", r"all[\s\-_]?to[\s\-_]?all"),
        ("broadcast", r"broadcast(?:s|ing)?"), ("reduce", r"reduc(?:e|es|ed|ing)"))
_OP = _re("|".join(rf"(?<![a-z])({p})(?![a-z])" for _, p in _OPS))
_ALGORITHM = _re(r"\b(ring|tree)\b")
_MFU = _re(rf"({_NUM})\s*%\s*mfu|\bmfu\s*(?:of|=|:|at)?\s*({_NUM})\s*(%)?")
_EFFICIENCY = _re(rf"({_NUM})\s*%\s*(?:of\s+peak|(?:bandwidth\s+)?efficiency|of\s+(?:the\s+)?bandwidth)|"
                  rf"\befficiency\s*(?:of|=|:)?\s*({_NUM})\s*(%)?")
_DEADLINE = _re(rf"\b(?:in|within|under|over)\s+({_NUM})\s*(days?|weeks?|months?|hours?)\b")
_INTENSITY = _re(rf"({_NUM})\s*flops?\s*(?:/|per)\s*(?:b|byte)\b|\bintensity\s*(?:of|=|:)?\s*({_NUM})")
_MEASURED = _re(r"\b(busbw|bus bandwidth|algbw|algorithm bandwidth)\b")
_PRIMARY_HINTS = (
    (_re(r"\bhow many (?:gpus|h100s?|h200s?|a100s?|b200s?|mi300xs?|accelerators|devices|cards)\b|"
         r"\bminimum (?:number of )?gpus\b|\bnumber of gpus\b"), {"memory": "min_gpus", "decode": "min_gpus",
                                                                 "training": "gpus_needed"}),
    (_re(r"\b(?:free|left|left over|headroom|remaining|spare)\b"), {"memory": "free_bytes", "decode": "free_bytes"}),
    (_re(r"\bbusbw\b|\bbus bandwidth\b"), {"collective": "busbw"}),
    (_re(r"\balgbw\b|\balgorithm bandwidth\b"), {"collective": "algbw"}),
    (_re(r"\bgpu[\s\-]?hours\b"), {"training": "gpu_hours"}),
    (_re(r"\b(?:how many flops|total flops|flop count|training compute)\b"), {"training": "flops"}),
    (_re(r"\bstep time\b|\btime per (?:step|token)\b|\blatency\b|\btpot\b"), {"decode": "step_time_s"}),
    (_re(r"\baggregate\b|\btotal throughput\b|\bacross (?:all )?(?:users|sequences)\b"),
     {"decode": "aggregate_tokens_per_s"}),
    (_re(r"\bper token\b"), {"kv_cache": "kv_bytes_per_token", "memory": "kv_bytes_per_token"}),
    (_re(r"\bridge\b"), {"decode": "ridge_point"}),
    (_re(r"\bcompute[\s\-]bound time\b"), {"decode": "compute_time_s"}),
    (_re(r"\bactivations?\b"), {"memory": "activation_bytes"}),
    (_re(r"\boptimi[sz]er state|training state\b"), {"memory": "training_state_bytes"}),
)
_GPU_LIKE = _re(r"(?<![a-z0-9])(?:[hab]\d{3}[a-z]*|gb\d{3}|mi\d{3}[a-z]*|rtx[\s\-]?(?:pro[\s\-]?)?\d{4}\w*|"
               r"v100|t4|l4|l40|tpu[\s\-]?v\d\w*|trainium\d?|inferentia\d?|gaudi[\s\-]?\d)(?![a-z0-9])")
_GPUS_PER_NODE = 8


@dataclass
class _Slots:
    """What the words said, before it is mapped onto one calculator's inputs."""

    values: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    unknown_model: str | None = None
    rest: str = ""  # the lower-case question with every slot blanked out


class _Text:
    """The question with matched spans blanked out, so one number is never read twice."""

    def __init__(self, question: str):
        self.original = question.replace("×", "x").replace("–", "-").replace("—", "-")
        self.lower = self.original.lower()
        if len(self.lower) != len(self.original):  # exotic case folding: keep it simple
            self.original = self.lower

    def take(self, pattern: re.Pattern, case_sensitive: bool = False) -> re.Match | None:
        m = pattern.search(self.original if case_sensitive else self.lower)
        if m:
            self.blank(m.start(), m.end())
        return m

    def take_all(self, pattern: re.Pattern) -> list[re.Match]:
        found = list(pattern.finditer(self.lower))
        for m in found:
            self.blank(m.start(), m.end())
        return found

    def blank(self, start: int, end: int) -> None:
        pad = " " * (end - start)
        self.lower = self.lower[:start] + pad + self.lower[end:]
        self.original = self.original[:start] + pad + self.original[end:]


def _number(text: str) -> float:
    text = text.strip().lower()
    if text in _WORD_NUMBERS:
        return _WORD_NUMBERS[text]
    return float(text.replace(",", ""))


def _int(text: str) -> int:
    return int(round(_number(text)))


_MULT = {"t": 1e12, "trillion": 1e12, "b": 1e9, "billion": 1e9, "m": 1e6, "million": 1e6}


def _first(m: re.Match) -> str | None:
    return next((g for g in m.groups() if g is not None), None)


def _extract(question: str) -> _Slots:
    t, s = _Text(question), _Slots()
    v = s.values
    _extract_model(t, s)
    _extract_gpu(t, s)
    if m := t.take(_KV_PRECISION):
        v["kv_precision"] = prec.normalize(re.sub(r"[\s\-]+", "-", _first(m)))
    if m := t.take(_PRECISION):
        v["precision"] = prec.normalize(re.sub(r"[\s\-]+", "-", m.group(1)))
    if m := t.take(BANDWIDTH_RE, case_sensitive=True):
        v["bandwidth"] = parse_bandwidth(m.group(0))
    if found := links().search(t.lower):
        spec, m = found
        t.blank(m.start(), m.end())
        v["link"] = spec.id
    if m := t.take(_TOKENS):
        v["tokens"] = round(_number(m.group(1)) * _MULT[m.group(2).lower()])
    if m := t.take(_SIZE):
        v["size"] = parse_size(f"{m.group(1)} {m.group(2)}")
    _extract_context(t, s)
    if m := t.take(_BATCH):
        v["batch"] = _int(_first(m))
    for m in t.take_all(_DEVICES):
        _count(s, _int(m.group(1)), m.group(2).lower())
    if m := t.take(_TP):
        v["tp"] = _int(_first(m))
    if m := t.take(_PP):
        v["pp"] = _int(_first(m))
    if m := t.take(_ZERO):
        v["zero_stage"] = int(_first(m))
    if m := t.take(_FSDP):
        v["fsdp"] = "full" if m.group(1).lower() == "fsdp" else "hybrid"
    if m := t.take(_OP):
        v["op"] = next(op for (op, _), g in zip(_OPS, m.groups()) if g is not None)
    if m := t.take(_ALGORITHM):
        v["algorithm"] = m.group(1).lower()
    if m := t.take(_MFU):
        v["mfu"] = _fraction(_first(m))
    if m := t.take(_EFFICIENCY):
        v["efficiency"] = _fraction(_first(m))
    if m := t.take(_DEADLINE):
        days = {"day": 1, "week": 7, "month": 30, "hour": 1 / 24}[m.group(2).lower().rstrip("s")]
        v["deadline_days"] = _number(m.group(1)) * days
    if m := t.take(_INTENSITY):
        v["intensity"] = _number(_first(m))
    s.rest = t.lower
    return s


def _fraction(text: str) -> float:
    x = _number(text)
    return x / 100 if x > 1 else x


def _extract_model(t: _Text, s: _Slots) -> None:
    if found := models().search(t.lower):
        spec, m = found
        typed = t.original[m.start():m.end()].strip()
        t.blank(m.start(), m.end())
        s.values["model"] = spec.id
        if name_key(typed) not in (name_key(spec.id), name_key(spec.name)):
            s.notes.append(f"“{typed}” read as {spec.name}")
        return
    if m := t.take(_SIZE_ONLY):
        s.values["params"] = round(_number(m.group(1)) * _MULT[m.group(2).lower()])
        return
    if m := _FAMILY.search(t.lower):
        s.unknown_model = t.original[m.start():m.end()].strip()


def _extract_gpu(t: _Text, s: _Slots) -> None:
    found = gpus().search(t.lower)
    if not found:
        if m := _GPU_LIKE.search(t.lower):
            typed = t.original[m.start():m.end()]
            s.notes.append(f"GPU “{typed}” is not in the registry (closest: "
                           f"{', '.join(closest_gpus(typed))}); the default GPU is used instead")
            _take_gpu_count(t, s, m)
        return
    spec, m = found
    s.values["gpu"] = spec.id
    typed = t.original[m.start():m.end()].strip()
    _take_gpu_count(t, s, m)
    if spec.id == "h100-sxm" and "sxm" not in typed:
        s.notes.append(f"“{typed}” read as H100 SXM")
    if spec.id == "a100-80gb" and "80" not in typed:
        s.notes.append(f"“{typed}” read as A100 80GB SXM")


def _take_gpu_count(t: _Text, s: _Slots, m: re.Match) -> None:
    """'two H200s', '8x H100', 'H100 x 8': the count written next to a GPU name."""
    before = _GPU_COUNT_BEFORE.search(t.lower[: m.start()])
    after = _GPU_COUNT_AFTER.search(t.lower[m.end():])
    t.blank(m.start(), m.end())
    if before:
        t.blank(before.start(), before.end())
        s.values["gpus"] = _int(before.group(1))
    elif after:
        t.blank(m.end() + after.start(), m.end() + after.end())
        s.values["gpus"] = _int(after.group(1))


def _extract_context(t: _Text, s: _Slots) -> None:
    if m := t.take(_CONTEXT_WORDS) or t.take(_CONTEXT_BEFORE):
        value = _number(m.group(1)) * (1024 if m.group(2) else 1)
    elif m := t.take(_CONTEXT_K):
        value = _number(m.group(1)) * 1024
    elif m := t.take(_CONTEXT_TOKENS):
        value = _number(m.group(1))
    else:
        return
    s.values["context"] = int(value)
    typed = m.group(0).strip()
    if "k" in typed.lower().replace("tokens", "").replace("context", "").replace("ctx", ""):
        s.notes.append(f"“{typed}” read as {int(value):,} tokens")


def _count(s: _Slots, n: int, unit: str) -> None:
    if unit.startswith("node"):
        s.notes.append(f"{n} nodes read as {n * _GPUS_PER_NODE} GPUs ({_GPUS_PER_NODE} per node)")
        n *= _GPUS_PER_NODE
    key = "ranks" if unit.startswith("rank") else "gpus"
    s.values.setdefault(key, n)


# --- choosing a calculator ---------------------------------------------------------------------

def _calculator_named(text: str, v: dict, rest: str) -> str | None:
    """The calculator the words point at, if any (before checking its slots are there).

    `rest` is the question without its slots: "with an fp8 KV cache" names a KV precision, not
    the KV-cache calculator.
    """
    if "op" in v and (v["op"] != "reduce" or "size" in v) or _COLLECTIVE_WORDS.search(text):
        return "collective"
    if _ROOFLINE_WORDS.search(text):
        return "roofline"
    if "tokens" in v or "mfu" in v or "deadline_days" in v or (
            _TRAIN_WORDS.search(text) and _TRAIN_COMPUTE_WORDS.search(text)
            and not _TRAIN_MEMORY_WORDS.search(text)):
        return "training"
    if _DECODE_WORDS.search(text):
        return "decode"
    if _KV_WORDS.search(rest) and not _MEMORY_OVER_KV.search(text):
        return "kv_cache"
    return None


_COLLECTIVE_SLOTS = ("size", "ranks", "gpus", "link", "gpu", "bandwidth")


def _choose(text: str, v: dict, rest: str) -> str | None:
    """The calculator, once the slots it cannot do without are there (else retrieval answers)."""
    named = _calculator_named(text, v, rest)
    has_model = "model" in v or "params" in v
    if named == "kv_cache" and "model" not in v:
        return "memory" if "params" in v else None
    if named in ("decode", "training") and not has_model:
        return None
    if named == "collective" and not any(k in v for k in _COLLECTIVE_SLOTS):
        return None
    if named == "roofline" and "gpu" not in v:
        return None
    if named:
        return named
    if has_model:
        return "memory"
    return None


_SLOT_INPUTS = {
    "memory": ("model", "params", "precision", "kv_precision", "context", "batch", "gpu", "gpus",
               "tp", "pp", "zero_stage", "fsdp"),
    "kv_cache": ("model", "params", "kv_precision", "context", "batch"),
    "decode": ("model", "params", "precision", "kv_precision", "gpu", "gpus", "batch", "context",
               "efficiency"),
    "collective": ("op", "algorithm", "size", "ranks", "link", "gpu", "bandwidth"),
    "training": ("model", "params", "tokens", "gpu", "gpus", "precision", "mfu", "deadline_days"),
    "roofline": ("gpu", "precision", "intensity"),
}


def _inputs_for(calculator: str, v: dict, text: str) -> dict:
    slots = dict(v)
    if calculator == "kv_cache" and "kv_precision" not in slots and "precision" in slots:
        slots["kv_precision"] = slots.pop("precision")
    if calculator == "decode" and "tp" in slots:
        slots["gpus"] = slots.pop("tp")
    if calculator == "collective":
        if "ranks" not in slots and "gpus" in slots:
            slots["ranks"] = slots["gpus"]
        if "bandwidth" in slots and _MEASURED.search(text):
            which = "busbw" if "bus" in _MEASURED.search(text).group(1).lower() else "algbw"
            slots[which] = slots.pop("bandwidth")
            return {k: slots[k] for k in (*_SLOT_INPUTS[calculator], which) if k in slots}
    if calculator == "memory" and ("ranks" in slots and "gpus" not in slots):
        slots["gpus"] = slots["ranks"]
    if calculator == "training" and "tokens" not in slots and "context" in slots:
        slots["tokens"] = slots.pop("context")  # "a step of 4,194,304 tokens" is a token count, not a context
    inputs = {k: slots[k] for k in _SLOT_INPUTS[calculator] if k in slots}
    if calculator == "memory" and (_TRAIN_WORDS.search(text) or "zero_stage" in v or "fsdp" in v):
        inputs["mode"] = "training"
    for pattern, by_calc in _PRIMARY_HINTS:
        if calculator in by_calc and pattern.search(text):
            inputs["primary"] = by_calc[calculator]
            break
    return inputs


def _explain(text: str) -> bool:
    return bool(_EXPLAIN_VERB.search(text) or _WHAT_IS_AND.search(text))


def route_numeric(question: str, previous: NumericRequest | None = None) -> NumericRequest | UnknownName | None:
    """Route one question: a calculator request, an unknown model, or None (→ retrieval)."""
    text = question.lower()
    slots = _extract(question)
    v = slots.values
    followup = previous is not None and _is_followup(text, v, slots)
    if slots.unknown_model and (followup or _NUMERIC_CUE.search(text)) and not _YES_NO.search(text):
        return UnknownModel(slots.unknown_model, closest_models(slots.unknown_model))
    if followup:
        calculator = _calculator_named(text, v, slots.rest) or previous.calculator
        merged = {k: x for k, x in previous.inputs.items() if k in INPUT_MODELS[calculator].model_fields
                  and k not in ("primary", "mode")}
        if "model" in v:
            merged.pop("params", None)
        if "params" in v:
            merged.pop("model", None)
        base = _inputs_for(calculator, v, text)
        if previous.inputs.get("mode") == "training" and calculator == "memory":
            base.setdefault("mode", "training")
        inputs = {**merged, **base}
    else:
        if _OUTSIDE.search(text) or _YES_NO.search(text):
            return None
        asks_number = _NUMERIC_CUE.search(text) or (
            _calculator_named(text, v, slots.rest) and re.search(r"\d", text) and not _EXPLAIN_VERB.search(text))
        if not asks_number:
            return None
        calculator = _choose(text, v, slots.rest)
        if calculator is None:
            return None
        inputs = _inputs_for(calculator, v, text)
    try:
        validated = validate(calculator, inputs)
    except ValidationError:
        return None
    return NumericRequest(calculator, inputs, [*slots.notes, *validated.assumed], _explain(text))


def _is_followup(text: str, v: dict, slots: _Slots) -> bool:
    """A short continuation of the previous question ("and in fp8?", "what about decode?")."""
    names_model = "model" in v or "params" in v
    if names_model and (len(text.split()) > 6 or not opens_as_followup(text)):
        return False  # a new, complete question
    if opens_as_followup(text):
        return True
    return len(text.split()) <= 5 and bool(v) and not _explain(text)


def previous_calculation(history: list[Turn]) -> NumericRequest | None:
    """The calculation the conversation was last about, following follow-ups turn by turn."""
    current = None
    for question in user_questions(history):
        routed = route_numeric(question, current)
        if isinstance(routed, NumericRequest):
            current = routed
    return current


__all__ = ["NumericRequest", "UnknownModel", "UnknownName", "previous_calculation", "route_numeric"]

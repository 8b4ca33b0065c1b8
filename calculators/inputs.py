"""Typed inputs of each calculator (the request bodies of POST /v1/calculate/{name}).

Names are checked against the registries here, so a bad request fails on the field that is wrong
("unknown model 'llama-9'; closest: …"). Optional fields left out take documented defaults; each
model records the defaults it filled in words (`assumed`), which the answer states.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any, Callable, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    model_validator,
)

from . import precision as prec
from .architecture import ModelConfig, ParamCount, count_params
from .registry import closest_gpus, closest_links, closest_models, find_gpu, find_link, find_model
from .units import fmt_int, parse_bandwidth, parse_size


def _lookup(kind: str, find: Callable, closest: Callable) -> Callable[[str], str]:
    def check(name: str) -> str:
        spec = find(name)
        if spec is None:
            raise ValueError(f"unknown {kind} {name!r}; closest: {', '.join(closest(name))}")
        return spec.id

    return check


def _precision(name: str) -> str:
    canonical = prec.normalize(name)
    if canonical is None:
        raise ValueError(f"unknown precision {name!r}; known: {', '.join(prec.BITS)}")
    return canonical


_COUNT = re.compile(r"\s*(\d[\d,]*(?:\.\d+)?)\s*([kmbt]|thousand|million|billion|trillion)?\s*", re.I)
_MULT = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "b": 1e9, "billion": 1e9,
         "t": 1e12, "trillion": 1e12}


def parse_count(value: Any) -> Any:
    """'70B' -> 70e9, '15.6T' -> 15.6e12; numbers pass through."""
    if isinstance(value, str):
        m = _COUNT.fullmatch(value)
        if not m:
            raise ValueError(f"not a count: {value!r} (try '70B', '15.6T')")
        mult = _MULT[m.group(2).lower()] if m.group(2) else 1
        return round(float(m.group(1).replace(",", "")) * mult)
    return value


def parse_context(value: Any) -> Any:
    """Context lengths: '32k' -> 32,768 (k = 1,024 tokens, as context windows are quoted)."""
    if isinstance(value, str) and value.strip().lower().endswith("k"):
        return round(float(value.strip()[:-1].replace(",", "")) * 1024)
    return parse_count(value)


_model_id = _lookup("model", find_model, closest_models)


def _model(value: str | ModelConfig) -> str | ModelConfig:
    return _model_id(value) if isinstance(value, str) else value


ModelRef = Annotated[str | ModelConfig, AfterValidator(_model)]
GpuName = Annotated[str, AfterValidator(_lookup("GPU", find_gpu, closest_gpus))]
LinkName = Annotated[str, AfterValidator(_lookup("link", find_link, closest_links))]
Precision = Annotated[str, AfterValidator(_precision)]
Count = Annotated[int, BeforeValidator(parse_count), Field(gt=0)]
ContextTokens = Annotated[int, BeforeValidator(parse_context), Field(ge=0)]
Bytes = Annotated[int, BeforeValidator(parse_size), Field(gt=0)]
BytesPerSecond = Annotated[float, BeforeValidator(parse_bandwidth), Field(gt=0)]
Fraction01 = Annotated[float, Field(gt=0, le=1)]

COLLECTIVE_OPS = ("all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce", "all_to_all",
                  "send_recv", "gather", "scatter")
_OP_ALIASES = {"sendrecv": "send_recv", "send": "send_recv", "recv": "send_recv", "p2p": "send_recv",
               "pointtopoint": "send_recv", "peertopeer": "send_recv", "alltoallv": "all_to_all"}


def _op(name: str) -> str:
    key = re.sub(r"[\s\-_/]", "", name.lower())
    for op in COLLECTIVE_OPS:
        if key == op.replace("_", ""):
            return op
    if key in _OP_ALIASES:
        return _OP_ALIASES[key]
    raise ValueError(f"unknown collective {name!r}; known: {', '.join(COLLECTIVE_OPS)}")


class CalcInputs(BaseModel):
    """Base: forbids unknown fields and fills documented defaults, remembering which it filled."""

    model_config = ConfigDict(extra="forbid")
    primary: str | None = Field(None, description="quantity to report as primary (default: by what was asked)")
    # field -> (default value or function of the inputs (None = not applicable), words)
    DEFAULTS: ClassVar[dict[str, tuple[Any, str]]] = {}
    _assumed: list[str] = PrivateAttr(default_factory=list)

    @model_validator(mode="after")
    def _fill_defaults(self):
        self._check()
        for name, (default, words) in self.DEFAULTS.items():
            if getattr(self, name) is not None:
                continue
            value = default(self) if callable(default) else default
            if value is None:
                continue
            setattr(self, name, value)
            text = words.format(value=_words(value))
            self._assumed.append(text if "(default" in text else text + _default_suffix(name, value))
        return self

    def _check(self) -> None:
        """Cross-field checks of a subclass (raise ValueError)."""

    @property
    def assumed(self) -> list[str]:
        """The defaults filled in, in words: 'context 8,192 tokens (default)'."""
        return list(self._assumed)

    def resolved(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True)


def _default_suffix(name: str, value: Any) -> str:
    """'(default)', or why this default: the release format of the model."""
    if name == "precision" and value != "bf16":
        return " (default: the model's release format)"
    if name == "precision":
        return " (default)"
    return ""


def _words(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return fmt_int(value)
    if isinstance(value, str):
        spec = find_gpu(value) or find_link(value)
        return spec.name if spec else value
    return str(value)


class _ModelInputs(CalcInputs):
    model: ModelRef | None = Field(None, description="registry name, or explicit config fields")
    params: Count | None = Field(None, description="parameter count when only the size is known ('70B')")

    def _check(self) -> None:
        if self.model is None and self.params is None:
            raise ValueError("give a model (name or config fields) or a parameter count")


def _release_precision(inputs: Any) -> str:
    """Default weight format: the one the model was released in (gpt-oss MXFP4, DeepSeek fp8), else bf16."""
    spec = find_model(inputs.model) if isinstance(inputs.model, str) else None
    return (spec.config.release_quantization if spec else None) or "bf16"


def _kv_default(inputs: Any) -> str | None:
    if inputs.context is None and getattr(inputs, "mode", "inference") == "training":
        return None
    return inputs.precision if inputs.precision in ("fp32", "bf16", "fp16") else "bf16"


class MemoryInputs(_ModelInputs):
    precision: Precision | None = None
    kv_precision: Precision | None = None
    context: ContextTokens | None = Field(None, description="tokens per sequence (KV cache / activations); '32k' = 32,768")
    batch: Count | None = Field(None, description="concurrent sequences (inference) or micro-batch (training)")
    mode: Literal["inference", "training"] = "inference"
    zero_stage: int | None = Field(None, ge=0, le=3)
    fsdp: Literal["full", "hybrid"] | None = None
    shard_group: Count | None = Field(None, description="FSDP hybrid: ranks that shard one replica")
    gpus: Count | None = Field(None, description="GPUs in total (data × tensor × pipeline)")
    dp: Count | None = Field(None, description="data-parallel ranks (training; default gpus / (tp × pp))")
    tp: Count = 1
    pp: Count = 1
    recompute: Literal["none", "selective", "full"] | None = None
    gpu: GpuName | None = None

    DEFAULTS = {
        "precision": (lambda i: _release_precision(i) if i.mode == "inference" else None, "precision {value}"),
        "context": (lambda i: 8192 if i.batch or (i.mode == "training" and i.model) else None,
                    "context {value} tokens (default)"),
        "batch": (lambda i: 1 if i.context else None, "batch {value} (default)"),
        "kv_precision": (lambda i: _kv_default(i) if i.context and i.mode == "inference" else None,
                         "KV cache in {value} (default)"),
        "zero_stage": (lambda i: 0 if i.mode == "training" and i.fsdp is None else None,
                       "ZeRO stage {value} (default: plain data parallel)"),
        "shard_group": (lambda i: 8 if i.fsdp == "hybrid" else None,
                        "FSDP hybrid shard group {value} GPUs (default: one 8-GPU node)"),
        "recompute": (lambda i: "selective" if i.mode == "training" and i.model else None,
                      "activation recomputation: {value} (default; FlashAttention keeps no s² scores)"),
        "gpu": ("h100-sxm", "fit checked against {value} (default)"),
    }

    def _check(self) -> None:
        super()._check()
        if self.gpus is not None and self.gpus % (self.tp * self.pp):
            raise ValueError(f"gpus ({self.gpus}) must be a multiple of tp × pp ({self.tp * self.pp})")
        if self.mode == "inference" and (self.zero_stage or self.fsdp or self.dp):
            self.mode = "training"
        if self.dp is not None:
            if self.gpus is not None and self.gpus != self.dp * self.tp * self.pp:
                raise ValueError(f"gpus ({self.gpus}) must equal dp × tp × pp "
                                 f"({self.dp} × {self.tp} × {self.pp})")
            self.gpus = self.dp * self.tp * self.pp


class KvCacheInputs(_ModelInputs):
    kv_precision: Precision | None = None
    context: ContextTokens | None = Field(None, description="tokens per sequence; '32k' = 32,768")
    batch: Count | None = None

    DEFAULTS = {
        "kv_precision": ("bf16", "KV cache in {value} (default)"),
        "batch": (lambda i: 1 if i.context else None, "batch {value} (default)"),
    }

    def _check(self) -> None:
        if self.model is None:
            raise ValueError("the KV cache needs an architecture: give a model name or config fields")


class DecodeInputs(_ModelInputs):
    precision: Precision | None = None
    kv_precision: Precision | None = None
    gpu: GpuName | None = None
    gpus: Count | None = Field(None, description="tensor-parallel degree")
    batch: Count | None = None
    context: ContextTokens | None = Field(None, description="tokens already in each sequence's KV cache")
    efficiency: Fraction01 | None = Field(None, description="fraction of peak bandwidth achieved")

    DEFAULTS = {
        "precision": (_release_precision, "weights in {value}"),
        "gpu": ("h100-sxm", "GPU {value} (default)"),
        "gpus": (1, "{value} GPU, no tensor parallelism (default)"),
        "batch": (1, "batch {value} (default)"),
        "context": (0, "context {value}: KV-cache reads not counted (default; give a context to include them)"),
        "kv_precision": (lambda i: _kv_default(i) if i.context else None, "KV cache in {value} (default)"),
    }


class CollectiveInputs(CalcInputs):
    op: Annotated[str, AfterValidator(_op)] = "all_reduce"
    algorithm: Literal["ring", "tree", "hierarchical"] | None = Field(
        None, description="ring (flat), tree (all-reduce), hierarchical (two-level all-reduce across nodes)")
    size: Bytes | None = Field(None, description="buffer size S in bytes ('1 GB' accepted)")
    model: ModelRef | None = Field(None, description="size the buffer as this model's parameters × precision")
    params: Count | None = Field(None, description="size the buffer as this many values × precision ('8B')")
    precision: Precision | None = Field(None, description="bytes per value when the buffer is a model's parameters")
    ranks: int | None = Field(None, ge=2)
    nodes: int | None = Field(None, ge=1, description="nodes (ranks = nodes × gpus_per_node)")
    gpus_per_node: int | None = Field(None, ge=1, description="GPUs (ranks) per node")
    link: LinkName | None = Field(None, description="intra-node (scale-up) link")
    inter_link: LinkName | None = Field(None, description="inter-node link, one NIC per GPU (default InfiniBand NDR)")
    nic_bandwidth: BytesPerSecond | None = Field(
        None, description="inter-node bandwidth per GPU per direction ('400 Gb/s'), overrides inter_link")
    gpu: GpuName | None = Field(None, description="picks the GPU's own link when no link is given")
    bandwidth: BytesPerSecond | None = Field(None, description="per-rank bandwidth per direction, overrides the link")
    alpha_s: float | None = Field(None, ge=0, description="per-step latency, overrides the link default")
    algbw: BytesPerSecond | None = Field(None, description="a measured algbw to convert to busbw")
    busbw: BytesPerSecond | None = Field(None, description="a measured busbw to convert to algbw")

    DEFAULTS = {
        "precision": (lambda i: "bf16" if (i.model or i.params) else None,
                      "buffer values in {value} (default)"),
        "size": (lambda i: None if (i.model or i.params) else 10**9, "buffer size 1 GB (default)"),
        "gpus_per_node": (lambda i: _gpus_per_node(i), "{value} GPUs per node (ranks ÷ nodes; 8 by default)"),
        "ranks": (lambda i: i.nodes * i.gpus_per_node if i.nodes else 8,
                  "{value} ranks (nodes × GPUs per node; 8 by default)"),
        "algorithm": (lambda i: "hierarchical" if _hierarchical(i) else "ring",
                      "{value} algorithm (default)"),
        "link": (lambda i: None if i.bandwidth else _gpu_link(i.gpu), "link {value} (default)"),
        "inter_link": (lambda i: "ib-ndr" if (i.nodes or 1) > 1 and not i.nic_bandwidth else None,
                       "inter-node link {value}, one NIC per GPU (default)"),
    }

    def _check(self) -> None:
        if self.algorithm == "tree" and self.op != "all_reduce":
            raise ValueError("the tree algorithm is modelled for all_reduce only")
        if self.algorithm == "hierarchical" and self.op != "all_reduce":
            raise ValueError("the hierarchical (two-level) algorithm is modelled for all_reduce only")
        if self.algorithm == "hierarchical" and ((self.nodes or 1) < 2 or self.gpus_per_node == 1):
            raise ValueError("the hierarchical (two-level) algorithm needs nodes > 1 with several GPUs per node")
        if self.size is not None and (self.model is not None or self.params is not None):
            raise ValueError("give the buffer as a size or as a model's parameters, not both")
        if self.nodes and self.gpus_per_node and self.ranks and self.ranks != self.nodes * self.gpus_per_node:
            raise ValueError(f"ranks ({self.ranks}) must equal nodes × gpus_per_node "
                             f"({self.nodes} × {self.gpus_per_node})")
        if self.nodes and self.ranks and not self.gpus_per_node and self.ranks % self.nodes:
            raise ValueError(f"ranks ({self.ranks}) must be a multiple of nodes ({self.nodes})")
        if self.nodes == 1 and self.gpus_per_node == 1:
            raise ValueError("a collective needs at least 2 ranks")


def _gpus_per_node(inputs: "CollectiveInputs") -> int | None:
    if not inputs.nodes:
        return None
    if inputs.ranks:
        return inputs.ranks // inputs.nodes
    return 8


def _hierarchical(inputs: "CollectiveInputs") -> bool:
    return inputs.op == "all_reduce" and (inputs.nodes or 1) > 1 and (inputs.gpus_per_node or 1) > 1


def _gpu_link(gpu: str | None) -> str:
    """The named GPU's own scale-up link; NVLink 4 only when no GPU is named (never for other vendors)."""
    if not gpu:
        return "nvlink4"
    spec = find_gpu(gpu)
    if spec is None or not spec.link:
        raise ValueError(f"no scale-up link is known for {gpu!r}: give a link or a bandwidth")
    return spec.link


class TrainingInputs(_ModelInputs):
    tokens: Count | None = Field(None, description="training tokens D ('15.6T' accepted)")
    gpu: GpuName | None = None
    gpus: Count | None = None
    precision: Precision | None = None
    mfu: Fraction01 | None = None
    deadline_days: float | None = Field(None, gt=0)

    DEFAULTS = {
        "gpu": ("h100-sxm", "GPU {value} (default)"),
        "precision": ("bf16", "{value} peak (default)"),
        "mfu": (0.4, "MFU {value} (default, typical of large dense runs)"),
    }

    def _check(self) -> None:
        super()._check()
        if self.tokens is None:
            raise ValueError("give the number of training tokens")


class RooflineInputs(CalcInputs):
    gpu: GpuName | None = None
    precision: Precision | None = None
    intensity: float | None = Field(None, gt=0, description="arithmetic intensity in FLOP/B")

    DEFAULTS = {
        "gpu": ("h100-sxm", "GPU {value} (default)"),
        "precision": ("bf16", "{value} peak (default)"),
    }


# --- the model an input names, resolved once --------------------------------------------------------

@dataclass(frozen=True)
class ResolvedModel:
    label: str
    config: ModelConfig | None
    params: ParamCount
    notes: str | None = None

    @property
    def from_config(self) -> bool:
        return self.config is not None


def resolve_model(inputs: _ModelInputs) -> ResolvedModel:
    if isinstance(inputs.model, str):
        spec = find_model(inputs.model)
        return ResolvedModel(spec.name, spec.config, spec.params, spec.notes)
    if isinstance(inputs.model, ModelConfig):
        return ResolvedModel("the given config", inputs.model, count_params(inputs.model))
    n = inputs.params
    return ResolvedModel(f"a {n / 1e9:g}B-parameter model", None, ParamCount(n, n, 0, 0, 0, n, 0))


__all__ = [
    "CalcInputs", "MemoryInputs", "KvCacheInputs", "DecodeInputs", "CollectiveInputs",
    "TrainingInputs", "RooflineInputs", "ResolvedModel", "resolve_model", "COLLECTIVE_OPS",
]

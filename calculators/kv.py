"""KV-cache bytes per token and in total (MHA, GQA, MQA, MLA, sliding windows).

DESIGN §6: per token = 2 (K and V) × layers × kv_heads × head_dim × bytes; MLA caches the
compressed latent plus the shared RoPE key: (kv_lora_rank + qk_rope_head_dim) × layers × bytes,
with no factor 2. Layers with a sliding window hold at most `sliding_window` tokens, so past the
window a new token adds KV only in the full-attention layers: the marginal per-token KV at long
context (`kv_bytes_per_token_past_window`) is per-layer bytes × full layers (0 when every layer
slides, as in Mistral 7B).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import precision as prec
from .architecture import ModelConfig
from .units import fmt_bytes, fmt_int, fmt_kib


@dataclass(frozen=True)
class KvPerToken:
    per_layer: int  # bytes per token per layer
    layers: int
    step: str

    @property
    def bytes(self) -> int:
        return self.per_layer * self.layers

    @property
    def display(self) -> str:
        """'131,072 B (128 KiB)': the literature quotes per-token KV in KiB."""
        return f"{fmt_int(self.bytes)} B ({fmt_kib(self.bytes)})"


def kv_per_token(c: ModelConfig, precision: str) -> KvPerToken:
    b = prec.bytes_per_value(precision)
    if c.is_mla:
        width = c.kv_lora_rank + c.qk_rope_head_dim
        per_layer = int(width * b)
        step = (f"KV per token (MLA) = ({c.kv_lora_rank} kv_lora_rank + {c.qk_rope_head_dim} "
                f"qk_rope_head_dim) × {c.num_hidden_layers} layers × {prec.label(precision)}")
    else:
        per_layer = int(2 * c.num_key_value_heads * c.head_dim * b)
        step = (f"KV per token ({c.attention_kind}) = 2 (K and V) × {c.num_hidden_layers} layers × "
                f"{c.num_key_value_heads} kv_heads × {c.head_dim} head_dim × {prec.label(precision)}")
    total = per_layer * c.num_hidden_layers
    step += f" = {fmt_int(total)} B ({fmt_kib(total)})"
    return KvPerToken(per_layer, c.num_hidden_layers, step)


def kv_past_window(c: ModelConfig, per_token: KvPerToken) -> tuple[int, str] | None:
    """Marginal KV bytes per token once the context is past the sliding window (None: no window)."""
    window = c.sliding_window
    if not window:
        return None
    windowed = c.num_hidden_layers if c.sliding_window_layers is None else c.sliding_window_layers
    full = c.num_hidden_layers - windowed
    marginal = per_token.per_layer * full
    step = (f"KV per token past the {fmt_int(window)}-token window = {fmt_int(per_token.per_layer)} B per "
            f"token-layer × {full} full-attention layers (the {windowed} sliding-window layers stop "
            f"growing) = {fmt_int(marginal)} B ({fmt_kib(marginal)})")
    return marginal, step


def record_kv_per_token(ws, c: ModelConfig, precision: str) -> KvPerToken:
    """Add KV bytes per token to a worksheet, and for sliding-window models the marginal past the window."""
    per_token = kv_per_token(c, precision)
    ws.add("kv_bytes_per_token", per_token.bytes, "B", per_token.display)
    ws.step(per_token.step)
    past = kv_past_window(c, per_token)
    if past is not None:
        marginal, step = past
        ws.add("kv_bytes_per_token_past_window", marginal, "B", f"{fmt_int(marginal)} B ({fmt_kib(marginal)})")
        ws.step(step)
    return per_token


@dataclass(frozen=True)
class KvTotal:
    bytes: int
    step: str
    notes: list[str]
    warnings: list[str]


def kv_total(c: ModelConfig, per_token: KvPerToken, context: int, batch: int) -> KvTotal:
    """KV bytes for `batch` sequences of `context` tokens each."""
    notes: list[str] = []
    warnings: list[str] = []
    window = c.sliding_window
    if window and context > window:
        windowed = c.num_hidden_layers if c.sliding_window_layers is None else c.sliding_window_layers
        full = c.num_hidden_layers - windowed
        token_layers = full * context + windowed * window
        total = per_token.per_layer * token_layers * batch
        step = (f"KV cache = {fmt_int(per_token.per_layer)} B per token-layer × ({full} full layers × "
                f"{fmt_int(context)} tokens + {windowed} sliding-window layers × {fmt_int(window)} "
                f"tokens) × {fmt_int(batch)} sequences = {fmt_int(total)} B = {fmt_bytes(total)}")
        notes.append(f"{windowed} of {c.num_hidden_layers} layers attend over a {fmt_int(window)}-token "
                     "sliding window, so their cache stops growing there")
    else:
        total = per_token.bytes * context * batch
        step = (f"KV cache = {fmt_int(per_token.bytes)} B/token × {fmt_int(context)} tokens × "
                f"{fmt_int(batch)} sequences = {fmt_int(total)} B = {fmt_bytes(total)}")
    if c.max_position_embeddings and context > c.max_position_embeddings:
        warnings.append(f"context {fmt_int(context)} exceeds the model's max_position_embeddings "
                     f"({fmt_int(c.max_position_embeddings)})")
    return KvTotal(total, step, notes, warnings)


def record_kv_total(ws, c: ModelConfig, per_token: KvPerToken, context: int, batch: int) -> KvTotal:
    """Add the KV-cache total to a worksheet: the quantity, its step, and its notes and warnings."""
    kv = kv_total(c, per_token, context, batch)
    ws.add("kv_cache_bytes", kv.bytes, "B")
    ws.step(kv.step)
    for note in kv.notes:
        ws.assume(note)
    for warning in kv.warnings:
        ws.warn(warning)
    return kv

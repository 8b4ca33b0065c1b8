"""A labelled estimate of training activation memory per GPU.

Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large Transformer Models"), 16-bit
activations, per layer: s·b·h·(34 + 5·a·s/h) bytes storing everything; 34·s·b·h with selective
recomputation (FlashAttention never stores the s×s scores); 2·s·b·h with full recomputation (only
the layer input). Tensor parallelism with sequence parallelism divides by t; with 1F1B pipelining
the first stage holds p micro-batches of L/p layers, i.e. L layers' worth. Ignores the embedding
and loss buffers and framework workspace — it is an estimate, and labelled as one.
"""

from __future__ import annotations

from dataclasses import dataclass

from .architecture import ModelConfig
from .units import fmt_bytes, fmt_int


@dataclass(frozen=True)
class Activations:
    bytes: int
    step: str


def activation_bytes(c: ModelConfig, seq: int, micro_batch: int, recompute: str, tp: int) -> Activations:
    s, b, h, a, L = seq, micro_batch, c.hidden_size, c.num_attention_heads, c.num_hidden_layers
    if recompute == "none":
        per_layer = s * b * h * 34 + 5 * a * s * s * b
        formula = f"s·b·h·(34 + 5·a·s/h) = {s}·{b}·{h}·(34 + 5·{a}·{s}/{h})"
    elif recompute == "selective":
        per_layer = 34 * s * b * h
        formula = f"34·s·b·h = 34·{fmt_int(s)}·{b}·{h}"
    else:
        per_layer = 2 * s * b * h
        formula = f"2·s·b·h = 2·{fmt_int(s)}·{b}·{h}"
    total = L * per_layer // tp
    tp_text = f" / {tp} (tensor + sequence parallel)" if tp > 1 else ""
    step = (f"activations (estimate, {recompute} recomputation) = {L} layers × {formula}{tp_text} "
            f"= {fmt_int(total)} B = {fmt_bytes(total)}")
    return Activations(total, step)

"""KV-cache calculator: bytes per token, and in total for a context length × concurrent sequences."""

from __future__ import annotations

from .inputs import KvCacheInputs, resolve_model
from .kv import record_kv_per_token, record_kv_total
from .result import Calculation, Worksheet


def kv_cache(inputs: KvCacheInputs) -> Calculation:
    ws = Worksheet("kv_cache", inputs.resolved())
    for words in inputs.assumed:
        ws.assume(words)
    model = resolve_model(inputs)
    c = model.config
    ws.step(f"{model.label}: {c.num_hidden_layers} layers, {c.attention_kind} "
            + (f"(kv_lora_rank {c.kv_lora_rank}, qk_rope_head_dim {c.qk_rope_head_dim})" if c.is_mla
               else f"({c.num_attention_heads} query heads, {c.num_key_value_heads} KV heads, head_dim {c.head_dim})"))
    per_token = record_kv_per_token(ws, c, inputs.kv_precision)
    if c.is_mla:
        ws.assume("MLA caches the compressed latent and the shared RoPE key once per layer, "
                  "not per head, so there is no factor 2")
    if not inputs.context:
        return ws.result("kv_bytes_per_token")
    record_kv_total(ws, c, per_token, inputs.context, inputs.batch)
    ws.assume("every sequence holds its full context; paging and prefix sharing would lower this")
    return ws.result("kv_cache_bytes")

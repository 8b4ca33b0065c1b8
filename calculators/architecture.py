"""A model's architecture as config fields, and the parameter count that follows from it.

Counts come from the config, not the marketing name (DESIGN §6): embeddings untied unless
`tie_word_embeddings`; RMSNorm weights counted; biases only where the architecture has them; MoE
counted as total and active (dense layers + shared experts + top-k routed experts).
Field names follow Hugging Face configs, so a pasted config.json validates as is.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, PositiveInt, model_validator


class ModelConfig(BaseModel):
    """Architecture fields of a decoder-only transformer (dense, MoE, GQA/MQA/MLA)."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    vocab_size: PositiveInt
    hidden_size: PositiveInt
    intermediate_size: PositiveInt
    num_hidden_layers: PositiveInt
    num_attention_heads: PositiveInt
    num_key_value_heads: PositiveInt | None = None
    head_dim: PositiveInt | None = None
    tie_word_embeddings: bool = False
    max_position_embeddings: PositiveInt | None = None
    # biases and extras some architectures have (Qwen2: q/k/v bias; gpt-oss: all of them)
    qkv_bias: bool = Field(False, validation_alias=AliasChoices("qkv_bias", "attention_bias"))
    o_bias: bool = False
    mlp_bias: bool = False
    attention_sinks: bool = False
    # mixture of experts
    num_experts: int = Field(
        0, ge=0, validation_alias=AliasChoices("num_experts", "num_local_experts", "n_routed_experts")
    )
    num_experts_per_tok: int = Field(
        0, ge=0, validation_alias=AliasChoices("num_experts_per_tok", "experts_per_token")
    )
    n_shared_experts: int = Field(0, ge=0)
    moe_intermediate_size: PositiveInt | None = None
    first_k_dense_replace: int = Field(0, ge=0)
    router_bias: bool = False
    router_score_bias: bool = False
    expert_bias: bool = False
    # multi-head latent attention (DeepSeek-V2/V3)
    q_lora_rank: PositiveInt | None = None
    kv_lora_rank: PositiveInt | None = None
    qk_rope_head_dim: PositiveInt | None = None
    qk_nope_head_dim: PositiveInt | None = None
    v_head_dim: PositiveInt | None = None
    num_nextn_predict_layers: int = Field(0, ge=0)
    # sliding-window attention: how many layers use it (None = all, when sliding_window is set)
    sliding_window: PositiveInt | None = None
    sliding_window_layers: int | None = Field(None, ge=0)
    release_quantization: str | None = None

    @model_validator(mode="after")
    def _fill_derived(self) -> "ModelConfig":
        if self.num_key_value_heads is None:
            self.num_key_value_heads = self.num_attention_heads
        if self.head_dim is None:
            if self.hidden_size < self.num_attention_heads:
                raise ValueError(f"hidden_size ({self.hidden_size}) is smaller than num_attention_heads "
                                 f"({self.num_attention_heads}): give head_dim")
            self.head_dim = self.hidden_size // self.num_attention_heads
        if self.num_experts and not self.num_experts_per_tok:
            raise ValueError("num_experts_per_tok is required for a mixture-of-experts model")
        if self.num_experts_per_tok > self.num_experts:
            raise ValueError("num_experts_per_tok cannot exceed the number of experts")
        if self.kv_lora_rank is not None and self.qk_rope_head_dim is None:
            raise ValueError("MLA needs qk_rope_head_dim alongside kv_lora_rank")
        return self

    @property
    def is_moe(self) -> bool:
        return self.num_experts > 0

    @property
    def is_mla(self) -> bool:
        return self.kv_lora_rank is not None

    @property
    def attention_kind(self) -> str:
        if self.is_mla:
            return "MLA"
        if self.num_key_value_heads == 1:
            return "MQA"
        if self.num_key_value_heads == self.num_attention_heads:
            return "MHA"
        return "GQA"


@dataclass(frozen=True)
class ParamCount:
    """Parameters of the main model (MTP modules excluded), split the ways the calculators need."""

    total: int
    active: int
    embedding: int  # input embedding + (untied) output head
    routed_expert: int  # one routed expert, all layers' worth is routed_expert * moe_layers
    moe_layers: int
    non_expert: int  # everything except routed experts (attention, norms, dense MLPs, shared experts)
    expert_matrices: int  # weight matrices of all routed experts (what MXFP4 releases quantise)


def _attention_params(c: ModelConfig) -> int:
    h = c.hidden_size
    if c.is_mla:
        nope = c.qk_nope_head_dim or 0
        qk_head = nope + c.qk_rope_head_dim
        v_head = c.v_head_dim or c.head_dim
        heads = c.num_attention_heads
        if c.q_lora_rank:
            q = h * c.q_lora_rank + c.q_lora_rank + c.q_lora_rank * heads * qk_head
        else:
            q = h * heads * qk_head
        kv = h * (c.kv_lora_rank + c.qk_rope_head_dim) + c.kv_lora_rank
        kv += c.kv_lora_rank * heads * (nope + v_head)
        return q + kv + heads * v_head * h
    q_out = c.num_attention_heads * c.head_dim
    kv_out = c.num_key_value_heads * c.head_dim
    params = h * q_out + 2 * h * kv_out + q_out * h
    if c.qkv_bias:
        params += q_out + 2 * kv_out
    if c.o_bias:
        params += h
    if c.attention_sinks:
        params += c.num_attention_heads
    return params


def _mlp_params(hidden: int, inner: int, bias: bool) -> int:
    """A gated (SwiGLU) MLP: gate, up and down projections."""
    return 3 * hidden * inner + (2 * inner + hidden if bias else 0)


def expert_matrix_params(c: ModelConfig) -> int:
    """Weight-matrix entries of one routed expert (no biases)."""
    return 3 * c.hidden_size * (c.moe_intermediate_size or c.intermediate_size)


def count_params(c: ModelConfig) -> ParamCount:
    h = c.hidden_size
    layers = c.num_hidden_layers
    embedding = c.vocab_size * h * (1 if c.tie_word_embeddings else 2)
    per_layer_common = _attention_params(c) + 2 * h  # attention + two RMSNorms
    final_norm = h
    if not c.is_moe:
        dense = _mlp_params(h, c.intermediate_size, c.mlp_bias)
        total = embedding + final_norm + layers * (per_layer_common + dense)
        return ParamCount(total, total, embedding, 0, 0, total, 0)

    moe_layers = layers - c.first_k_dense_replace
    inner = c.moe_intermediate_size or c.intermediate_size
    routed = _mlp_params(h, inner, c.expert_bias)
    shared = c.n_shared_experts * _mlp_params(h, inner, c.expert_bias)
    router = c.num_experts * h + (c.num_experts if c.router_bias or c.router_score_bias else 0)
    dense_mlp = _mlp_params(h, c.intermediate_size, c.mlp_bias)
    non_expert = (
        embedding
        + final_norm
        + layers * per_layer_common
        + c.first_k_dense_replace * dense_mlp
        + moe_layers * (shared + router)
    )
    total = non_expert + moe_layers * c.num_experts * routed
    active = non_expert + moe_layers * c.num_experts_per_tok * routed
    expert_matrices = moe_layers * c.num_experts * expert_matrix_params(c)
    return ParamCount(total, active, embedding, routed, moe_layers, non_expert, expert_matrices)

"""Dense vectors (sentence-transformers, offline) and sparse BM25 vectors (Qdrant's own BM25)."""
from __future__ import annotations

import json
import os
from functools import cached_property
from pathlib import Path

# Nothing may download weights at run time: the model is a local path.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np  # noqa: E402
import qdrant_edge  # noqa: E402

BM25 = qdrant_edge.Bm25(qdrant_edge.Bm25Config(language="english"))


def sparse_document(text: str) -> qdrant_edge.SparseVector:
    return BM25.embed_document(text)


def sparse_query(text: str) -> qdrant_edge.SparseVector:
    return BM25.embed_query(text)


class Embedder:
    """Wraps the sentence-transformers model; loads lazily so a no-op rebuild never pays for it."""

    def __init__(self, model: str):
        self.model_name = model

    @cached_property
    def model(self):
        from sentence_transformers import SentenceTransformer

        return SentenceTransformer(self.model_name, device="cpu", local_files_only=True)

    @cached_property
    def model_id(self) -> str:
        """Stable identity of the model for incremental builds: its directory name and weights size."""
        path = Path(self.model_name)
        weights = path / "model.safetensors"
        return f"{path.name}:{weights.stat().st_size}" if weights.exists() else self.model_name

    @cached_property
    def tokenizer(self):
        """The model's own word-piece tokenizer (the fast `tokenizers` one: no torch import, no truncation)."""
        from tokenizers import Tokenizer

        local = Path(self.model_name) / "tokenizer.json"
        if local.exists():
            tokenizer = Tokenizer.from_file(str(local))
        else:
            from transformers import AutoTokenizer

            tokenizer = AutoTokenizer.from_pretrained(self.model_name, local_files_only=True).backend_tokenizer
        tokenizer.no_truncation()  # the shipped tokenizer.json truncates at 128: we must see the real length
        tokenizer.no_padding()
        return tokenizer

    @cached_property
    def max_tokens(self) -> int:
        """The model's window in word pieces (all-MiniLM-L6-v2: 256); longer input is silently truncated."""
        config = Path(self.model_name) / "sentence_bert_config.json"
        if config.exists():
            return int(json.loads(config.read_text())["max_seq_length"])
        return int(self.model.max_seq_length)

    @cached_property
    def dimension(self) -> int:
        return int(self.model.get_embedding_dimension())

    def count_tokens(self, text: str) -> int:
        """Word pieces including [CLS] and [SEP], exactly what the model reads."""
        return len(self.tokenizer.encode(text, add_special_tokens=True).ids)

    def encode(self, texts: list[str], progress: bool = False) -> np.ndarray:
        return self.model.encode(
            texts, batch_size=32, normalize_embeddings=True, show_progress_bar=progress, convert_to_numpy=True
        )

    def encode_query(self, text: str) -> np.ndarray:
        return self.model.encode(text, normalize_embeddings=True, convert_to_numpy=True)

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
    """Wraps the sentence-transformers model; loads lazily so a no-op rebuild never pays for it.

    Passages (`encode`) always go through sentence-transformers. Questions (`encode_queries`) do too,
    unless `onnx_cache` names a directory: then they run on the model's ONNX export (see onnx_encoder.py),
    which the service uses so that embedding releases the GIL. `threads` caps the model's intra-op threads
    (None: the library default, all cores, which suits a build).
    """

    def __init__(self, model: str, threads: int | None = None, onnx_cache: Path | None = None):
        self.model_name = model
        self.threads = threads
        self.onnx_cache = onnx_cache

    @cached_property
    def model(self):
        import torch
        from sentence_transformers import SentenceTransformer

        if self.threads:
            torch.set_num_threads(self.threads)
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

    @cached_property
    def _query_encoder(self):
        if self.onnx_cache is not None:
            from .onnx_encoder import load_or_export

            onnx = load_or_export(self, self.onnx_cache, self.threads or 1)
            if onnx is not None:
                return onnx.encode
        return self.encode

    @property
    def query_backend(self) -> str:
        return "torch" if self._query_encoder == self.encode else "onnx"

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        return self._query_encoder(texts)

    def encode_query(self, text: str) -> np.ndarray:
        return self.encode_queries([text])[0]

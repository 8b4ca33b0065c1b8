"""Dense vectors: the sentence-transformers model (all-MiniLM-L6-v2 by default), loaded from a local path.

With `onnx_cache` set (the default for the service and for builds: `Settings.embedder()`), passages and
questions run on the model's checked ONNX export (onnx.py) and PyTorch is loaded only to make that export
once; without it, sentence-transformers embeds. Both give the same vectors to ~1e-7, so an index built by
one is searched by the other.
"""
from __future__ import annotations

import json
from functools import cached_property
from pathlib import Path

import numpy as np

from . import offline  # noqa: F401 - the offline switches, before any Hugging Face import


class Embedder:
    """Loads lazily, so a no-op rebuild never pays for the model. `threads` caps the cores it uses
    (None: all of them, which suits a build)."""

    def __init__(self, model: str, threads: int | None = None, onnx_cache: Path | None = None):
        self.model_name = model
        self.threads = threads
        self.onnx_cache = onnx_cache

    @cached_property
    def model(self):
        """The sentence-transformers model (imports PyTorch)."""
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
        return int(self.encode(["dimension probe"]).shape[1])

    def count_tokens(self, text: str) -> int:
        """Word pieces including [CLS] and [SEP], exactly what the model reads."""
        return len(self.tokenizer.encode(text, add_special_tokens=True).ids)

    @cached_property
    def _onnx(self):
        if self.onnx_cache is None:
            return None
        from .onnx import load_or_export

        return load_or_export(Path(self.model_name), self.model_id, self.max_tokens, self.onnx_cache,
                              self.threads or 0, lambda: self.model)  # 0: every core

    @property
    def backend(self) -> str:
        return "onnx" if self._onnx is not None else "torch"

    def encode(self, texts: list[str], progress: bool = False) -> np.ndarray:
        """Unit-length vectors, one per text, in order."""
        if self._onnx is not None:
            return self._onnx.encode(list(texts))
        return self.model.encode(list(texts), batch_size=32, normalize_embeddings=True, show_progress_bar=progress,
                                 convert_to_numpy=True)

    def encode_query(self, text: str) -> np.ndarray:
        return self.encode([text])[0]

"""The embedding model on ONNX Runtime: the same sentence-transformers model, exported once and checked.

Why: PyTorch spends most of a short forward pass in Python (transformers' module calls and mask
building) holding the GIL, so in the service concurrent questions queue behind it and a 2-core box serves
from one core. ONNX Runtime runs the whole pass in native code with the GIL released, and is ~3× quicker
for a single question on this CPU (4.6 ms against 13–15 ms). sentence-transformers' own `backend="onnx"`
would do this, but it needs optimum, which pins transformers < 4.58; so the model is exported here with
`torch.onnx`, once, into a cache directory, and the export is kept only if it reproduces
sentence-transformers' vectors. Index builds embed passages on the same file (sorted by length, so a
batch carries little padding).
"""
from __future__ import annotations

import json
import logging
import os
import re
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

import numpy as np

log = logging.getLogger("ingest.embedding.onnx")

# Largest difference from sentence-transformers' vector (any component) an export may show and be used.
TOLERANCE = 1e-4
_PROBES = ["What is the roofline model?", "", "HBM3e moves 4.8 TB/s; an H100 has 80 GB. " * 40]
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")


class OnnxEncoder:
    """Tokenize with the model's own tokenizer.json, run the exported graph, L2-normalise (as ST does)."""

    def __init__(self, path: Path, model_dir: Path, max_tokens: int, threads: int):
        """`threads` batches run side by side (0: one per core), each on one thread: for the short
        sequences of this model that scales better than splitting every matrix product across cores."""
        import onnxruntime
        from tokenizers import Tokenizer

        self.workers = threads or os.cpu_count() or 1
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self.inputs = [i.name for i in self.session.get_inputs()]
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        pad_token = _pad_token(model_dir)
        self.tokenizer.enable_truncation(max_length=max_tokens)
        self.tokenizer.enable_padding(pad_id=self.tokenizer.token_to_id(pad_token), pad_token=pad_token)

    def encode(self, texts: list[str], batch_tokens: int = 1024) -> np.ndarray:
        """Vectors in the order of `texts`. Texts of similar length are batched together, up to about
        `batch_tokens` word pieces a batch: many short questions share one run (each run has a fixed cost),
        while long passages go a few at a time (padding and big attention matrices cost more than batching
        saves)."""
        # The tokenizer pads a batch to its longest text, so each text's own length is its mask's sum.
        lengths = [sum(e.attention_mask) for e in self.tokenizer.encode_batch(texts)]
        order = np.argsort(lengths, kind="stable")
        batches, current = [], []
        for i in order:
            if current and (len(current) + 1) * lengths[i] > batch_tokens:
                batches.append(current)
                current = []
            current.append(i)
        batches.append(current)
        run = lambda chosen: self._encode_batch([texts[i] for i in chosen])  # noqa: E731
        if self.workers == 1 or len(batches) == 1:
            vectors = [run(chosen) for chosen in batches]
        else:
            with ThreadPoolExecutor(self.workers) as pool:  # ONNX Runtime releases the GIL while it runs
                vectors = list(pool.map(run, batches))
        out = np.empty((len(texts), vectors[0].shape[1]), dtype=np.float32)
        for chosen, batch in zip(batches, vectors):
            out[chosen] = batch
        return out

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        encodings = self.tokenizer.encode_batch(texts)
        features = {
            "input_ids": [e.ids for e in encodings],
            "attention_mask": [e.attention_mask for e in encodings],
            "token_type_ids": [e.type_ids for e in encodings],
        }
        vectors = self.session.run(None, {name: np.asarray(features[name], dtype=np.int64) for name in self.inputs})[0]
        return vectors / np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)


def load_or_export(model_dir: Path, model_id: str, max_tokens: int, cache_dir: Path, threads: int,
                   load_reference: Callable) -> OnnxEncoder | None:
    """The cached export of the model (exported and checked first if missing or unreadable); None when the
    model cannot be exported faithfully, and the caller keeps sentence-transformers.

    `load_reference()` returns the sentence-transformers model: only called when an export is needed."""
    if not (model_dir / "tokenizer.json").exists():
        log.warning("embedding with PyTorch: %s has no local tokenizer.json", model_dir)
        return None
    target = cache_dir / f"{re.sub(r'[^A-Za-z0-9_.-]+', '-', model_id)}.onnx"
    if target.exists():
        try:
            return OnnxEncoder(target, model_dir, max_tokens, threads)
        except Exception as exc:  # a truncated or foreign file: export again rather than fail to start
            log.warning("the cached ONNX model %s is unreadable (%s); exporting it again", target, exc)
    try:
        return export(load_reference(), model_dir, max_tokens, target, threads)
    except Exception as exc:
        log.warning("embedding with PyTorch: exporting %s to ONNX failed: %s", model_dir, exc)
        return None


def export(model, model_dir: Path, max_tokens: int, target: Path, threads: int) -> OnnxEncoder:
    """Trace the whole sentence-transformers pipeline (transformer + pooling) into `target`, atomically,
    and only after its vectors matched sentence-transformers' on probes of several lengths and batch sizes.
    Returns the encoder that passed that check (its session holds the graph: the file is not read again)."""
    import torch

    features = model.preprocess(["a probe sentence", "and a second, longer probe sentence"])
    names = [name for name in _INPUTS if name in features]

    class Pipeline(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, *tensors):
            return self.model(dict(zip(names, tensors)))["sentence_embedding"]

    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    try:
        with warnings.catch_warnings(), torch.inference_mode():
            warnings.simplefilter("ignore")  # the tracer's notes on constant-folded Python branches
            torch.onnx.export(Pipeline(), tuple(features[n] for n in names), str(tmp), input_names=names,
                              output_names=["embedding"], opset_version=17, dynamo=False,
                              dynamic_axes={**{n: {0: "batch", 1: "tokens"} for n in names}, "embedding": {0: "batch"}})
        exported = OnnxEncoder(tmp, model_dir, max_tokens, threads)
        reference = lambda batch: model.encode(batch, normalize_embeddings=True, convert_to_numpy=True)  # noqa: E731
        gap = max(float(np.abs(exported.encode(batch) - reference(batch)).max()) for batch in (_PROBES[:1], _PROBES))
        if gap > TOLERANCE:
            raise ValueError(f"the export differs from sentence-transformers by {gap:.2g} (tolerance {TOLERANCE})")
        os.replace(tmp, target)
        log.info("exported %s to %s (largest difference from sentence-transformers %.1g)", model_dir, target, gap)
        return exported
    finally:
        tmp.unlink(missing_ok=True)


def _pad_token(model_dir: Path) -> str:
    config = model_dir / "tokenizer_config.json"
    token = json.loads(config.read_text()).get("pad_token") if config.exists() else None
    if isinstance(token, dict):  # older configs store an AddedToken
        token = token.get("content")
    return token or "[PAD]"

"""Questions embedded on the model's ONNX export land where sentence-transformers puts them, and the export
is made once, checked, cached, and replaced when the cached file is damaged."""
from __future__ import annotations

import logging

import numpy as np
import pytest

from ingest.embedding import onnx as onnx_encoder
from ingest.embedding import Embedder
from ingest.settings import IndexSettings

MODEL = IndexSettings().embedding_model
QUESTIONS = [
    "What is the roofline model?",
    "kv",
    "How much memory does Llama 3.1 70B need in fp8 with 32k context for 16 users? " * 12,  # > 256 word pieces
]


@pytest.fixture(scope="module")
def reference() -> np.ndarray:
    return Embedder(MODEL).encode(QUESTIONS)  # no ONNX cache: sentence-transformers itself


def test_onnx_questions_match_sentence_transformers(tmp_path, reference):
    embedder = Embedder(MODEL, onnx_cache=tmp_path)
    assert embedder.backend == "onnx"
    batch = embedder.encode(QUESTIONS)
    assert np.abs(batch - reference).max() < 1e-4
    for question, expected in zip(QUESTIONS, reference):  # alone (no padding) as well as in a batch
        assert float(embedder.encode_query(question) @ expected) > 0.9999
    assert [p.suffix for p in tmp_path.iterdir()] == [".onnx"]  # the export, and no temporary file left


def test_a_second_start_uses_the_cached_export_without_loading_pytorch(tmp_path, reference):
    Embedder(MODEL, onnx_cache=tmp_path).encode_query("warm-up")
    restarted = Embedder(MODEL, onnx_cache=tmp_path)
    vector = restarted.encode_query(QUESTIONS[0])
    assert "model" not in restarted.__dict__  # the sentence-transformers model was never loaded
    assert float(vector @ reference[0]) > 0.9999


def test_a_damaged_cached_export_is_replaced(tmp_path, reference, caplog):
    Embedder(MODEL, onnx_cache=tmp_path).encode_query("warm-up")
    [cached] = list(tmp_path.iterdir())
    cached.write_bytes(cached.read_bytes()[: 1 << 20])  # a truncated copy, as after a full disk
    with caplog.at_level(logging.WARNING, logger="ingest.embedding.onnx"):
        embedder = Embedder(MODEL, onnx_cache=tmp_path)
        vector = embedder.encode_query(QUESTIONS[0])
    assert "unreadable" in caplog.text and embedder.backend == "onnx"
    assert float(vector @ reference[0]) > 0.9999
    assert cached.stat().st_size > 1 << 20


def test_an_export_that_does_not_reproduce_the_model_is_not_used(tmp_path, reference, caplog, monkeypatch):
    monkeypatch.setattr(onnx_encoder, "TOLERANCE", -1.0)  # no export can pass: as if tracing had gone wrong
    with caplog.at_level(logging.WARNING, logger="ingest.embedding.onnx"):
        embedder = Embedder(MODEL, onnx_cache=tmp_path)
        vector = embedder.encode_query(QUESTIONS[0])
    assert embedder.backend == "torch"
    assert "differs from sentence-transformers" in caplog.text
    assert list(tmp_path.iterdir()) == []  # nothing cached that a later start could pick up
    assert float(vector @ reference[0]) > 0.9999

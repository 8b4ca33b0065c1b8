"""Chunks are sized in the embedding model's own word pieces, so none is silently truncated."""
from __future__ import annotations

from conftest import FIXTURE_CORPUS, copy_corpus
from ingest.chunking import chunk_corpus
from ingest.corpus import load_corpus
from ingest.embedding import Embedder
from ingest.settings import IndexSettings

EMBEDDER = Embedder(IndexSettings().embedding_model)


def test_no_chunk_exceeds_the_model_window_even_for_a_very_long_section(tmp_path):
    corpus_dir = copy_corpus(tmp_path)
    article = corpus_dir / "articles" / "kv-cache.md"
    long_text = " ".join(f"Sentence {i} explains how decode reads the KV cache of layer {i % 80} from HBM." for i in range(400))
    article.write_text(article.read_text().replace("## Sizing the cache\n", f"## Sizing the cache\n\n{long_text}\n\n"))
    chunks = chunk_corpus(load_corpus(corpus_dir), EMBEDDER)
    assert EMBEDDER.max_tokens == 256
    longest = max(EMBEDDER.count_tokens(c.embed_text) for c in chunks)
    assert longest <= EMBEDDER.max_tokens
    sizing = [c for c in chunks if c.anchor == "sizing-the-cache"]
    assert len(sizing) > 10  # the long section really was split
    # the text survives: every sentence of the long section lands in some chunk
    joined = " ".join(c.text for c in sizing)
    assert "Sentence 399 explains" in joined and "Sentence 0 explains" in joined


def test_chunks_carry_their_section_and_a_citable_url():
    chunks = chunk_corpus(load_corpus(FIXTURE_CORPUS), EMBEDDER)
    achieved = next(c for c in chunks if c.anchor == "what-it-achieved")
    assert achieved.doc_id == "mooncake" and achieved.kind == "article"
    assert achieved.section == "What it achieved"
    assert achieved.url == "https://learn.ai-infra.example/articles/mooncake#what-it-achieved"
    assert achieved.embed_text.startswith("Mooncake: keeping the KV cache so the GPUs don't redo the work › What it achieved\n")
    # the widget's own section is not answer material
    assert not any(c.anchor == "ask-about-this-article" for c in chunks)


def test_headings_inside_code_fences_do_not_split_sections(tmp_path):
    corpus_dir = copy_corpus(tmp_path)
    article = corpus_dir / "articles" / "kv-cache.md"
    code = "```python\n## not a heading\nx = 1\n```"
    article.write_text(article.read_text().replace("## Sizing the cache\n", f"## Sizing the cache\n\n{code}\n"))
    doc = next(d for d in load_corpus(corpus_dir).documents if d.id == "kv-cache")
    assert "Sizing the cache" in [s.heading for s in doc.sections]
    assert "not a heading" not in [s.heading for s in doc.sections]

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


def test_a_code_block_split_across_chunks_is_fenced_in_each_and_never_quoted_as_prose(tmp_path):
    from ingest.index import Hit
    from service.answer.compose import ExtractiveComposer
    from ingest.sentences import sentences
    from service.answer.terms import TermWeights

    corpus_dir = copy_corpus(tmp_path)
    article = corpus_dir / "articles" / "kv-cache.md"
    code = "\n".join(f"def kv_bytes_{i}(layers, kv_heads, head_dim):\n    return 2 * layers * kv_heads * head_dim * {i}\n"
                     for i in range(60))
    after = "The functions above compute the cache size of a token for each precision in turn."
    article.write_text(article.read_text().replace(
        "## Sizing the cache\n", f"## Sizing the cache\n\nThe code below sizes the cache.\n\n```python\n{code}```\n\n{after}\n\n"))
    sizing = [c for c in chunk_corpus(load_corpus(corpus_dir), EMBEDDER) if c.anchor == "sizing-the-cache"]
    assert len(sizing) > 3  # the block really was cut
    for chunk in sizing:
        fences = [line for line in chunk.text.splitlines() if line.startswith("```")]
        assert len(fences) % 2 == 0, chunk.text  # every chunk is Markdown that stands alone
        assert "def kv_bytes" not in " ".join(sentences(chunk.text))  # code is never answer prose
        assert EMBEDDER.count_tokens(chunk.embed_text) <= EMBEDDER.max_tokens
    assert not any(c.text.lstrip().startswith(("def kv_bytes", "return 2")) for c in sizing)  # no bare code opens a chunk
    assert sum(c.text.startswith("```python\n") for c in sizing) >= 2  # continuation chunks re-open the block
    last = next(c for c in sizing if after in c.text)
    hit = Hit(last, 0.7, 0.7)
    answer, _ = ExtractiveComposer(TermWeights([c.text for c in sizing]), 1).compose(
        "What do the functions above compute for each precision?", [hit])
    assert answer.startswith(after)  # the prose after the block is still prose

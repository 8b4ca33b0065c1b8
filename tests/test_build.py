"""Index releases: incremental rebuilds, atomic promotion, pruning, and builds that fail or die."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from conftest import copy_corpus, make_settings
from ingest.build import BuildError, build
from ingest.index.server import ServerStore
from ingest.index.edge import EdgeStore
from service.app import create_app

ROOT = Path(__file__).parent.parent


def ask(client: TestClient, question: str, article: str | None = None) -> dict:
    response = client.post("/v1/ask", json={"question": question, "article": article})
    assert response.status_code == 200, response.text
    return response.json()


def test_rebuild_without_changes_reembeds_nothing_and_one_change_reembeds_only_its_chunks(tmp_path):
    corpus = copy_corpus(tmp_path)
    settings = make_settings(tmp_path, corpus)
    first = build(settings, progress=False)
    assert first.promoted and first.reembedded == first.chunks
    assert first.units_embedded > first.chunks  # a sentence vector for every unit of every chunk

    again = build(settings, progress=False)
    assert again.up_to_date and again.reembedded == 0
    assert again.release_id == first.release_id

    concept = corpus / "concepts" / "inference-and-serving" / "the-kv-cache.md"
    concept.write_text(concept.read_text().replace("one new row per layer.", "one new row per layer, per head."))
    changed = build(settings, progress=False)
    assert changed.release_id != first.release_id
    assert 1 <= changed.reembedded <= 2  # the concept page has two short sections; only the edited one changes
    assert changed.chunks == first.chunks
    assert 1 <= changed.units_embedded <= 12  # only the edited chunk's sentences are encoded again


def test_hits_carry_each_sentences_cosine_to_the_question(tmp_path):
    """The sentence vectors a build stores come back with every hit, one cosine per unit, in unit order:
    asking a passage's own sentence finds that sentence at ~1 and the others lower."""
    from ingest.embedding import Embedder, sparse_document
    from ingest.index import open_store
    from ingest.sentences import units

    settings = make_settings(tmp_path, copy_corpus(tmp_path))
    build(settings, progress=False)
    reader = open_store(settings).open()
    embedder = Embedder(settings.embedding_model)
    probe = next(p for p in (h.passage for h in reader.search(embedder.encode_query("KV cache"), sparse_document("KV cache"),
                                                              None, limit=10, mode="dense"))
                 if len([u for u in units(p.text) if u.quotable]) >= 3)
    said = [u for u in units(probe.text) if u.quotable][1]
    hits = reader.search(embedder.encode_query(said.text), sparse_document(said.text), None, limit=5, mode="dense")
    hit = next(h for h in hits if h.passage.content_hash == probe.content_hash)
    assert len(hit.unit_cosines) == len(units(probe.text))
    assert hit.unit_cosines[said.index] > 0.99  # float16 storage keeps cosines within ~1e-3
    assert max(range(len(hit.unit_cosines)), key=hit.unit_cosines.__getitem__) == said.index


@pytest.mark.parametrize("backend", ["edge", "server"])
def test_sentence_cosines_are_taken_with_the_query_s_units_vector_when_it_has_one(tmp_path, backend):
    """The question adapter's vector is what the sentences are compared with; the passages are still found
    and ordered by the question's own vector."""
    from ingest.embedding import Embedder, sparse_document
    from ingest.index import open_store
    from ingest.sentences import units

    settings = make_settings(tmp_path, copy_corpus(tmp_path))
    store = ServerStore(":memory:", "chunks") if backend == "server" else None
    build(settings, progress=False, store=store)
    reader = (store or open_store(settings)).open()
    embedder = Embedder(settings.embedding_model)
    question = embedder.encode_query("KV cache")
    plain = reader.search(question, sparse_document("KV cache"), None, limit=5, mode="dense")
    probe = next(h for h in plain if len([u for u in units(h.passage.text) if u.quotable]) >= 2)
    said = [u for u in units(probe.passage.text) if u.quotable][-1]
    target = embedder.encode_query(said.text)  # as if the adapter mapped the question onto that sentence
    mapped = reader.search(question, sparse_document("KV cache"), None, limit=5, mode="dense", units=target)
    assert [h.passage.content_hash for h in mapped] == [h.passage.content_hash for h in plain]
    hit = next(h for h in mapped if h.passage.content_hash == probe.passage.content_hash)
    assert max(range(len(hit.unit_cosines)), key=hit.unit_cosines.__getitem__) == said.index
    assert hit.unit_cosines != probe.unit_cosines


def test_a_changed_sentence_split_reencodes_sentence_vectors_but_reuses_passage_vectors(tmp_path, monkeypatch):
    """Stored sentence vectors are reused only for the same units: after a change to how passages split into
    sentences, every chunk's sentences are encoded again, though no passage is re-embedded."""
    import ingest.build

    corpus = copy_corpus(tmp_path)
    settings = make_settings(tmp_path, corpus)
    first = build(settings, progress=False)
    monkeypatch.setattr(ingest.build, "unit_texts", lambda text: [t.upper() for t in first_units(text)])
    page = corpus / "concepts" / "napkin-math-and-capacity" / "kv-cache-sizing.md"
    page.write_text(page.read_text().replace("Sixteen users", "Sixteen concurrent users"))
    second = build(settings, progress=False)
    assert second.reembedded == 1
    assert second.units_embedded == first.units_embedded


def first_units(text: str) -> list[str]:
    from ingest.embedding.unit_vectors import unit_texts

    return unit_texts(text)


def test_old_releases_are_pruned_but_the_live_one_is_kept(tmp_path):
    corpus = copy_corpus(tmp_path)
    settings = make_settings(tmp_path, corpus, keep_releases=2)
    page = corpus / "concepts" / "napkin-math-and-capacity" / "kv-cache-sizing.md"
    releases = []
    for i in range(4):
        page.write_text(page.read_text() + f"\nRevision {i} of this page rounds every figure to three digits.\n")
        releases.append(build(settings, progress=False).release_id)
    store = EdgeStore(settings.data_dir / "index")
    assert store.releases() == releases[-2:]
    assert store.live_release() == releases[-1]


def test_a_corpus_with_errors_never_touches_the_live_index(tmp_path):
    corpus = copy_corpus(tmp_path)
    settings = make_settings(tmp_path, corpus)
    live = build(settings, progress=False).release_id
    article = corpus / "articles" / "mooncake.md"
    article.write_text(article.read_text().replace("sources: [mooncake-2024,", "sources: [missing-2099,"))
    with pytest.raises(BuildError) as failure:
        build(settings, progress=False)
    assert any("missing-2099" in p.message for p in failure.value.problems)
    assert EdgeStore(settings.data_dir / "index").live_release() == live


def test_a_build_killed_midway_leaves_the_service_answering_from_the_old_index(tmp_path):
    corpus = copy_corpus(tmp_path)
    settings = make_settings(tmp_path, corpus)
    old = build(settings, progress=False).release_id
    # enough new text that the next build is still embedding when it is killed
    filler = "\n".join(f"Paragraph {i}: the decode step streams weights and cache from HBM once per token.\n"
                       for i in range(600))
    (corpus / "articles" / "kv-cache.md").write_text((corpus / "articles" / "kv-cache.md").read_text() + "\n## Appendix\n\n" + filler)
    env = {**os.environ, "CORPUS_DIR": str(corpus), "DATA_DIR": str(settings.data_dir), "QDRANT_URL": ""}
    env.pop("QDRANT_URL")
    proc = subprocess.Popen([sys.executable, "-m", "ingest", "build", "--quiet"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    releases = settings.data_dir / "index" / "releases"
    deadline = time.monotonic() + 120
    while len(list(releases.iterdir())) < 2:  # the new release directory exists: the build is writing
        assert proc.poll() is None, proc.stderr.read().decode()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()

    store = EdgeStore(settings.data_dir / "index")
    assert store.live_release() == old
    with TestClient(create_app(settings)) as client:
        body = ask(client, "What goes into the formula for the cache size per token?", "kv-cache")
        assert body["route"] == "retrieval"
        assert client.get("/readyz").json()["release"] == old
    # the next build succeeds and cleans up the half-written release
    report = build(settings, progress=False)
    assert report.promoted and store.live_release() == report.release_id
    assert all((releases / r / "manifest.json").exists() for r in store.releases())


def test_server_backend_builds_promotes_by_alias_and_rebuilds_incrementally(tmp_path):
    store = ServerStore(":memory:", "chunks")
    corpus = copy_corpus(tmp_path)
    settings = make_settings(tmp_path, corpus)
    first = build(settings, progress=False, store=store)
    assert store.live_release() == first.release_id
    assert build(settings, progress=False, store=store).up_to_date
    page = corpus / "concepts" / "napkin-math-and-capacity" / "kv-cache-sizing.md"
    page.write_text(page.read_text().replace("Sixteen users", "Sixteen concurrent users"))
    second = build(settings, progress=False, store=store)
    assert second.reembedded == 1 and store.live_release() == second.release_id
    assert 1 <= second.units_embedded <= 12  # the server keeps sentence vectors for reuse too
    with TestClient(create_app(settings, store=store)) as client:
        body = ask(client, "Give a worked example of sizing the cache for sixteen users on Llama 3.1 70B")
        assert body["route"] == "retrieval"
        assert body["citations"][0]["url"].endswith("/concepts/kv-cache-sizing#a-worked-example")


def test_tied_fused_scores_come_back_in_one_order_whatever_order_qdrant_used():
    """RRF ties (mirrored dense/sparse ranks) are ordered by cosine, then id: the same question cites
    the same passages after a restart, and evals are reproducible."""
    from types import SimpleNamespace

    import numpy as np

    from ingest.index.schema import DENSE, ranked_hits
    from ingest.passage import Passage

    question = np.array([1.0, 0.0], dtype=np.float32)

    def passage(doc_id: str) -> dict:
        return Passage(doc_id, "article", doc_id, "", "", "", "", 0).payload()

    def point(pid: str, score: float, vector: list[float]):
        return SimpleNamespace(id=pid, score=score, vector={DENSE: vector}, payload=passage(pid))

    points = [point("a", 0.032, [0.6, 0.8]), point("b", 0.032, [0.8, 0.6]), point("c", 0.032, [0.8, 0.6]),
              point("d", 0.033, [0.0, 1.0]), point("e", 0.010, [1.0, 0.0])]
    orders = [ranked_hits(list(p), question, limit=3) for p in (points, points[::-1], points[2:] + points[:2])]
    ids = [[h.passage.doc_id for h in hits] for hits in orders]
    assert ids[0] == ids[1] == ids[2] == ["d", "b", "c"]  # best fused score, then the closer of the tied, then id

"""`python -m ingest build`: corpus → chunks → vectors → a new index release, promoted only when sound.

The new release is written beside the live one; `LIVE` (or the server alias) moves to it only after it
finished and passed a sanity check, so a failed or killed build never touches what is being served.
Unchanged chunks (same embedded text, same model) reuse their vectors from the live release, and their
sentence vectors while they still split into the same units (embedding/unit_vectors.py).
"""
from __future__ import annotations

import datetime as dt
import hashlib
import time
from dataclasses import dataclass

from tqdm import tqdm

from .chunking import CHUNKER_VERSION, chunk_corpus
from .corpus import Corpus
from .embedding import Embedder, sparse_document
from .embedding.unit_vectors import PackedUnits, pack, unit_texts, units_hash
from .errors import BuildError, StoreError
from .index import IndexReader, IndexStore, open_store
from .passage import Passage
from .validate import validate

SCHEMA_VERSION = 2  # 2: each point also stores its units' vectors
_BATCH = 256  # passages (or units) embedded per call (the encoder batches them by length inside)


@dataclass
class BuildReport:
    release_id: str | None
    documents: int
    chunks: int
    reembedded: int
    seconds: float
    promoted: bool
    up_to_date: bool = False
    units_embedded: int = 0  # sentence vectors made (not reused)

    def summary(self) -> str:
        if self.up_to_date:
            return (f"index is up to date (release {self.release_id}): {self.documents} documents, "
                    f"{self.chunks} chunks, 0 re-embedded, {self.seconds:.1f} s")
        state = "promoted" if self.promoted else "built (not promoted)"
        return (f"release {self.release_id} {state}: {self.documents} documents, {self.chunks} chunks, "
                f"{self.reembedded} re-embedded ({self.units_embedded} sentence vectors), {self.seconds:.1f} s")


def new_release_id() -> str:
    return dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")


def input_fingerprint(corpus: Corpus, model_id: str) -> str:
    """Everything a release is built from, hashed: an equal fingerprint means a rebuild would change nothing.

    Checked before chunking, so a no-op rebuild costs one read of the corpus files and nothing more.
    """
    digest = hashlib.sha256(f"{SCHEMA_VERSION}|{CHUNKER_VERSION}|{model_id}|{corpus.base_url}".encode())
    for doc in corpus.documents:
        digest.update(f"{doc.path.relative_to(corpus.root)}|{doc.content_hash}".encode())
    return digest.hexdigest()


def build(settings, promote: bool = True, progress: bool = True, store: IndexStore | None = None) -> BuildReport:
    started = time.perf_counter()
    corpus, problems = validate(settings.corpus_dir)
    errors = [p for p in problems if p.severity == "error"]
    if corpus is None or errors:
        raise BuildError(f"the corpus has {len(errors)} error(s); fix them (see `python -m ingest validate`)", errors)
    embedder = settings.embedder(threads=None)  # a build has the machine: every core
    fingerprint = input_fingerprint(corpus, embedder.model_id)
    store = store or open_store(settings)
    live = _open_live(store)
    if promote and live is not None and live.manifest.get("fingerprint") == fingerprint:
        return BuildReport(live.manifest.get("release_id"), len(corpus.documents), live.manifest.get("chunks", 0), 0,
                           time.perf_counter() - started, promoted=False, up_to_date=True)
    chunks = chunk_corpus(corpus, embedder)
    if not chunks:
        raise BuildError("the corpus produced no chunks")
    reusable = live.vectors_by_hash(embedder.model_id) if live is not None else {}
    release_id = new_release_id()
    writer = store.new_release(release_id, embedder.dimension)
    try:
        reembedded, units_embedded = _write_chunks(writer, chunks, reusable, embedder, progress)
        manifest = {
            "release_id": release_id, "schema_version": SCHEMA_VERSION, "model_id": embedder.model_id,
            "fingerprint": fingerprint, "documents": len(corpus.documents), "chunks": len(chunks),
            "created_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            "build_seconds": round(time.perf_counter() - started, 3),
        }
        reader = writer.finish(manifest)
        _sanity_check(reader, chunks, embedder)
    except OSError as exc:  # disk full, read-only or vanished disk: say so; the live release is untouched
        writer.abort()
        raise BuildError(f"writing release {release_id} failed: {exc.strerror or exc}; the partial release was removed") from exc
    except BaseException:
        writer.abort()
        raise
    if promote:
        store.promote(release_id)
        store.prune(settings.keep_releases)
    return BuildReport(release_id, len(corpus.documents), len(chunks), reembedded,
                       time.perf_counter() - started, promoted=promote, units_embedded=units_embedded)


def _open_live(store) -> IndexReader | None:
    try:
        return store.open() if store.live_release() else None
    except StoreError:
        return None  # a broken live release is rebuilt from scratch rather than reused


def _write_chunks(writer, chunks: list[Passage], reusable: dict, embedder: Embedder,
                  progress: bool) -> tuple[int, int]:
    """Writes every chunk with its vectors (reused where they can be); returns how many chunks and how many units
    were embedded."""
    fresh = [c for c in chunks if c.content_hash not in reusable]
    vectors = {h: stored.dense for h, stored in reusable.items()}
    for chunk, vector in zip(fresh, _encode(embedder, [c.embed_text for c in fresh], "embedding", "chunk", progress)):
        vectors[chunk.content_hash] = vector.tolist()
    packed, units = _unit_vectors(chunks, reusable, embedder, progress)
    for start in range(0, len(chunks), 256):
        batch = chunks[start : start + 256]
        writer.write([(c, vectors[c.content_hash], sparse_document(c.embed_text), packed[c.content_hash])
                      for c in batch])
    return len(fresh), units


def _unit_vectors(chunks: list[Passage], reusable: dict, embedder: Embedder,
                  progress: bool) -> tuple[dict[str, PackedUnits], int]:
    """Each chunk's packed unit vectors (the stored ones while its units are unchanged, else encoded afresh),
    and how many units were encoded."""
    packed, todo = {}, []
    for chunk in chunks:
        texts = unit_texts(chunk.text)
        stored = reusable.get(chunk.content_hash)
        if stored is not None and stored.units.units_hash == units_hash(texts):
            packed[chunk.content_hash] = stored.units
        else:
            todo.append((chunk.content_hash, texts))
    flat = [t for _, texts in todo for t in texts]
    encoded = iter(_encode(embedder, flat, "sentence vectors", "unit", progress))
    for content_hash, texts in todo:
        packed[content_hash] = PackedUnits(units_hash(texts), pack([next(encoded) for _ in texts]) if texts else "")
    return packed, len(flat)


def _encode(embedder: Embedder, texts: list[str], desc: str, unit: str, progress: bool) -> list:
    """Vectors of `texts`, in order, a batch at a time behind a progress bar."""
    out = []
    with tqdm(total=len(texts), desc=desc, unit=unit, disable=not progress or not texts) as bar:
        for start in range(0, len(texts), _BATCH):
            batch = texts[start : start + _BATCH]
            out.extend(embedder.encode(batch))
            bar.update(len(batch))
    return out


def _sanity_check(reader: IndexReader, chunks: list[Passage], embedder: Embedder) -> None:
    """The release holds every chunk, and a probe query finds a known passage at the top."""
    if reader.count() != len(chunks):
        raise BuildError(f"sanity check failed: the release holds {reader.count()} points, expected {len(chunks)}")
    probe = chunks[len(chunks) // 2]
    hits = reader.search(embedder.encode_query(probe.embed_text), sparse_document(probe.text), None, limit=3, mode="dense")
    if not hits or hits[0].passage.content_hash != probe.content_hash:
        raise BuildError("sanity check failed: a probe query did not find its own passage")

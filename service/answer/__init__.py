"""The question's path — route → retrieve → compose → respond — importable without an HTTP stack:

    from service.answer import open_assistant
    with open_assistant() as assistant:          # loads the model and the live index once
        print(assistant.ask("who built it?", article="mooncake").answer)

`answer("…", article="…")` does the same with one process-wide assistant, opened on first use.
"""
from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from typing import Iterator

from ingest.embedding import BatchingEmbedder
from ingest.index import IndexStore, Searcher, StoreError, open_store

from ..catalogue import Catalogue
from ..settings import Settings
from .assistant import Assistant, Prepared
from .models import AskRequest, AskResponse, Citation, Turn

log = logging.getLogger("service")
_default: Assistant | None = None
_default_lock = threading.Lock()


@contextmanager
def open_assistant(settings: Settings | None = None, store: IndexStore | None = None) -> Iterator[Assistant]:
    """An Assistant over the settings' corpus and live index (`store` overrides the one they name)."""
    settings = settings or Settings()
    embedder = settings.embedder()
    embedder.encode_query("warm-up")  # loads the model (exporting it to ONNX on a first start): not on a reader's time
    batching = BatchingEmbedder(embedder)  # concurrent questions share one forward pass
    searcher = Searcher(store or open_store(settings), batching, settings.release_check_s, settings.index_release)
    try:
        searcher.reader  # noqa: B018 - open the live release now, or say why not
    except StoreError as exc:
        log.warning("starting without an index: %s", exc)
    try:
        yield Assistant(settings, searcher, Catalogue.load(settings.corpus_dir))
    finally:
        batching.close()
        searcher.close()


def answer(question: str, article: str | None = None) -> AskResponse:
    """One answer from a process-wide assistant on the default settings (opened on the first call)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = open_assistant().__enter__()  # lives as long as the process
    return _default.ask(question, article)


__all__ = ["AskRequest", "AskResponse", "Assistant", "Citation", "Prepared", "Turn", "answer", "open_assistant"]

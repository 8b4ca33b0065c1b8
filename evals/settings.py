"""Settings of the eval runs themselves (environment variables or `.env`): the optional ragas LLM judge."""
from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class EvalSettings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", env_prefix="EVAL_")

    llm_base_url: str | None = Field(None, description="OpenAI-compatible endpoint of the LLM judge (EVAL_LLM_BASE_URL).")
    llm_model: str | None = Field(None, description="The judge model (EVAL_LLM_MODEL); without one the run is offline.")
    llm_api_key: str = Field("not-needed", repr=False, description="Bearer token of the judge endpoint (EVAL_LLM_API_KEY).")

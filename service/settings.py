"""All service settings in one pydantic-settings class (environment variables or `.env`)."""
from __future__ import annotations


from pydantic import Field, SecretStr

from ingest.settings import IndexSettings


class Settings(IndexSettings):
    host: str = "127.0.0.1"
    port: int = 8000
    cors_origins: list[str] = Field(default_factory=list, description="Origins allowed to call the API from a browser.")
    top_k: int = Field(6, ge=1, le=20, description="Passages retrieved per scope tier.")
    answer_sentences: int = Field(3, ge=1, le=8, description="Sentences in an extractive answer.")
    support_threshold: float = Field(
        0.57, description="Minimum support (cosine + LEXICAL_WEIGHT × term coverage) for a passage to answer (calibrated: see README)."
    )
    lexical_weight: float = Field(0.3, ge=0, le=1, description="Weight of question-term coverage in a passage's support.")
    scope_margin: float = Field(
        0.12, description="A narrower scope (the article) answers only if its best passage is within this of the best anywhere."
    )
    llm_base_url: str | None = Field(None, description="OpenAI-compatible endpoint, e.g. http://localhost:8001/v1; unset = extractive answers.")
    llm_model: str | None = Field(None, description="Model name sent to the endpoint (and shown as `generator`).")
    llm_api_key: str | None = Field(None, repr=False)
    llm_timeout_s: float = Field(20.0, gt=0, description="Deadline for the whole LLM answer; past it the reader gets the extractive answer.")
    llm_max_tokens: int = Field(512, ge=16, le=8192)
    release_check_s: float = Field(2.0, description="How often the service looks for a newly promoted index release.")
    # --- production: protection, feedback, logs (service/production.py wires these) ---
    admin_key: SecretStr | None = Field(None, description="X-Admin-Key for /v1/admin/*; unset = the admin endpoints do not exist (404).")
    api_keys: list[SecretStr] = Field(default_factory=list, description="Known X-API-Key values (JSON list); a known key is rate-limited per key instead of per IP.")
    rate_limit_ip_per_minute: int = Field(300, ge=0, description="Requests per minute to /v1/* per client IP without an API key; 0 = no limit.")
    rate_limit_key_per_minute: int = Field(3000, ge=0, description="Requests per minute to /v1/* per API key; 0 = no limit.")
    max_body_bytes: int = Field(64 * 1024, ge=1024, description="Largest request body accepted; larger is a 413.")
    feedback_url: str | None = Field(None, description="SQLAlchemy URL of the feedback store; unset = SQLite (WAL) at DATA_DIR/feedback.sqlite3.")
    # --- the question log and the insights report (service/questions.py, service/insights.py) ---
    question_log: bool = Field(True, description="Log every answer served to a reader (widget, Slack, API) in the "
                               "feedback database; false = nothing is logged.")
    question_log_retention_days: int = Field(90, ge=0, description="Question-log rows older than this are deleted "
                                             "(at start-up, then hourly); 0 = kept forever.")
    question_log_salt: SecretStr | None = Field(None, description="Salt of the hashed X-Session ids; unset = a random "
                                                "salt per process (hashes cannot be linked across restarts or replicas).")
    question_log_queue: int = Field(10_000, ge=1, description="Log rows waiting for the background writer at most; "
                                    "past it a row is dropped (counted), never waited for.")
    question_log_flush_s: float = Field(1.0, ge=0, le=60, description="Log rows gather this long after the first "
                                        "before one transaction writes them all (0 = write each batch at once); "
                                        "shutdown writes what is queued.")
    question_log_lock_timeout_s: float = Field(5.0, gt=0, description="How long a log write waits for a locked "
                                               "database before that batch is dropped (counted).")
    insights_low_support_margin: float = Field(0.08, ge=0, description="A retrieval answer whose best support is "
                                               "below SUPPORT_THRESHOLD + this counts as low-support (a gap).")
    insights_gap_distance: float = Field(0.6, gt=0, lt=2, description="Gap clustering: questions join a group while "
                                         "their average cosine distance to it is below this (0.6 = similarity 0.4).")
    insights_max_gap_questions: int = Field(2000, ge=2, description="Distinct gap questions clustered at most "
                                            "(the most asked first).")
    log_json: bool = Field(True, description="One JSON object per log line (with request ids); false = plain text.")
    log_level: str = "INFO"
    # --- the Slack bot (service/slack/): POST /slack/events exists only when the signing secret and bot token are set ---
    slack_bot_token: SecretStr | None = Field(None, description="Bot User OAuth Token (xoxb-…).")
    slack_signing_secret: SecretStr | None = Field(None, description="Signing Secret: every request to /slack/events is verified with it.")
    slack_app_token: SecretStr | None = Field(None, description="App-level token (xapp-…, scope connections:write) for `python -m service.slack --socket`.")
    slack_api_base_url: str = Field("https://slack.com/api/", description="Slack Web API base URL (tests point it at a local fake).")
    slack_rate_limit_per_minute: int = Field(20, ge=0, description="Questions per minute the bot answers per channel; 0 = no limit.")
    worker_threads: int = Field(12, ge=1, le=1000, description="Threads that run request work (route, retrieve, compose); more only adds GIL contention and a longer tail (make loadtest: p99 0.53 s at 12, 0.73 s at 40).")

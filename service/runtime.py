"""What a running service holds, in one typed place: its settings, the assistant (loaded at start-up),
the feedback store and the question log (both in one database, service/db.py). Routes reach it through
`service.api.deps`; the Slack bot is handed it."""
from __future__ import annotations

from dataclasses import dataclass

from .answer import Assistant
from .feedback import FeedbackStore
from .questions import QuestionLog
from .settings import Settings


@dataclass
class Runtime:
    settings: Settings
    feedback: FeedbackStore
    questions: QuestionLog
    assistant: Assistant | None = None  # set by the app's lifespan once the model and the index are loaded

    def ready_assistant(self) -> Assistant:
        if self.assistant is None:
            raise RuntimeError("the service has not finished starting")
        return self.assistant

    def release_id(self) -> str | None:
        """The index release answering now, without touching the store (for the question log)."""
        reader = self.assistant.searcher.current if self.assistant is not None else None
        return reader.manifest.get("release_id") if reader is not None else None

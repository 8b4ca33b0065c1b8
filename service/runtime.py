"""What a running service holds, in one typed place: its settings, the assistant (loaded at start-up)
and the feedback store. Routes reach it through `service.api.deps`; the Slack bot is handed it."""
from __future__ import annotations

from dataclasses import dataclass

from .answer import Assistant
from .feedback import FeedbackStore
from .settings import Settings


@dataclass
class Runtime:
    settings: Settings
    feedback: FeedbackStore
    assistant: Assistant | None = None  # set by the app's lifespan once the model and the index are loaded

    def ready_assistant(self) -> Assistant:
        if self.assistant is None:
            raise RuntimeError("the service has not finished starting")
        return self.assistant

"""A scripted LLM judge behind the real chat-completions wire format, for ragas' LLM-judged metrics.

ragas asks for JSON matching a pydantic schema whose title names the step (statement extraction,
NLI verdicts, relevance question, context verification); the fake recognises the step by that title
and answers with a well-formed object. `verdict` decides what the judge "thinks" of every statement.
"""
from __future__ import annotations

import json
import time

from fastapi import FastAPI, Request


class FakeJudge:
    def __init__(self, verdict: int = 1):
        self.verdict = verdict
        self.steps: list[str] = []
        self.app = FastAPI()
        self.app.post("/v1/chat/completions")(self.chat)

    def answer(self, prompt: str) -> dict:
        if "NLIStatementOutput" in prompt:
            self.steps.append("nli")
            return {"statements": [{"statement": "The answer's claim.", "reason": "scripted", "verdict": self.verdict},
                                   {"statement": "Another claim.", "reason": "scripted", "verdict": self.verdict}]}
        if "StatementGeneratorOutput" in prompt:
            self.steps.append("statements")
            return {"statements": ["The answer's claim.", "Another claim."]}
        if "ResponseRelevanceOutput" in prompt:
            self.steps.append("relevance")
            return {"question": "How large is the KV cache per token?", "noncommittal": 0}
        if "Verification" in prompt:
            self.steps.append("context")
            return {"reason": "scripted", "verdict": self.verdict}
        self.steps.append("unknown")
        return {}

    async def chat(self, request: Request) -> dict:
        body = await request.json()
        prompt = "\n".join(str(m.get("content", "")) for m in body["messages"])
        content = json.dumps(self.answer(prompt))
        return {"id": "chatcmpl-judge", "object": "chat.completion", "created": int(time.time()), "model": body["model"],
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}

"""Answers written by an LLM (any OpenAI-compatible endpoint) from the retrieved passages: the grounded
prompt, the streaming client, and the guarded generation that falls back to the extractive answer."""
from __future__ import annotations

from .client import ChatClient
from .generation import EXTRACTIVE, Generation
from .prompt import condense_messages

__all__ = ["EXTRACTIVE", "ChatClient", "Generation", "condense_messages"]

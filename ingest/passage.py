"""The passage: one chunk of one section, as the index stores it and as every answer cites it.

Ingest writes passages, the index returns them inside hits, the service composes and cites from them
and the evals score them: this is the only definition of the record, and its fields are the index
payload (DESIGN §4).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace


@dataclass(frozen=True)
class Passage:
    doc_id: str
    kind: str  # article | concept | source
    title: str
    section: str  # "" for a page's lead (the text before its first `##`)
    anchor: str
    url: str
    text: str
    position: int  # order of the passage within its document
    content_hash: str = ""  # of `embed_text`: equal hash + equal model ⇒ the stored vector can be reused

    @property
    def section_id(self) -> str:
        """`doc_id#anchor`: how golden questions name the section that answers them."""
        return f"{self.doc_id}#{self.anchor}"

    @property
    def heading_path(self) -> str:
        return f"{self.title} › {self.section}" if self.section else self.title

    @property
    def embed_text(self) -> str:
        """What the dense model reads: the heading path first, so a passage knows where it lives."""
        return f"{self.heading_path}\n{self.text}"

    def payload(self) -> dict:
        return asdict(self)

    @classmethod
    def from_payload(cls, payload: dict) -> "Passage":
        return cls(**{name: payload[name] for name in _FIELDS if name in payload})

    def with_hash(self, content_hash: str) -> "Passage":
        return replace(self, content_hash=content_hash)


_FIELDS = tuple(f.name for f in fields(Passage))  # read once: every search builds a dozen passages

"""A question pasted from a GitHub issue or forum template → its setup and its question, without the template.

"### Describe the question\nWhat's the KV cache per token for Llama 3.1 405B when `kv_cache_dtype=fp8`?\n\n###
Environment\n- vLLM 0.7.2, 8x H200, CUDA 12.4\n\n- [x] I searched existing issues". Read as typed, "Describe" made it
a request for an explanation, "vLLM 0.7.2" and "driver 550.90.07" were figures, and "### Expected behavior\nUnder a
couple of ms?" set the latency. The section headings and the checkboxes go; so do the sections that say what the
reader expected or adds for context (their figures are claims and references, not the setup: "We measure ~70
tok/s", "`nvidia-smi` reports 141 GB", "Same pattern as issue #77"); software versions, commits and issue numbers
are no figures. The environment's parts ("- 4x H100 SXM, NVLink, TP=4") and the question stay.
"""
from __future__ import annotations

import re

from .logs import without_versions

_HEADING_WORDS = (r"environment|system info(?:rmation)?|describe the (?:question|bug|problem|issue)|question|"
                  r"expected (?:behaviou?r|result)|actual (?:behaviou?r|result)|steps to reproduce|reproduction|"
                  r"additional (?:context|info(?:rmation)?)|launch args|logs?|config(?:uration)?|setup|motivation|"
                  r"what (?:i|we) tried|context")
# "### Environment", "## Describe the question", "**Additional context**" on a line of its own
# ("# nThread 1 nGpus 8 …" in pasted nccl-tests output is a comment, not a heading: a heading has two #s and no digit)
_HEADING = re.compile(rf"^[ \t]*(?:#{{2,6}}[ \t]+(?P<h1>[A-Za-z][^\n\d]{{0,60}}?)|\*\*(?P<h2>{_HEADING_WORDS})\*\*:?)[ \t]*$",
                      re.I | re.M)
_CHECKBOX = re.compile(r"^[ \t]*[-*][ \t]*\[[ xX]\][^\n]*$", re.M)
_ASIDE_SECTIONS = re.compile(r"expected|actual|additional|logs?$", re.I)  # what the reader expected or adds
# a commit or an issue number: "@ 2c3a6b1", "commit 3f9e5a1", "#4471" (versions are read out by logs.py)
_REFERENCES = re.compile(r"(?:\bcommit|@)\s*[0-9a-f]{7,40}\b|\b(?:issue|pr|tracking in)?\s*#\d+\b", re.I)


def as_issue_question(text: str) -> str:
    """The question without its template (a question with no template heading or checkbox is unchanged)."""
    if not (_HEADING.search(text) or _CHECKBOX.search(text)):
        return text
    sections = _sections(text)
    kept = [body for heading, body in sections if not (heading and _ASIDE_SECTIONS.search(heading))]
    return without_versions(_REFERENCES.sub(" ", _CHECKBOX.sub("", "\n".join(kept)))).strip()


def _sections(text: str) -> list[tuple[str, str]]:
    """(heading, body) in order; the text before the first heading has the heading ""."""
    marks = list(_HEADING.finditer(text))
    out = [("", text[:marks[0].start()] if marks else text)]
    for k, mark in enumerate(marks):
        heading = (mark["h1"] or mark["h2"] or "").strip(" *:").strip()
        out.append((heading, text[mark.end():marks[k + 1].start() if k + 1 < len(marks) else len(text)]))
    return out

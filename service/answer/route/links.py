"""Links pasted into a question → the model or part they name, and nothing else of them.

"[mixtral 8x7b](https://huggingface.co/mistralai/Mixtral-8x7B-Instruct-v0.1)", "https://huggingface.co/meta-llama/
Llama-3.1-8B", "https://cloud.google.com/tpu/docs/v6e", "https://www.amd.com/en/…/mi300/mi300x.html", "<https://…|the
H200 page>", "https://arxiv.org/abs/2412.19437". Read as typed, a link's digits were figures ("2412.19437",
"#section-3", "?page=2") and the part it named was missed, so the default H100 stood in. A markdown or Slack link is
its text; a Hugging Face link its repo id (which the router reads as a model); a vendor's page the part its last
path segment names ("tpu … v6e" is the TPU v6e); any other link (a paper, a blog) is dropped.
"""
from __future__ import annotations

import re

_MARKDOWN = re.compile(r"\[([^\]]+)\]\((?:https?://|www\.)[^)\s]+\)")
_SLACK = re.compile(r"<(?:https?://)[^|>\s]+\|([^>]+)>")
_URL = re.compile(r"<?(?:https?://|www\.)[^\s<>)\]]+>?")
_HUGGING_FACE = re.compile(r"huggingface\.co/([\w.-]+/[\w.-]+)", re.I)
_VENDORS = re.compile(r"nvidia\.com|amd\.com|cloud\.google\.com|aws\.amazon\.com|intel\.com|habana\.ai", re.I)
_PART = re.compile(r"^(?:[a-z]{1,4}\d{1,4}[a-z]*|v\d+[a-z]*|trn\d|trainium\d?|gaudi\d?)$", re.I)


def as_link_names(question: str) -> str:
    """The question with each link said as what it names (or dropped)."""
    if "http" not in question and "www." not in question:
        return question
    question = _MARKDOWN.sub(r"\1", question)
    question = _SLACK.sub(r"\1", question)
    return _URL.sub(lambda m: _named(m.group(0).strip("<>")), question)


def _named(url: str) -> str:
    hub = _HUGGING_FACE.search(url)
    if hub:
        return hub.group(1)
    if not _VENDORS.search(url):
        return ""
    path = re.split(r"[?#]", url, maxsplit=1)[0]
    segments = [s for s in re.split(r"[/]", re.sub(r"\.html?$", "", path)) if s]
    for i in range(len(segments) - 1, 0, -1):
        for word in re.split(r"[-_]", segments[i]):  # ("gb300-nvl72": the GB300, not its rack's name)
            if _PART.match(word) and not word.lower().startswith("nvl"):
                family = "tpu " if word.lower().startswith("v") and "tpu" in path.lower() else ""
                return family + word
    return ""

"""What copying and pasting leaves around a question → the question alone.

Forwarded from a mail client or pasted twice, a question carries text nobody typed as part of it: a reply's
header ("On Tue, 3 Jun 2025 at 10:42, Sam <sam@example.com> wrote:"), a phone's signature ("Sent from my
iPhone", "Get Outlook for Android"), an attachment's placeholder ("[image: screenshot.png]", "(attachment 2 of
3)"), a word split across a wrapped line ("recom-\nputation"), or the whole question twice in a row. Read as
typed, the reply's date is a 2,025-token context and a question pasted twice counts its figures twice.
"""
from __future__ import annotations

import re

_NOISE = re.compile(
    r"^[ \t>]*On\b[^\n]{4,120}?\bwrote:[ \t]*$"  # a reply's header (the quoted lines after it stay quoted)
    r"|^[ \t>]*(?:Sent from my [\w ]{2,30}|Get Outlook for (?:iOS|Android|Mac|Windows)|Sent via [\w ]{2,30})[ \t]*$"
    r"|\[(?:image|attachment|cid)\s*:[^\]\n]*\]"  # an inline image's placeholder
    r"|\(\s*attachment\s+\d+\s+of\s+\d+\s*\)",  # "(attachment 2 of 3)"
    re.I | re.M)
_WRAPPED_WORD = re.compile(r"(?<=[a-z])-[ \t]*\n[ \t]*(?=[a-z])")  # "recom-\nputation", "ig-\nnored"


def without_paste_artifacts(text: str) -> str:
    """The question without what the paste added (a question with none comes back as it is)."""
    text = _WRAPPED_WORD.sub("", _NOISE.sub("", text))
    return _once(text)


def _once(text: str) -> str:
    """A question pasted twice in a row ("…in GB?…in GB?", or with a space or line between), once."""
    plain = text.strip()
    middle = len(plain) // 2
    for cut in range(max(middle - 3, 1), middle + 4):
        first, second = plain[:cut].strip(), plain[cut:].strip()
        if first and first == second:
            return first
    return text

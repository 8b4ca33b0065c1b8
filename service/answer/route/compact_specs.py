"""A power user's compact spec → the words the tagger reads.

"70b/fp8/2xh100/32k/16u → kv?", "l3.1-8b | bf16 | 1×l40s | bs1 → tok/s", "mixtral8x7b@fp8 on 2xh200 tp2 bs32 ctx4k
kvfp8 => agg tps", "13b|3T tok|512×h100|bf16|mfu.42 → days", "AR 1GB @ 8n×8 h200, xdr, 2-level → t". Fields are
separated by slashes, pipes and at-signs, counts carry a one-letter noun ("16u", "8n"), settings are glued ("kvfp8",
"mfu.42") and the ask after the arrow is one word ("t", "days", "#gpus", "free?", "agg tps"). Read as typed, "16u"
was no user count, "kvfp8" no cache precision and "→ days" asked nothing. Each field is said in words; a unit's
slash ("tok/s", "GB/s", "FLOP/B") stays. A question of one line with at least three such fields is read this way;
one in sentences, a pasted table, a link or an arrow that corrects a figure ("128k → 100k tokens") is unchanged.
"""
from __future__ import annotations

import re

_RUN_NAME = re.compile(r"[A-Za-z0-9.]+_[A-Za-z0-9.]+_[A-Za-z0-9.]+")  # "llama3.1-70b_fp8_tp8_…"
_SED = re.compile(r"(?<![\w/])s/[^/\s]+/[^/\s]*/")
_ARROW = re.compile(r"\s*(?:→|=>|->)\s*")
_FIELD_SEPARATORS = re.compile(r"\s*\|\s*|(?<=[\w%])/(?!(?:s|sec|tok|token|tokens|B|byte|bytes|step|gpu|GPU|user)\b)"
                               r"(?=[\w.])")
_UNIT_SLASH = re.compile(r"\b(?:tok|tokens|GB|TB|Gb|MB|GiB|FLOP|FLOPs|flop|flops|bytes|kv|ms|mem-time)/(?:s|sec|tok|token|"
                         r"tokens|B|byte|bytes|step|gpu|GPU|user)\b")
_FIELDS = [(re.compile(pattern, re.I), words) for pattern, words in (
    (r"(?:^|(?<=, ))(\d+(?:\.\d+)?b)(?=,)", r"a \1 model"),  # "13b|3T tok": a model's size, no token count
    (r"\bds-?(r1|v3)\b", r"deepseek \1"),
    (r"(?<![\w.])(\d+)\s*×\s*(?=[A-Za-z])", r"\1 "), (r"(?<![\w.])x(\d+)\s+(?=[a-z])", r"\1 ranks, "),
    (r"(?<![\w.])(\d+)u\b", r"\1 users"), (r"(?<![\w.])(\d+)n\s*[×x]\s*(\d+)", r"\1 nodes x \2"),
    (r"\bkv\s*@?\s*(fp8|bf16|fp16|int8|int4|fp4|nvfp4)\b", r"\1 kv cache"),
    (r"\bmfu\s*\.(\d+)", r"mfu 0.\1"), (r"\bmfu\s*(\d+)%", r"mfu \1%"),
    (r"(?<![\w.])(\d+(?:\.\d+)?[kKMBT])\s*tok\b", r"\1 tokens"),
    (r"\b(bs|tp|pp|dp|ctx)(\d+k?)\b", r"\1 \2"),
    (r"\b2-level\b", "two-level"), (r"\bagg\s+tps\b", "aggregate tok/s"), (r"\btps\b", "tok/s"),
    (r"\btot\b", "total"), (r"\bmem-time/step\b", "memory time per step"), (r"\bmem-time\b", "memory time"),
    (r"\s*@\s*(?=(?:fp|bf|int|nvfp|mxfp)\d)", " in "), (r"\s*@\s*", " on "),  # "@fp8" a precision, "@ 8 h200" a part
)]
# the ask after the arrow, said as a question
_ASKED = [(re.compile(pattern, re.I), words) for pattern, words in (
    (r"^t\??$", "time?"), (r"^days\??$", "how many days?"), (r"^(?:hrs|hours)\??$", "how many hours?"),
    (r"^#\s*gpus\??$", "how many gpus?"), (r"^free\??$", "free memory?"), (r"^fits?\??$", "does it fit?"),
)]


def as_spelled_spec(text: str) -> str:
    """The compact spec said field by field (a question written in sentences comes back as it is)."""
    if ("\n" in text.strip() or "://" in text or _SED.search(text) or _RUN_NAME.search(text)
            or text.lstrip().startswith("|")):
        return text  # pasted tables and tool output (one nvidia-smi row: "|   0  NVIDIA H100 …"), links,
        # "s/int4/fp8/", run names: read where those are
    arrows = list(_ARROW.finditer(text))
    # the ask after the arrow is a word or three, no figure: "→ days", "=> agg tps" (not "128k → 100k tokens …")
    ask = text[arrows[-1].end():] if arrows else ""
    arrow = arrows[-1] if arrows and len(ask.split()) <= 3 and not re.match(r"\s*\d", ask) else None
    protected = _UNIT_SLASH.sub(lambda m: m.group(0).replace("/", "\x00"), text)
    short_spec = arrow is not None and len(text[:arrow.start()].split()) <= 14
    if not short_spec and len(_FIELD_SEPARATORS.findall(protected[:arrow.start()] if arrow else protected)) < 2:
        return text
    head, ask = (protected[:arrow.start()], protected[arrow.end():]) if arrow else (protected, "")
    head = _FIELD_SEPARATORS.sub(", ", head)
    for pattern, words in _FIELDS:
        head, ask = pattern.sub(words, head), pattern.sub(words, ask)
    ask = ask.strip()
    for pattern, words in _ASKED:
        ask = pattern.sub(words, ask)
    said = f"{head}. {ask}" if ask else head
    return said.replace("\x00", "/")

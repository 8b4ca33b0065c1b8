"""Lines copied from a vendor's spec sheet → what the tagger should read of them.

Readers paste a datasheet into the question: "192 GB HBM3, 5.3 TB/s", "FP8 Tensor Core: 3,958 TFLOPS*",
"PCIe Gen5 x16 (128GB/s bidirectional)", "4th-gen Infinity Fabric", "24x 200 GbE RoCE", "v5e-256". The digits
inside a memory type, a generation, a lane width or a port count are no figure of the question; a slice name
carries its chip count; a spec sheet's link figure counts both directions. Each rewrite below fixes one of
those; compute peaks ("3,958 TFLOPS") stay figures (the tagger reads them as FLOP/s, which no calculator
takes, so the answer says they were not used).
"""
from __future__ import annotations

import re

def _counted_before(m: re.Match) -> bool:
    """"64 concurrent sequences … tokens/s across all 64?": the users counted before, said again, not GPUs."""
    return re.search(rf"\b{m.group(1)}\s+(?:concurrent\s+|active\s+|parallel\s+)?(?:users?|seqs?|sequences?|requests?|"
                     r"chats?|streams?|sessions?|prompts?)\b", m.string[:m.start()], re.I) is not None


_REWRITES = [(re.compile(pattern, re.I), words) for pattern, words in (
    # memory types: "HBM3e", "HBM2e", "GDDR6X", "LPDDR5X" (no figure of the question)
    (r"\b(HBM|GDDR|LPDDR)\d[a-z]?\b", r"\1"),
    # a generation: "4th-gen NVLink" is NVLink 4; other generations are only words
    (r"\b(\d)(?:st|nd|rd|th)[\s-]*gen(?:eration)?\.?\s+(nvlink|nvswitch|pcie)\b", r"\2 \1"),
    (r"\b\d(?:st|nd|rd|th)[\s-]*gen(?:eration)?\b\.?", ""),
    # a slot's lane width: "PCIe Gen5 x16"
    (r"\b((?:pcie\s*)?gen\s*\d)\s*x(?:16|8|4|2|1)\b", r"\1"),
    (r"\bx(?:16|8|4)\s+(?:slot|lanes?)\b", ""),
    # Ethernet ports: "24x 200 GbE" → the speed of one port, in bits ("200 GbE" is 200 Gb/s)
    (r"\b\d+\s*x\s*(\d+)\s*GbE\b", r"\1 Gb/s"), (r"\b(\d+)\s*GbE\b", r"\1 Gb/s"),
    # a v5e or v6e slice's name is its chip count: "v5e-256" → 256 chips of TPU v5e (v4 and v5p names count
    # TensorCores, two a chip, so those are left alone)
    (r"\b(?:tpu\s*)?(v[56]e)-(\d{1,5})\b", r"\2 chips of TPU \1"),
    # a platform's GPU count: "8x platform", "8-GPU baseboard", "we have 8 on one UBB", "tensor-parallel over all 8"
    (r"\b(\d+)\s*x\s+(?:platform|baseboard|UBB|board)\b", r"\1 GPUs"),
    (r"\b(\d+)(?=\s+on\s+(?:one|a|the|each)\s+(?:UBB|baseboard|board|node|box|server|chassis)\b)", r"\1 GPUs"),
    (r"\b(?:over|across)\s+all\s+(\d+)\b(?!\s*(?:gpus?|cards?|chips?|ranks?|nodes?|devices?|accelerators?|users?|"
     r"seqs?|sequences?|requests?|chats?|streams?|sessions?|layers?|steps?|tokens?))",
     lambda m: m.group(0) if _counted_before(m) else f"over {m.group(1)} GPUs"),
    # a system named for its GPUs: "a DGX H100" is a server of eight H100s, "two HGX H200s" two of them, "8 dgx
    # h100 nodes" eight of eight; a spec sheet's heading ("DGX A100 (40GB SXM4 version):", "HGX B200 per GPU:")
    # names the part only (the question says how many it uses)
    # ("on a DGX B200 but using only one of its GPUs": that many of its part)
    (r"\b(?:an?\s+)?[DH]GX[\s-]+(A100|H100|H200|H20|B200|B300)\s*,?\s*(?:but\s+)?(?:using|with|on)\s+(?:only\s+|just\s+)?"
     r"(one|\d+)\s+of\s+(?:its|the)\s+(?:gpus|cards)\b", r"\2 \1"),
    (r"\b[DH]GX[\s-]+(A100|H100|H200|H20|B200|B300)(s?)\b(?!\s*(?:\(|:|per\b|nodes?\b|servers?\b|box|systems?\b))",
     r"8x \1 server\2"),
    (r"\b[DH]GX[\s-]+(?=(?:A100|H100|H200|H20|B200|B300)s?\s+(?:nodes?|servers?|box|systems?)\b)", "8x "),
    (r"\b[DH]GX[\s-]+(?=(?:A100|H100|H200|H20|B200|B300)\b)", ""),
    # a form factor's generation: "SXM4", "SXM5" (the part's name already says which)
    (r"\b(SXM|OAM)\d\b", r"\1"),
    # a card's form factor: "single-slot low profile", "dual-slot" (no slots of a server to count)
    (r"\b(?:single|dual|double|triple|2|3)[- ]slot\b", ""),
    # a spec sheet's row label: "FP8 Tensor Core: 3,958 TFLOPS" (Tensor Cores are no tensor parallelism)
    (r"\btensor[\s-]*cores?\b", ""),
    # a footnote mark glued to a figure's unit: "3,958 TFLOPS*"
    (r"(?<=[A-Za-z/])\*(?=\s|$|[,.;)])", ""),
)]

_BOTH_WAYS = re.compile(r"\b(?:bi-?directional|bidir|both directions|duplex)\b", re.I)


def as_read(text: str) -> str:
    """The question with its pasted spec-sheet lines reduced to what the calculation can use."""
    for pattern, words in _REWRITES:
        text = pattern.sub(words, text)
    return text


def counts_both_ways(words_near: str) -> bool:
    """Does the wording beside a bandwidth say it counts both directions ("128GB/s bidirectional")?"""
    return bool(_BOTH_WAYS.search(words_near))

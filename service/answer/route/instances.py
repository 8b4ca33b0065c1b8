"""Hardware named by the cloud instance or system it comes in → the GPUs inside, as the tagger reads them.

Readers rent GPUs by instance type and say so: "a p5.48xlarge", "64 p5.48xlarge instances", "an a3-ultragpu-8g
VM", "ND MI300X v5", "Standard_NC40ads_H100_v5", "BM.GPU.H100.8", "a GB200 NVL72 rack". Read as typed, the name
is no part the registry knows, and the calculation fell back to a default card with confidence. Each name below
is the provider's published configuration (AWS EC2 accelerated-computing instance types, Google Cloud
accelerator-optimized machine types, Azure ND/NC-series sizes, OCI bare-metal GPU shapes, NVIDIA system pages):
so many GPUs of one part. "two p5.48xlarge" is two nodes of eight H100s; a one-GPU instance is that one card. An
instance whose part the registry does not hold (g5 → A10G, p3 → V100, g4dn → T4, trn1 → Trainium1, dl1 → Gaudi)
is said by its part, which the answer then names as a GPU it does not know. Each reading is said in the Assumed
line ("“p5.48xlarge” read as 8 × H100 SXM").
"""
from __future__ import annotations

import re

from .tagger import UNLISTED

_SMALL = r"(?:xlarge|2xlarge|4xlarge|8xlarge|16xlarge)"
# (instance name, GPUs in it, the part as the tagger reads it); the name is matched whole, case-insensitively
_INSTANCES: list[tuple[str, int, str]] = [
    # AWS EC2
    (r"p5\.48xlarge", 8, "H100 SXM"), (r"p5en?\.48xlarge", 8, "H200"), (r"p6-b200\.48xlarge", 8, "B200"),
    (r"p4de\.24xlarge", 8, "A100 80GB"), (r"p4d\.24xlarge", 8, "A100 40GB"),
    (rf"g6e\.{_SMALL}", 1, "L40S"), (r"g6e\.(?:12|24)xlarge", 4, "L40S"), (r"g6e\.48xlarge", 8, "L40S"),
    (rf"g6\.{_SMALL}", 1, "L4"), (r"g6\.(?:12|24)xlarge", 4, "L4"), (r"g6\.48xlarge", 8, "L4"),
    (r"trn2\.48xlarge", 16, "Trainium2"), (r"trn1n?\.32xlarge", 16, "Trainium1"), (r"trn1\.2xlarge", 1, "Trainium1"),
    (rf"g5\.{_SMALL}", 1, "A10G"), (r"g5\.(?:12|24)xlarge", 4, "A10G"), (r"g5\.48xlarge", 8, "A10G"),
    (r"p3\.2xlarge", 1, "V100"), (r"p3\.8xlarge", 4, "V100"), (r"p3\.16xlarge|p3dn\.24xlarge", 8, "V100"),
    (rf"g4dn\.{_SMALL}", 1, "T4"), (r"g4dn\.12xlarge", 4, "T4"), (r"g4dn\.metal", 8, "T4"),
    (r"dl1\.24xlarge", 8, "Gaudi 1"),
    # Google Cloud
    (r"a3-(?:highgpu|megagpu|edgegpu)-8g", 8, "H100 SXM"), (r"a3-highgpu-1g", 1, "H100 SXM"),
    (r"a3-highgpu-2g", 2, "H100 SXM"), (r"a3-highgpu-4g", 4, "H100 SXM"),
    (r"a3-ultragpu-8g", 8, "H200"), (r"a4-highgpu-8g", 8, "B200"),
    (r"a2-ultragpu-1g", 1, "A100 80GB"), (r"a2-ultragpu-2g", 2, "A100 80GB"), (r"a2-ultragpu-4g", 4, "A100 80GB"),
    (r"a2-ultragpu-8g", 8, "A100 80GB"), (r"a2-highgpu-1g", 1, "A100 40GB"), (r"a2-highgpu-2g", 2, "A100 40GB"),
    (r"a2-highgpu-4g", 4, "A100 40GB"), (r"a2-highgpu-8g", 8, "A100 40GB"), (r"a2-megagpu-16g", 16, "A100 40GB"),
    (r"g2-standard-(?:4|8|12|16|32)", 1, "L4"), (r"g2-standard-24", 2, "L4"), (r"g2-standard-48", 4, "L4"),
    (r"g2-standard-96", 8, "L4"),
    # Azure
    (r"(?:Standard_)?ND96isr_H100_v5|ND\s?H100\s?v5", 8, "H100 SXM"),
    (r"(?:Standard_)?ND96isr_H200_v5|ND\s?H200\s?v5", 8, "H200"),
    (r"(?:Standard_)?ND96isr_MI300X_v5|ND\s?MI300X\s?v5", 8, "MI300X"),
    (r"(?:Standard_)?NC24ads_A100_v4", 1, "A100 80GB PCIe"), (r"(?:Standard_)?NC48ads_A100_v4", 2, "A100 80GB PCIe"),
    (r"(?:Standard_)?NC96ads_A100_v4", 4, "A100 80GB PCIe"),
    (r"(?:Standard_)?NC40ads_H100_v5", 1, "H100 NVL"), (r"(?:Standard_)?NC80adis_H100_v5", 2, "H100 NVL"),
    (r"(?:Standard_)?ND96amsr_A100_v4|NDm\s?A100\s?v4", 8, "A100 80GB"),
    (r"(?:Standard_)?ND96asr_(?:A100_)?v4|ND\s?A100\s?v4", 8, "A100 40GB"),
    (r"(?:Standard_)?ND40rs_v2", 8, "V100"),
    # Oracle Cloud bare-metal shapes
    (r"BM\.GPU\.H100\.8", 8, "H100 SXM"), (r"BM\.GPU\.H200\.8", 8, "H200"), (r"BM\.GPU\.B200\.8", 8, "B200"),
    (r"BM\.GPU\.MI300X\.8", 8, "MI300X"), (r"BM\.GPU\.A100-v2\.8", 8, "A100 80GB"), (r"BM\.GPU4\.8", 8, "A100 40GB"),
    # NVIDIA systems
    (r"GB200\s+NVL72(?=\s+compute\s+trays?)", 4, "GB200"), (r"GB200\s+NVL72", 72, "GB200"), (r"GB300\s+NVL72", 72, "GB300"), (r"DGX-2", 16, "V100"), (r"DGX-1", 8, "V100"),
]
_COUNT = r"(?P<count>\d+|two|three|four|five|six|eight|ten|twelve|sixteen|thirty-two|sixty-four|a dozen|a couple of|a pair of)\s+"
_NOUN = r"(?:\s+(?P<noun>instances?|vms?|nodes?|boxes|machines|servers|hosts|racks?|systems?|(?:compute\s+)?trays?))?"
_NAMED = [(re.compile(rf"(?:\b(?:an?|one|the|single|each|per|this|that)\s+|(?<![\w.-]))(?:{_COUNT})?(?P<name>{name})"
                      rf"(?![\w-]|\.\w){_NOUN}(?!\s+(?:is|has|holds|was|are)\b)", re.I), gpus, part)  # (not a definition)
          for name, gpus, part in _INSTANCES]


# what every name above contains: most questions hold none, and are passed over without trying the ~70 names
_ANY = re.compile(r"xlarge|g4dn|-\d{1,2}g\b|g2-standard|_v[245]\b|\bn[cd]m?\s?(?:a100|h100|h200|mi300x)|bm\.gpu|nvl72|dgx-\d",
                  re.I)


# an instance name no entry above holds ("Standard_NC6s_v3", "BM.GPU.A10.4", "ct4p-hightpu-4t", "inf2.48xlarge"):
# a card we do not know, never the default one
_UNLISTED_INSTANCE = re.compile(
    r"(?<![\w.-])(?:[a-z]{1,4}\d[a-z0-9-]*\.(?:\d*x?large|metal)|Standard_[A-Z]{1,4}\d+[A-Za-z0-9_]*|(?:BM|VM)\.GPU[\w.-]*"
    r"|(?:a\d|g\d|ct\d[a-z]*)-[a-z]+(?:gpu|tpu|standard)-\d+[a-z]?)(?![\w-])", re.I)


def as_gpus(question: str) -> tuple[str, list[str]]:
    """The question with each instance or system named by its GPUs, and a note of each reading."""
    notes = []
    unlisted = _UNLISTED_INSTANCE.search(question) is not None
    if not unlisted and not _ANY.search(question):
        return question, notes
    question = _COUNT_OF_SYSTEMS.sub(r"\g<count> \g<name> \g<noun>", question)  # "4 racks of gb200 nvl72"
    # GPUs counted in a system: "64 gb200 nvl72 gpus", "8 grace-blackwell gpus of a gb200 nvl72 rack" are 64 and 8
    question = _GPUS_OF_A_SYSTEM.sub(lambda m: f"{m['count']} {m['part'] or m['part2'] or m['part3']} GPUs", question)
    for pattern, gpus, part in _NAMED:
        def said(m: re.Match, gpus=gpus, part=part) -> str:
            tray = m.group("noun") if "tray" in (m.group("noun") or "") else ""  # a GB200 NVL72's compute tray
            notes.append(f"“{m.group('name')}{' ' + tray if tray else ''}” read as {gpus} × {part}")
            lead = m.group(0)[:m.start("count") - m.start()] if m.group("count") else ""
            each = "each " if m.group(0).lower().startswith(("each", "per")) else ""
            if m.group("count"):
                restated = _RESTATED.match(m.string, m.end())  # "4 gb200 nvl72 racks (72 gpus per rack)"
                if restated and int(restated.group(1)) == gpus:
                    restating.append(restated.group(0))
                return f"{lead}{m.group('count')} nodes x {gpus} {part} GPUs"
            if gpus > 1 and (m.group("noun") or "").endswith("s"):  # "on trn2.48xlarge nodes": how many is said elsewhere
                says_its_gpus = m.string[m.end():].lstrip().startswith("(")  # "… nodes (16 Trainium2 chips each)"
                return f"{part} nodes" if says_its_gpus else f"{part} nodes ({gpus} GPUs per node)"
            return f"{each}{gpus} {part} GPUs" if gpus > 1 else f"{each}one {part}"
        restating: list[str] = []
        question = pattern.sub(said, question)
        for said_again in restating:
            question = question.replace(said_again, "", 1)
    return (_UNLISTED_INSTANCE.sub(UNLISTED, question) if unlisted else question), notes


_GPUS_OF_A_SYSTEM = re.compile(r"\b(?P<count>\d+)\s+(?:(?P<part>gb[23]00)\s+nvl72\s+(?:gpus|chips|cards)\b|"
                               r"(?:[\w-]+\s+){0,2}(?:gpus|chips|cards)\s+of\s+(?:a|an|one|the|our)\s+"
                               r"(?P<part2>gb[23]00)\s+nvl72(?:\s+racks?)?\b|"
                               r"(?P<part3>gb[23]00)(?:s|\s+(?:gpus|chips|cards))\s+(?:of|in|from)\s+(?:a|an|one|the|our)\s+"
                               r"(?:gb[23]00\s+)?nvl72(?:\s+racks?)?\b)", re.I)  # "8 gb200 gpus of an nvl72 rack"
_COUNT_OF_SYSTEMS = re.compile(rf"\b{_COUNT}(?P<noun>racks?|systems?|pods?)\s+of\s+(?P<name>gb[23]00\s+nvl72)\b", re.I)
_RESTATED = re.compile(r"\s*\((\d+)\s+(?:gpus?|chips?|cards?)\s+(?:per|each|in each|a)\s*(?:rack|node|system|tray)?\)", re.I)

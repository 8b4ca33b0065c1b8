"""A GPU described instead of named → its name, when the description fits exactly one part the registry holds.

"the 192GB AMD one", "amd's 256GB accelerators", "the 141GB SXM hoppers", "the 24GB ada gaming card", "the 180GB
HGX blackwells", "the pcie version of the 80GB hopper", "aws's second-gen trainium", "google's sixth-gen tpu".
Read as typed, no part is named and the calculation fell back to the default H100 with confidence. A memory size
next to a GPU word is matched against each part's vendor, architecture, memory and form factor (the registry's
datasheet figures, restated here by family); a description that fits one part is that part, and the Assumed line
says so ("“the 192GB AMD one” read as MI300X"). One that fits several ("the 80GB hopper": SXM or PCIe) or none is
left as it is.
"""
from __future__ import annotations

import re

from .tagger import UNLISTED

# id → (vendor, architecture, memory in GB, words that single it out: form factor, segment, system)
_PARTS = {
    "H100 SXM": ("nvidia", "hopper", 80, {"sxm", "sxm5"}),
    "H100 PCIe": ("nvidia", "hopper", 80, {"pcie"}),
    "H100 NVL": ("nvidia", "hopper", 94, {"nvl"}),
    "H200": ("nvidia", "hopper", 141, {"sxm", "hgx"}),
    "H200 NVL": ("nvidia", "hopper", 141, {"nvl", "pcie"}),
    "H20": ("nvidia", "hopper", 96, {"export", "china", "chinese", "capped"}),
    "A100 80GB": ("nvidia", "ampere", 80, {"sxm", "sxm4"}),
    "A100 40GB": ("nvidia", "ampere", 40, {"sxm", "sxm4"}),
    "A100 80GB PCIe": ("nvidia", "ampere", 80, {"pcie"}),
    "B200": ("nvidia", "blackwell", 180, {"hgx", "b200"}),
    "B300": ("nvidia", "blackwell", 288, {"hgx", "ultra"}),
    "GB200": ("nvidia", "blackwell", 186, {"grace", "nvl72", "gb200"}),
    "GB300": ("nvidia", "blackwell", 288, {"grace", "nvl72", "ultra"}),
    "RTX PRO 6000": ("nvidia", "blackwell", 96, {"workstation", "pro"}),
    "RTX 5090": ("nvidia", "blackwell", 32, {"gaming", "geforce", "consumer"}),
    "RTX 4090": ("nvidia", "ada", 24, {"gaming", "geforce", "consumer"}),
    "L4": ("nvidia", "ada", 24, {"inference", "datacenter", "data-center", "72-watt", "72w", "low-profile"}),
    "L40S": ("nvidia", "ada", 48, {"datacenter", "data-center", "s"}),
    "MI300X": ("amd", "cdna3", 192, set()),
    "MI325X": ("amd", "cdna3", 256, set()),
    "MI355X": ("amd", "cdna4", 288, set()),
    "MI250X": ("amd", "cdna2", 128, {"oam", "package"}),
    "TPU v5e": ("google", "tpu", 16, set()),
    "TPU v5p": ("google", "tpu", 95, set()),
    "TPU v6e": ("google", "tpu", 32, set()),
    "Gaudi 3": ("intel", "gaudi", 128, set()),
}
_FAMILIES = {"hopper": "hopper", "hoppers": "hopper", "ampere": "ampere", "amperes": "ampere", "ada": "ada",
             "lovelace": "ada", "blackwell": "blackwell", "blackwells": "blackwell", "cdna3": "cdna3", "cdna2": "cdna2",
             "cdna4": "cdna4", "tpu": "tpu", "tpus": "tpu", "gaudi": "gaudi",
             # generations the registry holds no part of: a card of theirs is one we do not know
             "turing": "turing", "volta": "volta", "pascal": "pascal", "rdna": "rdna", "rdna2": "rdna", "rdna3": "rdna",
             "rdna4": "rdna", "cdna1": "cdna1"}
_VENDORS = {"nvidia": "nvidia", "nvidia's": "nvidia", "amd": "amd", "amd's": "amd", "google": "google",
            "google's": "google", "intel": "intel", "intel's": "intel"}
_NOUNS = (r"(?:hoppers?|blackwells?|amperes?|ada|cards?|gpus?|accelerators?|parts?|ones?|chips?|packages?|flavou?r|"
          r"instincts?|radeons?)")
# "the 192GB AMD one", "amd's 256GB accelerators", "the 141GB SXM hoppers", "nvidia's 72-watt 24GB ada inference card"
_BETWEEN = r"(?<![\w-])(?!(?:over|across|on|to|of|per|for|in|at|with|from|and|or)\b)[a-z][a-z-]*"  # describing words only
# after the memory a describing word may hold digits ("128GB HBM2e one", "48GB RDNA 3 cards"); before it, such a word
# is the part's own name ("a40 48gb cards")
_AFTER = r"(?<![\w-])(?!(?:over|across|on|to|of|per|for|in|at|with|from|and|or)\b)(?:[a-z][a-z0-9-]*|\d\b)"
_DESCRIBED = re.compile(rf"(?P<span>(?:\b(?:nvidia|amd|google|intel)(?:'s)?\s+)?(?:{_BETWEEN}\s+){{0,2}}?(?P<mem>\d{{2,3}})\s?GB\s+"
                        rf"(?:{_AFTER}\s+){{0,3}}?(?P<noun>{_NOUNS})\b)", re.I)
_POWER = re.compile(r"\b\d{2,4}[- ]?(?:watts?|w)\b\s*(?=(?:[\w-]+\s+)?(?:\d{2,3}\s?GB|card|gpu))", re.I)
# generations said in words: "aws's second-gen trainium", "google's sixth-gen tpu", "intel's third-gen gaudi"
_GENERATIONS = [(re.compile(pattern, re.I), part) for pattern, part in (
    (r"\b(?:aws'?s?\s+)?(?:second|2nd)[- ]gen(?:eration)?\s+trainium(?:\s+chips?)?", "Trainium2"),
    (r"\b(?:google'?s?\s+)?(?:sixth|6th)[- ]gen(?:eration)?\s+tpu(?:\s+chips?)?", "TPU v6e"),
    (r"\b(?:intel'?s?\s+)?(?:third|3rd)[- ]gen(?:eration)?\s+gaudi", "Gaudi 3"),
)]


def as_named(question: str) -> tuple[str, list[str]]:
    """The question with each GPU it describes (and only one part fits) named, and a note of each reading."""
    if "gb" not in question.lower() and "gen" not in question.lower():
        return question, []
    notes: list[str] = []
    for pattern, part in _GENERATIONS:
        question = pattern.sub(lambda m, part=part: _named(m.group(0), part, notes), question)

    def name(m: re.Match) -> str:
        if re.search(r"[a-z]+\d+[a-z]*\s*$", question[:m.start()], re.I):
            return m.group(0)  # "two a100 40gb cards", "a40 48gb": the part is named, its memory only says which
        before = question[:m.start()].split()[-5:]  # "the pcie version of the 80GB hopper"
        window = _words(" ".join(before) + " " + m.group("span") + " " + " ".join(question[m.end():].split()[:4]))
        fits = _fitting(int(m.group("mem")), window)
        if not fits and _no_part_of(int(m.group("mem")), window):  # "nvidia's 24GB HBM2 ampere datacenter card"
            vendor, _ = _vendor_and_family(window)
            return f"{UNLISTED} of {vendor}" if vendor else UNLISTED
        if len(fits) != 1:
            return m.group(0)
        return _named(m.group("span"), fits[0], notes) + ("s" if m.group("noun").lower().endswith("s") else "")

    question = _POWER.sub("", question)  # "nvidia's 72-watt 24GB ada inference card": a power rating is no count
    return _DESCRIBED.sub(name, question), notes


def _words(text: str) -> set[str]:
    """Lower-case words, hyphenated ones also in their parts ("export-capped": export, capped)."""
    words = {w.strip(",.();:").lower() for w in text.split()}
    return words | {part for w in words for part in w.split("-")}


def _vendor_and_family(words: set[str]) -> tuple[str | None, str | None]:
    """The vendor and the generation a description names ("nvidia's … ampere"), either or both None."""
    return (next((_VENDORS[w] for w in words if w in _VENDORS), None),
            next((_FAMILIES[w] for w in words if w in _FAMILIES), None))


def _fitting(memory: int, words: set[str]) -> list[str]:
    vendor, family = _vendor_and_family(words)
    fits = [part for part, (v, f, gb, _) in _PARTS.items()
            if gb == memory and vendor in (None, v) and family in (None, f)]
    if len(fits) > 1:  # a form factor or segment word picks one ("SXM", "pcie", "gaming", "nvl")
        marked = [part for part in fits if _PARTS[part][3] & words]
        fits = marked if len(marked) == 1 else fits
    # a segment the one fitting part is not in: "nvidia's 48GB ada workstation card" is no L40S (a datacenter part)
    if len(fits) == 1 and words & _SEGMENTS and not words & _SEGMENTS & _PARTS[fits[0]][3]:
        return []
    return fits if (vendor or family or len(fits) == 1) else []


_SEGMENTS = {"workstation", "gaming", "geforce", "consumer", "datacenter", "data-center", "inference", "laptop", "mobile",
             "desktop"}
# the parts to offer instead of an unlisted card, by its vendor
_VENDOR_PARTS = {"nvidia": ["h100-sxm", "a100-80gb", "l40s"], "amd": ["mi300x", "mi325x", "mi355x"],
                 "intel": ["gaudi-3"], "google": ["tpu-v5e", "tpu-v5p", "tpu-v6e"]}


def closest_to_unlisted(name: str) -> list[str] | None:
    """The parts offered for a described card that fits none ("unlisted card of amd": AMD's parts)."""
    if not name.lower().startswith(UNLISTED):
        return None
    vendor = name.lower().rsplit(" ", 1)[-1]
    return _VENDOR_PARTS.get(vendor, ["h100-sxm", "mi300x", "tpu-v5e"])


def _no_part_of(memory: int, words: set[str]) -> bool:
    """A vendor's or a generation's card with a memory none of its parts the registry holds has."""
    vendor, family = _vendor_and_family(words)
    if vendor is None and family is None:
        return False
    return not any(gb == memory and vendor in (None, v) and family in (None, f)
                   and (not words & _SEGMENTS or words & _SEGMENTS & marks) for v, f, gb, marks in _PARTS.values())


def _named(described: str, part: str, notes: list[str]) -> str:
    notes.append(f"“{described.strip()}” read as {part}")
    return part

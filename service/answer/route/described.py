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
from functools import lru_cache

from word2number import w2n

from calculators.registry import find_gpu, gpus

from .slips import mended
from .tagger import UNLISTED

# name → (vendor, architecture, memory in GB as readers say it, words that single it out: form factor, segment,
# system, generation, board power in W as the datasheet gives it or None). Bandwidth is read from the registry.
_PARTS = {
    "H100 SXM": ("nvidia", "hopper", 80, {"sxm", "sxm5", "hbm3"}, 700),
    "H100 PCIe": ("nvidia", "hopper", 80, {"pcie"}, 350),
    "H100 NVL": ("nvidia", "hopper", 94, {"nvl"}, 400),
    "H200": ("nvidia", "hopper", 141, {"sxm", "hgx", "hbm3e", "refresh"}, 700),
    "H200 NVL": ("nvidia", "hopper", 141, {"nvl", "pcie", "hbm3e", "refresh"}, 600),
    "H20": ("nvidia", "hopper", 96, {"export", "compliant", "china", "chinese", "capped"}, 400),
    "A100 80GB": ("nvidia", "ampere", 80, {"sxm", "sxm4"}, 400),
    "A100 40GB": ("nvidia", "ampere", 40, {"sxm", "sxm4"}, 400),
    "A100 80GB PCIe": ("nvidia", "ampere", 80, {"pcie"}, 300),
    "B200": ("nvidia", "blackwell", 180, {"hgx", "b200"}, 1000),
    "B300": ("nvidia", "blackwell", 288, {"hgx", "ultra"}, 1100),
    "GB200": ("nvidia", "blackwell", 186, {"grace", "nvl72", "gb200", "superchip"}, 1200),
    "GB300": ("nvidia", "blackwell", 288, {"grace", "nvl72", "ultra", "superchip"}, 1400),
    "RTX PRO 6000": ("nvidia", "blackwell", 96, {"workstation", "pro"}, 600),
    "RTX 5090": ("nvidia", "blackwell", 32, {"gaming", "geforce", "consumer"}, 575),
    "RTX 4090": ("nvidia", "ada", 24, {"gaming", "geforce", "consumer"}, 450),
    "L4": ("nvidia", "ada", 24, {"inference", "datacenter", "data-center", "72-watt", "72w", "low-profile", "low",
                                 "profile", "single-slot"}, 72),
    "L40S": ("nvidia", "ada", 48, {"datacenter", "data-center", "s"}, 350),
    "MI300X": ("amd", "cdna3", 192, set(), 750),
    "MI325X": ("amd", "cdna3", 256, set(), 1000),
    "MI355X": ("amd", "cdna4", 288, set(), 1400),
    "MI250X": ("amd", "cdna2", 128, {"oam", "package"}, 560),
    "MI250X GCD": ("amd", "cdna2", 64, {"gcd", "die"}, None),
    "TPU v5e": ("google", "tpu", 16, {"v5", "v5e", "lite", "cost", "efficiency", "efficient"}, None),
    "TPU v5p": ("google", "tpu", 95, {"v5", "v5p", "performance"}, None),
    "TPU v6e": ("google", "tpu", 32, {"v6", "v6e", "trillium"}, None),
    "Gaudi 3": ("intel", "gaudi", 128, set(), 900),
    "Trainium2": ("aws", "trainium", 96, {"trn2"}, None),
}
# a family's generation, said as an ordinal ("google's sixth-gen tpu", "intel's second-gen gaudi": one we lack)
_GENERATION_OF = {"TPU v5e": 5, "TPU v5p": 5, "TPU v6e": 6, "Gaudi 3": 3, "Trainium2": 2}
_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5,
             "5th": 5, "sixth": 6, "6th": 6, "seventh": 7, "7th": 7}
_FAMILIES = {"hopper": "hopper", "hoppers": "hopper", "ampere": "ampere", "amperes": "ampere", "ada": "ada",
             "lovelace": "ada", "blackwell": "blackwell", "blackwells": "blackwell", "cdna3": "cdna3", "cdna2": "cdna2",
             "cdna4": "cdna4", "tpu": "tpu", "tpus": "tpu", "gaudi": "gaudi", "gaudis": "gaudi", "trainium": "trainium",
             "trainiums": "trainium",
             # generations the registry holds no part of: a card of theirs is one we do not know
             "turing": "turing", "volta": "volta", "pascal": "pascal", "rdna": "rdna", "rdna2": "rdna", "rdna3": "rdna",
             "rdna4": "rdna", "cdna1": "cdna1"}
_VENDORS = {"nvidia": "nvidia", "nvidia's": "nvidia", "amd": "amd", "amd's": "amd", "google": "google",
            "google's": "google", "intel": "intel", "intel's": "intel", "aws": "aws", "aws's": "aws", "aws'": "aws",
            "amazon": "aws", "amazon's": "aws", "instinct": "amd", "instincts": "amd"}
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
# A description read by its traits: "nvidia's HBM3e refresh of the hopper SXM (141 gigs each)", "amd's 1400W CDNA 4
# instincts", "google's cost-optimized v5 tpu (16GB HBM per chip)", "the 2 TB/s pcie hoppers", "aws's in-house training
# chips with 96 GiB of HBM". Each word around a vendor or family word is a trait (memory, bandwidth, power, generation,
# a form-factor or segment word), a noun or filler the description may hold, or another word; the description is the
# run between its first and last trait, ending at a bare number, punctuation or a part the registry names.
_TOKEN = re.compile(r"\(|\)|[,;:?!]|\.(?=\s|$)|[^\s(),;:?!]+")
_MEMORY = re.compile(r"^(\d{2,3})\s?(?:gb|gigs?|gib|g)$")
_BANDWIDTH = re.compile(r"^(\d+(?:\.\d+)?)\s?(tb/s|gb/s|tbps)$")
_WATTS = re.compile(r"^(\d{2,4})[- ]?(?:w|watts?)$")
_GENERATION = re.compile(r"^cdna\s?([234])$")
_ORDINAL_GEN = re.compile(rf"^({'|'.join(_ORDINALS)})[- ]gen(?:eration)?$")
# "gaudi generation three", "gen-2 trainium", "gen 3"
_NUMBERED_GEN = re.compile(r"^gen(?:eration)?[- ]?(\d|one|two|three|four|five|six|seven)$")
# "h800", "t4", "gaudi2": a card named (memory, link, generation and precision words are traits, not names)
_PART_CODE = re.compile(r"^(?!(?:hbm|gddr|sxm|gen|nvl|pcie|cdna|v|fp|bf|int|mxfp|nvfp|tf|e\dm)\d)[a-z]{1,6}\d{1,4}[a-z]?$")
_OTHER_LINES = {"apu", "rtx", "gtx", "titan", "quadro", "tesla", "radeon", "arc", "jetson", "orin", "agx", "inferentia", "ponte",
                "vecchio", "max", "xeon", "mac", "ascend", "maia", "mtia", "grayskull", "wormhole"}
_FILLER = {"the", "a", "an", "of", "with", "each", "per", "chip", "chips", "in", "version", "class", "flavour", "flavor",
           "rack", "board", "-class", "its", "their"}
# words that start another phrase: "the 2 TB/s pcie hoppers over pcie gen5" (the link is no trait of the card)
_STOPS = {"over", "across", "on", "to", "for", "at", "from", "and", "or", "vs", "than", "via", "using", "running",
          # a trait said of another card: "amd's 288GB CDNA 4 part, not the 1400W one", "below the 1000W part"
          "not", "unlike", "instead", "rather", "below", "above", "except", "isn't", "no", "but"}
_DESCRIBING = {"training", "flagship", "lone", "new", "newer", "older", "latest", "big", "small", "top", "server",
               "gddr6", "gddr6x", "gddr7", "liquid", "air", "cooled", "dual", "die", "fastest", "biggest", "largest",
               "smallest", "cheapest", "current", "previous", "refreshed", "original", "full", "half", "memory", "bandwidth",
               "high", "end", "power", "powered", "sells", "sold", "makes", "made", "ships", "shipped", "built",
               "offers", "cut-down", "first", "second", "third", "fourth", "fifth", "sixth"}
_MARKS = set().union(*(marks for *_, marks, _ in _PARTS.values())) - {"s"}


def _described_by_traits(question: str, notes: list[str]) -> str:
    """The question with each description that every stated trait fits to one part named as that part; one that a
    stated memory or generation rules every part out of is an unlisted card (said unknown, never a default)."""
    low = question.lower()
    if not any(w in low for w in _TRAIT_HINTS):
        return question
    named = gpus().spans_in(low)
    tokens = _joined_figures([token for m in _TOKEN.finditer(low) for token in _without_full_stop(m)])
    in_names = [any(s <= a < e for s, e in named) for a, _, _ in tokens]
    kinds = [_kind(text, in_name) for (_, _, text), in_name in zip(tokens, in_names)]
    out, done = question, 0
    for i, kind in enumerate(kinds):
        if kind != "anchor" or i < done:
            continue
        first, last = _run(kinds, i)
        done = last + 1
        words = [t[2] for t in tokens[first:last + 1]]
        traits = _traits(words)
        near = [t[2] for t, in_name in zip(tokens[max(first - 2, 0):last + 3], in_names[max(first - 2, 0):last + 3])
                if not in_name]
        if not traits["specific"] or any(_PART_CODE.match(w) or w.removesuffix("s") in _OTHER_LINES for w in near):
            continue  # "NVIDIA H800 80GB HBM3", "amd's 128GB APU": a card named, or a product line we hold no part of
        fits = _fits_traits(traits)
        if first and tokens[first - 1][2] == "the":
            first -= 1  # "eight of the 141GB SXM hoppers" → "eight of H200s", which the count binds to
        if last + 2 < len(tokens) and tokens[last + 1][2] == "from" and tokens[last + 2][2] in _VENDORS:
            last += 2  # "gaudi generation three from intel": the vendor said after
        a, b = tokens[first][0], tokens[last][1]
        if "(" in low[a:b] and ")" not in low[a:b] and low.find(")", b) != -1 and low.find(")", b) - b < 40:
            b = low.find(")", b) + 1
        span = question[a:b]
        plural = "s" if any(_is_plural(t[2]) for t, k in zip(tokens[first:last + 1], kinds[first:last + 1])
                            if k in ("noun", "anchor")) else ""
        if len(fits) == 1:
            out = out.replace(span, _named(span, fits[0], notes) + plural, 1)
        elif not fits and (traits["memory"] or traits["generation"]):  # "google's fourth-gen tpus": one we lack
            out = out.replace(span, f"{UNLISTED} of {traits['vendor']}" if traits["vendor"] else UNLISTED, 1)
    return out


# "on one GCD", "a single one of those GCDs", "per GCD", "that GCD": the calculation runs on half an MI250X package
_ONE_DIE = re.compile(r"\b(?:one|a|single|that|this|per|each|lone|just)\s+(?:one\s+of\s+(?:those|the|its|these)\s+)?"
                      r"(?:gcd|gcds|die)\b"
                      r"|\b(?:number\s+of|how\s+many|min(?:imum)?(?:\s+number\s+of)?)\s+gcds\b", re.I)  # ("minimum number of GCDs")
_MI250X = re.compile(r"\bmi250x\b(?![\s-]*(?:gcd|die|packages?|oams?|cards?))", re.I)


def _as_one_die(question: str, notes: list[str]) -> str:
    """An MI250X the reader runs on one die of ("Mixtral 8x7B fp16 on one GCD"): the MI250X GCD."""
    die = _ONE_DIE.search(question)
    if not die or not _MI250X.search(question):
        return question
    notes.append(f"“{die.group(0)}” of the MI250X read as MI250X GCD (half a package: 64 GB, 1.6 TB/s)")
    return _MI250X.sub("MI250X GCD", question)


def _is_plural(word: str) -> bool:
    """"hoppers", "chips", "instincts" (the count before them binds to the part named in their place); not "aws's"."""
    return word.endswith("s") and not word.endswith(("'s", "ss")) and word not in ("aws", "gcds", "ada")


def _without_full_stop(m: re.Match) -> list[tuple[int, int, str]]:
    """A word and the full stop typed after it, as two tokens ("the 192GB AMD one." ends before the stop)."""
    text = m.group(0)
    if len(text) > 1 and text.endswith("."):
        return [(m.start(), m.end() - 1, text[:-1]), (m.end() - 1, m.end(), ".")]
    return [(m.start(), m.end(), text)]


_TRAIT_HINTS = ("nvidia", "amd", "google", "intel", "aws", "amazon", "hopper", "blackwell", "ampere", "ada", "lovelace",
                "cdna", "instinct", "tpu", "gaudi", "trainium")


def _joined_figures(tokens: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """A figure and its unit as one token ("141 gigs", "4.8 TB/s", "1400 W", "cdna 4")."""
    out: list[tuple[int, int, str]] = []
    for start, end, text in tokens:
        if out and (_MEMORY.match(f"{out[-1][2]} {text}") or _BANDWIDTH.match(f"{out[-1][2]} {text}")
                    or _WATTS.match(f"{out[-1][2]} {text}") or _GENERATION.match(f"{out[-1][2]} {text}")
                    or _ORDINAL_GEN.match(f"{out[-1][2]} {text}") or _NUMBERED_GEN.match(f"{out[-1][2]} {text}")):
            out[-1] = (out[-1][0], end, f"{out[-1][2]} {text}")
        else:
            out.append((start, end, text))
    return out


def _kind(text: str, in_a_name: bool) -> str:
    """anchor (vendor, family), trait, noun, filler, stop (punctuation, a bare number, a named part) or other."""
    word = text.removesuffix("'s").removesuffix("'")
    if in_a_name or text in ",;:?!." or text in _STOPS or (re.fullmatch(r"[\d.,x×]+", text) and not re.fullmatch(r"20[12]\d", text)):
        return "stop"  # a bare number is a count, not a trait; a year may describe ("intel's 2024 gaudi")
    if word in _VENDORS or text in _VENDORS or word in _FAMILIES or _GENERATION.match(word):
        return "anchor"
    if (_MEMORY.match(text) or _BANDWIDTH.match(text) or _WATTS.match(text) or _ORDINAL_GEN.match(text)
            or _NUMBERED_GEN.match(text) or _words(text) & _MARKS):
        return "trait"
    if re.fullmatch(_NOUNS + r"|gcds?|dies?|generation|gen|hbm\w*", word):
        return "noun"
    if word in _FILLER or text in "()":
        return "filler"
    # a describing word ("single-slot", "top-clocked", "in-house training") may sit inside; any other ends it ("the 24GB
    # ada gaming cards shows an algbw of 12 GB/s": the 12 GB/s is no trait of the card)
    return "other" if "-" in word or word in _DESCRIBING or re.fullmatch(r"20[12]\d", word) else "stop"


def _run(kinds: list[str], i: int) -> tuple[int, int]:
    """The description around anchor i: its first and last trait, anchor or noun, crossing at most two other words."""
    def reach(step: int) -> int:
        best, j, others = i, i + step, 0
        while 0 <= j < len(kinds) and kinds[j] != "stop":
            if kinds[j] == "other":
                others += 1
                if others > 2:
                    break
            elif kinds[j] != "filler":
                best, others = j, 0
            j += step
        return best
    return reach(-1), reach(1)


def _traits(words: list[str]) -> dict:
    found: dict = {"vendor": None, "family": None, "memory": None, "bandwidth": None, "watts": None, "generation": None,
                   "marks": set(), "words": set(), "specific": False}
    for text in words:
        word = text.removesuffix("'s").removesuffix("'")
        if m := _MEMORY.match(text):
            found["memory"] = int(m.group(1))
        elif m := _BANDWIDTH.match(text):
            found["bandwidth"] = float(m.group(1)) * (1 if m.group(2) in ("tb/s", "tbps") else 1e-3)
        elif m := _WATTS.match(text):
            found["watts"] = int(m.group(1))
        elif m := _ORDINAL_GEN.match(text):
            found["generation"] = _ORDINALS[m.group(1)]
        elif m := _NUMBERED_GEN.match(text):
            found["generation"] = w2n.word_to_num(m.group(1))  # ("3", "three")
        elif m := _GENERATION.match(word):
            found["family"] = f"cdna{m.group(1)}"
        elif word in _VENDORS or text in _VENDORS:
            found["vendor"] = _VENDORS.get(word, _VENDORS.get(text))
        elif word in _FAMILIES or _words(word) & set(_FAMILIES):  # ("grace-blackwell")
            found["family"] = found["family"] or _FAMILIES[word if word in _FAMILIES else
                                                             next(iter(sorted(_words(word) & set(_FAMILIES))))]
        found["marks"] |= _words(text) & _MARKS
        found["words"] |= _words(text)
    # a family alone is no description: "amd's top-clocked CDNA 4 instinct" could be an MI350X, a part we lack
    found["specific"] = any(found[k] for k in ("memory", "bandwidth", "watts", "generation", "marks"))
    return found


def _fits_traits(traits: dict, alone: bool = False) -> list[str]:
    """The parts every stated trait fits; among several, those its form-factor and segment words mark most. Without
    a vendor or family word, none (`alone`: one part that fits is enough)."""
    fits = [part for part, (vendor, family, gb, _, watts) in _PARTS.items()
            if traits["vendor"] in (None, vendor) and traits["family"] in (None, family)
            and _said_if_required(part, traits["words"])
            and traits["memory"] in (None, gb) and traits["watts"] in (None, watts)
            and _GENERATION_OF.get(part) in (None, traits["generation"] or _GENERATION_OF.get(part))
            and (traits["bandwidth"] is None or abs(gpus().find(part).bandwidth / 1e12 - traits["bandwidth"])
                 <= 0.03 * traits["bandwidth"])]
    if len(fits) > 1 and traits["marks"]:
        score = {part: len(_PARTS[part][3] & traits["marks"]) for part in fits}
        fits = [part for part in fits if score[part] == max(score.values())]
    if len(fits) == 1 and _outside_segment(fits[0], traits["words"]):
        return []
    return fits if traits["vendor"] or traits["family"] or (alone and len(fits) == 1) else []


def as_named(question: str) -> tuple[str, list[str]]:
    """The question with each GPU it describes (and only one part fits) named, and a note of each reading."""
    notes: list[str] = []
    question = mended(question)  # a trait typed with a slip: "the 80 gig hoppper sxm cards", "blackwel hgx"
    question = _described_by_traits(_as_one_die(question, notes), notes)
    if "gb" not in question.lower():
        return question, notes

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
    """The parts a memory beside a GPU word fits, read by the traits reading; alone, a memory that one part has is
    that part ("the 192GB one")."""
    vendor, family = _vendor_and_family(words)
    traits = {"vendor": vendor, "family": family, "memory": memory, "bandwidth": None, "watts": None,
              "generation": None, "marks": words & _MARKS, "words": words}
    return _fits_traits(traits, alone=True)


def _outside_segment(part: str, words: set[str]) -> bool:
    """A segment the one fitting part is not in: "nvidia's 48GB ada workstation card" is no L40S (a datacenter part),
    and an air-cooled card is none of the parts sold liquid-cooled only."""
    return (bool(words & _SEGMENTS) and not words & _SEGMENTS & _PARTS[part][3]) or ("air" in words
                                                                                     and part in _LIQUID_ONLY)


_LIQUID_ONLY = {"MI355X", "GB200", "GB300"}
# parts a description reaches only by their own word: "amd's 64GB CDNA 2 PCIe card" is an MI210, not half an MI250X
_MARK_REQUIRED = {"MI250X GCD"}


def _said_if_required(part: str, words: set[str]) -> bool:
    return part not in _MARK_REQUIRED or bool(_PARTS[part][3] & words)


_SEGMENTS = {"workstation", "gaming", "geforce", "consumer", "datacenter", "data-center", "inference", "laptop", "mobile",
             "desktop"}
# the parts to offer instead of an unlisted card, by its vendor
_VENDOR_PARTS = {"nvidia": ["h100-sxm", "a100-80gb", "l40s"], "amd": ["mi300x", "mi325x", "mi355x"],
                 "intel": ["gaudi-3"], "google": ["tpu-v5e", "tpu-v5p", "tpu-v6e"]}


# the words a family goes by, beyond its vendor and architecture ("the instinct pair", "on the geforce card")
_BRANDS = {"amd": {"instinct"}, "google": {"tpu"}, "aws": {"amazon", "trainium"}, "intel": {"gaudi", "habana"}}


def traits_of(gpu_key: str) -> set[str]:
    """The words that pick a registry part by its kind: vendor, architecture, brand, marks ("hopper", "geforce")."""
    return _traits_by_key().get(gpu_key, set())


@lru_cache(maxsize=1)
def _traits_by_key() -> dict[str, set[str]]:  # (built when an option is first picked this way, not at import)
    out = {}
    for name, (vendor, arch, _, marks, _) in _PARTS.items():
        spec = find_gpu(name)
        if spec is not None:
            out[spec.id] = {vendor, arch, *marks, *_BRANDS.get(vendor, set())}
    return out


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
                   and (not words & _SEGMENTS or words & _SEGMENTS & marks) for v, f, gb, marks, _ in _PARTS.values())


def _named(described: str, part: str, notes: list[str]) -> str:
    notes.append(f"“{described.strip()}” read as {part}")
    return part

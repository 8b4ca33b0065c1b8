"""Registries of models, accelerators and links, loaded from the YAML files in data/.

Each entry names its source and date. Lookups accept the spellings people use
("Llama-3.1-70B-Instruct", "meta-llama/Llama-3.1-70B", "H100 SXM5", "NDR"); `closest_*` powers the
"I don't know that model; closest: …" answer; `*_pattern()` finds names inside free text.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Generic, TypeVar

import yaml

from .architecture import ModelConfig, ParamCount, count_params

DATA = Path(__file__).with_name("data")

# Words that do not change which entry is meant ("Llama-3.1-70B-Instruct" is Llama 3.1 70B).
_FILLER = {"instruct", "chat", "base", "hf", "it", "meta", "openai", "nvidia", "amd", "intel",
           "google", "aws", "the", "model", "gpu", "gpus"}
_TOKEN = re.compile(r"\d+(?:\.\d+)*|[a-z]+")


def _tokens(name: str) -> list[str]:
    name = name.lower().replace("×", "x").rsplit("/", 1)[-1]
    tokens = [t for t in _TOKEN.findall(name) if t not in _FILLER]
    # "a100 40g" is the A100 40GB: a "g" after a number is gigabytes (in keys and in lookups alike)
    return [("gb" if t == "g" and k and tokens[k - 1][:1].isdigit() else t) for k, t in enumerate(tokens)]


@lru_cache(maxsize=4096)  # the router asks for the same few names' keys in every question
def name_key(name: str) -> str:
    """Spelling-insensitive key: 'Meta-Llama-3.1-70B-Instruct' -> 'llama3.170b'."""
    return "".join(_tokens(name))


@dataclass(frozen=True)
class ModelSpec:
    id: str
    name: str
    source: str
    date: str
    config: ModelConfig
    aliases: tuple[str, ...] = ()
    notes: str | None = None

    @cached_property
    def params(self) -> ParamCount:
        return count_params(self.config)


@dataclass(frozen=True)
class GpuSpec:
    id: str
    name: str
    source: str
    date: str
    memory_bytes: int
    bandwidth: float
    peak_flops: dict[str, float | None] = field(default_factory=dict)
    link: str | None = None
    aliases: tuple[str, ...] = ()
    notes: str | None = None

    def peak(self, precision: str) -> float | None:
        return self.peak_flops.get(precision)


@dataclass(frozen=True)
class LinkSpec:
    id: str
    name: str
    source: str
    date: str
    bandwidth: float
    alpha_s: float
    scope: str
    aliases: tuple[str, ...] = ()


S = TypeVar("S", ModelSpec, GpuSpec, LinkSpec)


class Registry(Generic[S]):
    """One kind of entry: lookup by any alias, nearest names, and a free-text pattern."""

    def __init__(self, entries: list[S]):
        self.entries = {e.id: e for e in entries}
        self._by_key: dict[str, S] = {}
        for e in entries:
            for alias in (e.id, e.name, *e.aliases):
                self._by_key.setdefault(name_key(alias), e)
        self._spellings = [(a.lower(), e) for e in entries for a in (e.id, e.name, *e.aliases)]
        spellings = {a.lower() for e in entries for a in (e.id, e.name, *e.aliases)}
        # (first token, pattern, spelling): the first token is a cheap substring pre-filter
        self._patterns = [(_TOKEN.findall(a)[0], re.compile(_alias_regex(a)), a)
                          for a in spellings if _TOKEN.findall(a)]

    def find(self, name: str) -> S | None:
        return self._by_key.get(name_key(name))

    def closest(self, name: str, k: int = 3) -> list[str]:
        keys = list(self._by_key)
        out: list[str] = []
        for key in difflib.get_close_matches(name_key(name), keys, n=len(keys), cutoff=0.0):
            entry_id = self._by_key[key].id
            if entry_id not in out:
                out.append(entry_id)
            if len(out) == k:
                break
        return out

    def fuzzy(self, name: str, cutoff: float = 0.75) -> S | None:
        """The one entry a misspelt name means ('lamma 3 70b', 'mixtrel 8x7b', 'deepsek v3'), or None.

        Numbers must match exactly (Llama 2 70B is not a typo of Llama 3 70B); only the words may be
        misspelt, and the best match must be unique.
        """
        numbers, letters = _split(name)
        if not numbers:
            return None
        scored: dict[str, float] = {}
        for spelling, entry in self._spellings:
            nums, words = _split(spelling)
            if nums != numbers:
                continue
            ratio = difflib.SequenceMatcher(None, letters, words).ratio()
            if ratio >= cutoff:
                scored[entry.id] = max(scored.get(entry.id, 0.0), ratio)
        if not scored:
            return None
        top = max(scored.values())
        winners = [entry_id for entry_id, ratio in scored.items() if ratio == top]
        return self.entries[winners[0]] if len(winners) == 1 else None

    def named_in(self, text: str) -> set[str]:
        """The ids of every entry named in lower-case `text` (any spelling; a cheap first-token filter first)."""
        return {self.find(spelling).id for first, pattern, spelling in self._patterns
                if first in text and pattern.search(text)}

    def spans_in(self, text: str) -> list[tuple[int, int]]:
        """Where lower-case `text` names an entry (any spelling), as (start, end) offsets."""
        return [m.span() for first, pattern, _ in self._patterns if first in text for m in pattern.finditer(text)]

    def search(self, text: str) -> tuple[S, re.Match] | None:
        """First entry named in lower-case `text` (the longest spelling wins at a position)."""
        best: re.Match | None = None
        best_spelling = ""
        for first, pattern, spelling in self._patterns:
            if first not in text:
                continue
            m = pattern.search(text)
            if m and (best is None or (m.start(), -len(m.group(0))) < (best.start(), -len(best.group(0)))):
                best, best_spelling = m, spelling
        return (self.find(best_spelling), best) if best else None


def _split(name: str) -> tuple[list[str], str]:
    """(number tokens, letters joined): 'Mixtral 8x7B' -> (['8', '7'], 'mixtralxb')."""
    tokens = _tokens(name)
    return [t for t in tokens if t[0].isdigit()], "".join(t for t in tokens if t.isalpha())


def _alias_regex(alias: str) -> str:
    parts = [re.escape(t) for t in _TOKEN.findall(alias.lower())]
    body = r"[\s\-_]*".join(parts)
    return rf"(?<![a-z0-9]){body}(?:s)?(?![a-z0-9]|\.\d)"


def _load(filename: str) -> list[dict]:
    with open(DATA / filename, encoding="utf-8") as f:
        return yaml.safe_load(f)


_META = ("id", "name", "source", "date", "aliases", "notes")


@lru_cache(maxsize=1)
def models() -> Registry[ModelSpec]:
    specs = []
    for raw in _load("models.yaml"):
        meta = {k: raw.pop(k) for k in _META if k in raw}
        specs.append(ModelSpec(config=ModelConfig.model_validate(raw), **_tupled(meta)))
    return Registry(specs)


@lru_cache(maxsize=1)
def gpus() -> Registry[GpuSpec]:
    return Registry([GpuSpec(**_tupled(raw)) for raw in _load("gpus.yaml")])


@lru_cache(maxsize=1)
def links() -> Registry[LinkSpec]:
    return Registry([LinkSpec(**_tupled(raw)) for raw in _load("links.yaml")])


def _tupled(raw: dict) -> dict:
    out = dict(raw)
    out["aliases"] = tuple(out.get("aliases") or ())
    out["date"] = str(out["date"])
    return out


def find_model(name: str) -> ModelSpec | None:
    return models().find(name)


def closest_models(name: str, k: int = 3) -> list[str]:
    return models().closest(name, k)


def find_model_fuzzy(name: str) -> ModelSpec | None:
    """A misspelt model name resolved when exactly one entry matches (the answer states the reading)."""
    return models().fuzzy(name)


# Family names that do not say which model is meant: the default reading, and the words to state it.
_AMBIGUOUS_MODELS = {
    "mixtral": ("mixtral-8x7b", "'Mixtral' read as Mixtral 8x7B (Mixtral 8x22B is the other one)"),
    "mixtralinstruct": ("mixtral-8x7b", "'Mixtral' read as Mixtral 8x7B (Mixtral 8x22B is the other one)"),
    # V3 and R1 share one architecture, so every calculation is the same whichever was meant
    "deepseek": ("deepseek-v3", "'DeepSeek' read as DeepSeek-V3 (DeepSeek-R1 has the same architecture)"),
}


def ambiguous_model(name: str) -> tuple[ModelSpec, str] | None:
    """For a family name ('mixtral'): the entry assumed and the assumption in words; else None."""
    hit = _AMBIGUOUS_MODELS.get(name_key(name))
    return (models().entries[hit[0]], hit[1]) if hit else None


def find_gpu(name: str) -> GpuSpec | None:
    return gpus().find(name)


# Names readers type for parts the registry does not hold, and the entry each is a variant of.
_GPU_RELATIVES = {
    "h800": "h100-sxm",  # export variant of the H100 SXM (same compute, reduced NVLink)
    "h800pcie": "h100-pcie",
    "a800": "a100-80gb",  # export variant of the A100 (reduced NVLink)
    "gh200": "h200",  # Grace Hopper: an H100/H200-class GPU beside a Grace CPU
    "b100": "b200",
    "mi250": "mi250x",  # the MI250 (208 CUs, lower peak) beside the MI250X (220 CUs)
}
# Parts one letter from an entry that are other parts: never mended to it ('mi250' is no misspelt 'mi250x')
_OTHER_PARTS = {"mi250"}
_FAMILY = re.compile(r"([a-z]+)\s*[-_ ]?\s*[a-z]*?\s*(\d+)")


def _family_number(name: str) -> tuple[str, int] | None:
    """('h', 800) for 'H800', ('mi', 400) for 'MI400', ('rtx', 4090) for 'RTX 4090', ('', 3090) for '3090'."""
    tokens = _tokens(name)
    letters = next((t for t in tokens if t.isalpha()), "")
    number = next((t for t in tokens if t[0].isdigit()), None)
    if number is None or not int(float(number)):
        return None
    return letters, int(float(number))


def _gpu_score(query: str, spec: GpuSpec) -> float:
    """Similarity of an unknown GPU name to an entry: same family, nearby model number, then spelling."""
    import math

    spellings = (spec.id, spec.name, *spec.aliases)
    key = name_key(query)
    spelling = max(difflib.SequenceMatcher(None, key, name_key(a)).ratio() for a in spellings)
    q = _family_number(query)
    best = 0.0
    for a in spellings:
        e = _family_number(a)
        if q is None or e is None:
            continue
        score = 0.4 if q[0] and q[0] == e[0] else 0.0
        score += 0.6 * max(0.0, 1 - abs(math.log10(q[1] / e[1])))
        best = max(best, score)
    return best + 0.1 * spelling


def closest_gpus(name: str, k: int = 3) -> list[str]:
    """Nearest registry GPUs to a name it does not know ('H800' → H100 SXM first; 'MI400' → MI355X, …)."""
    registry = gpus()
    ranked = sorted(registry.entries.values(), key=lambda spec: -_gpu_score(name, spec))
    out = [spec.id for spec in ranked]
    relative = _GPU_RELATIVES.get(name_key(name))
    if relative:
        out.remove(relative)
        out.insert(0, relative)
    return out[:k]


def find_gpu_fuzzy(name: str) -> GpuSpec | None:
    """A misspelt GPU name resolved when exactly one entry matches ('mi300' -> MI300X); never a different number,
    nor another part one letter away ('mi250'), nor another letter before a number ('dgx b100' is no DGX H100)."""
    spec = None if name_key(name) in _OTHER_PARTS else gpus().fuzzy(name)
    if spec is None or not any(_part_codes(s) == _part_codes(name) for s in (spec.id, spec.name, *spec.aliases)):
        return None
    return spec


def _part_codes(name: str) -> list[str]:
    """The letter written right before each number of a part's name: 'dgx h100' -> ['h'], 'mi300x' -> ['i']."""
    return re.findall(r"([a-z])[\s-]?\d", name.lower())


def find_link(name: str) -> LinkSpec | None:
    return links().find(name)


def closest_links(name: str, k: int = 3) -> list[str]:
    return links().closest(name, k)

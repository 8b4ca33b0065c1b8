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
    return [t for t in _TOKEN.findall(name) if t not in _FILLER]


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


def find_gpu(name: str) -> GpuSpec | None:
    return gpus().find(name)


def closest_gpus(name: str, k: int = 3) -> list[str]:
    return gpus().closest(name, k)


def find_link(name: str) -> LinkSpec | None:
    return links().find(name)


def closest_links(name: str, k: int = 3) -> list[str]:
    return links().closest(name, k)

"""`python -m ingest validate`: every rule of DESIGN §3 and every checkable figure (ingest/claims.py),
reported as `path:line: message`, all in one run."""
from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from calculators import CALCULATOR_NAMES

from .corpus import KIND_DIRS, KINDS, Corpus, CorpusError, Document, concept_id, document_paths, load_site, parse_document

ARTICLE_IDS = (
    "training-at-scale", "inference-at-scale", "gpudirect", "prefill-decode-disaggregation", "mooncake",
    "vast-weka-netapp", "kv-cache", "paged-attention", "continuous-batching", "parallelism-strategies",
    "nccl-collectives", "llm-inference-economics", "triton-kernels", "zero-vs-fsdp", "interconnects",
)
TRACKS = (
    "gpu-and-accelerator-architecture", "hardware-and-cluster-build-out", "kernels-and-compilers",
    "distributed-training", "inference-and-serving", "open-weights-and-serving-engines",
    "napkin-math-and-capacity", "networking-and-storage", "scheduling-and-orchestration",
    "fleet-reliability-and-observability", "ai-systems-design", "coding-for-infra", "ownership-and-judgment",
)
LEVELS = ("free", "core", "premium")

_COMMON = {"id", "kind", "title", "summary", "updated"}
REQUIRED = {
    "article": _COMMON | {"tags", "concepts", "sources"},
    "concept": _COMMON | {"tags", "concepts", "sources", "track", "level"},
    "source": _COMMON | {"authors", "year", "venue", "url"},
}
# subject: what "it" means on an article's page ("who made it?" on Mooncake), a few words; computes: the
# calculator the page's worked figures are about ("what about qwen 72b at 128k?" on the KV-cache page)
OPTIONAL = {"article": {"subject", "computes"}, "concept": set(), "source": {"tags", "concepts", "sources"}}
_KEBAB = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_BODY_LINK = re.compile(r"\]\(/(articles|concepts|sources)/([^)#\s]+)")


@dataclass(frozen=True)
class Problem:
    path: Path
    line: int
    message: str
    severity: str = "error"  # error | warning

    def __str__(self) -> str:
        prefix = "warning: " if self.severity == "warning" else ""
        return f"{self.path}:{self.line}: {prefix}{self.message}"


def validate(root: Path, strict: bool = False) -> tuple[Corpus | None, list[Problem]]:
    """Check the whole corpus; return it (when parseable) and every problem found.

    A concept id that no page defines yet is a warning (the concept pages arrive in stages);
    with `strict` it is an error. Every other rule is always an error.
    """
    problems: list[Problem] = []
    try:
        base_url = load_site(root)
    except CorpusError as exc:
        return None, [Problem(exc.path, exc.line, exc.message)]
    corpus = Corpus(root=root, base_url=base_url)
    for path in document_paths(root):
        try:
            corpus.documents.append(parse_document(path))
        except CorpusError as exc:
            problems.append(Problem(exc.path, exc.line, exc.message))
    problems += _check_ids(corpus)
    known = {kind: {d.id for d in corpus.of_kind(kind)} for kind in KINDS}
    for doc in corpus.documents:
        problems += _check_fields(doc)
        problems += _check_links(doc, known, strict)
        problems += _check_sections(doc)
    problems += _check_claims(root)
    return corpus, sorted(problems, key=lambda p: (str(p.path), p.line))


def _check_claims(root: Path) -> list[Problem]:
    """Every checkable figure (`<!-- check: … -->`) recomputed: a disagreement or bad markup is an error."""
    from .claims import check_corpus

    return [Problem(f.path, f.line, f.message) for f in check_corpus(root).findings]


def _check_ids(corpus: Corpus) -> list[Problem]:
    """Ids are unique within a kind: links name their kind (`concepts:`, `sources:`, /articles/…)."""
    seen = Counter((d.kind, d.id) for d in corpus.documents)
    return [
        Problem(d.path, d.line_of("id"), f"duplicate id '{d.id}' (another {d.kind} uses it too)")
        for d in corpus.documents
        if d.id and seen[(d.kind, d.id)] > 1
    ]


def _check_fields(doc: Document) -> list[Problem]:
    out: list[Problem] = []
    kind = doc.kind
    if kind not in KINDS:
        return [Problem(doc.path, doc.line_of("kind"), f"kind must be one of {', '.join(KINDS)}, got '{kind}'")]
    for name in sorted(REQUIRED[kind] - doc.meta.keys()):
        out.append(Problem(doc.path, 1, f"missing field '{name}' (required for a {kind})"))
    for name in sorted(doc.meta.keys() - REQUIRED[kind] - OPTIONAL[kind]):
        out.append(Problem(doc.path, doc.line_of(name), f"unknown field '{name}' for a {kind}"))
    for name in sorted(REQUIRED[kind]):
        if name in doc.meta and doc.meta[name] in (None, ""):
            out.append(Problem(doc.path, doc.line_of(name), f"field '{name}' is empty"))
    computes = doc.meta.get("computes")
    if computes is not None and computes not in CALCULATOR_NAMES:
        out.append(Problem(doc.path, doc.line_of("computes"),
                           f"computes must be one of {', '.join(CALCULATOR_NAMES)}, got '{computes}'"))
    if doc.id and not _KEBAB.match(doc.id):
        out.append(Problem(doc.path, doc.line_of("id"), f"id '{doc.id}' is not kebab-case"))
    if doc.id and doc.path.stem != doc.id:
        out.append(Problem(doc.path, doc.line_of("id"), f"id '{doc.id}' does not match the file name '{doc.path.name}'"))
    expected_dir = KIND_DIRS[kind]
    if expected_dir not in doc.path.parts:
        out.append(Problem(doc.path, doc.line_of("kind"), f"a {kind} belongs under corpus/{expected_dir}/"))
    for name in ("tags", "concepts", "sources", "authors"):
        if name in doc.meta and not isinstance(doc.meta[name], list):
            out.append(Problem(doc.path, doc.line_of(name), f"field '{name}' must be a list"))
    if "updated" in doc.meta and not isinstance(doc.meta["updated"], dt.date):
        out.append(Problem(doc.path, doc.line_of("updated"), "field 'updated' must be a date (YYYY-MM-DD)"))
    if kind == "article" and doc.id and doc.id not in ARTICLE_IDS:
        out.append(Problem(doc.path, doc.line_of("id"), f"'{doc.id}' is not one of the fifteen article ids (DESIGN §3)"))
    if kind == "concept":
        out += _check_concept(doc)
    if kind == "source":
        year = doc.meta.get("year")
        if "year" in doc.meta and not (isinstance(year, int) and 1900 <= year <= 2100):
            out.append(Problem(doc.path, doc.line_of("year"), f"year must be a four-digit number, got '{year}'"))
        if "url" in doc.meta and not str(doc.meta["url"]).startswith(("http://", "https://")):
            out.append(Problem(doc.path, doc.line_of("url"), "url must start with http:// or https://"))
    return out


def _check_concept(doc: Document) -> list[Problem]:
    out = []
    track, level = doc.meta.get("track"), doc.meta.get("level")
    if "track" in doc.meta and track not in TRACKS:
        out.append(Problem(doc.path, doc.line_of("track"), f"unknown track '{track}'"))
    elif track and doc.path.parent.name != track:
        out.append(Problem(doc.path, doc.line_of("track"), f"a concept of track '{track}' belongs in corpus/concepts/{track}/"))
    if "level" in doc.meta and level not in LEVELS:
        out.append(Problem(doc.path, doc.line_of("level"), f"level must be one of {', '.join(LEVELS)}, got '{level}'"))
    if doc.title and doc.id and concept_id(doc.title) != doc.id:
        out.append(Problem(doc.path, doc.line_of("id"), f"concept id must be '{concept_id(doc.title)}' (derived from the title)"))
    return out


def _check_links(doc: Document, known: dict[str, set[str]], strict: bool) -> list[Problem]:
    out = []
    for kind, key in (("concept", "concepts"), ("source", "sources")):
        for target in doc.links(key):
            if target not in known[kind]:
                severity = "error" if kind == "source" or strict else "warning"
                out.append(Problem(doc.path, doc.line_of(key), f"links to unknown {kind} id '{target}'", severity))
    body_kinds = {"articles": "article", "concepts": "concept", "sources": "source"}
    for offset, line in enumerate(doc.body.splitlines()):
        for folder, target in _BODY_LINK.findall(line):
            kind = body_kinds[folder]
            if target not in known[kind]:
                pending = kind == "concept" or (kind == "article" and target in ARTICLE_IDS)
                severity = "warning" if pending and not strict else "error"
                out.append(Problem(doc.path, doc.body_start + offset, f"links to unknown {kind} id '{target}'", severity))
    return out


def _check_sections(doc: Document) -> list[Problem]:
    out = []
    anchors = Counter(s.anchor for s in doc.sections if s.heading)
    reported: set[str] = set()
    for section in doc.sections:
        if not section.heading:
            continue
        if not re.sub(r"(?m)^#+\s.*$", "", section.text).strip():
            out.append(Problem(doc.path, section.line, f"section '{section.heading}' is empty"))
        if anchors[section.anchor] > 1 and section.anchor not in reported:
            reported.add(section.anchor)
            out.append(Problem(doc.path, section.line, f"heading anchor '#{section.anchor}' is used twice in this file"))
    if not any(s.heading for s in doc.sections):
        out.append(Problem(doc.path, doc.body_start, "document has no '##' section"))
    return out

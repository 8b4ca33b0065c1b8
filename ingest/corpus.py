"""The corpus on disk: Markdown documents with YAML front matter, split into `##` sections.

Everything here keeps line numbers, so that validation can point at `path:line`.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import yaml

from .errors import IngestError

KINDS = ("article", "concept", "source")
KIND_DIRS = {"article": "articles", "concept": "concepts", "source": "sources"}

_FENCE = re.compile(r"^\s*(```|~~~)")
_SECTION_HEADING = re.compile(r"^##\s+(.+?)\s*#*\s*$")
# A checkable figure's markup, `<!-- check: … -->` (ingest/claims.py): readers never see it, so it is
# stripped from the section text (the index and the demo pages); line numbers and the hash are kept.
CHECK_MARKUP = re.compile(r"[ \t]*<!--\s*check\b(?P<colon>:?)(?P<body>.*?)-->")


class CorpusError(IngestError):
    """A corpus file that cannot even be parsed (no front matter, broken YAML)."""

    def __init__(self, path: Path, line: int, message: str):
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line, self.message = path, line, message


def slugify(heading: str) -> str:
    """GitHub-style heading anchor: lower-case, drop punctuation, spaces become hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def concept_id(title: str) -> str:
    """DESIGN §3: title lower-cased, ASCII, every run of non-alphanumerics → '-', trimmed."""
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_title.lower()).strip("-")


@dataclass
class Section:
    heading: str  # "" for the text before the first `##` heading
    anchor: str
    line: int  # line of the heading (or of the first body line for the lead)
    text: str  # body Markdown, sub-headings included


@dataclass
class Document:
    path: Path
    meta: dict
    meta_lines: dict[str, int]  # front-matter key → line number
    sections: list[Section]
    body_start: int  # first line after the front matter
    body: str = ""
    content_hash: str = ""  # sha256 of the file as read, for the build's input fingerprint

    @property
    def id(self) -> str:
        return str(self.meta.get("id", ""))

    @property
    def kind(self) -> str:
        return str(self.meta.get("kind", ""))

    @property
    def title(self) -> str:
        return str(self.meta.get("title", ""))

    def line_of(self, key: str) -> int:
        return self.meta_lines.get(key, 1)

    def links(self, key: str) -> list[str]:
        value = self.meta.get(key) or []
        return [str(v) for v in value] if isinstance(value, list) else []


@dataclass
class Corpus:
    root: Path
    base_url: str
    documents: list[Document] = field(default_factory=list)

    def ids(self, kind: str) -> set[str]:
        return {d.id for d in self.documents if d.kind == kind}

    def of_kind(self, kind: str) -> list[Document]:
        return [d for d in self.documents if d.kind == kind]

    def document(self, kind: str, doc_id: str) -> Document | None:
        """The document of this kind with this id (ids are unique within a kind)."""
        return self._index.get((kind, doc_id))

    @cached_property
    def _index(self) -> dict[tuple[str, str], Document]:
        """(kind, id) → document, built on the first lookup (after `load_corpus` filled `documents`)."""
        return {(d.kind, d.id): d for d in reversed(self.documents)}  # reversed: the first of a duplicate wins

    def url(self, doc: Document, anchor: str = "") -> str:
        path = f"{self.base_url}/{KIND_DIRS.get(doc.kind, doc.kind)}/{doc.id}"
        return f"{path}#{anchor}" if anchor else path


def parse_document(path: Path) -> Document:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise CorpusError(path, 1, "missing YAML front matter (the file must start with '---')")
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        raise CorpusError(path, 1, "front matter is not closed with '---'") from None
    try:
        meta = yaml.safe_load("\n".join(lines[1:end])) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise CorpusError(path, (mark.line + 2) if mark else 1, f"front matter is not valid YAML: {exc}") from None
    if not isinstance(meta, dict):
        raise CorpusError(path, 2, "front matter must be a mapping of fields")
    meta_lines = {}
    for i in range(1, end):
        match = re.match(r"^([A-Za-z_][\w-]*)\s*:", lines[i])
        if match:
            meta_lines.setdefault(match.group(1), i + 1)
    body_lines = lines[end + 1 :]
    return Document(
        path=path,
        meta=meta,
        meta_lines=meta_lines,
        sections=_split_sections(body_lines, first_line=end + 2),
        body_start=end + 2,
        body="\n".join(body_lines),
        content_hash=hashlib.sha256(text.encode()).hexdigest(),
    )


def _split_sections(lines: list[str], first_line: int) -> list[Section]:
    """Split a body at `##` headings, ignoring anything that looks like a heading inside code fences."""
    sections: list[Section] = []
    heading, anchor, start, buf = "", "", first_line, []
    in_fence = False
    for offset, line in enumerate(lines):
        if _FENCE.match(line):
            in_fence = not in_fence
        if not in_fence:
            line = CHECK_MARKUP.sub("", line)
        match = None if in_fence else _SECTION_HEADING.match(line)
        if match:
            if heading or "".join(buf).strip():
                sections.append(Section(heading, anchor, start, "\n".join(buf).strip()))
            heading = match.group(1).strip()
            anchor, start, buf = slugify(heading), first_line + offset, []
        else:
            buf.append(line)
    if heading or "".join(buf).strip():
        sections.append(Section(heading, anchor, start, "\n".join(buf).strip()))
    return sections


def load_site(root: Path) -> str:
    site_file = root / "site.yaml"
    if not site_file.exists():
        raise CorpusError(site_file, 1, "missing site.yaml (it holds base_url)")
    site = yaml.safe_load(site_file.read_text(encoding="utf-8")) or {}
    base_url = str(site.get("base_url", "")).rstrip("/")
    if not base_url.startswith(("http://", "https://")):
        raise CorpusError(site_file, 1, "base_url must be an http(s) URL")
    return base_url


def document_paths(root: Path) -> list[Path]:
    return sorted(p for sub in KIND_DIRS.values() for p in (root / sub).rglob("*.md"))


def load_corpus(root: Path) -> Corpus:
    """Parse every document; raises CorpusError on the first file that cannot be parsed at all."""
    corpus = Corpus(root=root, base_url=load_site(root))
    corpus.documents = [parse_document(p) for p in document_paths(root)]
    return corpus

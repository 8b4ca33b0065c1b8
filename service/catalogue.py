"""What can be asked about: the articles and their sections, and which pages each article links to."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from ingest.corpus import Corpus, load_corpus
from ingest.index import Scope


@dataclass(frozen=True)
class SectionRef:
    heading: str
    anchor: str
    url: str


@dataclass(frozen=True)
class ArticleInfo:
    id: str
    title: str
    summary: str
    url: str
    tags: tuple[str, ...]
    sections: tuple[SectionRef, ...]
    concepts: tuple[str, ...]
    sources: tuple[str, ...]
    subject: str  # what "it" means on the page (front matter `subject`, else the title before its colon)
    computes: str | None = None  # the calculator the page's worked figures are about (front matter `computes`)

    def listing(self) -> dict:
        return {"id": self.id, "title": self.title, "summary": self.summary, "url": self.url, "tags": list(self.tags)}

    def detail(self) -> dict:
        return {
            **self.listing(),
            "sections": [{"heading": s.heading, "anchor": s.anchor, "url": s.url} for s in self.sections],
            "concepts": list(self.concepts),
            "sources": list(self.sources),
        }


class Catalogue:
    def __init__(self, corpus: Corpus):
        self.corpus = corpus
        self.articles: dict[str, ArticleInfo] = {}
        for doc in corpus.of_kind("article"):
            self.articles[doc.id] = ArticleInfo(
                id=doc.id,
                title=doc.title,
                summary=str(doc.meta.get("summary", "")),
                url=corpus.url(doc),
                tags=tuple(doc.links("tags")),
                sections=tuple(SectionRef(s.heading, s.anchor, corpus.url(doc, s.anchor)) for s in doc.sections if s.heading),
                concepts=tuple(doc.links("concepts")),
                sources=tuple(doc.links("sources")),
                subject=str(doc.meta.get("subject") or doc.title.split(":")[0]).strip(),
                computes=doc.meta.get("computes"),
            )

    @classmethod
    def load(cls, corpus_dir: Path) -> "Catalogue":
        return cls(load_corpus(corpus_dir))

    @cached_property
    def _linked(self) -> dict[str, Scope]:
        concepts, sources = self.corpus.ids("concept"), self.corpus.ids("source")
        return {a.id: {"concept": sorted(set(a.concepts) & concepts), "source": sorted(set(a.sources) & sources)}
                for a in self.articles.values()}

    def linked(self, article_id: str) -> Scope:
        """The second retrieval tier: the concept and source pages an article links to (that exist)."""
        return self._linked[article_id]

    def concept(self, concept_id: str) -> tuple[str, str] | None:
        """(title, url) of a concept page, if it exists."""
        doc = self.corpus.document("concept", concept_id)
        return (doc.title, self.corpus.url(doc)) if doc else None

    def texts(self) -> list[str]:
        return [s.text for d in self.corpus.documents for s in d.sections]

    def page_terms(self) -> dict[str, frozenset[int]]:
        """Article id → every stemmed term of its title, headings and text (what the page mentions at all)."""
        from .answer.terms import terms
        return {doc.id: frozenset().union(terms(doc.title), *(terms(f"{s.heading} {s.text}") for s in doc.sections))
                for doc in self.corpus.of_kind("article")}

    def subjects(self) -> dict[str, str]:
        return {a.id: a.subject for a in self.articles.values()}

    def page_calculators(self) -> dict[str, str]:
        """Article id → the calculator its worked figures are about, for the pages that say."""
        return {a.id: a.computes for a in self.articles.values() if a.computes}

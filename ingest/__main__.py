"""Command line: `python -m ingest validate|claims|build|releases|promote`."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .settings import IndexSettings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ingest", description="Validate the corpus and build the index.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_validate = sub.add_parser("validate", help="check every rule of the corpus format")
    p_validate.add_argument("--corpus", type=Path, help="corpus directory (default: CORPUS_DIR or ./corpus)")
    p_validate.add_argument("--strict", action="store_true", help="links to concept pages not written yet are errors")
    p_claims = sub.add_parser("claims", help="recompute every checkable figure (<!-- check: … -->) with the calculators")
    p_claims.add_argument("--corpus", type=Path, help="corpus directory (default: CORPUS_DIR or ./corpus)")
    p_build = sub.add_parser("build", help="build a new index release and promote it")
    p_build.add_argument("--corpus", type=Path)
    p_build.add_argument("--no-promote", action="store_true", help="build a staging release without switching to it")
    p_build.add_argument("--quiet", action="store_true", help="no progress bar")
    sub.add_parser("releases", help="list index releases, marking the live one")
    p_promote = sub.add_parser("promote", help="make a built release the live one")
    p_promote.add_argument("release", help="release id (see `releases`)")
    args = parser.parse_args(argv)

    settings = IndexSettings()
    if getattr(args, "corpus", None):
        settings.corpus_dir = args.corpus
    if args.command == "validate":
        return _validate(settings, args.strict)
    if args.command == "claims":
        return _claims(settings)
    if args.command == "build":
        return _build(settings, promote=not args.no_promote, progress=not args.quiet)
    if args.command == "promote":
        return _promote(settings, args.release)
    return _releases(settings)


def _validate(settings: IndexSettings, strict: bool) -> int:
    from .validate import validate

    corpus, problems = validate(settings.corpus_dir, strict=strict)
    for problem in problems:
        print(problem, file=sys.stderr)
    errors = sum(p.severity == "error" for p in problems)
    warnings = len(problems) - errors
    documents = len(corpus.documents) if corpus else 0
    print(f"{documents} documents: {errors} error(s), {warnings} warning(s)")
    return 1 if errors else 0


def _claims(settings: IndexSettings) -> int:
    from .claims import check_corpus

    report = check_corpus(settings.corpus_dir)
    for finding in report.findings:
        print(finding)
    print(report.summary_line())
    return 0 if report.ok else 1


def _build(settings: IndexSettings, promote: bool, progress: bool) -> int:
    from .build import build
    from .errors import BuildError, StoreError

    try:
        report = build(settings, promote=promote, progress=progress)
    except BuildError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"build failed: {exc}; the live index is unchanged", file=sys.stderr)
        return 1
    except StoreError as exc:
        print(f"build failed: {exc}; the live index is unchanged", file=sys.stderr)
        return 1
    print(report.summary())
    return 0


def _releases(settings: IndexSettings) -> int:
    from .index import open_store

    store = open_store(settings)
    live = store.live_release()
    for release in store.releases():
        print(f"{release}{'  (live)' if release == live else ''}")
    return 0


def _promote(settings: IndexSettings, release: str) -> int:
    from .index import StoreError, open_store

    store = open_store(settings)
    try:
        store.promote(release)
    except StoreError as exc:
        print(f"promote failed: {exc}", file=sys.stderr)
        return 1
    print(f"release {release} is live")
    return 0


if __name__ == "__main__":
    sys.exit(main())

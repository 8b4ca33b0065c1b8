"""Owns the index: load and validate the corpus, chunk it, embed it, write it to Qdrant, and search it."""

"""Routing a question: a numeric question to a calculator (numeric.py, which reads it with tagger.py and
binds its figures with slots.py), a follow-up made standalone (followup.py); everything else goes to
retrieval."""

"""Routing a question: a numeric question to a calculator (numeric.py), a follow-up made standalone
(followup.py); everything else goes to retrieval."""

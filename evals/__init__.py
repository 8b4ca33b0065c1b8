"""Evaluation: golden datasets, metrics, reports and the release gate."""

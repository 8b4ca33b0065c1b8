"""Typos are corrected against the site's own words; real words and names the site never uses stay as typed."""
from pathlib import Path

import pytest

from service.answer.spelling import Speller
from service.catalogue import Catalogue

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


@pytest.fixture(scope="module")
def speller() -> Speller:
    catalogue = Catalogue.load(CORPUS)
    return Speller(catalogue.texts() + [d.title for d in catalogue.corpus.documents])


@pytest.mark.parametrize(("typed", "meant"), [
    ("how does pagd attention work", "how does paged attention work"),
    ("nvlink bandwith per gpu", "nvlink bandwidth per gpu"),
    ("wat is continous batching", "wat is continuous batching"),
])
def test_typos_of_the_sites_words_are_corrected(speller, typed, meant):
    assert speller.correct(typed)[0] == meant


@pytest.mark.parametrize("typed", [
    "mooncake recipe with lotus paste",  # an English word the site does not use: evidence of an off-topic question
    "does ollama support it",  # a name the site never mentions is not "llama" with a slip on its first letter
    "how much vram for llama 3.1 8b",  # not "dram"
    "dubble binary tree what is it",  # not "bubble"
])
def test_real_words_and_unknown_names_stay_as_typed(speller, typed):
    assert speller.correct(typed) == (typed, {})

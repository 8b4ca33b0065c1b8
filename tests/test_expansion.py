"""'what does fsdp stand for': the sentence that spells the abbreviation out is the one to lead with."""
import pytest

from service.answer.expansion import asked_abbreviations, spells_out


@pytest.mark.parametrize("abbreviation, sentence", [
    ("fsdp", "PyTorch's Fully Sharded Data Parallel (FSDP) shards parameters, gradients and optimizer state."),
    ("zero", "ZeRO, the Zero Redundancy Optimizer of Rajbhandari et al., removes that replication."),  # Z-R-O
    ("mla", "Multi-head latent attention (MLA) caches one compressed vector per token."),  # a hyphenated word
    ("nccl", "NCCL (NVIDIA Collective Communications Library) is the library that runs collectives."),
    ("moe", "A Mixture of Experts layer routes each token to a few experts."),  # a small word inside
])
def test_a_sentence_that_spells_it_out(abbreviation, sentence):
    assert spells_out(abbreviation, sentence)


@pytest.mark.parametrize("abbreviation, sentence", [
    ("dp", "the data path is short"),  # two lower-case words with the right initials, and no "DP" beside them
    ("fsdp", "ZeRO, the Zero Redundancy Optimizer of Rajbhandari et al."),
    ("kv", "The KV cache grows with every token."),  # named, not spelled out
])
def test_a_sentence_that_does_not(abbreviation, sentence):
    assert not spells_out(abbreviation, sentence)


def test_the_readers_own_word_first_and_the_pages_subject_for_it():
    assert asked_abbreviations("what does fsdp stand for", "what does fsdp stand for (ZeRO)") == ["fsdp"]
    assert asked_abbreviations("what does it even stand for", "what does it even stand for (ZeRO)") == ["ZeRO"]
    assert asked_abbreviations("how does fsdp shard the weights", "how does fsdp shard the weights") == []


@pytest.mark.parametrize("question, asked", [
    ("what is mla", ["mla"]), ("whats a tpu?", ["tpu"]), ("define mfu", ["mfu"]), ("whats mfu again", ["mfu"]),
    ("what is the kv cache", []),  # not one short word: a definition, not an abbreviation
    ("what is it", []),  # a pronoun is not an abbreviation
])
def test_a_bare_definition_of_one_short_word_asks_for_its_expansion(question, asked):
    assert asked_abbreviations(question, question) == asked

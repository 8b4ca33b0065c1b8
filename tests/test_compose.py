"""The extractive composer's choice of sentences: what a reader would call a bad answer is avoided."""
from __future__ import annotations

from ingest.index import Hit
from ingest.passage import Passage
from service.answer.compose import ExtractiveComposer
from service.answer.terms import TermWeights


def hit(section: str, text: str, cosine: float = 0.6) -> Hit:
    passage = Passage("paged-attention", "article", "PagedAttention", section, section.lower().replace(" ", "-"),
                      "https://example.test/paged-attention", text, position=0)
    return Hit(passage, cosine, cosine)


SOURCES = hit("Sources", "- Kwon et al., Efficient Memory Management for Large Language Model Serving with "
                         "PagedAttention, SOSP 2023: memory waste measurements and throughput results.\n"
                         "- vLLM blog, June 2023: the memory waste figure of 60 to 80 percent.", cosine=0.62)
BODY = hit("The problem PagedAttention solves",
           "The fix is simple to state:\n"
           "- PagedAttention stores the KV cache in fixed-size blocks, so memory waste is limited to the last block.\n"
           "- Blocks are allocated on demand as a sequence grows, never reserved for the longest possible output.",
           cosine=0.58)
WEIGHTS = TermWeights([SOURCES.passage.text, BODY.passage.text, "An unrelated passage about NVLink bandwidth."])


def test_reference_list_entries_do_not_crowd_out_the_explanation():
    answer, citations = ExtractiveComposer(WEIGHTS, max_sentences=2).compose(
        "How does PagedAttention reduce memory waste?", [SOURCES, BODY])
    assert "fixed-size blocks" in answer and "Kwon et al." not in answer
    assert [c.section for c in citations] == ["The problem PagedAttention solves"]


def test_a_sentence_that_introduces_a_list_brings_the_list_and_nothing_twice():
    answer, citations = ExtractiveComposer(WEIGHTS, max_sentences=3).compose("What is the fix PagedAttention states?", [BODY])
    assert answer.startswith("The fix is simple to state: PagedAttention stores the KV cache in fixed-size blocks")
    assert "allocated on demand" in answer and answer.count("fixed-size blocks") == 1
    assert citations[0].snippet in answer.replace(" [1]", "")  # the citation shows what the answer said


def test_a_question_only_the_reference_list_answers_still_gets_it():
    answer, citations = ExtractiveComposer(WEIGHTS, max_sentences=1).compose(
        "Which SOSP 2023 paper measured it?", [SOURCES])
    assert "SOSP 2023" in answer and citations[0].section == "Sources"


def test_identifiers_and_arithmetic_survive_markdown_cleanup():
    config = hit("Where estimates go wrong",
                 "Calculators that read only `hidden_size` make the **same** mistake as those using "
                 "num_attention_heads instead of *num_key_value_heads*, and 4 * 3 stays twelve.")
    answer, _ = ExtractiveComposer(WEIGHTS, max_sentences=1).compose("Which calculators read hidden_size?", [config])
    assert "`" not in answer and "**" not in answer
    assert "only hidden_size make the same mistake" in answer
    assert "num_attention_heads instead of num_key_value_heads" in answer and "4 * 3" in answer


def test_a_sentence_with_bracketed_numbers_is_never_quoted_as_if_they_were_citations():
    """"scores [1, 3]" would read as markers [1] and [3]: the widget would link them and the check would fail."""
    from service.answer.markers import markers

    worked = hit("The online softmax worked",
                 "Take one row with scores [1, 3] in the first key block and [2, 5] in the second. "
                 "The online softmax keeps a running maximum and a running sum per row, rescaling both when a "
                 "later block brings a larger maximum.")
    answer, citations = ExtractiveComposer(WEIGHTS, max_sentences=3).compose(
        "How does the online softmax handle scores in the second key block?", [worked])
    assert "[1, 3]" not in answer and "running maximum" in answer
    assert {n for _, n in markers(answer)} == {c.n for c in citations} == {1}


def test_what_a_question_contrasts_with_is_not_what_it_asks():
    from service.answer.compose import asked_terms
    from service.answer.terms import terms

    question = "Why is the KV cache exact rather than an approximation?"
    assert asked_terms(question) == terms("Why is the KV cache exact")
    assert asked_terms("When does NCCL use a tree instead of a ring?") == terms("When does NCCL use a tree")
    assert asked_terms("what is the kv cache") == terms("what is the kv cache")
    assert asked_terms("rather than what?") == terms("rather than what?")  # nothing left: the question as asked


def test_a_comparison_says_each_side_and_then_what_sets_them_apart():
    from service.answer.reading import Reading

    latencies = hit("Two latencies", "TTFT is the time from sending a request to its first output token. "
                                     "TPOT is the time between two output tokens after the first one. "
                                     "Prefill decides the first number and decode the second, so each is tuned "
                                     "with different levers.")
    composer = ExtractiveComposer(TermWeights([latencies.passage.text, "An unrelated passage about NVLink."]))
    reading = Reading.plain("ttft vs tpot")
    quotes = composer.candidates(reading, [latencies])
    for quote in quotes:  # the scorer's view: the sentence on what sets them apart is the best single sentence
        quote.score = 0.9 if quote.text.startswith("Prefill decides") else 0.5
    said = [q.text.split()[0] for q in composer.choose(reading, [latencies], quotes)]
    assert said == ["TTFT", "TPOT", "Prefill"]
    one_line = Reading.plain("ttft vs tpot in one line each")
    assert [q.text.split()[0] for q in composer.choose(one_line, [latencies], quotes)] == ["TTFT", "TPOT"]


def _leads(question: str, passage: Hit, scores: dict[str, float]) -> list[str]:
    """The opening words of the sentences chosen, when the scorer gives each sentence (by its first word) a score."""
    from service.answer.reading import Reading

    composer = ExtractiveComposer(TermWeights([passage.passage.text, "An unrelated passage about NVLink."]))
    reading = Reading.plain(question)
    quotes = composer.candidates(reading, [passage])
    for quote in quotes:
        quote.score = scores[quote.text.split()[0]]
    return [q.text.split()[0] for q in composer.choose(reading, [passage], quotes)]


def test_what_is_leads_with_the_sentence_that_says_what_it_is():
    passage = hit("Context parallelism", "Llama 3 used context parallelism for its long-context stage on 16,384 GPUs. "
                                         "Context parallelism (CP) splits one long sequence into chunks, one per rank. "
                                         "Short sequences gain nothing from it.")
    # the scorer prefers the sentence about Llama 3; the definition still leads, while it is a plausible answer
    assert _leads("what is context parallelism", passage, {"Llama": 0.6, "Context": 0.3, "Short": 0.1})[0] == "Context"
    assert _leads("what is context parallelism", passage, {"Llama": 0.9, "Context": 0.1, "Short": 0.1})[0] == "Llama"
    assert _leads("why use context parallelism", passage, {"Llama": 0.6, "Context": 0.3, "Short": 0.1})[0] == "Llama"


def test_a_comparison_takes_each_sides_defining_sentence():
    passage = hit("Reduce and all-reduce", "All-reduce over 8 ranks took 4 ms in the worked example above, twice "
                                           "the reduce. Reduce: every rank sends its buffer and the sum lands only "
                                           "on one root rank. All-reduce leaves the sum on every rank.")
    said = _leads("reduce vs all-reduce", passage, {"All-reduce": 0.5, "Reduce:": 0.3, "Reduce": 0.3})
    assert said[:2] == ["Reduce:", "All-reduce"] and "worked" not in " ".join(said)

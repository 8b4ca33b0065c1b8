"""The registries find what a text names."""


def test_every_model_and_part_a_text_names_is_listed():
    from calculators.registry import gpus, models
    text = "llama 3.1 70b on 4 h100s, while the llama 3.1 8b drafter runs on an l40s"
    assert models().named_in(text) == {"llama-3.1-70b", "llama-3.1-8b"}
    assert gpus().named_in(text) == {"h100-sxm", "l40s"}
    assert models().named_in("what is the kv cache?") == set()

"""The CLI prints the worked steps as tables, and field errors without a traceback."""

from calculators.cli import main


def test_memory_cli(capsys):
    assert main(["memory", "--model", "llama-3.1-70b", "--precision", "fp8", "--gpu", "h100"]) == 0
    out = capsys.readouterr().out
    assert "70.6 GB" in out and "weights_bytes" in out


def test_cli_json(capsys):
    import json

    assert main(["kv_cache", "--model", "deepseek-v3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["primary"]["value"] == 70_272


def test_cli_reports_field_errors(capsys):
    assert main(["collective", "--ranks", "0"]) == 2
    assert "ranks" in capsys.readouterr().out

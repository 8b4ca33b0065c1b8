"""`python -m benchmarks.loadtest` (`make loadtest`): many concurrent readers against a real `python -m service`.

Starts the service on a free port over the index in DATA_DIR (`make loadtest` builds it first), then runs
`--clients` concurrent asyncio clients (aiohttp), each posting `/v1/ask` back to back for `--duration`
seconds on the extractive path (no LLM configured), and reports requests/s, latency percentiles,
errors and the service's RSS. A benchmark, not a test: the target on the reference box (2 cores) is
zero errors and p99 ≤ 500 ms at 50 clients; it prints whether the run met it.

    python -m benchmarks.loadtest [--clients 50] [--duration 60] [--url http://host:port]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

import aiohttp

from .__main__ import NUMERIC, QUESTIONS, pct, rss_mb, start_service

TARGET_P99_MS = 500.0


@dataclass
class Tally:
    latencies_ms: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    routes: Counter = field(default_factory=Counter)
    failures: Counter = field(default_factory=Counter)
    pipeline_ms: list[float] = field(default_factory=list)  # the service's own timings_ms.total


def requests_mix() -> list[dict]:
    """Mostly article questions (retrieval and no-answer), one in eight numeric (calculator route)."""
    asks = [{"question": q, "article": a} for q, a in QUESTIONS]
    mix = []
    for i in range(len(asks) * 2):
        mix.append(asks[i % len(asks)])
        if i % 4 == 3:
            mix.append({"question": NUMERIC[(i // 4) % len(NUMERIC)]})
    return mix


async def client_loop(http: aiohttp.ClientSession, url: str, worker: int, until: float, tally: Tally,
                      record: bool) -> None:
    bodies = requests_mix()
    i = worker  # clients start at different questions
    while time.monotonic() < until:
        body = bodies[i % len(bodies)]
        i += 1
        start = time.perf_counter()
        try:
            async with http.post(f"{url}/v1/ask", json=body) as response:
                payload = await response.read()
            elapsed = (time.perf_counter() - start) * 1000
            if not record:
                continue
            tally.latencies_ms.append(elapsed)
            tally.statuses[response.status] += 1
            if response.status == 200:
                answer = json.loads(payload)
                tally.routes[answer["route"]] += 1
                tally.pipeline_ms.append(answer["timings_ms"]["total"])
        except (aiohttp.ClientError, asyncio.TimeoutError) as exc:
            if record:
                tally.failures[type(exc).__name__] += 1


async def run(url: str, clients: int, duration: float, warmup: float) -> tuple[Tally, float]:
    # aiohttp rather than httpx: the load generator shares this machine's two cores with the service,
    # and every millisecond of client CPU per request is taken from the service being measured.
    connector = aiohttp.TCPConnector(limit=clients)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=30)) as http:
        if warmup > 0:
            until = time.monotonic() + warmup
            await asyncio.gather(*(client_loop(http, url, w, until, Tally(), False) for w in range(clients)))
        tally = Tally()
        started = time.monotonic()
        await asyncio.gather(*(client_loop(http, url, w, started + duration, tally, True) for w in range(clients)))
        return tally, time.monotonic() - started


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def report(tally: Tally, wall: float, clients: int, rss: float | None, cpu_s: float | None = None) -> bool:
    done = len(tally.latencies_ms)
    errors = sum(n for status, n in tally.statuses.items() if status != 200) + sum(tally.failures.values())
    lat = tally.latencies_ms or [float("nan")]
    p50, p90, p99 = statistics.median(lat), pct(lat, 0.90), pct(lat, 0.99)
    print(f"clients {clients}, {wall:.1f} s: {done} requests, {done / wall:.1f} req/s")
    print(f"latency  p50 {p50:.1f} ms   p90 {p90:.1f} ms   p99 {p99:.1f} ms   max {max(lat):.1f} ms")
    print(f"errors   {errors}" + (f"   statuses {dict(tally.statuses)}" if errors else "")
          + (f"   transport {dict(tally.failures)}" if tally.failures else ""))
    print(f"routes   {dict(tally.routes)}")
    if tally.pipeline_ms:  # the rest of the latency is HTTP, the event loop and waiting for a worker thread
        inner = tally.pipeline_ms
        print(f"pipeline (route+retrieve+compose, from timings_ms) p50 {statistics.median(inner):.1f} ms   p99 {pct(inner, 0.99):.1f} ms")
    if rss is not None:
        print(f"service RSS after the run {rss:.0f} MB")
    if cpu_s is not None and done:  # robust to a busy machine, unlike latency: capacity ≈ cores × 1000 / this
        print(f"service CPU per request {cpu_s * 1000 / done:.1f} ms ({cpu_s / wall:.2f} cores busy on average)")
    met = errors == 0 and p99 <= TARGET_P99_MS
    print(f"target (0 errors, p99 ≤ {TARGET_P99_MS:.0f} ms): {'met' if met else 'NOT met'}")
    return met


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.loadtest", description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of measured load")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds of unmeasured load first")
    parser.add_argument("--url", help="an already running service (default: start `python -m service` here)")
    args = parser.parse_args(argv)

    proc = None
    url = args.url
    if url is None:
        # The limiter stays on (its cost is part of the measurement) with a budget this run cannot exhaust.
        env = {**os.environ, "RATE_LIMIT_IP_PER_MINUTE": "100000000", "LLM_BASE_URL": ""}
        proc, url = start_service(env)
    try:
        if args.warmup > 0:
            asyncio.run(run(url, args.clients, args.warmup, 0))  # unmeasured
        cpu_before = cpu_seconds(proc.pid) if proc else None
        tally, wall = asyncio.run(run(url, args.clients, args.duration, 0))
        cpu = cpu_seconds(proc.pid) - cpu_before if proc else None
        report(tally, wall, args.clients, rss_mb(proc.pid) if proc else None, cpu)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=30)


if __name__ == "__main__":
    main()

"""Read a Server-Sent Events stream the way a browser's EventSource does."""
from __future__ import annotations

import json
from typing import Iterable, Iterator


def parse_sse(lines: Iterable[str]) -> Iterator[tuple[str, dict]]:
    event, data = "message", []
    for line in lines:
        if line == "":
            if data:
                yield event, json.loads("\n".join(data))
            event, data = "message", []
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())

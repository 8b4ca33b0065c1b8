"""`python -m service [--host H] [--port P]`: serve the API with uvicorn."""
from __future__ import annotations

import argparse

import uvicorn

from .http import logs
from .app import create_app
from .settings import Settings


def main(argv: list[str] | None = None) -> None:
    settings = Settings()
    parser = argparse.ArgumentParser(prog="python -m service", description="Serve the ask-about-this-article API.")
    parser.add_argument("--host", default=settings.host)
    parser.add_argument("--port", type=int, default=settings.port)
    args = parser.parse_args(argv)
    logs.configure(settings)  # JSON lines with request ids, secrets scrubbed; uvicorn's loggers included
    uvicorn.run(create_app(settings), host=args.host, port=args.port, log_config=None, access_log=False)


if __name__ == "__main__":
    main()

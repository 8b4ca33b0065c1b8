"""The ask widget and its demo: `GET /widget.js`, `GET /demo`, `GET /demo/{article}`.

`widget.js` (in `service/static/`) is one plain JavaScript file, no build step: the `<ask-article>`
custom element. The pages are rendered by service/demo.py.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import HTMLResponse

from .. import demo
from ..catalogue import Catalogue
from .deps import catalogue

WIDGET_PATH = Path(__file__).resolve().parent.parent / "static" / "widget.js"


class WidgetAsset:
    """widget.js read once, served with a strong ETag so browsers revalidate cheaply."""

    def __init__(self, path: Path = WIDGET_PATH):
        self.body = path.read_bytes()
        self.etag = '"' + hashlib.sha256(self.body).hexdigest()[:32] + '"'

    def response(self, request: Request) -> Response:
        headers = {"ETag": self.etag, "Cache-Control": "public, max-age=300, must-revalidate",
                   "X-Content-Type-Options": "nosniff"}
        if self.etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(self.body, media_type="text/javascript; charset=utf-8", headers=headers)


router = APIRouter(include_in_schema=False)
_asset = WidgetAsset()


@router.get("/widget.js")
async def widget_js(request: Request) -> Response:
    return _asset.response(request)


@router.get("/demo", response_class=HTMLResponse)
async def demo_index(pages: Catalogue = Depends(catalogue)) -> HTMLResponse:
    return HTMLResponse(demo.index_page(pages))


@router.get("/demo/{article_id}", response_class=HTMLResponse)
async def demo_article(article_id: str, pages: Catalogue = Depends(catalogue)) -> HTMLResponse:
    if article_id not in pages.articles:
        return HTMLResponse(demo.not_found_page(article_id), status_code=404)
    return HTMLResponse(demo.article_page(pages, article_id))

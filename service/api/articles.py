"""`GET /v1/articles`, `GET /v1/articles/{id}`: what can be asked about."""
from __future__ import annotations

from fastapi import APIRouter, Depends

from ..catalogue import Catalogue
from ..errors import ApiError
from ..http.errors import documented
from .deps import catalogue

router = APIRouter()


@router.get("/v1/articles", summary="The articles that can be asked about")
async def articles(pages: Catalogue = Depends(catalogue)) -> dict:
    return {"articles": [a.listing() for a in pages.articles.values()]}


@router.get("/v1/articles/{article_id}", responses=documented(404), summary="One article with its sections")
async def article(article_id: str, pages: Catalogue = Depends(catalogue)) -> dict:
    info = pages.articles.get(article_id)
    if info is None:
        raise ApiError(404, "unknown_article", f"there is no article with id '{article_id}'")
    return info.detail()

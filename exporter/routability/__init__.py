"""Catalogue-wide model routability (design.md §10): a cheap, conservative, persisted status per model slug.

Layout: ``classify`` (pure: reply -> status), ``catalogue`` (pure: which models), ``model`` (values and the
row transition), ``routing`` (``should_skip``), ``store`` (SQLite rows), ``transport`` (httpx seam), ``job``
(one paced pass), ``app`` (service, HTTP API, /metrics), ``bodies`` (its request and response models),
``openapi`` (its document), ``config``, ``client`` (router poller); the command is
``exporter.commands.routability``.
"""

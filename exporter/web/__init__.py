"""The shared HTTP shell of the project's services (receiver, routability, exporter CLI): one of each.

- ``auth.bearer_ok``: the bearer-token check (constant time, as bytes; UTF-8 tokens work).
- ``body.read_json``: the bounded JSON body reader (limit enforced while reading; strict Content-Type;
  finite numbers; no lone surrogates; quiet on client disconnects), raising ``body.Rejected``.
- ``etag.etag_matches``: ``If-None-Match`` against an ETag (weak comparison, ``*``).
- ``hostport.parse_host_port``: the ``HOST:PORT`` parser of every listen setting and flag.
- ``models``: the body models' bases (``Body``, ``Wire``, ``ErrorBody``) and validation errors as
  ``path: what`` problems; ``openapi.document``: the OpenAPI document built from those models.
"""

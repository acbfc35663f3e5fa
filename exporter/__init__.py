"""Provider Canary: probes every provider of an LLM model on machine-judged contracts.

Layout (docs/design.md §14: ground kits, feature packages, the configuration, process shells on top):

- ``outcomes``, ``configkit``: the shared vocabulary and the typed configuration models (strict YAML reading);
- ``gateway``: talking to OpenRouter or an OpenAI-compatible host (discovery, pinned chat, SSE, outcome
  classification);
- ``contracts``: one module per contract (TTFT, refusal, structured output, language) and their registry;
- ``language``: the local, deterministic language and encoding judge;
- ``engine``: rounds, streaks and the snapshot the metrics are rendered from;
- ``receiver``: the webhook receiver, ladder, capacity floor, store and ignore list;
- ``router``: the client a product's router embeds;
- ``routability``: the catalogue-wide model routability job;
- ``generators``: build-time generators (rules for a deployment, the Grafana alert file, the dashboards);
- ``devtools``: not the runtime: the simulator (an OpenRouter-compatible gateway with virtual providers),
  the local Prometheus/Alertmanager harness and the demo;
- ``commands``: one process shell per ``canary`` subcommand (``launcher`` is the console script);
- ``timestamps``, ``stats``, ``textkit`` and the other ``*kit`` modules: the ground-floor kits.
"""

__version__ = "0.1.0"

"""Development tooling, not the runtime: the simulator, the local Prometheus/Alertmanager harness, the demo.

- ``simulator``: an OpenRouter-compatible gateway with virtual providers (``canary simulator``);
- ``pipeline``: real Prometheus, Alertmanager and VictoriaMetrics on loopback (demo, end-to-end tests);
- ``demo``: ``canary demo``, the whole system on loopback.
"""

"""The simulator on its default fleet for tests that judge what the hosts say, not how fast they say it.

The default fleet's one slow host (``slowpoke/fp8``) waits 2.5 s before every first token; a test that runs
rounds or samples over the whole fleet waits for it on every request (each host's requests run one after
another), so it sets the pace of the whole test. ``default_fleet(quick=True)`` gives that host a healthy
host's first-token time through the simulator's control API, so it answers like the others; everything else
(its content, the faulty hosts, the storm) stays as the demo runs it. Tests that judge TTFT keep the real
fleet (``quick=False``, or their own fleet); ``quicken(server)`` does the same to a server a test built.

Example::

    with default_fleet() as sim:
        config = write_config(tmp_path / "canary.yaml", sim.base_url)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from exporter.devtools.simulator.fleet import DEFAULT_FLEET, load_fleet
from exporter.devtools.simulator.server import SimulatorServer

MODEL = "moonshotai/kimi-k2-0905"
SLOW_HOST = "slowpoke/fp8"
#: A healthy host's first-token time in the default fleet (``deepinfra/fp8``).
HEALTHY_TTFT = {"median": "120ms", "p95": "220ms"}


def quicken(server: SimulatorServer) -> SimulatorServer:
    """Give a running default-fleet simulator's slow host a healthy host's first-token time."""
    patched = httpx.post(f"{server.root_url}/_sim/providers/{MODEL}/{SLOW_HOST}", json={"ttft": HEALTHY_TTFT})
    patched.raise_for_status()
    assert patched.json()["profile"]["ttft"] == {"median": 0.12, "p95": 0.22}, patched.text
    return server


@contextmanager
def default_fleet(*, quick: bool = True) -> Iterator[SimulatorServer]:
    """The simulator on the default fleet, on loopback; ``quick``: the slow host answers at a healthy pace."""
    with SimulatorServer(load_fleet(DEFAULT_FLEET)) as server:
        yield quicken(server) if quick else server

"""What reading the simulator's fleet into models costs: loading a fleet file, expanding the 500-model
catalogue (one Provider, Model and FaultProfile built per model) and the fault-profile reads a request makes.

No benchmark covers the canary config file: it is read once per command. The fleet's models are also the
simulator's runtime values, so their construction and attribute reads are measured here. Compare two trees in
the same minutes with the same interpreter, e.g. a ``git archive main`` copy:

    (cd /tmp/main && PYTHONPATH=. /work/wt/config/.venv/bin/python /work/wt/config/bench/config_fleet.py)
    PYTHONPATH=. .venv/bin/python bench/config_fleet.py

Prints the median of each, in ms.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from exporter.devtools.simulator.catalogue import expand
from exporter.devtools.simulator.fleet import CATALOGUE_FLEET, DEFAULT_FLEET, load_fleet


def median_ms(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return 1000 * statistics.median(times)


def main() -> None:
    catalogue = load_fleet(CATALOGUE_FLEET).catalogue
    assert catalogue is not None
    providers = load_fleet(DEFAULT_FLEET).models[0].providers

    def profile_reads() -> float:  # 2000 x every provider x 5 knob reads, as a request plans its faults
        total = 0.0
        for _ in range(2000):
            for provider in providers:
                p = provider.profile
                total += p.ttft.median + p.errors.rate + p.refusal.rate + p.leading_garbage.rate
                total += p.language.mixing.rate
        return total

    print(
        f"load default fleet: {median_ms(lambda: load_fleet(DEFAULT_FLEET), 30):.1f} ms; "
        f"expand 500-model catalogue: {median_ms(lambda: expand(catalogue), 10):.1f} ms; "
        f"{2000 * len(providers) * 5} profile reads: {median_ms(profile_reads, 10):.1f} ms"
    )


if __name__ == "__main__":
    main()

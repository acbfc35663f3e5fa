"""The demo's terminal table: outcomes, streaks, controls and routing state per provider."""

from __future__ import annotations

from exporter.console import render_table

MODEL = "acme/model-1"


def state() -> dict[str, object]:
    def result(outcome: str, reason: str = "none", streak: int = 0, **extra: object) -> dict[str, object]:
        return {"outcome": outcome, "reason": reason, "failing_streak": streak, "detail": "", **extra}

    return {
        "round": 2,
        "completed_at": "2026-11-29T18:00:00Z",
        "duration_seconds": 1.5,
        "models": {
            MODEL: {
                "providers": {
                    "good/fp8": {
                        "role": "probe",
                        "clean_streak": 2,
                        "contracts": {"ttft": result("pass", ttft_seconds=0.12)},
                    },
                    "slow/fp8": {
                        "role": "probe",
                        "clean_streak": 0,
                        "contracts": {"ttft": result("fail", "slow_first_token", 2)},
                    },
                    "guard": {
                        "role": "control",
                        "clean_streak": 0,
                        "contracts": {"refusal": result("fail", "content_filter")},
                    },
                },
                "weak": {},
            }
        },
    }


def test_table_shows_outcomes_streaks_ttft_and_routing() -> None:
    ignore = {
        MODEL: {"entries": [{"provider": "slow/fp8", "layer": "suspension", "until": "2026-11-30T18:00:00Z"}]}
    }
    lines = render_table(state(), ignore).splitlines()
    slow = next(line for line in lines if line.startswith("slow/fp8"))
    good = next(line for line in lines if line.startswith("good/fp8"))
    assert "FAIL x2 slow_first_token" in slow and "EXCLUDED suspension until 2026-11-30T18:00:00Z" in slow
    assert "0.12s" in good and good.rstrip().endswith("routable")


def test_a_refusing_control_reads_as_healthy_and_a_passing_one_as_a_weak_probe() -> None:
    table = render_table(state())
    assert "refused (control ok)" in table
    doc = state()
    doc["models"][MODEL]["providers"]["guard"]["contracts"]["refusal"]["outcome"] = "pass"  # type: ignore[index]
    assert "PASSED: probe weak" in render_table(doc)


def test_colour_codes_do_not_break_the_column_alignment() -> None:
    plain = render_table(state()).splitlines()
    coloured = render_table(state(), colour=True).splitlines()
    strip = [
        line.replace("\x1b[32m", "").replace("\x1b[31;1m", "").replace("\x1b[0m", "") for line in coloured
    ]
    assert strip == plain

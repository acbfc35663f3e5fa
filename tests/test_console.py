"""The demo's terminal table: outcomes, streaks, controls and routing state per provider."""

from __future__ import annotations

import json

from exporter.console import render_table
from exporter.engine.state_body import StateBody
from exporter.receiver.bodies import IgnoreList, Suspensions
from exporter.receiver.state import Decision, Kind

MODEL = "acme/model-1"


def body(doc: dict[str, object]) -> StateBody:
    """A test's ``/v1/state`` document read as the console reads it; the fields a test leaves out (a
    provider's name, a result's detail, a model's discovery) at their usual values."""
    for model in doc["models"].values():  # type: ignore[attr-defined]
        model.setdefault("weak", {})
        model.setdefault("discovery_failed", False)
        for tag, provider in model["providers"].items():
            provider.setdefault("provider_name", tag)
            for result in provider["contracts"].values():
                result.setdefault("detail", "")
    return StateBody.model_validate_json(json.dumps(doc))


def ignored(model: str, *entries: tuple[str, str | None]) -> dict[str, IgnoreList]:
    """``/v1/ignore`` of ``model`` excluding each (provider, until) by a suspension."""
    document = {
        "model": model,
        "ignore": [provider for provider, _ in entries],
        "entries": [{"provider": p, "layer": "suspension", "reason": "test", "until": u} for p, u in entries],
        "generated_at": "2026-11-29T18:00:00.000Z",
    }
    return {model: IgnoreList.model_validate_json(json.dumps(document))}


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
    ignore = ignored(MODEL, ("slow/fp8", "2026-11-30T18:00:00.000Z"))
    lines = render_table(body(state()), ignore).splitlines()
    slow = next(line for line in lines if line.startswith("slow/fp8"))
    good = next(line for line in lines if line.startswith("good/fp8"))
    assert "FAIL×2 slow_first_token" in slow and "EXCL suspension until 2026-11-30T18:00:00.000Z" in slow
    assert " 0.12 " in good and good.rstrip().endswith("routable")
    assert "EXCL excluded from routing: suspension" in lines  # the legend of what the table shows


def test_a_refusing_control_reads_as_healthy_and_a_passing_one_as_a_weak_probe() -> None:
    table = render_table(body(state()))
    assert "refused ok" in table
    doc = state()
    doc["models"][MODEL]["providers"]["guard"]["contracts"]["refusal"]["outcome"] = "pass"  # type: ignore[index]
    assert "PASSED:weak" in render_table(body(doc))


def suspension(provider: str, mode: str, rung: int, until: str) -> dict[str, object]:
    """An item of ``/v1/suspensions`` as the receiver sends it."""
    return {
        "model": MODEL, "provider": provider, "mode": mode, "rung": rung, "since": "2026-11-29T18:00:00.000Z",
        "until": until, "reason": "test", "episode": "e", "failing_contracts": [], "failing_reasons": [],
        "evidence_url": None, "offense_level": rung, "offenses": [],
    }  # fmt: skip


# ---------------------------------------------------------------- the live view


def four_contract_state() -> dict[str, object]:
    base = state()
    providers = base["models"][MODEL]["providers"]  # type: ignore[index]
    for p in providers.values():
        for contract in ("language", "refusal", "structured", "ttft"):
            p["contracts"].setdefault(contract, {"outcome": "pass", "reason": "none", "failing_streak": 0})
    providers["slow/fp8"]["contracts"]["ttft"] = {
        "outcome": "fail",
        "reason": "slow_first_token",
        "failing_streak": 2,
    }
    return base


def rendered(
    width: int,
    doc: dict[str, object] | None = None,
    routing: dict[tuple[str, str], str] | None = None,
    ignore: dict[str, IgnoreList] | None = None,
) -> list[str]:
    import io

    from rich.console import Console

    from exporter.console import live_view

    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None)
    header = ["simulator 127.0.0.1:1", "alertmanager 127.0.0.1:9093", "logs: /tmp/demo.log"]
    if ignore is None:
        ignore = ignored(MODEL, ("slow/fp8", None))
    view = live_view(
        body(doc or four_contract_state()),
        ignore,
        header=header,
        status="round 2 done",
        width=width,
        routing=routing,
    )
    console.print(view)
    return out.getvalue().splitlines()


def failing_everywhere() -> dict[str, object]:
    """Every default-fleet failure at once: each reason a narrow cell must keep apart."""
    doc = four_contract_state()
    providers = doc["models"][MODEL]["providers"]  # type: ignore[index]
    failures = {
        "prudish/fp8": ("refusal", "content_filter"),
        "demure/bf16": ("refusal", "refusal_pattern"),
        "clipper/fp8": ("language", "truncation"),
        "looper/fp8": ("refusal", "repetition"),
        "jsonbreaker/fp8": ("structured", "schema_mismatch"),
    }
    for tag, (contract, reason) in failures.items():
        contracts = {c: {"outcome": "pass", "reason": "none", "failing_streak": 0} for c in
                     ("language", "refusal", "structured", "ttft")}  # fmt: skip
        contracts[contract] = {"outcome": "fail", "reason": reason, "failing_streak": 4}
        providers[tag] = {"role": "probe", "clean_streak": 0, "contracts": contracts}
    return doc


def test_would_be_lifted_and_floor_blocked_hosts_are_not_routable_beside_a_failure() -> None:
    from exporter.console import routing_states

    suspensions = Suspensions.model_validate_json(json.dumps({
        "mode": "observe",
        "generated_at": "2026-11-29T18:00:00.000Z",
        "suspensions": [suspension("prudish/fp8", "observe", 1, "2026-11-30T18:00:00.000Z")],
        "holds": [{"model": MODEL, "provider": "demure/bf16", "since": "2026-11-29T17:00:00.000Z",
                   "until": None, "reason": "false positive"}],
    }))  # fmt: skip
    decisions = [
        Decision(seq, 1.8e9 + seq, kind, "test", model=MODEL, provider=provider)
        for seq, (kind, provider) in enumerate(
            [
                (Kind.SUSPEND, "looper/fp8"),
                (Kind.FLOOR_BLOCK, "looper/fp8"),  # the newest: the floor held it
                (Kind.FLOOR_BLOCK, "clipper/fp8"),
                (Kind.LIFT, "clipper/fp8"),  # a later decision ends the block
            ],
            1,
        )
    ]
    routing = routing_states({}, suspensions, decisions)
    assert routing == {
        (MODEL, "prudish/fp8"): "would_be", (MODEL, "demure/bf16"): "lifted",
        (MODEL, "looper/fp8"): "floor_blocked",
    }  # fmt: skip
    for width, words in ((80, ("would-be", "lifted", "floor-blk")), (160, ("would-be (observe)", "lifted",
                                                                             "FLOOR-BLOCKED"))):  # fmt: skip
        lines = rendered(width, failing_everywhere(), routing, ignore={})
        row = {
            line.split()[0]: line.rstrip()
            for line in lines
            if line.startswith(("prudish", "demure", "looper"))
        }
        assert row["prudish/fp8"].endswith(words[0]) and row["demure/bf16"].endswith(words[1])
        assert row["looper/fp8"].endswith(words[2])
        text = "\n".join(lines)
        assert "would-be: observe mode, would be suspended, still routable" in text.replace("\n", " ")
        assert "EXCL" not in text  # no exclusion on screen: the legend does not explain one


def test_reasons_at_80_columns_are_unambiguous_abbreviations_the_legend_defines() -> None:
    lines = rendered(80, failing_everywhere(), ignore={})
    assert all(len(line) <= 80 for line in lines)
    cells = {
        line.split()[0]: line for line in lines if line.startswith(("prudish", "demure", "clipper", "looper"))
    }
    assert "F×4 filt" in cells["prudish/fp8"] and "F×4 rpat" in cells["demure/bf16"]
    assert "F×4 trnc" in cells["clipper/fp8"] and "F×4 rep" in cells["looper/fp8"]
    assert not any("…" in line for line in cells.values()), "a reason cut to two letters"
    legend = " ".join(lines)
    for said in ("filt=content_filter", "rpat=refusal_pattern", "trnc=truncation", "rep=repetition"):
        assert said in legend
    assert "slow=slow_first_token" in legend  # slow/fp8's ttft failure
    assert "ctl: known-filtering control" in legend  # the guard row is shown
    assert "cut=truncated" not in legend  # only the abbreviations on screen


def test_every_reason_abbreviation_is_short_and_unique() -> None:
    from exporter.console import REASON_ABBREVIATIONS
    from exporter.outcomes import Reason

    shorts = list(REASON_ABBREVIATIONS.values())
    assert len(set(shorts)) == len(shorts) and all(len(x) <= 4 for x in shorts)
    assert set(REASON_ABBREVIATIONS) <= {r.value for r in Reason}


def test_the_live_table_keeps_one_line_per_host_at_80_and_160_columns() -> None:
    for width in (80, 160):
        lines = rendered(width)
        rows = [line for line in lines if line.startswith(("good/fp8", "slow/fp8", "guard"))]
        assert len(rows) == 3 and all(len(line) <= width for line in lines), lines
        assert "alertmanager 127.0.0.1:9093" in "\n".join(lines)
    narrow, wide = rendered(80), rendered(160)
    (narrow_head,) = [line for line in narrow if line.startswith("provider")]
    (wide_head,) = [line for line in wide if line.startswith("provider")]
    assert "clean" in narrow_head and "clean" in wide_head, "four contracts fit 80 columns, clean included"
    assert any("FAIL×2 slow_first_token" in line for line in wide)
    assert any(line.startswith("slow/fp8") and "F×2 slow" in line and "EXCL susp" in line for line in narrow)
    legend = " ".join(narrow[narrow.index(narrow_head) + 4 :])
    assert "slow=slow_first_token" in legend and "EXCL excluded from routing: susp=suspension" in legend


def test_columns_are_dropped_by_priority_and_the_header_is_packed_without_cutting_a_url() -> None:
    from exporter.console import fit_columns, pack_header

    header = ["provider", "lang", "refus", "struct", "ttft", "ttft s", "clean", "routing"]
    row = [("p" * 18, ""), *[("FAIL×1 x", "")] * 4, ("0.10", ""), ("0", ""), ("routable", "")]
    assert fit_columns(header, [row], 200) == list(range(8))
    assert fit_columns(header, [row], 80) == [0, 1, 2, 3, 4, 5, 7]  # the clean streak goes first
    assert fit_columns(header, [row], 40) == [0, 1, 7]
    assert pack_header(["a 1", "b 2", "c 3"], 9) == ["a 1 · b 2", "c 3"]


def test_the_summary_names_every_suspended_host_with_its_failing_contract_rung_and_until() -> None:
    from exporter.console import suspension_summary

    listed = [suspension("slow/fp8", "enforce", 2, "2026-12-03T10:00:00.000Z")]
    document = {"mode": "enforce", "generated_at": "2026-12-02T10:00:00Z", "holds": [], "suspensions": listed}
    lines = suspension_summary(
        body(four_contract_state()), Suspensions.model_validate_json(json.dumps(document)).suspensions
    )
    assert lines == [f"{MODEL}:", "  slow/fp8: ttft (slow_first_token) · rung 2 · until 2026-12-03 10:00Z"]


# ---------------------------------------------------------------- pages and progress


def many_hosts(count: int) -> dict[str, object]:
    base = four_contract_state()
    providers = base["models"][MODEL]["providers"]  # type: ignore[index]
    template = providers["good/fp8"]
    for i in range(count - len(providers)):
        providers[f"host{i:02d}/fp8"] = template
    return base


def screen(
    state: dict[str, object], width: int, height: int, tick: int, progress: tuple[int, int] | None = None
) -> list[str]:
    import io

    from rich.console import Console

    from exporter.console import live_view

    out = io.StringIO()
    console = Console(file=out, width=width, height=height, color_system=None)
    header = [
        "simulator 127.0.0.1:1",
        "exporter 127.0.0.1:2",
        "alertmanager 127.0.0.1:9093",
        "logs: /tmp/d.log",
    ]
    status = "round 2 done"
    view = live_view(
        body(state), None, header=header, status=status, width=width, height=height, tick=tick,
        progress=progress,
    )  # fmt: skip
    console.print(view)
    return out.getvalue().splitlines()


def host_rows(lines: list[str]) -> list[str]:
    return [line.split()[0] for line in lines if line.startswith(("good/", "slow/", "guard", "host"))]


def test_hosts_that_do_not_fit_the_height_rotate_through_balanced_pages_each_shown_once() -> None:
    state = many_hosts(20)
    first, second, third = (screen(state, 80, 24, tick) for tick in (0, 1, 2))
    assert all(len(page) <= 24 for page in (first, second))
    assert any("page 1/2  hosts 1-10 of 20" in line for line in first), first
    assert any("page 2/2  hosts 11-20 of 20" in line for line in second), second
    assert len(host_rows(first)) == len(host_rows(second)) == 10
    assert sorted(host_rows(first) + host_rows(second)) == sorted(state["models"][MODEL]["providers"])  # type: ignore[index]
    assert third == first, "the pages rotate"
    tall = screen(state, 160, 50, 1)
    assert len(host_rows(tall)) == 20 and not any("page" in line for line in tall), "one page when it fits"


def test_pagination_keeps_every_model_in_order_and_repeats_a_split_models_title() -> None:
    from exporter.console import paginate

    assert paginate([20], 17) == [[(0, 0, 10)], [(0, 10, 20)]]
    assert paginate([20], 22) == [[(0, 0, 20)]]
    assert paginate([3, 4], None) == [[(0, 0, 3), (1, 0, 4)]]
    pages = paginate([3, 20, 0, 5], 12)
    assert all(sum(2 + stop - start for _, start, stop in page) <= 12 for page in pages)
    pieces = [piece for page in pages for piece in page]
    for model, size in enumerate([3, 20, 0, 5]):
        rows = [r for m, start, stop in pieces if m == model for r in range(start, stop)]
        assert rows == list(range(size)), (model, pages)
    assert len(paginate([20], 1)) == 20, "a screen too small still shows one host at a time"


def test_the_status_line_shows_hosts_done_of_total_with_a_bar_beside_the_countdown() -> None:
    lines = screen(many_hosts(3), 80, 24, 0, progress=(7, 20))
    (status,) = [line for line in lines if "round 2 done" in line]
    assert "7/20 hosts" in status and "━" in status and len(status) <= 80
    (narrow,) = [line for line in screen(many_hosts(3), 40, 24, 0, progress=(7, 20)) if "7/20" in line]
    assert narrow.startswith("7/20 hosts · round 2 done"), "no room for the bar: the count stays"


def test_the_status_names_the_round_its_progress_and_the_countdown_to_the_next() -> None:
    from exporter.console import round_status
    from exporter.engine.rounds import RoundProgress

    def status(progress: RoundProgress | None, completed: int, wait: float) -> object:
        return round_status(progress, completed=completed, rounds=3, took=4.25, wait=wait)

    assert status(None, 0, 10) == ("round 1/3 starting: discovering every host...", None)
    assert status(RoundProgress(1, 0, 20), 0, 9.6) == ("round 1/3 probing · next round in 10 s", (0, 20))
    assert status(RoundProgress(2, 7, 20), 1, -1) == ("round 2/3 probing · next round after it", (7, 20))
    closing = ("round 2/3: every host probed, closing the round...", (20, 20))
    assert status(RoundProgress(2, 20, 20), 1, 3) == closing
    assert status(RoundProgress(2, 20, 20), 2, 6.4) == (
        "round 2/3 done in 4.2 s · next round in 6 s",
        (20, 20),
    )
    assert status(RoundProgress(2, 20, 20), 2, 0) == ("round 3/3 starting: discovering every host...", None)
    assert status(RoundProgress(3, 5, 20), 2, 8) == ("round 3/3 probing · last round", (5, 20))
    final = ("round 3/3 done in 4.2 s · waiting for the last decisions...", (20, 20))
    assert status(RoundProgress(3, 20, 20), 3, 8) == final
    endless = round_status(RoundProgress(8, 3, 20), completed=7, rounds=None, took=1.0, wait=2)
    assert endless == ("round 8 probing · next round in 2 s", (3, 20))

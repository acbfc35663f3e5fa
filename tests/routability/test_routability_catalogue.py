"""Which catalogue entries are routability targets, and the listed-endpoint signal."""

from __future__ import annotations

from datetime import UTC, datetime

from exporter.routability.catalogue import CatalogueFilter, catalogue_models, listed_signal

NOW = datetime(2026, 9, 1, tzinfo=UTC).timestamp()


def model(slug: str, outputs: list[str] | None = None, **extra: object) -> dict[str, object]:
    arch: dict[str, object] = {"tokenizer": "Other", "input_modalities": ["text"]}
    arch["output_modalities"] = outputs if outputs is not None else ["text"]
    return {"id": slug, "canonical_slug": slug, "architecture": arch, "supported_parameters": [], **extra}


def slugs(payload: object, keep: CatalogueFilter | None = None) -> list[str]:
    """The targets a listing makes by itself: its active models."""
    models = catalogue_models(payload, NOW, keep or CatalogueFilter())
    assert models is not None
    return [m.slug for m in models if m.active]


def test_only_text_output_models_that_have_not_expired_are_targets() -> None:
    payload = {
        "data": [
            model("b/chat"),
            model("a/vision-chat", ["text"], architecture={"modality": "text+image->text",
                                                            "output_modalities": ["text"]}),
            model("c/image-gen", ["image"]),
            model("d/embed", ["embeddings"]),
            model("e/expired", expiration_date="2026-08-01"),
            model("f/expiring-later", expiration_date="2026-12-31"),
            model("g/expired-ts", expiration_date=NOW - 1),
            model("h/bad-date", expiration_date="soon"),
        ]
    }  # fmt: skip
    assert slugs(payload) == ["a/vision-chat", "b/chat", "f/expiring-later", "h/bad-date"]


def test_older_modality_string_is_understood() -> None:
    old = {"id": "x/old", "architecture": {"modality": "text+image->text"}}
    image = {"id": "x/img", "architecture": {"modality": "text->image"}}
    assert slugs({"data": [old, image, {"id": "x/no-arch"}]}) == ["x/old"]


def test_filter_include_and_exclude_globs() -> None:
    payload = {"data": [model("acme/a"), model("acme/a:free"), model("other/b")]}
    assert slugs(payload, CatalogueFilter(include=("acme/*",), exclude=("*:free",))) == ["acme/a"]


def test_reasoning_support_is_detected_from_supported_parameters() -> None:
    payload = {"data": [model("r/think", supported_parameters=["reasoning", "max_tokens"]), model("p/plain")]}
    models = catalogue_models(payload, NOW, CatalogueFilter())
    assert models is not None
    assert {m.slug: m.reasoning for m in models} == {"p/plain": False, "r/think": True}


def test_not_a_model_list_is_none_and_junk_entries_are_ignored() -> None:
    assert catalogue_models({"error": {"code": 500}}, NOW, CatalogueFilter()) is None
    assert catalogue_models("<html>", NOW, CatalogueFilter()) is None
    assert slugs({"data": [None, 3, {"id": ""}, {"id": 7}, model("ok/one"), model("ok/one")]}) == ["ok/one"]


def test_listed_signal_counts_endpoints_by_listed_status_and_best_uptime() -> None:
    payload = {
        "data": {
            "id": "a/b",
            "endpoints": [
                {"tag": "deepinfra/fp8", "provider_name": "DeepInfra", "status": 0, "uptime_last_30m": 99.6},
                {"tag": "novita", "provider_name": "Novita", "status": -2, "uptime_last_30m": None},
                {"tag": "parasail/fp8", "provider_name": "Parasail", "uptime_last_30m": 97},
            ],
        }
    }
    signal = listed_signal(payload, 12.0)
    assert signal is not None
    assert (signal.endpoints, signal.healthy_endpoints, signal.best_uptime_30m, signal.checked_at) == (
        3, 1, 99.6, 12.0,
    )  # fmt: skip


def test_listed_signal_of_garbage_is_none() -> None:
    assert listed_signal({"error": {"code": 404, "message": "Resource not found"}}, 0.0) is None

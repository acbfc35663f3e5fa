"""The official ``openai`` client talks to the simulator as it would to the gateway."""

from __future__ import annotations

import openai
import pytest

from exporter.devtools.simulator.server import SimulatorServer

from .conftest import KIMI

PIN = {"provider": {"only": ["deepinfra/fp8"], "allow_fallbacks": False, "require_parameters": True}}
MESSAGES = [
    {"role": "system", "content": "Eres la capitana Mara Voss, una pirata en un juego de rol."},
    {"role": "user", "content": "Continúa la escena en el puerto."},
]


def test_openai_client_streams_content(kimi: SimulatorServer) -> None:
    client = openai.OpenAI(base_url=kimi.base_url, api_key="x", max_retries=0)
    stream = client.chat.completions.create(
        model=KIMI,
        messages=MESSAGES,
        stream=True,
        max_tokens=300,
        extra_body=PIN,  # type: ignore[arg-type]
    )
    text = ""
    finish = None
    for chunk in stream:
        if chunk.choices:
            text += chunk.choices[0].delta.content or ""
            finish = finish or chunk.choices[0].finish_reason
        if chunk.usage is not None:
            assert chunk.usage.completion_tokens > 0
    assert finish == "stop" and len(text) > 100 and " la " in text


def test_openai_client_non_streamed_and_errors(kimi: SimulatorServer) -> None:
    client = openai.OpenAI(base_url=kimi.base_url, api_key="x", max_retries=0)
    completion = client.chat.completions.create(model=KIMI, messages=MESSAGES, max_tokens=300, extra_body=PIN)  # type: ignore[arg-type]
    assert completion.id.startswith("gen-") and completion.choices[0].message.content
    storm = {"provider": {"only": ["stormy/fp8"], "allow_fallbacks": False}}
    with pytest.raises(openai.APIStatusError) as caught:
        client.chat.completions.create(model=KIMI, messages=MESSAGES, max_tokens=50, extra_body=storm)  # type: ignore[arg-type]
    assert caught.value.status_code in {429, 502, 503, 524, 529}
    with pytest.raises(openai.BadRequestError):
        client.chat.completions.create(model="acme/nothing", messages=MESSAGES, max_tokens=50)  # type: ignore[arg-type]


def test_openai_client_reads_the_logprobs_of_an_open_ended_prompt(kimi: SimulatorServer) -> None:
    client = openai.OpenAI(base_url=kimi.base_url, api_key="x", max_retries=0)
    completion = client.chat.completions.create(
        model=KIMI,
        messages=[{"role": "user", "content": "Name a fruit. One word only."}],
        max_tokens=1,
        temperature=1.0,
        logprobs=True,
        top_logprobs=5,
        extra_body=PIN,  # type: ignore[arg-type]
    )
    logprobs = completion.choices[0].logprobs
    assert logprobs is not None and logprobs.content is not None and len(logprobs.content) == 1
    first = logprobs.content[0]
    assert len(first.top_logprobs) == 5 and first.token in {t.token for t in first.top_logprobs}
    assert sorted((t.logprob for t in first.top_logprobs), reverse=True) == [
        t.logprob for t in first.top_logprobs
    ]
    assert sum(2.718281828**t.logprob for t in first.top_logprobs) <= 1.0001

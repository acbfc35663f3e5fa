"""An OpenRouter-compatible gateway with a fleet of virtual providers and fault profiles (design.md §11).

- ``fleet``: the fleet file (models, providers, fault profiles, catalogue mode), strictly validated;
- ``profiles``: pure fault decisions at exact, seeded rates;
- ``replies``: what a host answers (role-play prose per locale, schema-valid JSON) and how it breaks;
- ``locales`` and ``texts/``: the 17 locales' sentences and their joiner;
- ``routing``: the ``provider`` object and endpoint resolution; ``wire``: the exact JSON and SSE bodies;
- ``catalogue``: many cheap generated models for the routability job;
- ``app``: the Starlette app and run-time state; ``server``: uvicorn on loopback;
- ``cli``: the ``canary simulator`` command.
"""

"""The quarantine receiver: webhook in, durable audited decisions, per-model ignore lists out (DESIGN §8)."""

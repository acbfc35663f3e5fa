"""The quarantine receiver: webhook in, durable audited decisions, ignore lists out (design.md §8)."""

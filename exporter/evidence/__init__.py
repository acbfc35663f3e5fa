"""The evidence history: every probe attempt with its judge's proof, kept in a bounded embedded store."""

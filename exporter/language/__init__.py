"""Language and encoding integrity: the judge, its detectors, the locales and the CLI (DESIGN §5.4)."""

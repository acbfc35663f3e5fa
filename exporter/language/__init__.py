"""Language and encoding integrity: the judge, its detectors, the locales and the CLI (design.md §5.4)."""

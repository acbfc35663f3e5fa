"""Client library for a product's router: keep the receiver's ignore lists and merge them into requests."""

from exporter.router.client import IgnoreListClient, merge_ignore_tags

__all__ = ["IgnoreListClient", "merge_ignore_tags"]

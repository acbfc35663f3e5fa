"""On-demand investigation: the pinned comparison (``canary investigate``) and tracing (``canary trace``)."""

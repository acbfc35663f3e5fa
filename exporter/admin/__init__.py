"""``canary admin``: the receiver's admin and read API from a terminal (lifts, incidents, decisions).

``client`` is the HTTP shell (one method per endpoint, errors as ``AdminError``), ``tables`` renders the
receiver's JSON documents as rich tables (pure); the command is ``exporter.commands.admin``.
"""

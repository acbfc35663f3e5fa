"""``canary admin``: the receiver's admin and read API from a terminal (lifts, incidents, decisions, why).

``client`` is the HTTP shell (one method per endpoint, errors as ``AdminError``; ``fetch_evidence`` reads an
exporter's evidence page), ``locate`` finds the receiver and exporter a person means (flags, environment, the
run record, the configuration), ``tables`` renders the receiver's JSON documents as 80-column listings and
``why`` one host's screen (both pure); the command is ``exporter.commands.admin``.
"""

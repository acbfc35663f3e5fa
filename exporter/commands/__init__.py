"""The process shells: one module per ``canary`` subcommand (its argv, its configuration, the clients and
stores it builds, the HTTP it serves). Nothing below this floor imports them; they import everything.

``canary`` itself is ``exporter.commands.canary`` (reached through ``exporter.launcher``, the console script).
"""

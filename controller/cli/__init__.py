"""`showrunner-controller`: one module per command group, each registering its own subcommands."""

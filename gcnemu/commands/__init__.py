"""One module per CLI command. Each exports HELP, `add_arguments(parser)` and `run(args) -> int`."""

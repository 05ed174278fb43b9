"""The commands of the `grove` command line, one module per command or family of commands
that share helpers (`play` and `replay` read records, `simulate` and `compare` runs);
`grove.cli` gathers them under its click group, and `common` holds what every command
shares: the exit-code table, the diagnostics printer, `guarded` and `card_sets`."""

"""Pure domain code: events, commands, rules' building blocks. No I/O lives here."""

"""Who may act: keys, people and their passwords, logins and sessions, wrong-key limits."""

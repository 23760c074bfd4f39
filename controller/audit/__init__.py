"""What an auditor runs: verify a log by replaying it, export it, sign checkpoints of it."""

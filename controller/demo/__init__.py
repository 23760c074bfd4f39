"""The scripted demo night: its venue configs, its script, the processes it runs."""

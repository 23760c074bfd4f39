"""Playlists: the YAML format technicians write, its validator, and the schedule screens play."""

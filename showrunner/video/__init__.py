"""Video files without pygame: opening one to say whether a screen can play it (`probe`) and
making synthetic clips (`clips`) for tests, benchmarks and the demo. Both use PyAV (FFmpeg's
libraries, bundled in its wheels); the controller may import them too."""

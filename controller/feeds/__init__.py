"""Live inputs from the venue's devices that are not events: the slot machines' credits as a
heat plays (live.py). Features never import this package; it reads their state and publishes
views from it."""

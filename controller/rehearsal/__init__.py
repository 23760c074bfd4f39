"""Rehearsing a dated night on any day: the marked log, its show clock, its moments, the console's
child controller.
"""

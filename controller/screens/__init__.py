"""The floor's screens as a feature: enrolment, groups, playlists and takeovers (laid out like a
promotion).
"""

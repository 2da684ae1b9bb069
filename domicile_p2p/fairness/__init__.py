"""Fairness: every random value of a game, derived deterministically from seeds.

Nothing here uses ``random`` or the clock.  Given the same key, every
machine and every Python version derives the same game (see ``derive``).
"""

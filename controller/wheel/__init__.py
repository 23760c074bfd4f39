"""The wheel's number reader and its simulator: client processes beside the roulette wheel.

Nothing here knows a promotion's rules: the reader parses the wheel's lines, keeps each
game's readings to one, and sends them to the controller's `/device` namespace as
`wheel.reading` commands (docs/wheel-reader.md). Only the command line imports this package.
"""

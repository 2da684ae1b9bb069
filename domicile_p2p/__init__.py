"""domicile-p2p: Tortured Domicile, a provably fair LAN party deduction game.

The package is layered from the inside out (docs/ARCHITECTURE.md, section 1 "Layers"):

- ``rules``     the game as a pure, deterministic state machine
- ``fairness``  deterministic derivation of every random value from seeds
- ``packs``     card packs: loading, validation, content hash
- ``bots``      policies that play any seat from what that seat may see
- ``sim``       bot-only games in bulk: win rates per difficulty
- ``identity``  Ed25519 identity keys in the user data dir
- ``transcript`` the signed, hash-chained game log: GameTable, Replica, agents, verify
- ``net``       LAN play: TLS host, join codes, discovery, sessions, network bots
- ``cli``       the ``domicile`` command
"""

__version__ = "0.1.0"

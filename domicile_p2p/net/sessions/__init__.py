"""The protocol, sans I/O: :class:`~domicile_p2p.net.sessions.host.HostSession` and
:class:`~domicile_p2p.net.sessions.peer.PeerSession`, and the state machines they are made of.

A session takes decoded messages, a ``now`` and any randomness as arguments,
and returns effects (``effects``) for its adapter to carry out; it never
touches a socket, a file, a clock or the event loop (an import-linter
contract in ``pyproject.toml`` holds it so).
"""

"""Networked play: a host serves tables over TLS websockets; players join with a code.

The wire protocol is specified in ``protocol/WIRE.md``.  From the inside out:

- ``wire``          the messages (msgspec Structs, 64 KiB frames, JSON Schemas in ``protocol/``)
- ``words``, ``codes``  the word list, join codes (``7-raven-lantern``), fingerprint phrases
- ``pake``, ``auth``    the join PAKE (SPAKE2, binding the certificate) and the identity proof
- ``tls``, ``pins``     TLS 1.3 with the host's self-signed certificate; pinned fingerprints
- ``limits``        rate limits (floods, wrong codes)
- ``room``, ``game``    a table's seats, and its game (the transcript's ``Table``)
- ``seat``          a player's replica, agent and kept secrets
- ``host_session``, ``peer_session``  the protocol, sans I/O (``effects`` is what they ask for)
- ``server``, ``client``  the asyncio adapters (websockets), reconnecting with backoff
- ``bot``           a bot player over a session
- ``discovery``     mDNS adverts and browsing (zeroconf)
- ``store``, ``files``  the host's data dir: table logs (fsync-ed), finished games
- ``host``          ``start_host(config)``: a running host, as a library

The pure parts (sessions, codec, codes, PAKE, limits) never touch a socket,
a file or a clock; the adapters only pump.
"""

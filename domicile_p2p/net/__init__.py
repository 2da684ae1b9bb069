"""Networked play: a host serves tables over TLS websockets; players join with a code.

The wire protocol is specified in ``protocol/WIRE.md``.  The package is in
layers, as python-websockets is (a sans-I/O core, and adapters that only pump
I/O); each layer imports only the ones below it (import-linter contracts in
``pyproject.toml`` hold it so):

``adapters/``  asyncio, TLS, files and discovery: everything that waits or touches the OS
    ``server``, ``client``  the websockets adapters of the two sessions (reconnect, backoff)
    ``outbox``          what the server keeps for a client that does not read (bounded)
    ``host``            ``start_host(config)``: a running host, as a library
    ``bot``             a bot player over a client
    ``discovery``       mDNS adverts and browsing (zeroconf)
    ``tls``             the host's self-signed certificate; both sides' TLS 1.3 contexts
    ``files``, ``store``  durable writes; the host's data dir (table logs, finished games)
    ``pins``, ``seat_secrets``  the client's data dir: pinned fingerprints; seeds and entropies
    ``logs``, ``gc_pauses``  JSON log lines; the garbage collector's pauses kept short

``sessions/``  the protocol, sans I/O: messages and a ``now`` in, effects out
    ``host``, ``peer``  :class:`HostSession` and :class:`PeerSession` (theory of operation there)
    ``effects``     what a session asks its adapter to do
    the host's parts: ``handshake`` and ``admission`` (HELLO to a seat or a place to
                    watch), ``connection`` (a connection, how it is refused), ``lobby`` and
                    ``lobby_clocks`` (seats, spectators, ready, the start, the next game),
                    ``games``, ``relay`` and ``deadlines`` (a game under way), ``audience``
                    and ``fanout`` (who is at a table, what each gets), ``chat``
    ``room``, ``game``  a table's seats and start; its game (the transcript's ``GameTable``)
    ``seat``        a player's checked replica and agent
    ``limits``      rate limits (floods, wrong codes)
    ``guards/``     the protections against a dishonest party, each its own small machine:
                    ``heads`` (signed chain heads: a host showing two histories),
                    ``setup`` (the setup's deadline: a stalling seat), ``sandglass`` (the
                    investigation's timer: the host calls time), ``blame`` (who cheated)

``address``    ``wss://HOST:PORT``, as a person types it or discovery finds it
``schema``     the JSON Schemas of the messages, generated into ``protocol/schema/wire/``
``wire``       the messages (msgspec Structs, 64 KiB frames) and their codec

``join/``      the join crypto, pure functions of their inputs
    ``words``, ``codes``  the word list; join codes (``7-raven-lantern``) and fingerprint phrases
    ``pake``        the join PAKE (SPAKE2, binding the certificate)
    ``auth``        the identity proof over the host's challenge
    ``pins``        what a pinned fingerprint allows (trust on first use, proven by the PAKE)

``errors``     at the bottom: every error of the network layer, grouped by whose fault it is

Nothing in ``sessions/``, ``join/``, ``wire`` or ``errors`` touches a socket,
a file, a clock or the event loop; the adapters carry out what the sessions
return, in order.

Two places are not obvious.  The outbox bound is a guard against a dishonest
client, but it watches a transport's write buffer with a drain timer, so it
lives beside the server adapter it bounds, not in ``sessions/guards``.  And
``wire`` sits above ``join``: a message's table number is a join code's
nameplate (``join.codes.MAX_TABLES``), while nothing of the join needs a message.
"""

"""The adapters: asyncio, websockets, TLS, files and mDNS around the sans-I/O sessions.

They only pump: frames and timers into the sessions, the sessions' effects out
to sockets and disks, in order (see ``domicile_p2p.net``).
"""

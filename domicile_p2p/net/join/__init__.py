"""The join crypto: codes, the PAKE, the identity proof and pins, as pure functions.

Nothing here touches a socket, a file or a clock; the sessions call it, the
adapters never need to (see ``domicile_p2p.net``).
"""

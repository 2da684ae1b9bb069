"""The protocol's protections against a dishonest party, each a small sans-I/O machine.

- ``heads``: signed chain heads, compared between peers (a host showing two histories);
- ``setup``: the setup's deadline (a seat stalling the commitments or reveals);
- ``blame``: who broke the protocol, said plainly, when a check fails.
"""

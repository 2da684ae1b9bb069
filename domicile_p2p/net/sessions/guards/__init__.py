"""The protocol's protections against a dishonest party, each a small sans-I/O machine.

- ``heads``: signed chain heads, compared between peers (a host showing two histories);
- ``setup``: the setup's deadline (a seat stalling the commitments or reveals);
- ``sandglass``: the investigation's timer (the host calls time, as a signed statement);
- ``blame``: who broke the protocol, said plainly, when a check fails.
"""

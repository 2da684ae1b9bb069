"""The Textual client of Tortured Domicile: find or host a table and play it.

Layout of the package (docs/ARCHITECTURE.md, section 7 "The client"):

- ``session``   the one interface the app talks to a table through, and its events
- ``offline``   a table played entirely in this process against bots
- ``app``       the Textual application: routes screens from the session's events
- ``screens/``  start, host set-up, lobby, the investigator's table, the Ghost's
                screen, the séance, Stage Two, the end, help
- ``widgets/``  cards, dreams, the tableau, the calendar, chat, the status bar ...
- ``cli``       the ``domicile play`` command

The game state always comes from the rules engine's ``view(state, seat)``;
widgets render it and post messages up, they never keep game state.
"""

__all__: list[str] = []

"""Widgets of the table.  Each renders from what it is given (a view, a card,
a chat log) and posts a message when the player does something; none keeps
game state of its own."""

"""odin-cards: the card game Odin, exact rules, strong bots, terminal and browser play."""

__version__ = "0.2.0"

"""Take-away, a third game defined by the tests alone (issue #24's proof of the plugin seam).

Two players share a pile of tokens and each holds a hidden hand of two numbers. A turn
takes one token, or as many as one of the numbers in the mover's hand (then a new number
is drawn to replace it); whoever takes the last token wins. Small as it is, it has what
the platform must handle for any game: hidden information (a seat's hand, the deck's
order), chance from the seed, a set-up with a default, bots, and a board module of its own.
Nothing under ``src/`` knows it: it is published as a plugin by the tests (``games.py``'s
``registered``, or an entry point on ``PYTHONPATH`` for server processes).
"""

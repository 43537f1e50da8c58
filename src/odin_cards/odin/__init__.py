"""Odin (Helvetiq): the game's whole package, behind the platform's game plugin.

Its rules core (:mod:`.rules`), batch simulator (:mod:`.sim`), bots (:mod:`.bots`), terminal
game (:mod:`.play`), research environments (:mod:`.env`), learning (:mod:`.learning`),
analysis (:mod:`.analysis`), conformance traces (:mod:`.traces`) and what the web server
shows of it (:mod:`.web`). The platform reaches it only through :mod:`.plugin`.
"""

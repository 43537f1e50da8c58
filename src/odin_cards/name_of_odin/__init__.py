"""In the Name of Odin (NSKN Games): the game's whole package, behind the platform's plugin.

Its rules core (:mod:`.rules`), bots (:mod:`.bots`) and terminal game (:mod:`.play`). The
platform reaches it only through :mod:`.plugin`.
"""

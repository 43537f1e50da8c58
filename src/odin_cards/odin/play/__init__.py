"""Odin in the terminal: ``odin play`` (:mod:`.terminal`, :mod:`.session`), ``odin join``'s
screen (:mod:`.remote`), ``odin replay``'s lines (:mod:`.replay`) and the set-up flags
(:mod:`.flags`), each reached through the game's plugin.

Nothing is imported here: the flags' reader runs in commands that never draw a screen.
"""

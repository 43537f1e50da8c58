"""In the Name of Odin in the terminal: ``odin play`` (:mod:`.terminal`, :mod:`.session`),
``odin join``'s screen (:mod:`.remote`), ``odin replay``'s lines (:mod:`.words`) and the
set-up flag ``--cards`` (:mod:`.flags`), each reached through the game's plugin.

Built on the game's public API only (its view, legal actions and public events), so what
a person sees here is what a seat may see: never another hand, never a deck's order.
Nothing is imported here: the flag's reader runs in commands that never draw a screen.
"""

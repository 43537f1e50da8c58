"""In the Name of Odin in the terminal: the screen, the event lines and the game loop.

Built on the game's public API only (its view, legal actions and public events), so what
a person sees here is what a seat may see: never another hand, never a deck's order.
"""

from odin_cards.name_of_odin.play.render import screen
from odin_cards.name_of_odin.play.session import NooSession
from odin_cards.name_of_odin.play.words import event_line, event_lines

__all__ = ["NooSession", "event_line", "event_lines", "screen"]

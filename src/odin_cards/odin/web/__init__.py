"""What the browser platform shows of Odin: a seat's state (:mod:`.presenter`) and the board."""

"""What the browser platform shows of Odin: a seat's state (:mod:`.presenter`, on the server)
and the board (``board.js`` with the modules it imports, ``board.css``, ``i18n/``: served to
the pages under ``/games/odin/``, see ``docs/ui.md``, Boards), with Odin's two pages of its
own, the rules (``rules.js``, ``/games/odin/rules``) and the tutorial (``tutorial.js``,
``/games/odin/tutorial``)."""

"""Take-away's board module for the table page (``board.js``)."""

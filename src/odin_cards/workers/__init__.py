"""Worker process entry points, apart from the server: bots (:mod:`.bot_worker`) and
analyses (:mod:`.analysis`). They import the games and the bots, never the server."""

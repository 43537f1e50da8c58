"""The server's domain: tables, seats, lobby and bots, talking to ports (no SQL, no sockets)."""

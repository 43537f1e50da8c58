"""The server core's people."""

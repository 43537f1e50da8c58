"""The server core's tables."""

"""The server core's features."""

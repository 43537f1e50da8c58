"""The attacks of ``bench/limits.py``, one module each, and what they share (``common``)."""

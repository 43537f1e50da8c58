"""In the Name of Odin's rules core: pure, typed; no I/O, no clock, no global random state."""

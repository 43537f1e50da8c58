"""Game-neutral tools: the arena, the evaluation protocol, simulation and benchmarks."""

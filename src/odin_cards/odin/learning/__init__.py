"""Training the learned networks of :mod:`odin_cards.odin.bots` (PyTorch: the ``train`` extra).

The value network (:mod:`odin_cards.odin.bots.network`): ``python -m odin_cards.odin.learning
generate`` plays seeded heuristic games and labels positions with the outcome of a
heuristic playout (:mod:`.data`, NumPy only); ``train`` fits it (:mod:`.train`).

The policy (:mod:`odin_cards.odin.bots.learned`), distilled from the search:
``generate-policy`` records the search's root visits in seeded self-play
(:mod:`.policy_data`); ``train-policy`` fits it (:mod:`.policy_train`).

Training runs in PyTorch on one thread, deterministically, and writes the ``.npz`` files the
bots load with NumPy. The commands that produced the shipped weights are in docs/bots.md.
"""

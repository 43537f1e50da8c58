"""The Gymnasium spaces of the environments: actions, masks and both observation forms.

Kept apart from :mod:`.observation` so that encoding needs only NumPy.
"""

from __future__ import annotations

from typing import Literal

from odin_cards.extras import MissingExtra

try:
    import numpy as np
    from gymnasium import spaces
except ImportError as missing:  # not installed: the one line that names the extra
    raise MissingExtra("the environments' spaces", "research") from missing

from odin_cards.odin.env.observation import FIELDS, FLAT_SIZE, flat_high
from odin_cards.odin.rules import NUM_ACTIONS

ObservationForm = Literal["flat", "dict"]


def action_space() -> spaces.Discrete:
    """Every action id of ``docs/actions.md`` (6,702); the mask says which are legal."""
    return spaces.Discrete(NUM_ACTIONS)


def mask_space() -> spaces.Box:
    """The legal-action mask: ``int8[6702]``, 1 where legal (the dtype ``sample`` wants)."""
    return spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8)


def flat_space() -> spaces.Box:
    """The flat observation: ``float32[FLAT_SIZE]``, from 0 to its entry's bound."""
    return spaces.Box(np.zeros(FLAT_SIZE, dtype=np.float32), flat_high(), dtype=np.float32)


def dict_space() -> spaces.Dict:
    """The dict observation: one ``int32`` box per field of :data:`~.observation.FIELDS`."""
    return spaces.Dict(
        {f.name: spaces.Box(0, f.high, shape=f.shape, dtype=np.int32) for f in FIELDS}
    )


def observation_space(form: ObservationForm) -> spaces.Space[object]:
    """The observation of one form, without the mask."""
    if form == "flat":
        return flat_space()
    if form == "dict":
        return dict_space()
    raise ValueError(f"the observation form is 'flat' or 'dict', not {form!r}")


def masked_space(form: ObservationForm) -> spaces.Dict:
    """What the PettingZoo environment's agents observe: ``observation`` and ``action_mask``."""
    return spaces.Dict({"observation": observation_space(form), "action_mask": mask_space()})


__all__ = [
    "ObservationForm",
    "action_space",
    "dict_space",
    "flat_space",
    "mask_space",
    "masked_space",
    "observation_space",
]

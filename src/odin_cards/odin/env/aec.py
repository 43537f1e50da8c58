"""``odin_v0``: Odin as a PettingZoo AEC environment (one agent per seat, turn by turn).

Agents are ``player_0`` … ``player_{n-1}`` (seat numbers). Each observes a dict:
``observation`` (the flat vector of :mod:`.observation`, or with ``observation="dict"``
its dict form) and ``action_mask`` (``int8[6702]``, 1 where the action id is legal; all 0
for an agent not to move). Actions are the engine's integer ids (``docs/actions.md``).
A seat may be asked twice in a row: after beating a set it chooses the card to take.

Options: ``players`` (2-6), ``options`` (the rule options of
:class:`odin_cards.odin.rules.Options` as a dict, e.g. ``{"target": 10, "goat": True}``),
``reward`` (``"game"``, the default: the victory's share at the end; or ``"hand"``:
minus each hand's points when it ends), ``observation`` (``"flat"`` or ``"dict"``),
``illegal`` (``"substitute"``, the default: an illegal id plays the lowest legal id and
the agent's info says so; or ``"raise"``), ``max_cycles`` (truncate after this many
cycles of ``players`` actions; ``None``: play to the end), ``render_mode`` (``"ansi"``
or ``"human"``) and ``seed`` (what a first ``reset()`` without a seed uses; it also
seeds the action space's ``sample``). See ``docs/research.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from odin_cards.extras import MissingExtra

try:
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as missing:  # not installed: the one line that names the extra
    raise MissingExtra("the PettingZoo environment", "research") from missing

from odin_cards.odin.env.display import RENDER_MODES, check_render_mode, screen, show
from odin_cards.odin.env.spaces import ObservationForm, action_space, masked_space
from odin_cards.odin.env.table import IllegalPolicy, RewardKind, Table
from odin_cards.odin.rules import Game

Observation = dict[str, Any]


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class OdinAECEnv(AECEnv):  # type: ignore[misc]  # PettingZoo is untyped
    """The raw AEC environment (``odin_v0.raw_env``); :func:`env` wraps it for order checks."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "odin_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        options: Mapping[str, Any] | None = None,
        reward: RewardKind = "game",
        observation: ObservationForm = "flat",
        illegal: IllegalPolicy = "substitute",
        max_cycles: int | None = None,
        render_mode: str | None = None,
        seed: int | None = None,
        *,
        max_actions: int | None = None,
    ) -> None:
        super().__init__()
        self.table = Table(players, options, reward, illegal)
        check_render_mode(render_mode)
        for name, limit in (("max_cycles", max_cycles), ("max_actions", max_actions)):
            if limit is not None and (
                not isinstance(limit, int) or isinstance(limit, bool) or limit < 1
            ):
                raise ValueError(f"{name} is a positive whole number or None, not {limit!r}")
        self.render_mode = render_mode
        self.form: ObservationForm = observation
        self.max_actions = (
            max_actions
            if max_actions is not None
            else (None if max_cycles is None else max_cycles * players)
        )
        self.possible_agents = [agent_name(seat) for seat in range(players)]
        self._seat = {name: seat for seat, name in enumerate(self.possible_agents)}
        self._observation_space = masked_space(observation)
        self._action_space = action_space()
        self.np_random, _ = seeding.np_random(seed)
        self._seeded = seed is not None
        if seed is not None:
            self._action_space.seed(seed)
        self.actions_taken = 0
        self.agents: list[str] = []

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    # ------------------------------------------------------------------- steps

    @property
    def game(self) -> Game:
        """The game being played (full state, secrets included: for tools, not agents)."""
        return self.table.game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game. ``seed`` fixes it (and every later reset's, in order);
        ``options={"deals": [...]}`` fixes the first hands' cards (see :meth:`Table.start`).
        Other keys of ``options`` are ignored."""
        if seed is not None or not self._seeded:
            self.np_random, _ = seeding.np_random(seed)
            self._seeded = True
        game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self.table.start(game_seed, (options or {}).get("deals"))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.actions_taken = 0
        self._select()

    def _select(self) -> None:
        seat = self.table.to_move
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> Observation:
        seat = self._seat[agent]
        table = self.table
        observation = table.flat(seat) if self.form == "flat" else table.dict(seat)
        return {"observation": observation, "action_mask": table.mask(seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: give an action id, not None")
        rewards, substituted = self.table.play(action)
        self.actions_taken += 1
        self._cumulative_rewards[agent] = 0.0
        self.infos = {name: {} for name in self.agents}
        if substituted:
            self.infos[agent] = {"illegal_action": True}
        self.rewards = {name: rewards[self._seat[name]] for name in self.agents}
        if self.table.game.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_actions is not None and self.actions_taken >= self.max_actions:
            self.truncations = dict.fromkeys(self.agents, True)
        self._select()
        self._accumulate_rewards()

    # ----------------------------------------------------------------- display

    def render(self) -> str | None:
        """The screen of the seat to move (the last mover's once the game is over), as
        ``odin play`` draws it: ``ansi`` returns it as plain text, ``human`` prints it."""
        if self.render_mode is None:
            return None
        game = self.table.game
        seat = game.current_player
        if seat is None:
            seat = self._seat[self.agent_selection]
        return show(screen(game, seat, self.possible_agents), self.render_mode)

    def close(self) -> None:
        """Nothing to release (no window, no process)."""


def raw_env(**kwargs: Any) -> OdinAECEnv:
    """The environment without wrappers."""
    return OdinAECEnv(**kwargs)


def env(**kwargs: Any) -> wrappers.OrderEnforcingWrapper:
    """The environment as PettingZoo's classic games ship it: wrapped to check call order."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


__all__ = ["OdinAECEnv", "agent_name", "env", "raw_env"]

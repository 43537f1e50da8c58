"""One seat learns, the others are bots: Odin as a Gymnasium environment.

Registered as ``odin_cards/Odin-v0`` (``gymnasium.make("odin_cards/Odin-v0", players=4)``
after ``import odin_cards.odin.env``). The learner's seat observes what the PettingZoo agents
observe: ``observation`` (flat vector or dict, see :mod:`.observation`) and
``action_mask``; :meth:`OdinSingleAgentEnv.action_masks` gives the mask as booleans, the
form maskable policies (e.g. sb3-contrib's ``MaskablePPO``) ask for. Each ``step``
plays the learner's action, then the bots' moves until the learner is to move again or
the game is over; the reward is what the learner earned meanwhile (``reward="game"`` or
``"hand"``, as in :mod:`.table`).

The bots are the project's levels (``random``, ``heuristic``, ``search``, ``expert``),
each shown only its own seat's view (:func:`bot_move`).
``search`` and ``expert`` think by the clock unless ``bot_iterations`` is given, so only
with ``random``, ``heuristic`` or ``bot_iterations`` does a seed reproduce an episode.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from odin_cards.extras import MissingExtra

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
except ImportError as missing:  # not installed: the one line that names the extra
    raise MissingExtra("the Gymnasium environment", "research") from missing

from odin_cards.odin.bots import LEVELS, Bot, Budget, make_bot
from odin_cards.odin.env.display import RENDER_MODES, check_render_mode, screen, show
from odin_cards.odin.env.spaces import ObservationForm, action_space, masked_space
from odin_cards.odin.env.table import IllegalPolicy, RewardKind, Table
from odin_cards.odin.rules import Action, Game
from odin_cards.odin.rules.view import make_view

Observation = dict[str, Any]
MAX_RESETS = 100
"""Deals tried for an episode in which the learner gets to move (a finishing lead may end
a one-hand game before its first turn)."""


class OdinSingleAgentEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """Odin from one seat's chair, the other seats played by bot levels.

    ``seat``: the learner's seat, or ``None`` to draw it for each episode.
    ``opponents``: one level for every other seat, or one level per other seat (in seat
    order, the learner's skipped). ``bot_iterations``: the search levels' budget in
    iterations instead of their clock. The other settings are those of ``odin_v0``.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012 (as Env declares it)

    def __init__(
        self,
        players: int = 4,
        seat: int | None = 0,
        opponents: str | Sequence[str] = "heuristic",
        options: Mapping[str, Any] | None = None,
        reward: RewardKind = "game",
        observation: ObservationForm = "flat",
        illegal: IllegalPolicy = "substitute",
        bot_iterations: int | None = None,
        max_steps: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.table = Table(players, options, reward, illegal)
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players
        ):
            raise ValueError(f"seat is one of 0 to {players - 1} or None, not {seat!r}")
        levels = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(levels) != players - 1:
            raise ValueError(f"give one bot level, or {players - 1} (one per other seat)")
        for level in levels:
            if level not in LEVELS:
                raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
        for name, limit in (("bot_iterations", bot_iterations), ("max_steps", max_steps)):
            if limit is not None and (
                not isinstance(limit, int) or isinstance(limit, bool) or limit < 1
            ):
                raise ValueError(f"{name} is a positive whole number or None, not {limit!r}")
        check_render_mode(render_mode)
        self.players = players
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.levels = tuple(levels)
        self.bots = tuple(make_bot(level) for level in levels)
        self.budgets = tuple(
            Budget(iterations=bot_iterations)
            if bot_iterations is not None
            else LEVELS[level].budget
            for level in levels
        )
        self.form: ObservationForm = observation
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.observation_space = masked_space(observation)
        self.action_space = action_space()
        self.steps = 0
        self.bot_rng = random.Random(0)

    # --------------------------------------------------------------- episodes

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game and let the bots play up to the learner's first decision.

        ``options={"deals": [...]}`` fixes the first hands' cards (as in ``odin_v0``).
        """
        super().reset(seed=seed)
        deals = (options or {}).get("deals")
        for _ in range(1 if deals is not None else MAX_RESETS):
            if self.fixed_seat is None:
                self.seat = int(self.np_random.integers(self.players))
            self.table.start(int(self.np_random.integers(0, 2**63 - 1)), deals)
            self.bot_rng = random.Random(int(self.np_random.integers(0, 2**63 - 1)))
            self.steps = 0
            self._bots_play()
            if not self.table.game.is_over:
                return self._observation(), {"seat": self.seat}
        raise RuntimeError("the game ended before the learner's first decision")

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        table = self.table
        if table.game.is_over:
            raise RuntimeError("the episode is over: call reset()")
        rewards, substituted = table.play(action)
        reward = rewards[self.seat]
        reward += self._bots_play()
        self.steps += 1
        terminated = table.game.is_over
        truncated = not terminated and self.max_steps is not None and self.steps >= self.max_steps
        info: dict[str, Any] = {"seat": self.seat}
        if substituted:
            info["illegal_action"] = True
        return self._observation(), float(reward), terminated, truncated, info

    def _bots_play(self) -> float:
        """The bots move until the learner is to move or the game ends; its reward meanwhile."""
        table = self.table
        game = table.game
        earned = 0.0
        while not game.is_over and game.current_player != self.seat:
            seat = game.current_player
            assert seat is not None
            other = seat if seat < self.seat else seat - 1
            action = bot_move(self.bots[other], game, self.budgets[other], self.bot_rng)
            rewards, _ = table.play(action.id)
            earned += rewards[self.seat]
        return earned

    # ---------------------------------------------------------------- reading

    def _observation(self) -> Observation:
        table = self.table
        observation = table.flat(self.seat) if self.form == "flat" else table.dict(self.seat)
        return {"observation": observation, "action_mask": table.mask(self.seat)}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the learner now, as booleans (for maskable policies)."""
        return self.table.mask(self.seat).astype(bool)

    def render(self) -> str | None:
        """The learner's screen as ``odin play`` draws it: ``ansi`` returns it as plain
        text, ``human`` prints it."""
        if self.render_mode is None:
            return None
        names = [
            "you" if s == self.seat else f"seat {s} ({self.levels[s - (s > self.seat)]})"
            for s in range(self.players)
        ]
        return show(screen(self.table.game, self.seat, names), self.render_mode)


def bot_move(bot: Bot, game: Game, budget: Budget, rng: random.Random) -> Action:
    """``bot``'s move for the seat to move, shown only that seat's view.

    As :func:`odin_cards.odin.bots.ask`, but the view leaves out the public history (no bot
    reads it, and building it is a pass over the whole game at every move). Raises
    ``ValueError`` if the bot answers an action that is not legal.
    """
    seat = game.current_player
    if seat is None:
        raise ValueError("the game is over: nobody is to move")
    legal = game.legal_actions()
    action = bot.choose(make_view(game, seat, history=False), tuple(legal), budget, rng)
    if action not in legal:
        raise ValueError(f"{bot.level} bot chose {action}, which is not legal here")
    return action


__all__ = ["OdinSingleAgentEnv", "bot_move"]

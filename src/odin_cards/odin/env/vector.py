"""Many games in one call: a Gymnasium vector environment over the compiled batch simulator.

:class:`OdinVectorEnv` is a :class:`gymnasium.vector.VectorEnv` of ``num_envs`` games with
the same players and options. As in the single-agent environment (:mod:`.single`) one
seat per game is the learner's and the other seats are opponents, here played in
compiled code for the whole batch at once: ``"heuristic"`` (the bots' heuristic,
:mod:`odin_cards.odin.bots.policy`, compiled in :mod:`odin_cards.odin.sim.kernels` and held
to it move for move) or ``"random"`` (uniform among the legal actions). With
``opponents="self"`` every seat is the caller's (self-play): each step is for whichever
seat is to move.

* Spaces: ``single_action_space`` is ``Discrete(6702)`` (every action id), and
  ``single_observation_space`` the flat observation ``float32[598]`` of
  :mod:`.observation` (the PettingZoo and Gymnasium environments' own), or, with
  ``action_mask=True``, the single-agent environment's ``{"observation",
  "action_mask"}``. ``observation_space`` and ``action_space`` are their batches.
* Autoreset: ``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP``. A game that
  ends is ``terminated`` in that step and replaced at once by a new game, played up to
  the learner's first decision, whose observation is the one returned; the ended game's
  last observation is in ``info["final_obs"]`` (an object array, ``None`` for the other
  games) and its outcome in ``info["final_info"]`` (``scores``, ``winners``), each with
  its ``_``-mask as Gymnasium's vector environments give them. ``truncated`` is always
  false: an Odin game always ends.
* Every returned observation has a decision to take. ``info["legal_ids"]``
  (``int16[N, 512]``) and ``info["legal_counts"]`` (``int64[N]``) list each game's legal
  ids, ascending (``legal_ids[i, :legal_counts[i]]``), straight from
  :meth:`~odin_cards.odin.sim.Batch.legal_ids`: no dense mask is built unless asked
  (``action_mask=True``, or :meth:`OdinVectorEnv.action_masks`). ``info["seat"]`` is the
  seat each next action is for; ``info["seat_rewards"]`` (``float32[N, players]``)
  every seat's reward from the step.
* Rewards (``float32[N]``): the learner's (self-play: the acting seat's) as the other
  environments define them: ``"game"`` gives the winners of a game that ended 1 shared
  among them; ``"hand"`` gives minus the seat's points in every hand that ended,
  whoever ended it.
* Seeding: ``reset(seed=s)`` gives game ``i`` the simulator's game of ``(s, i)``: its
  deals come from its dealing generator, its random opponents' (and
  :meth:`OdinVectorEnv.sample_legal`'s) choices from another, so a game's deals depend on
  nothing but its seed and the actions played.
* An illegal action is replaced by the game's lowest legal id (``illegal="substitute"``,
  as in the single-agent environment; ``info["illegal_action"]`` says where) or refused
  with :class:`~odin_cards.odin.sim.SimError` before any game moves (``"raise"``).

Registered with Gymnasium as the vector entry point of ``odin_cards/Odin-v0``:
``gymnasium.make_vec("odin_cards/Odin-v0", num_envs=256, players=4)``. It needs the
compiled simulator (numba, the ``research`` extra). See ``docs/simulator.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from odin_cards.extras import MissingExtra

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space
except ImportError as missing:  # not installed: the one line that names the extra
    raise MissingExtra("the vector environment", "research") from missing

from odin_cards.odin.bots.policy import STYLE, style_vector
from odin_cards.odin.env.observation import FIELD, FLAT_SIZE, MAX_TARGET
from odin_cards.odin.env.spaces import ObservationForm, action_space, flat_space, masked_space
from odin_cards.odin.env.table import ILLEGAL, REWARDS, IllegalPolicy, RewardKind, check_choice
from odin_cards.odin.rules import NUM_ACTIONS, Options
from odin_cards.odin.sim import HAVE_NUMBA, NO_NUMBA, Batch, SimError
from odin_cards.odin.sim.batch import HEURISTIC, MAX_GAMES, RANDOM, choice_seed, game_seed
from odin_cards.odin.sim.encode import BLOCKS, encode_seats
from odin_cards.odin.sim.tables import TABLES

OPPONENTS: Final = {"heuristic": HEURISTIC, "random": RANDOM}
"""The opponents the compiled simulator plays, by the bot level they stand for."""
SELF_PLAY: Final = "self"
"""``opponents="self"``: every seat is the caller's."""
MAX_RESETS: Final = 100
"""New games tried for one in which the learner gets to move (a finishing lead may end a
one-hand game before its first turn), as in the single-agent environment."""
SEATS: Final = 6

VectorObs = npt.NDArray[np.float32] | dict[str, npt.NDArray[Any]]


def _starts() -> npt.NDArray[np.int64]:
    """Where each block of the compiled encoder goes in the environments' flat layout."""
    for name, shape in BLOCKS:
        if name not in FIELD or FIELD[name].shape != shape:
            raise RuntimeError(f"the observation layout changed: block {name!r} {shape}")
    return np.array([FIELD[name].start for name, _ in BLOCKS], np.int64)


STARTS = _starts()


def _whole(name: str, value: object, low: int, high: int) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | np.integer)
        or not low <= value <= high
    ):
        raise SimError(f"{name} is a whole number from {low} to {high}, not {value!r}")
    return int(value)


class OdinVectorEnv(gymnasium.vector.VectorEnv[VectorObs, npt.NDArray[np.int64], Any]):
    """``num_envs`` games of Odin stepped together (see the module docstring).

    ``seat``: the learner's seat, or ``None`` to draw it for each game (from the game's
    seed and episode, so that no game's draw depends on another's). ``opponents``: one
    kind for every other seat (``"heuristic"``, ``"random"``), one per other seat in seat
    order (the learner's skipped), or ``"self"``. ``observation`` is ``"flat"`` (the dict
    form is the single-agent environment's only). ``compiled`` is accepted for the old
    signature: this environment always runs the compiled simulator.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012 (as VectorEnv declares it)

    def __init__(
        self,
        num_envs: int = 1,
        players: int = 4,
        seat: int | None = 0,
        opponents: str | Sequence[str] = "heuristic",
        options: Options | Mapping[str, Any] | None = None,
        reward: RewardKind = "game",
        observation: ObservationForm = "flat",
        illegal: IllegalPolicy = "substitute",
        action_mask: bool = False,
        compiled: bool | None = None,
    ) -> None:
        if not HAVE_NUMBA or compiled is False:
            raise SimError(NO_NUMBA if not HAVE_NUMBA else "the vector environment is compiled")
        self.num_envs = _whole("num_envs", num_envs, 1, MAX_GAMES)
        self.players = _whole("players", players, 2, SEATS)
        if isinstance(options, Mapping):
            try:
                options = Options.from_dict(options)
            except ValueError as error:
                raise SimError(str(error)) from None
        self.options = options if options is not None else Options()
        if isinstance(self.options.target, int) and self.options.target > MAX_TARGET:
            raise SimError(f"the environments take a target up to {MAX_TARGET}")
        try:
            self.options.check(self.players)
        except ValueError as error:
            raise SimError(str(error)) from None
        check_choice("reward", reward, REWARDS)
        check_choice("illegal", illegal, ILLEGAL)
        if observation != "flat":
            raise SimError(f"the vector environment's observation is 'flat', not {observation!r}")
        self.self_play = opponents == SELF_PLAY
        if seat is not None:
            seat = _whole("seat", seat, 0, self.players - 1)
        levels = [opponents] * (self.players - 1) if isinstance(opponents, str) else opponents
        if not self.self_play:
            if not isinstance(levels, Sequence) or len(levels) != self.players - 1:
                raise SimError(f"give one kind of opponent, or {self.players - 1} (one a seat)")
            for level in levels:
                if level not in OPPONENTS:
                    raise SimError(
                        f"opponents are {', '.join(map(repr, OPPONENTS))} or 'self', not {level!r}"
                    )
        self.fixed_seat = seat
        self.levels = tuple(OPPONENTS[level] for level in levels) if not self.self_play else ()
        self.reward = reward
        self.illegal = illegal
        self.with_mask = bool(action_mask)
        self.style = style_vector(STYLE)
        self.single_action_space = action_space()
        self.single_observation_space = masked_space("flat") if self.with_mask else flat_space()
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.seed_used = 0
        self.episodes = np.zeros(self.num_envs, np.int64)
        self.seats = np.zeros(self.num_envs, np.int64)
        self.kinds = np.zeros((self.num_envs, SEATS), np.int64)
        self.batch = Batch.new(self.num_envs, self.players, self.options, 0)
        self._legal = self.batch.legal_ids()

    # --------------------------------------------------------------- episodes

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[VectorObs, dict[str, Any]]:
        """New games everywhere, each played up to the learner's first decision; game
        ``i`` is the simulator's game ``(seed, i)``. No reset options are taken."""
        if options:
            raise SimError(f"the vector environment takes no reset options, not {options!r}")
        if seed is not None:
            seed = _whole("seed", seed, 0, (1 << 64) - 1)
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 1 << 62))
        self.seed_used = seed
        self.batch = Batch.new(self.num_envs, self.players, self.options, self.seed_used)
        self.episodes[:] = 0
        everyone = np.ones(self.num_envs, np.bool_)
        self._start(everyone)
        return self._observe(), self._info(self.num_envs)

    def _start(self, fresh: npt.NDArray[np.bool_]) -> None:
        """Seat the learner in the ``fresh`` games (just reset) and let the opponents play
        up to its first decision, dealing again where a game ends before it."""
        for _ in range(MAX_RESETS):
            self._seat(fresh)
            if self.self_play:
                return
            self.batch.play_others(self.seats, self.kinds, self.style, fresh)
            fresh = fresh & self.batch.over
            if not fresh.any():
                return
            self.episodes[fresh] += 1
            self.batch.reset(fresh)
        raise RuntimeError("a game ended before the learner's first decision")

    def _seat(self, fresh: npt.NDArray[np.bool_]) -> None:
        for i in np.flatnonzero(fresh):
            if self.fixed_seat is not None:
                seat = self.fixed_seat
            else:
                key = choice_seed(self.seed_used, int(i))
                seat = game_seed(key, int(self.episodes[i])) % self.players
            self.seats[i] = seat
            row = self.kinds[i]
            row[:] = 0
            others = [s for s in range(self.players) if s != seat]
            for other, kind in zip(others, self.levels, strict=False):
                row[other] = kind

    # ------------------------------------------------------------------ steps

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        VectorObs,
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """One action id per game, for the seat ``info["seat"]`` named (see the module
        docstring for what comes back)."""
        n = self.num_envs
        chosen = np.asarray(actions)
        if chosen.shape != (n,) or chosen.dtype.kind not in "iu":
            raise SimError(
                f"give one integer action id per game: shape ({n},), not"
                f" {chosen.shape} of {chosen.dtype}"
            )
        chosen = chosen.astype(np.int64)
        batch = self.batch
        movers = batch.to_move
        substituted = np.zeros(n, np.bool_)
        try:
            ended = batch.step(chosen)  # checks every action first: a refusal moves nothing
        except SimError:
            if self.illegal == "raise":
                raise
            ids, counts = self._legal
            listed = np.arange(ids.shape[1]) < counts[:, None]
            substituted = ~((ids == chosen[:, None]) & listed).any(axis=1)
            ended = batch.step(np.where(substituted, ids[:, 0], chosen))
        points = np.where(ended[:, None], batch.hand_points, 0)
        if not self.self_play:
            points += batch.play_others(self.seats, self.kinds, self.style, ~batch.over)
        terminated = batch.over
        players = self.players
        seat_rewards = np.zeros((n, players), np.float32)
        if self.reward == "hand":
            seat_rewards -= points[:, :players]
        if terminated.any() and self.reward == "game":
            winners = batch.winners[:, :players]
            seat_rewards += winners / np.maximum(winners.sum(axis=1, keepdims=True), 1)
        acting = movers if self.self_play else self.seats
        rewards = seat_rewards[np.arange(n), acting].astype(np.float32)
        info: dict[str, Any] = {}
        if terminated.any():
            info.update(self._finals(terminated, acting))
            self.episodes[terminated] += 1
            batch.reset(terminated)
            self._start(terminated)
        obs = self._observe()
        info.update(self._info(n))
        info["seat_rewards"], info["_seat_rewards"] = seat_rewards, np.ones(n, np.bool_)
        if substituted.any():
            info["illegal_action"], info["_illegal_action"] = substituted, substituted.copy()
        return obs, rewards, terminated, np.zeros(n, np.bool_), info

    def _finals(
        self, terminated: npt.NDArray[np.bool_], seats: npt.NDArray[np.int64]
    ) -> dict[str, Any]:
        """The ended games' last observations (of ``seats``) and outcomes, as Gymnasium's
        same-step autoreset gives them."""
        n = self.num_envs
        last = self._encode(np.where(terminated, seats, -1))
        final_obs = np.full(n, None, dtype=object)
        for i in np.flatnonzero(terminated):
            if self.with_mask:
                final_obs[i] = {
                    "observation": last[i],
                    "action_mask": np.zeros(NUM_ACTIONS, np.int8),
                }
            else:
                final_obs[i] = last[i]
        players = self.players
        final_info = {
            "scores": np.where(terminated[:, None], self.batch.scores[:, :players], 0),
            "_scores": terminated.copy(),
            "winners": self.batch.winners[:, :players],
            "_winners": terminated.copy(),
        }
        return {
            "final_obs": final_obs,
            "_final_obs": terminated.copy(),
            "final_info": final_info,
            "_final_info": terminated.copy(),
        }

    # ---------------------------------------------------------------- reading

    def _encode(self, seats: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
        out = np.zeros((self.num_envs, FLAT_SIZE), np.float32)
        encode_seats(self.batch.state, seats, STARTS, TABLES, out)
        return out

    def _observe(self) -> VectorObs:
        self._legal = self.batch.legal_ids()
        observation = self._encode(self.batch.to_move)
        if not self.with_mask:
            return observation
        return {"observation": observation, "action_mask": self.action_masks().view(np.int8)}

    def _info(self, n: int) -> dict[str, Any]:
        ids, counts = self._legal
        every = np.ones(n, np.bool_)
        return {
            "legal_ids": ids,
            "_legal_ids": every,
            "legal_counts": counts,
            "_legal_counts": every.copy(),
            "seat": self.batch.to_move,
            "_seat": every.copy(),
        }

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """``bool[N, 6702]``: the legal actions of every game now (built on demand)."""
        return self.batch.legal_mask()

    def sample_legal(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal id a game, from each game's choosing generator (a
        random policy's actions; never changes a deal)."""
        return self.batch.sample_legal()


__all__ = ["OPPONENTS", "SELF_PLAY", "STARTS", "OdinVectorEnv", "VectorObs"]

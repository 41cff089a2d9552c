"""The search bot: Monte Carlo tree search with chance nodes, on the engine protocol alone.

One search serves every game; what differs per game lives in the game's own package, in a
module ``evaluate`` that the search finds by the state's package (see ``Policy``):

- ``evaluate(state)``: each seat's chance to win, a tuple of numbers in [0, 1]. The tree is
  cut off at a leaf and scored by it, so Rocketball's thousands of actions never need playing
  out to the end.
- ``determinize(state, seat, rng)`` (games with hidden information): a full state that agrees
  with everything ``seat`` may see, the hidden part (other hands, secret bids, the deck's order)
  drawn at random from what the seat cannot see. The search plays on such worlds only, a fresh
  one every iteration (information-set search with one tree for the seat that chooses), so it
  never reads what its seat may not see.
- ``candidates(state, actions)`` (optional): the actions worth searching, best first, where a
  game has hundreds of them and most do nothing (a chip laid far from the ball).
- ``PLAYOUT_STEPS`` (optional): random actions played after a leaf before it is scored.
- ``prepares(state)`` (optional): whether the decision waiting in ``state`` is a step of a turn
  that the same seat's next decision completes (Rollerball: moving the workman, which is then
  used). At the root such an action is ranked by the best one-ply value of the seat's next
  decision, not by its own result: moving a workman changes nothing the evaluation reads,
  what it makes possible does.

A leaf that is a chance node (the die about to be rolled after a chip is laid) is scored as the
average over its outcomes, each weighed by its probability, so a leaf is judged at least as
well as the one-ply bot judges it.

The tree: a decision node's children are its actions, tried in the order of their one-ply
value (progressive widening: a node visited n times considers about 2*sqrt(n) of them, so
a large branching factor does not drown the search); a chance node's children are outcomes
drawn by their probabilities (the engine lists them), so the tree averages over dice and
draws as they fall. Selection is UCB1 on the value of the seat to move. Budgets are counted
in iterations, not seconds, so a seeded bot makes the same choice on every machine.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from .bots import RandomBot, sample_chance
from .state import Action, Game, State

LEVELS: dict[str, int] = {"easy": 30, "normal": 120, "hard": 400}
"""Search iterations per decision at each level a player can pick."""

BOT_KINDS = ("random", "greedy", *LEVELS)
"""Every bot a seat can be given: the random bot, the one-ply bot, and the search levels."""

EXPLORE = 0.7
"""UCB1's exploration weight (values are chances to win, in [0, 1])."""

WIDEN = 2.0
"""Progressive widening: a node visited n times considers WIDEN * sqrt(n) actions (at least 2)."""

STRATIFY = 8
"""Chance nodes with at most this many outcomes are followed in proportion, not sampled."""


def outcome_values(state: State) -> tuple[float, ...]:
    """A finished game as values: the winners share 1, a game with no winner is even."""
    n = len(state.players)
    winners = state.result.winners if state.result else ()
    if not winners:
        return (1.0 / n,) * n
    return tuple(1.0 / len(winners) if i in winners else 0.0 for i in range(n))


def evaluation_module(state_class: type) -> str:
    """Where a game's evaluation lives: the module ``evaluate`` beside its state's module."""
    return f"{state_class.__module__.rpartition('.')[0]}.evaluate"


def can_search(game: type[Game]) -> bool:
    """Whether the search bot can play ``game`` (its package has an evaluation)."""
    return importlib.util.find_spec(evaluation_module(game.State)) is not None


def check_bot(game: type[Game], kind: str) -> None:
    """Refuse (ValueError) a bot that cannot play ``game``: an unknown kind, or one that
    needs the game's evaluation where it has none."""
    make_bot(kind)
    if kind != "random" and not can_search(game):
        raise ValueError(f"{game.title} has no evaluation for the {kind} bot; "
                         "only the random bot plays it")


class Policy:
    """A game's evaluation and hidden-information sampling, from ``engines.<game>.evaluate``."""

    def __init__(self, module: ModuleType):
        self.module = module
        self.evaluate_fn: Callable[[State], Sequence[float]] = module.evaluate
        self.determinize_fn = getattr(module, "determinize", None)
        self.candidates_fn = getattr(module, "candidates", None)
        self.playout_steps: int = getattr(module, "PLAYOUT_STEPS", 0)
        self.prepares_fn: Callable[[State], bool] | None = getattr(module, "prepares", None)

    @classmethod
    def for_state(cls, state: State) -> Policy:
        return cls(importlib.import_module(evaluation_module(type(state))))

    def prepares(self, state: State) -> bool:
        """Whether the decision in ``state`` is judged by the same seat's next one (see the
        module's note on ``prepares``)."""
        return self.prepares_fn is not None and self.prepares_fn(state)

    def value(self, state: State) -> tuple[float, ...]:
        if state.is_over:
            return outcome_values(state)
        return tuple(self.evaluate_fn(state))

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        if self.determinize_fn is None:
            return state
        return self.determinize_fn(state, seat, rng)

    def expected(self, state: State, depth: int) -> tuple[float, ...]:
        """The value of ``state``, averaged exactly over the next ``depth`` chance nodes."""
        if depth <= 0 or not state.is_chance or state.is_over:
            return self.value(state)
        total = [0.0] * len(state.players)
        for action, p in state.chance_outcomes():
            child = state.apply(action)[0]
            for i, v in enumerate(self.expected(child, depth - 1)):
                total[i] += float(p) * v
        return tuple(total)

    def ranked(self, state: State, actions: list[Action], depth: int,
               through: bool = False) -> list[Action]:
        """``actions`` best first for the seat to move, by the one-ply value of their results
        (averaged over ``depth`` chance nodes after them; after the game's own cut, if it has
        one). With ``through``, a result that is again the seat's decision is worth the best
        of that decision's results. Equal values keep the engine's order."""
        if self.candidates_fn is not None:
            actions = list(self.candidates_fn(state, actions))
        if len(actions) <= 1:
            return actions
        seat = state.to_move
        scored = []
        for i, a in enumerate(actions):
            after = state.apply(a)[0]
            if through and not after.is_over and after.to_move == seat:
                worth = max(self.value(after.apply(b)[0])[seat] for b in after.legal_actions())
            else:
                worth = self.expected(after, depth)[seat]
            scored.append((-worth, i))
        return [actions[i] for _, i in sorted(scored)]


@dataclass
class Node:
    visits: int = 0
    totals: list[float] | None = None
    children: dict[Action, Node] = field(default_factory=dict)
    order: list[Action] | None = None
    """A decision node's actions, best first (set on its second visit)."""
    known: set[Action] = field(default_factory=set)
    """The actions in ``order`` (kept only where sampled worlds can add to it)."""
    seen: dict[Action, int] = field(default_factory=dict)
    """How often each action was available here (differs between sampled worlds)."""

    def mean(self, seat: int) -> float:
        return self.totals[seat] / self.visits if self.totals and self.visits else 0.0

    def add(self, values: Sequence[float]) -> None:
        self.visits += 1
        if self.totals is None:
            self.totals = list(values)
        else:
            for i, v in enumerate(values):
                self.totals[i] += v


class SearchBot:
    """Chooses by Monte Carlo tree search with ``iterations`` per decision; seeded, repeatable."""

    def __init__(self, iterations: int, seed: int | None = None, name: str = "search"):
        self.iterations = iterations
        self.rng = random.Random(seed)
        self.name = name
        self._policies: dict[type, Policy] = {}

    def policy(self, state: State) -> Policy:
        kind = type(state)
        if kind not in self._policies:
            self._policies[kind] = Policy.for_state(state)
        return self._policies[kind]

    def choose(self, state: State) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        policy = self.policy(state)
        seat = state.to_move
        root = Node()
        for _ in range(self.iterations):
            world = policy.determinize(state, seat, self.rng)
            self._iterate(policy, root, world)
        legal = set(actions)
        best = max((c.visits, c.mean(seat), -i, a) for i, (a, c) in enumerate(root.children.items())
                   if a in legal)
        return best[3]

    def _iterate(self, policy: Policy, root: Node, state: State) -> None:
        path = [root]
        node = root
        while True:
            if state.is_over:
                values = outcome_values(state)
                break
            if state.is_chance:
                action = self._outcome(node, state)
                node = node.children.setdefault(action, Node())
                state = state.apply(action)[0]
                path.append(node)
                continue
            if node.visits == 0 and node is not root:  # a new leaf: score it
                values = self._leaf(policy, state)
                break
            action, expand = self._select(policy, node, state, root)
            child = node.children.get(action)
            if child is None:
                child = node.children[action] = Node()
            state = state.apply(action)[0]
            path.append(child)
            node = child
            if expand:
                values = self._leaf(policy, state)
                break
        for n in path:
            n.add(values)

    def _outcome(self, node: Node, state: State) -> Action:
        """The chance outcome to follow: the one furthest behind its share of the visits
        (so four rolls of a die are followed about equally, without sampling noise); a node
        with many outcomes (a deck of many kinds) is sampled."""
        outcomes = state.chance_outcomes()
        if len(outcomes) > STRATIFY:
            return sample_chance(state, self.rng)
        total = node.visits + 1
        behind = [(float(p) * total - (node.children[a].visits if a in node.children else 0), -i)
                  for i, (a, p) in enumerate(outcomes)]
        return outcomes[-max(behind)[1]][0]

    def _select(self, policy: Policy, node: Node, state: State, root: Node) -> tuple[Action, bool]:
        """The action to follow from a decision node, and whether it is tried for the first time."""
        width = max(2, int(WIDEN * math.sqrt(node.visits + 1)))
        if node.order is None:  # only the root and nodes visited before get here
            legal = state.legal_actions()
            node.order = policy.ranked(state, legal, 1 if node is root else 0,
                                       node is root and policy.prepares(state)) or legal
            if policy.determinize_fn is not None:
                node.known = set(node.order)
            candidates = node.order[:width]
        elif policy.determinize_fn is None:  # one state per node: its actions never change
            candidates = node.order[:width]
        else:  # a sampled world may allow actions the node has not met, and not others
            legal = state.legal_actions()
            allowed = set(legal)
            for a in legal:
                if a not in node.known:
                    node.known.add(a)
                    node.order.append(a)
            candidates = []
            for a in node.order:  # the first ``width`` of them this world allows
                if a in allowed:
                    candidates.append(a)
                    if len(candidates) == width:
                        break
        for a in candidates:
            node.seen[a] = node.seen.get(a, 0) + 1
        for a in candidates:
            if a not in node.children or node.children[a].visits == 0:
                return a, True
        seat = state.to_move
        best, best_score = candidates[0], -math.inf
        for a in candidates:
            child = node.children[a]
            score = child.mean(seat) + EXPLORE * math.sqrt(math.log(node.seen[a]) / child.visits)
            if score > best_score:
                best, best_score = a, score
        return best, False

    def _leaf(self, policy: Policy, state: State) -> tuple[float, ...]:
        for _ in range(policy.playout_steps):
            if state.is_over:
                break
            action = (sample_chance(state, self.rng) if state.is_chance
                      else self.rng.choice(state.legal_actions()))
            state = state.apply(action)[0]
        return policy.expected(state, 1)


class GreedyBot:
    """One ply: the action whose result is worth most by the game's evaluation (averaged over
    the roll or draw that follows it; among the game's ``candidates``, where it has them). In a game with hidden information it judges one world sampled
    from what its seat may see, never the real hidden cards."""

    name = "greedy"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)
        self._policy: Policy | None = None

    def choose(self, state: State) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        if self._policy is None:
            self._policy = Policy.for_state(state)
        world = self._policy.determinize(state, state.to_move, self.rng)
        return self._policy.ranked(world, actions, 1)[0]


def level_names() -> str:
    return ", ".join(BOT_KINDS)


def make_bot(kind: str, seed: int | None = None) -> Any:
    """The bot called ``kind`` (``random``, ``greedy``, ``easy``, ``normal``, ``hard``).
    An unknown name raises ValueError listing the kinds."""
    if kind == "random":
        return RandomBot(seed)
    if kind == "greedy":
        return GreedyBot(seed)
    if kind in LEVELS:
        return SearchBot(LEVELS[kind], seed, kind)
    raise ValueError(f"no bot level {kind!r}; the levels are: {level_names()}")

"""The evaluation set and the scoring of agents on it (``odin evaluate``).

From Python::

    from odin_cards.tools.evaluation import evaluate, load_set

    result = evaluate("mypackage.agents:policy", ["random", "heuristic"], load_set(),
                      players=[2, 4], deals=50, setup={"target": 15}, workers=1)
    for p in result.pairings:
        print(p.players, p.opponent.label, p.agent.win_share, p.agent.ci_low, p.agent.ci_high)

See ``docs/evaluation.md``.
"""

from odin_cards.tools.evaluation.deals import (
    DEFAULT_SET,
    FIXED,
    FORMAT,
    Deal,
    EvaluationSet,
    EvaluationSetError,
    load_set,
    packaged_path,
    set_setup,
)
from odin_cards.tools.evaluation.evaluate import (
    RESULT_FORMAT,
    Evaluation,
    Pairing,
    evaluate,
    evaluation_dict,
    matches,
)

__all__ = [
    "DEFAULT_SET",
    "FIXED",
    "FORMAT",
    "RESULT_FORMAT",
    "Deal",
    "Evaluation",
    "EvaluationSet",
    "EvaluationSetError",
    "Pairing",
    "evaluate",
    "evaluation_dict",
    "load_set",
    "matches",
    "packaged_path",
    "set_setup",
]

"""The arena's figure: win share and rating per bot, with 95% error bars, as a PNG.

Drawn on a bare :class:`matplotlib.figure.Figure` with the Agg canvas: no pyplot, no
display, no global state, so it works on a headless machine and inside tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from odin_cards.tools.arena.stats import Z95, BotStats


def plot_stats(stats: Sequence[BotStats], path: Path, title: str) -> None:
    """Write a PNG with two panels: win share (Wilson 95%) and rating (mu +- 1.96 sigma)."""
    # Imported here: matplotlib takes most of a second to import, and few runs draw.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    labels = [s.label for s in stats]
    xs = list(range(len(stats)))
    figure = Figure(figsize=(max(6.0, 1.6 * len(stats) + 3), 4.2), layout="constrained")
    FigureCanvasAgg(figure)
    share_axes, rating_axes = figure.subplots(1, 2)

    shares = [s.win_share for s in stats]
    share_axes.bar(xs, shares, color="#4c72b0", alpha=0.85)
    share_axes.errorbar(
        xs,
        shares,
        yerr=[
            [s.win_share - s.ci_low for s in stats],
            [s.ci_high - s.win_share for s in stats],
        ],
        fmt="none",
        ecolor="black",
        capsize=6,
    )
    for x, s in zip(xs, stats, strict=True):
        share_axes.text(x + 0.08, 0.02, f"{s.win_share:.3f}", ha="left", va="bottom")
    fair = sorted({round(s.fair_share, 9) for s in stats})
    for level in fair:
        share_axes.axhline(level, color="grey", linestyle="--", linewidth=1)
    share_axes.set_ylim(0, 1.02)
    share_axes.set_ylabel("win share (Wilson 95% interval)")
    share_axes.set_title("win share (dashed: fair share)")

    mus = [s.mu for s in stats]
    rating_axes.errorbar(
        xs,
        mus,
        yerr=[Z95 * s.sigma for s in stats],
        fmt="o",
        color="#dd8452",
        ecolor="black",
        capsize=6,
    )
    rating_axes.set_ylabel("openskill mu (+- 1.96 sigma)")
    rating_axes.set_title("rating")
    for axes in (share_axes, rating_axes):
        axes.set_xticks(xs, labels, rotation=20 if len(stats) > 3 else 0)
        axes.set_xlim(-0.6, len(stats) - 0.4)
        axes.grid(axis="y", alpha=0.3)
    figure.suptitle(title)
    figure.savefig(path, format="png", dpi=110)

"""A finished game of Odin's statistics in the terminal (``odin replay``): the table's figures,
then one column per seat, with the totals after each hand (what the pages chart)."""

from __future__ import annotations

from rich.table import Table

from odin_cards.odin.rules.statistics import GameStatistics, HighestSet


def highest_text(best: HighestSet | None) -> str:
    """A highest set as ``B3 B7 (73, 2 cards)``; a dash when nothing was played."""
    if best is None:
        return "-"
    return f"{' '.join(best.cards)} ({best.value}, {best.size} card{'s' * (best.size > 1)})"


def summary_line(figures: GameStatistics, labels: list[str]) -> str:
    """The table's figures in one line."""
    best = figures.highest_set
    by = "" if best is None else f" by {labels[best.seat]} in hand {best.hand + 1}"
    return (
        f"{figures.hands} hands, {figures.rounds} rounds, {figures.passes} passes,"
        f" {figures.cards_played} cards played; highest set {highest_text(best)}{by}"
    )


def seats_table(figures: GameStatistics, labels: list[str]) -> Table:
    """One column per seat: its counts, its highest set, its total after each hand."""
    table = Table(title="statistics", title_justify="left")
    table.add_column("")
    for label in labels:
        table.add_column(label, justify="right")
    seats = figures.seats
    table.add_row("rounds won", *(str(s.rounds_won) for s in seats))
    table.add_row("hands ended", *(str(s.hands_ended) for s in seats))
    table.add_row("passes", *(str(s.passes) for s in seats))
    table.add_row("cards played", *(str(s.cards_played) for s in seats))
    table.add_row("cards taken", *(str(s.cards_taken) for s in seats))
    table.add_row("highest set", *(highest_text(s.highest_set) for s in seats))
    for hand in range(figures.hands):
        table.add_row(
            f"after hand {hand + 1}",
            *(f"{s.scores[hand]} (+{s.points[hand]})" for s in seats),
        )
    return table

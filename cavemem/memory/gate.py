"""The refusal gate's store-relative part: how high an off-topic question reaches *in this store*.

The best cosine of a query over N memories rises with N even when nothing answers it: on the
coding-agent dev set the off-topic median went from 0.20 (300 memories) to 0.33 (10k), so a fixed
threshold that refuses them in a small store admits almost all of them in a big one (off-topic
refused 97.7% → 6.5% at 10k). Instead the gate asks a fixed set of :data:`PROBES` — questions no
coding-agent store answers (chores, trivia, private life), written apart from the dev set's own
off-topic list — against the same store and filter, and a query must clear the probes' median
height by :data:`NULL_MARGIN` (and never less than the scorer's own vouch). The null grows with the
store exactly as the real off-topic questions do, so the same rule holds at 300 memories and at 10k.

Chosen on the dev set's tune split with the store padded to 7k (Debian changelogs and docstrings) and
10k (plus LoCoMo chat turns) by ``scripts/bench_memory_gate.py``: off-topic refused .36 → .71 (7k)
and .07 → .55 (10k), answerable ledger questions refused 0 and 1 of 70; the small store is
unchanged. The probes' cosines are cheap (one matrix product per probe) and cached by the scorer
per filter and store size.

The same probes also judge the question itself: its mean cosine to its :data:`AFFINITY_TOP`
nearest probes, as a height, is subtracted from its own (the scorer's ``probe_affinity``). A
coding question sits ~0.13 from every probe (height 0, no cost); "a stretching routine for
runners" sits near several, so a fitness app's store that matches its words no longer admits it.
On the dev set's tune split the median affinity is 0 for answerable questions and 0.11 for
off-topic ones; with it the vouch comes down (0.28 → 0.26, weight 0.75) for real questions that read
unlike their answer."""

from __future__ import annotations

PROBES: tuple[str, ...] = (
    "what should I cook for dinner tonight", "how do I get rid of hiccups", "who wrote pride and prejudice",
    "what is the distance from the earth to the moon", "when does daylight saving time start",
    "how do I train a puppy to sit", "what is my mother's maiden name", "which team won the last super bowl",
    "how many calories are in a banana", "what is the best way to learn the guitar", "where is the nearest pharmacy",
    "how do I clean a cast iron pan", "what year did the berlin wall fall", "how do volcanoes form",
    "what flowers bloom in early spring", "which hotel did we book for the holiday", "how do I unclog a drain",
    "what is the tallest mountain in europe", "what is a good gift for a ten year old", "how do I treat a sunburn",
    "what is the recipe for pancakes", "when is the next full moon", "who is the president of france",
    "how often should I water succulents", "what is the meaning of life", "what is my shirt size",
    "how do I say thank you in japanese", "what are the symptoms of the flu", "which planet has the most rings",
    "how do I write a wedding speech", "what is the price of gold today", "how long do cats live",
    "what music did we play at the party", "how do I iron a shirt", "what is the deepest ocean trench",
    "how do I start running as a beginner", "which podcast did my friend recommend", "what is inflation",
    "how do I make a paper airplane", "what is the longest river in africa",
)

NULL_MARGIN = 0.10  # a query must clear the probes' median height by this much (tune: 0.05 / 0.10 / 0.15)
AFFINITY_TOP = 3  # a query's likeness to the probes: the mean cosine of its nearest this many
REFRESH_SHARE = 0.05  # a cached null is recomputed once the store's vector count moved by this share


def null_threshold(heights: list[float], floor: float) -> float:
    """The height a query must reach here: the probes' median height + :data:`NULL_MARGIN`, at
    least ``floor`` (the scorer's own vouch). Without probe heights, ``floor``."""
    if not heights:
        return floor
    s = sorted(heights)
    mid = len(s) // 2
    median = s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2
    return max(floor, median + NULL_MARGIN)


def stale(cached_rows: int, rows: int) -> bool:
    """Whether a null computed over ``cached_rows`` vectors should be recomputed at ``rows``."""
    return abs(rows - cached_rows) > REFRESH_SHARE * max(cached_rows, 1)

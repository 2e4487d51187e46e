"""Which array elements are statistically interesting (spec engine-compressors §3.1, steps 3–4).

- *Anomalies*: per numeric leaf path (dotted object paths, arrays not descended; plus the
  synthetic ``__len__`` = canonical element byte length), a robust z-score
  ``|0.6745·(v − median)/MAD| ≥ 2`` flags outliers such as a 9999 ms latency in a column of
  30s. When the MAD is 0 the centre becomes the mean and the scale ``sampleStd/0.6745``.
- *Change points*: binary segmentation of one primary series (the highest-variance numeric
  path present in every element, else the byte lengths) marks both sides of up to 8 regime
  shifts.

Sums are plain left-to-right float additions, like the Go loops, so borderline decisions do not
depend on summation tricks.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from functools import reduce
from itertools import compress, repeat
from operator import add, itemgetter, mul, sub

from .json_canonical import JSONNumber

ANOMALY_Z = 2.0
MIN_SERIES = 4
MIN_CHANGE_SERIES = 8
MIN_SEGMENT = 4
LEN_PATH = "__len__"
_INF = float("inf")
_HUGE = 1e300  # values below this in size: differences of differences stay finite
_MAX_COLUMNAR_KEYS = 64


def _sum(xs) -> float:
    return reduce(add, xs, 0.0)


def _median_sorted(s: list[float]) -> float:
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def _squared_deviations(values: list[float], mean: float) -> list[float]:
    """``[(x - mean) * (x - mean) for x in values]`` at C speed (the same operations)."""
    dev = list(map(sub, values, repeat(mean, len(values))))
    return list(map(mul, dev, dev))


def _sorted_deviations(ordered: list[float], med: float) -> list[float]:
    """``sorted(abs(x - med) for x in ordered)`` for sorted values: below the median the
    deviations are ``med - x`` (the same float as ``abs(x - med)``) rising as ``x`` falls, above
    it ``x - med`` rising with ``x``: two ascending runs, which one merge sorts."""
    if not math.isfinite(med):
        return sorted(map(abs, map(sub, ordered, repeat(med, len(ordered)))))
    split = bisect_left(ordered, med)
    below = list(map(sub, repeat(med, split), reversed(ordered[:split])))
    above = list(map(sub, ordered[split:], repeat(med, len(ordered) - split)))
    below += above
    below.sort()  # two runs: linear
    return below


def median_and_scale(values: list[float], ordered: list[float] | None = None) -> tuple[float, float]:
    """(median, MAD); when the MAD is 0, (mean, sampleStd / 0.6745) — scale 0 if that is 0 too.
    ``ordered``: ``sorted(values)`` if the caller has it."""
    if ordered is None:
        ordered = sorted(values)
    med = _median_sorted(ordered)
    mad = _median_sorted(_sorted_deviations(ordered, med))
    if mad != 0:
        return med, mad
    n = len(values)
    mean = _sum(values) / n
    if n < 2:
        return mean, 0.0
    ss = _sum(_squared_deviations(values, mean))
    std = math.sqrt(ss / (n - 1))
    return mean, (std / 0.6745 if std != 0 else 0.0)


def _number(v: JSONNumber) -> float | None:
    x = float(v.literal)  # JSON number grammar is a subset of ParseFloat's
    return None if x in (_INF, -_INF) else x  # out of range: Go's Float64 fails, skip


def numeric_leaves(element) -> dict[str, float]:
    """Numeric leaf paths of one element: ``""`` for a bare number, ``a.b`` inside objects
    (top-level members first, then nested objects)."""
    if isinstance(element, JSONNumber):
        x = _number(element)
        return {} if x is None else {"": x}
    out: dict[str, float] = {}
    if not isinstance(element, dict):
        return out
    stack = [("", element)]
    while stack:
        prefix, obj = stack.pop()
        for key, v in obj.items():
            if isinstance(v, JSONNumber):
                x = _number(v)
                if x is not None:
                    out.setdefault(prefix + key, x)  # a dotted key vs a nested path: first wins
            elif isinstance(v, dict):
                stack.append((prefix + key + ".", v))
    return out


def _leaf_series_per_element(elements: list) -> dict[str, tuple[list[int], list[float]]]:
    series: dict[str, tuple[list[int], list[float]]] = {}
    for i, e in enumerate(elements):
        for path, x in numeric_leaves(e).items():
            got = series.get(path)
            if got is None:
                got = series[path] = ([], [])
            got[0].append(i)
            got[1].append(x)
    return series


def _floats(idx: list[int], nums: list) -> tuple[list[int], list[float]]:
    sample = nums[:256]  # ids, or mostly repeats (codes, small counts)?
    distinct = dict.fromkeys(nums) if 2 * len(set(sample)) <= len(sample) else None
    if distinct is not None and 2 * len(distinct) <= len(nums):  # mostly repeats: convert each once
        table = {v: float(v[1:-1]) for v in distinct}
        vals = list(map(table.__getitem__, nums))
    else:
        vals = JSONNumber.floats(nums)
    if _INF in vals or -_INF in vals:  # out of range: skipped
        keep = [j for j, x in enumerate(vals) if x not in (_INF, -_INF)]
        return [idx[j] for j in keep], [vals[j] for j in keep]
    return idx, vals


def _column(idxs: list[int], objs: list[dict], key: str) -> tuple[list[int], list]:
    """(indices, values) of the objects that have ``key``; C-speed when all of them do."""
    try:
        return idxs, list(map(itemgetter(key), objs))
    except KeyError:
        pairs = [(i, o[key]) for i, o in zip(idxs, objs) if key in o]
        return [i for i, _ in pairs], [v for _, v in pairs]


def _of_type(idxs: list[int], vals: list, t: type, types: set | None = None) -> tuple[list[int], list]:
    """The (indices, values) whose value is exactly of type ``t`` (``types``: the set of types
    among ``vals``, if known)."""
    if types is None:
        types = set(map(type, vals))
    if t not in types:
        return [], []
    if len(types) == 1:
        return idxs, vals
    pairs = [(i, v) for i, v in zip(idxs, vals) if type(v) is t]
    return [i for i, _ in pairs], [v for _, v in pairs]


def leaf_series(elements: list, top_columns: dict[str, list | None] | None = None) -> dict[str, tuple[list[int], list[float]]]:
    """path -> (indices of elements that have it, their values), in element order.

    Computed one key column at a time (C-speed ``map``/comprehensions) while the objects share
    a small key set; sparse or wide objects take the per-element walk.

    ``top_columns``: when every element is an object, filled with each top-level key (sorted)
    -> the list of its values if every element has it, else None — the columns the invariant
    summaries need too."""
    series: dict[str, tuple[list[int], list[float]]] = {}
    everything = list(range(len(elements)))
    idx, nums = _of_type(everything, elements, JSONNumber)
    if idx:
        series[""] = _floats(idx, nums)
    stack = [("", *_of_type(everything, elements, dict))]
    while stack:
        prefix, idxs, objs = stack.pop()
        if not objs:
            continue
        keys = sorted(set().union(*objs))  # the results never depend on key order
        shared = top_columns if objs is elements else None
        if shared is not None:
            shared.update(dict.fromkeys(keys))
        if len(keys) > _MAX_COLUMNAR_KEYS:
            return _leaf_series_per_element(elements)
        for key in keys:
            path = prefix + key
            col_idx, col = _column(idxs, objs, key)
            if shared is not None and col_idx is idxs:
                shared[key] = col
            types = set(map(type, col))
            num_idx, nums = _of_type(col_idx, col, JSONNumber, types)
            if num_idx:
                if path in series:  # a dotted key equal to a nested path: per-element rules
                    return _leaf_series_per_element(elements)
                series[path] = _floats(num_idx, nums)
            sub_idx, subs = _of_type(col_idx, col, dict, types)
            if sub_idx:
                stack.append((path + ".", sub_idx, subs))
    return series


def complete_top_level(series: dict[str, tuple[list[int], list[float]]], n: int) -> dict[str, list[float]]:
    """The values of the top-level keys that hold a (finite) number in all ``n`` elements."""
    return {path: vals for path, (idx, vals) in series.items() if path and "." not in path and len(idx) == n}


def anomaly_indices(series: dict[str, tuple[list[int], list[float]]], doc_lengths: list[int]) -> set[int]:
    flagged: set[int] = set()
    all_paths = dict(series)
    all_paths[LEN_PATH] = (list(range(len(doc_lengths))), list(map(float, doc_lengths)))
    for path in sorted(all_paths):
        idx, vals = all_paths[path]
        if len(vals) < MIN_SERIES:
            continue
        ordered = sorted(vals)
        med, scale = median_and_scale(vals, ordered)
        if scale <= 0:
            continue
        flagged.update(_outside(idx, vals, med, scale, ordered))
    return flagged


def _robust_z_flags(v: float, med: float, scale: float) -> bool:
    return abs(0.6745 * (v - med) / scale) >= ANOMALY_Z


def _outside(idx: list[int], vals: list[float], med: float, scale: float, ordered: list[float]) -> list[int]:
    """The indices whose value has ``|0.6745·(v − med)/scale| ≥ 2``.

    With a finite centre and scale, ``0.6745·(v − med)/scale`` never decreases as ``v`` grows
    (each rounded operation is monotonic), so the flagged values are those at or above one cut
    and at or below another: two binary searches over the sorted values find the cuts, then two
    C-speed passes pick the indices. Anything non-finite takes the plain per-value test."""
    if not (math.isfinite(med) and math.isfinite(scale)):
        return [i for i, v in zip(idx, vals) if _robust_z_flags(v, med, scale)]
    out: list[int] = []
    k = bisect_left(ordered, True, key=lambda v: 0.6745 * (v - med) / scale >= ANOMALY_Z)
    if k < len(ordered):
        out.extend(compress(idx, map(ordered[k].__le__, vals)))
    k = bisect_left(ordered, True, key=lambda v: 0.6745 * (v - med) / scale > -ANOMALY_Z)
    if k > 0:
        out.extend(compress(idx, map(ordered[k - 1].__ge__, vals)))
    return out


def _sample_variance(vals: list[float]) -> float:
    n = len(vals)
    if n < 2:
        return 0.0
    mean = _sum(vals) / n
    return _sum(_squared_deviations(vals, mean)) / (n - 1)


def primary_series(series: dict[str, tuple[list[int], list[float]]], n: int, doc_lengths: list[int]) -> list[float]:
    """The highest-variance path present in every element (first in sorted order on ties),
    else the element byte lengths."""
    best, best_var = None, 0.0
    for path in sorted(series):
        vals = series[path][1]
        if len(vals) != n:
            continue
        var = _sample_variance(vals)
        if var > best_var:
            best, best_var = vals, var
    return best if best is not None else list(map(float, doc_lengths))


def _constant_slope(y: list[float]) -> bool:
    """Every step ``y[i+1] - y[i]`` within 1e-9 of the first one: a straight line, nothing to
    split. Noisy series fail within the first steps; a series that passes them (an id column)
    is checked whole at C speed when its values are too small for a step to overflow."""
    if len(y) < 3:
        return True
    d0 = y[1] - y[0]
    head = min(len(y) - 1, 16)
    if not all(abs((y[i + 1] - y[i]) - d0) <= 1e-9 for i in range(1, head)):
        return False
    if max(y) < _HUGE and min(y) > -_HUGE:  # steps and their differences stay finite: no NaN
        steps = list(map(sub, y[2:], y[1:-1]))
        return max(map(abs, map(sub, steps, repeat(d0, len(steps))))) <= 1e-9
    return all(abs((y[i + 1] - y[i]) - d0) <= 1e-9 for i in range(head, len(y) - 1))


def _best_split(y: list[float], a: int, b: int, z: float) -> int | None:
    seg = y[a:b]
    mean = _sum(seg) / len(seg)
    cum, best_abs, best_k = 0.0, -1.0, a
    for k in range(a, b - 1):
        cum += y[k] - mean
        if abs(cum) > best_abs:
            best_abs, best_k = abs(cum), k
    left, right = y[a : best_k + 1], y[best_k + 1 : b]
    shift = abs(_sum(left) / len(left) - _sum(right) / len(right))
    _, left_scale = median_and_scale(left)
    _, right_scale = median_and_scale(right)
    if left_scale <= 0 and right_scale <= 0:
        return best_k if shift > 0 else None
    _, seg_scale = median_and_scale(seg)
    return best_k if seg_scale > 0 and shift > z * seg_scale else None


def change_point_seams(y: list[float], z: float, budget: int) -> set[int]:
    """Indices on both sides of up to ``budget`` accepted splits (longest segment first)."""
    n = len(y)
    if n < MIN_CHANGE_SERIES or _constant_slope(y):
        return set()
    seams: set[int] = set()
    segs = [(0, n)]
    splits = 0
    while splits < budget and segs:
        j = max(range(len(segs)), key=lambda s: segs[s][1] - segs[s][0])  # first longest
        a, b = segs.pop(j)
        if b - a < MIN_SEGMENT:
            continue
        k = _best_split(y, a, b, z)
        if k is None:
            continue
        seams.add(k)
        if k + 1 < n:
            seams.add(k + 1)
        segs.append((a, k + 1))
        segs.append((k + 1, b))
        splits += 1
    return seams

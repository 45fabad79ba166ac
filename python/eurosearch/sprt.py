"""The statistics of ``eurosearch arena --sprt``: a sequential probability ratio test on game
pairs, as chess engine testing frameworks run it (fishtest, OpenBench, cutechess-cli).

The question: is agent A stronger than agent B by at least ``elo1`` (H1), or by at most
``elo0`` (H0)? Elo here is *logistic* Elo: A's expected score per game is
``s(elo) = 1 / (1 + 10 ** (-elo / 400))`` (not fishtest's normalized Elo, whose scale depends
on the draw rate and the pairing).

Games come in pairs on one seed with the seats swapped, and a pair is one observation: A's
points in its two games (a win 1, a tie 1/2), halved, so 0, 1/4, 1/2, 3/4 or 1 -- the
*pentanomial* count of how many pairs ended each way. (``trinomial`` counts single games,
0, 1/2 or 1, as if the two games of a pair were independent; they are not, so pentanomial is
the default.) Neither hypothesis fixes the whole distribution of a pair's outcome, only its
mean, so this is the generalized SPRT: under each hypothesis the outcome distribution is the
maximum-likelihood one among all distributions over the outcomes with mean ``s(elo)``, and

    LLR = log L(best distribution with mean s1) - log L(best distribution with mean s0).

That constrained maximum has a closed form up to one number (a Lagrange multiplier ``mu``):
``q_i = p_i / (1 + mu (a_i - s))`` for the observed frequencies ``p_i`` of outcomes ``a_i``,
and the maximum log-likelihood per observation is ``sum p_i log p_i - g(s)`` with
``g(s) = max over mu of sum p_i log(1 + mu (a_i - s))``, a concave problem in one variable
solved here by bisection. ``mu`` may range over ``[-1 / (1 - s), 1 / s]`` (every possible
outcome, observed or not, keeps a non-negative probability); when the maximum sits on that
boundary, the best distribution puts the missing mass on an outcome never observed (all pairs
won: q = s at 1, 1 - s at 0). So no zero count needs patching, and with only the two extreme
outcomes observed the LLR is exactly the binomial ``W log(s1/s0) + L log((1-s1)/(1-s0))``.
The test stops once the LLR leaves ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``:
above, H1 is accepted; below, H0 (Wald's bounds; alpha and beta are the error rates at elo0
and elo1).

The Elo estimate is ``elo(mean outcome)``, the plain estimate (a test that stopped early
overstates the difference a little; fishtest corrects for that, this does not). Its 95%
interval is the empirical likelihood interval of the mean, from the same constrained maximum
(see `elo_estimate`); a bound at a score of 0 or 1 is an infinite Elo.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

CHI2_95 = 3.841458820694124   # the 95% quantile of chi-square with one degree of freedom
PENTANOMIAL = (0.0, 0.25, 0.5, 0.75, 1.0)   # a pair's outcome: A's points in two games, halved
TRINOMIAL = (0.0, 0.5, 1.0)                 # one game: loss, tie, win
STATISTICS = {"pentanomial": PENTANOMIAL, "trinomial": TRINOMIAL}
MAX_ELO = 1000.0            # beyond this a score is 0 or 1 to a few digits: no sensible test


def score_of_elo(elo: float) -> float:
    """Expected score per game of a player `elo` logistic Elo stronger than its opponent."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of_score(score: float) -> float:
    """The logistic Elo difference with expected score `score` (infinite at 0 and 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


@dataclass(frozen=True)
class SprtSettings:
    """The test: H0 elo <= elo0 against H1 elo >= elo1 (logistic Elo of the first agent over
    the second), error rates alpha (accepting H1 at elo0) and beta (accepting H0 at elo1)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    statistic: str = "pentanomial"

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1", "alpha", "beta"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"--sprt: {name} must be a finite number, got {value!r}")
        for name in ("elo0", "elo1"):
            if abs(getattr(self, name)) > MAX_ELO:
                raise ValueError(f"--sprt: {name} must lie within -{MAX_ELO:.0f}..{MAX_ELO:.0f}, "
                                 f"got {getattr(self, name)}")
        if not self.elo0 < self.elo1:
            raise ValueError(f"--sprt: elo0 must be below elo1, got elo0={self.elo0} elo1={self.elo1}")
        for name in ("alpha", "beta"):
            if not 0.0 < getattr(self, name) < 1.0:
                raise ValueError(f"--sprt: {name} must lie strictly between 0 and 1, got {getattr(self, name)}")
        if self.alpha + self.beta >= 1.0:
            raise ValueError(f"--sprt: alpha + beta must be below 1 (else the bounds cross), "
                             f"got {self.alpha} + {self.beta}")
        if self.statistic not in STATISTICS:
            raise ValueError(f"--sprt: statistic must be one of {', '.join(STATISTICS)}, got {self.statistic!r}")

    @property
    def lower(self) -> float:
        """The LLR at or below which H0 is accepted: log(beta / (1 - alpha))."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at or above which H1 is accepted: log((1 - beta) / alpha)."""
        return math.log((1.0 - self.beta) / self.alpha)

    @property
    def outcomes(self) -> tuple[float, ...]:
        return STATISTICS[self.statistic]

    def describe(self) -> str:
        return f"elo0={self.elo0:g},elo1={self.elo1:g},alpha={self.alpha:g},beta={self.beta:g}"


def parse_sprt(text: str) -> SprtSettings:
    """``elo0=0,elo1=10,alpha=0.05,beta=0.05`` (cutechess-cli's keys; alpha and beta default
    to 0.05, ``statistic=trinomial`` counts single games instead of pairs)."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("--sprt needs elo0=...,elo1=... (e.g. elo0=0,elo1=10,alpha=0.05,beta=0.05)")
    values: dict[str, object] = {}
    for part in text.split(","):
        key, sep, value = (x.strip() for x in part.partition("="))
        if not sep or not key or not value:
            raise ValueError(f"--sprt: {part.strip()!r} is not key=value (e.g. elo0=0,elo1=10,alpha=0.05,beta=0.05)")
        if key not in ("elo0", "elo1", "alpha", "beta", "statistic"):
            raise ValueError(f"--sprt: unknown key {key!r}; valid keys: elo0, elo1, alpha, beta, statistic")
        if key in values:
            raise ValueError(f"--sprt: {key} given twice")
        if key == "statistic":
            values[key] = value
            continue
        try:
            values[key] = float(value)
        except ValueError:
            raise ValueError(f"--sprt: {key} must be a number, got {value!r}") from None
    missing = [k for k in ("elo0", "elo1") if k not in values]
    if missing:
        raise ValueError(f"--sprt: {' and '.join(missing)} missing (e.g. elo0=0,elo1=10,alpha=0.05,beta=0.05)")
    return SprtSettings(**values)  # type: ignore[arg-type]


def _dual_max(p: Sequence[float], outcomes: Sequence[float], s: float) -> float:
    """max over mu in [-1/(a_max - s), 1/(s - a_min)] of sum p_i log(1 + mu (a_i - s)): minus
    the best log-likelihood per observation among distributions with mean s, plus the entropy
    term sum p log p (which cancels in the LLR). Concave in mu: bisect on its slope."""
    lo, hi = -1.0 / (max(outcomes) - s), 1.0 / (s - min(outcomes))
    terms = [(pi, a - s) for pi, a in zip(p, outcomes) if pi > 0]

    def slope(mu: float) -> float:
        return sum(pi * d / (1.0 + mu * d) for pi, d in terms)

    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if slope(mid) > 0.0:
            lo = mid
        else:
            hi = mid
    mu = 0.5 * (lo + hi)
    return sum(pi * math.log(max(1.0 + mu * d, 1e-300)) for pi, d in terms)


def llr(counts: Sequence[float], s0: float, s1: float, outcomes: Sequence[float] = PENTANOMIAL) -> float:
    """The generalized log-likelihood ratio of mean s1 against mean s0 for `counts[i]`
    observations of outcome `outcomes[i]` (see the module docstring)."""
    if len(counts) != len(outcomes):
        raise ValueError(f"{len(counts)} counts for {len(outcomes)} outcomes")
    if any(c < 0 for c in counts):
        raise ValueError(f"counts must be >= 0, got {list(counts)}")
    n = float(sum(counts))
    if n == 0:
        return 0.0
    p = [c / n for c in counts]
    return n * (_dual_max(p, outcomes, s0) - _dual_max(p, outcomes, s1))


def elo_estimate(counts: Sequence[float], outcomes: Sequence[float] = PENTANOMIAL,
                 chi2: float = CHI2_95) -> tuple[float, float, float, float]:
    """(mean score, Elo, lower, upper): the Elo of the mean outcome and its 95% empirical
    likelihood interval -- the means s whose best distribution is not rejected by the same
    likelihood ratio at 95% (2 n (log L(best) - log L(best with mean s)) <= chi2). Unlike a
    normal interval it is sensible at the edges: all pairs won gives a finite lower bound.
    With no observation yet, the mean and the Elo are NaN."""
    n = float(sum(counts))
    if n == 0:
        return math.nan, math.nan, -math.inf, math.inf
    mean = sum(c * a for c, a in zip(counts, outcomes)) / n
    p = [c / n for c in counts]
    a_min, a_max = min(outcomes), max(outcomes)

    def bound(edge: float) -> float:
        """The end of the interval between the mean and `edge` (an extreme outcome)."""
        inside, outside = mean, edge + (mean - edge) * 1e-12
        if abs(mean - edge) < 1e-12 or 2 * n * _dual_max(p, outcomes, outside) <= chi2:
            return edge
        for _ in range(100):
            mid = 0.5 * (inside + outside)
            if 2 * n * _dual_max(p, outcomes, mid) <= chi2:
                inside = mid
            else:
                outside = mid
        return 0.5 * (inside + outside)

    lo = bound(a_min)
    hi = bound(a_max)
    scale = a_max - a_min
    return mean, elo_of_score(mean), elo_of_score((lo - a_min) / scale), elo_of_score((hi - a_min) / scale)


def decision(value: float, settings: SprtSettings) -> str | None:
    """'H1' at or above the upper bound, 'H0' at or below the lower one, else None."""
    if value >= settings.upper:
        return "H1"
    if value <= settings.lower:
        return "H0"
    return None

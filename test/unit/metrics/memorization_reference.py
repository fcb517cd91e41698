"""An independent reference for Jiangu's memorization probes, written from the papers' formulas with
numpy only (no scipy), reading a JSON case on stdin and writing the numbers on stdout.

 - Min-K% Prob (Shi et al. 2024): the mean of the lowest int(n * k) of the n next-token
   log-probabilities; Jiangu's rule for n * k < 1 (at least one) applied explicitly.
 - Min-K%++ (Zhang et al. 2024): from each full logits row, log p = log_softmax, mu = sum p log p,
   sigma = sqrt(sum p (log p)^2 - mu^2) (the variance in one pass, as the paper writes it), z = (log p of
   the next token - mu) / sigma; then the same selection.
 - The sharded exchangeability test (Oren et al. 2023): d_i = canonical_i - mean(permuted_i); a
   one-sided one-sample t-test (sample sd, ddof = 1), p = P(T_{m-1} >= t) from the closed series for
   integer degrees of freedom (Abramowitz & Stegun 26.7.3 for odd, 26.7.4 for even nu), not from the
   incomplete beta function Jiangu uses. Also the reference script's statistic (numpy's default std,
   ddof = 0) for the relation Jiangu's comment states.
 - Summaries: numpy's percentile (its default 'linear' method), min, max, mean.

Input: {"texts": [{"logits": [[...V...], ...], "next": [...]}], "ks": [...],
        "positionTexts": [{"logprob": [...], "mean": [...], "std": [...]}] (stored per-position numbers of a run),
        "shardSets": [[{"canonical": c, "permuted": [...]}, ...]], "tValues": [[t, nu], ...],
        "summaries": [[...]]}
"""
import json
import math
import sys

import numpy as np


def log_softmax(row):
    row = np.asarray(row, dtype=np.float64)
    shifted = row - row.max()
    return shifted - np.log(np.exp(shifted).sum())


def lowest_k_mean(values, k):
    n = len(values)
    if n == 0:
        return None
    count = max(1, int(n * k))
    return float(np.mean(np.sort(np.asarray(values, dtype=np.float64))[:count]))


def t_survival(t, nu):
    """P(T_nu >= t) from A&S 26.7.3 / 26.7.4: A(t|nu) = P(|T| <= t)."""
    theta = math.atan(abs(t) / math.sqrt(nu))
    c2 = math.cos(theta) ** 2
    if nu % 2 == 1:
        if nu == 1:
            a = 2 * theta / math.pi
        else:
            term = math.cos(theta)
            total = term
            for j in range(1, (nu - 3) // 2 + 1):
                term *= c2 * (2 * j) / (2 * j + 1)
                total += term
            a = 2 / math.pi * (theta + math.sin(theta) * total)
    else:
        term = 1.0
        total = term
        for j in range(1, (nu - 2) // 2 + 1):
            term *= c2 * (2 * j - 1) / (2 * j)
            total += term
        a = math.sin(theta) * total
    return (1 - a) / 2 if t >= 0 else (1 + a) / 2


def main():
    case = json.load(sys.stdin)
    out = {"texts": [], "positionTexts": [], "shardSets": [], "tValues": [], "summaries": []}
    for text in case.get("texts", []):
        positions = []
        for row, nxt in zip(text["logits"], text["next"]):
            lp = log_softmax(row)
            p = np.exp(lp)
            mu = float((p * lp).sum())
            sigma = math.sqrt(float((p * lp * lp).sum()) - mu * mu)
            positions.append({"logprob": float(lp[nxt]), "mean": mu, "std": sigma})
        logprobs = [q["logprob"] for q in positions]
        z = [(q["logprob"] - q["mean"]) / q["std"] for q in positions if q["std"] > 0]
        out["texts"].append({
            "positions": positions,
            "minK": [lowest_k_mean(logprobs, k) for k in case["ks"]],
            "minKPlusPlus": [lowest_k_mean(z, k) for k in case["ks"]],
        })
    for text in case.get("positionTexts", []):
        z = [(lp - mu) / sd for lp, mu, sd in zip(text["logprob"], text["mean"], text["std"]) if sd > 0]
        out["positionTexts"].append({
            "minK": [lowest_k_mean(text["logprob"], k) for k in case["ks"]],
            "minKPlusPlus": [lowest_k_mean(z, k) for k in case["ks"]],
        })
    for shards in case.get("shardSets", []):
        d = np.array([s["canonical"] - np.mean(s["permuted"]) for s in shards], dtype=np.float64)
        m = len(d)
        sd = float(np.std(d, ddof=1))
        t = float(np.mean(d) / (sd / math.sqrt(m)))
        upstream = float(np.mean(d) / np.std(d) * math.sqrt(m))
        out["shardSets"].append({"mean": float(np.mean(d)), "sd": sd, "t": t, "p": t_survival(t, m - 1), "upstreamStatistic": upstream})
    for t, nu in case.get("tValues", []):
        out["tValues"].append(t_survival(t, nu))
    for values in case.get("summaries", []):
        v = np.asarray(values, dtype=np.float64)
        out["summaries"].append({
            "n": int(len(v)), "min": float(v.min()), "q1": float(np.percentile(v, 25)), "median": float(np.percentile(v, 50)),
            "q3": float(np.percentile(v, 75)), "max": float(v.max()), "mean": float(v.mean()),
        })
    json.dump(out, sys.stdout)


main()

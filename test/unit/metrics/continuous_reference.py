"""An independent reference for Jiangu's cloze rules and continuous scores, written from the
definitions (lm-evaluation-harness task.py for acc/acc_norm/acc_bytes; Holtzman et al. 2021 for
domain-conditional PMI; the stratified percentile bootstrap as core/metrics/stratified-bootstrap.ts
states it), with numpy. Reads a JSON case on stdin, writes the numbers on stdout.

Input: {"items": [{"task", "gold", "lls", "chars", "bytes", "unconditional"}], "weights": {task: w},
        "resamples", "seed"}
"""
import json
import sys

import numpy as np


def mulberry32(seed):
    a = seed & 0xFFFFFFFF

    def imul(x, y):
        return (x * y) & 0xFFFFFFFF

    def nxt():
        nonlocal a
        a = (a + 0x6D2B79F5) & 0xFFFFFFFF
        t = imul(a ^ (a >> 15), 1 | a)
        t = ((t + imul(t ^ (t >> 7), 61 | t)) & 0xFFFFFFFF) ^ t
        return ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296

    return nxt


def main():
    case = json.load(sys.stdin)
    items = case["items"]
    rules = {"acc": [], "acc_norm": [], "acc_bytes": [], "pmi": []}
    per_item = []
    for it in items:
        lls = np.array(it["lls"], dtype=np.float64)
        chars = np.array(it["chars"], dtype=np.float64)
        nbytes = np.array(it["bytes"], dtype=np.float64)
        unc = np.array(it["unconditional"], dtype=np.float64)
        gold = it["gold"]
        rules["acc"].append(int(np.argmax(lls)))
        rules["acc_norm"].append(int(np.argmax(lls / chars)))
        rules["acc_bytes"].append(int(np.argmax(lls / nbytes)))
        rules["pmi"].append(int(np.argmax(lls - unc)))
        prob_norm = np.exp(lls - lls.max()) / np.exp(lls - lls.max()).sum()
        per_item.append({
            "pGold": float(prob_norm[gold]),
            "logPGold": float(lls[gold]),
            "bitsPerByte": float(-lls[gold] / np.log(2) / nbytes[gold]),
        })
    tasks = []
    for it in items:
        if it["task"] not in tasks:
            tasks.append(it["task"])
    weights = np.array([case["weights"].get(t, 0.0) for t in tasks])
    out = {"rules": rules, "items": per_item, "metrics": {}}
    rng = mulberry32(case["seed"])
    strata = {m: [np.array([p[m] for p, it in zip(per_item, items) if it["task"] == t]) for t in tasks] for m in ("pGold", "bitsPerByte")}
    boots = {m: np.zeros(case["resamples"]) for m in strata}
    # The same draws serve every metric in Jiangu only when metrics are resampled together; here
    # each metric is its own run of the PRNG from the seed, as aggregateContinuous does per call.
    for m in strata:
        rng = mulberry32(case["seed"])
        for b in range(case["resamples"]):
            means = np.zeros(len(tasks))
            for t, column in enumerate(strata[m]):
                n = len(column)
                s = 0.0
                for _ in range(n):
                    s += column[int(np.floor(rng() * n))]
                means[t] = s / n
            boots[m][b] = float(weights @ means)
        estimate = float(weights @ np.array([c.mean() for c in strata[m]]))
        out["metrics"][m] = {
            "estimate": estimate,
            "low": float(np.percentile(boots[m], 2.5)),
            "high": float(np.percentile(boots[m], 97.5)),
            "taskMeans": [float(c.mean()) for c in strata[m]],
        }
    json.dump(out, sys.stdout)


main()

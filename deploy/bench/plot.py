#!/usr/bin/env python3
"""Draws the results.csv of deploy/bench/e2e.sh as one PNG: delivered tx/s of the saturating runs,
and latency percentiles of every run, each bar labelled with the load average it ran under.

Needs matplotlib (python3 -m pip install matplotlib). Usage:
    python3 deploy/bench/plot.py deploy/bench/results/results.csv [out.png]
The PNG defaults to results.png beside the CSV.
"""

import csv
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: no display on build machines
import matplotlib.pyplot as plt  # noqa: E402


def label(row):
    kind = f"{row['rate_tx_s']} tx/s" if row["rate_tx_s"] != "0" else "saturating"
    return f"{row['transport']} blk {row['block_size']}\npayload {row['payload_bytes']} B\n{kind}"


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    source = Path(sys.argv[1])
    target = Path(sys.argv[2]) if len(sys.argv) == 3 else source.with_name("results.png")
    with source.open(newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"{source} has no rows")
    saturating = [r for r in rows if r["rate_tx_s"] == "0"]

    fig, (tput, lat) = plt.subplots(1, 2, figsize=(14, 5.5))
    bars = tput.bar([label(r) for r in saturating], [float(r["tx_per_s"]) for r in saturating])
    for bar, r in zip(bars, saturating):
        tput.annotate(
            f"{float(r['tx_per_s']):.0f}\nload {r['load1_before']}",
            (bar.get_x() + bar.get_width() / 2, bar.get_height()),
            ha="center", va="bottom", fontsize=8)
    tput.margins(y=0.15)
    tput.set_ylabel("delivered tx/s")
    tput.set_title("Throughput (4 replicas + client on one machine)")
    tput.tick_params(axis="x", labelsize=7)

    x = range(len(rows))
    width = 0.4
    lat.bar([i - width / 2 for i in x], [float(r["p50_ms"]) for r in rows], width, label="p50")
    lat.bar([i + width / 2 for i in x], [float(r["p99_ms"]) for r in rows], width, label="p99")
    lat.set_xticks(list(x), [label(r) for r in rows], fontsize=7)
    lat.set_yscale("log")
    lat.set_ylabel("submit-to-delivery latency, ms (log)")
    lat.set_title("Latency")
    lat.legend()

    fig.suptitle(f"rubin-orderer end to end, {rows[0]['date_utc'][:10]} ({source.name})")
    fig.tight_layout()
    fig.savefig(target, dpi=110)
    print(f"plot.py: wrote {target}")


if __name__ == "__main__":
    main()

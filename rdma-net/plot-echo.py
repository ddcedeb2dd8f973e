#!/usr/bin/env python3
"""Plots the echo benchmark's CSV (rdma-net/echo-benchmark.sh) in the shape of the RUBIN paper's
Figures 3 and 4: round-trip latency (p50) and one-way throughput against message size.

Usage: plot-echo.py <echo-benchmark.csv> <output.png>
Needs matplotlib: apt-get install python3-matplotlib, or pip install matplotlib.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LABELS = {"shm": "shm provider", "tcp": "tcp provider", "nio": "plain java.nio"}
MARKERS = {"shm": "o", "tcp": "s", "nio": "^"}


def load(path):
    series = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            points = series.setdefault(row["transport"], [])
            points.append(
                (
                    int(row["message_bytes"]) / 1024,
                    float(row["rtt_p50_us"]),
                    float(row["megabytes_per_s"]),
                )
            )
    return series


def main(source, target):
    series = load(source)
    figure, (latency, throughput) = plt.subplots(1, 2, figsize=(11, 4.2))
    for transport, points in series.items():
        sizes = [p[0] for p in points]
        label = LABELS.get(transport, transport)
        marker = MARKERS.get(transport, "x")
        latency.plot(sizes, [p[1] for p in points], marker=marker, label=label)
        throughput.plot(sizes, [p[2] for p in points], marker=marker, label=label)
    sizes = sorted({p[0] for points in series.values() for p in points})
    for axis in (latency, throughput):
        axis.set_xscale("log", base=2)
        axis.set_xticks(sizes)
        axis.set_xticklabels([f"{size:g}" for size in sizes])
        axis.minorticks_off()
        axis.set_xlabel("message size (KB)")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend()
    latency.set_yscale("log")
    latency.set_ylabel("round trip p50 (µs)")
    latency.set_title("Round-trip latency (cf. RUBIN Fig. 3)")
    throughput.set_ylabel("one-way payload MB/s, 16 in flight")
    throughput.set_title("Throughput (cf. RUBIN Fig. 4)")
    figure.tight_layout()
    figure.savefig(target, dpi=110)
    print(f"wrote {target}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])

#!/usr/bin/env python3
"""Draws the panels of rubin-orderer-dashboard.json from a running Prometheus into one PNG.

Grafana cannot be installed on every machine; this shows the same series from Prometheus's HTTP
API (query_range) with the dashboard's own expressions ($instance and $channel select all).

Needs: Python 3.9+ and matplotlib (`pip install matplotlib`); nothing else.
Usage:
  render_dashboard.py --prometheus http://127.0.0.1:9090 --minutes 10 --out dashboard.png
"""
import argparse
import json
import math
import time
import urllib.parse
import urllib.request
from datetime import datetime, timezone
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

HERE = Path(__file__).resolve().parent
VARIABLES = {"$instance": ".*", "$channel": ".*"}


def query_range(prometheus, expr, start, end, step):
    for name, value in VARIABLES.items():
        expr = expr.replace(name, value)
    params = urllib.parse.urlencode({"query": expr, "start": start, "end": end, "step": step})
    with urllib.request.urlopen(f"{prometheus}/api/v1/query_range?{params}", timeout=30) as reply:
        body = json.load(reply)
    if body.get("status") != "success":
        raise RuntimeError(f"query failed: {expr}: {body}")
    return body["data"]["result"]


def legend(template, labels):
    text = template
    for key, value in labels.items():
        text = text.replace("{{" + key + "}}", value)
    return text.replace("127.0.0.1:", ":")


def draw(ax, panel, prometheus, start, end, step):
    ax.set_title(panel["title"], fontsize=9)
    drawn = 0
    for target in panel["targets"]:
        for series in query_range(prometheus, target["expr"], start, end, step):
            points = [(float(t), float(v)) for t, v in series["values"]]
            points = [(t, v) for t, v in points if math.isfinite(v)]
            if not points:
                continue
            times = [datetime.fromtimestamp(t, timezone.utc) for t, _ in points]
            ax.plot(times, [v for _, v in points], linewidth=1,
                    label=legend(target.get("legendFormat", ""), series["metric"]))
            drawn += 1
    ax.set_xlim(datetime.fromtimestamp(start, timezone.utc), datetime.fromtimestamp(end, timezone.utc))
    ax.xaxis.set_major_formatter(mdates.DateFormatter("%H:%M"))
    ax.tick_params(labelsize=7)
    unit = panel.get("fieldConfig", {}).get("defaults", {}).get("unit", "")
    if unit and unit != "short":
        ax.set_ylabel(unit, fontsize=7)
    if drawn and drawn <= 12:
        ax.legend(fontsize=5, loc="upper left")
    elif not drawn:
        ax.text(0.5, 0.5, "no data", ha="center", va="center", transform=ax.transAxes)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prometheus", default="http://127.0.0.1:9090")
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--end", help="end of the window, UTC, e.g. 2026-11-21T09:10:00 (default: now)")
    parser.add_argument("--step", default="5s")
    parser.add_argument("--dashboard", default=str(HERE / "rubin-orderer-dashboard.json"))
    parser.add_argument("--out", default=str(HERE / "dashboard.png"))
    args = parser.parse_args()
    dashboard = json.loads(Path(args.dashboard).read_text())
    panels = [p for p in dashboard["panels"] if p.get("type") == "timeseries"]
    end = (datetime.fromisoformat(args.end).replace(tzinfo=timezone.utc).timestamp()
           if args.end else time.time())
    start = end - args.minutes * 60
    columns = 4
    rows = math.ceil(len(panels) / columns)
    figure, axes = plt.subplots(rows, columns, figsize=(columns * 5, rows * 3.2), squeeze=False)
    for ax, panel in zip(axes.flat, panels):
        draw(ax, panel, args.prometheus, start, end, args.step)
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    stamp = datetime.fromtimestamp(end, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    figure.suptitle(f"{dashboard['title']} (from Prometheus, {args.minutes:g} min to {stamp})")
    figure.tight_layout(rect=(0, 0, 1, 0.97))
    figure.savefig(args.out, dpi=90)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

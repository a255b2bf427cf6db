#!/usr/bin/env python3
"""Writes BENCHMARKS.md (to stdout) from one scripts/bench run: per scene the anchor engines'
and Citrine's median ms per frame (over several rounds: the median of the rounds' medians), the
ratio Citrine / engine, and the pixel agreement of Citrine's frame with Skia's (the correctness
criterion: mean ≤ 0.6 and ≤ 4 % of pixels off by > 8). Runs in Benchmarks/.venv."""
import argparse
import datetime
import glob
import json
import os

import numpy as np

ENGINES = ["skia", "blend2d", "cairo", "thorvg"]
SCENE_ORDER = ["S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8"]


def load_results(out):
    rows, machine, versions, memset, skipped, diffs = {}, None, {}, {}, [], {}
    for path in sorted(glob.glob(os.path.join(out, "anchors-*.json")) + glob.glob(os.path.join(out, "citrine-*.json"))):
        with open(path) as f:
            run = json.load(f)
        machine = machine or run.get("machine")
        versions.update(run.get("engines", {}))
        memset.update(run.get("memset", {}))
        skipped += run.get("skipped", [])
        for d in run.get("diffs", []):
            diffs.setdefault(d["scene"], []).append(d)
        for r in run["results"]:
            rows.setdefault(r["scene"], {}).setdefault(r["engine"], []).append(r)
    return {s: {e: combine(rs) for e, rs in d.items()} for s, d in rows.items()}, machine, versions, memset, skipped, diffs


def combine(rounds):
    """One engine's result for a scene from its rounds: the median of their medians (the upper
    middle one of an even count), the least minimum, every frame counted, and how many rounds."""
    medians = sorted(r["median_ms"] for r in rounds)
    return dict(rounds[0], median_ms=medians[len(medians) // 2], min_ms=min(r["min_ms"] for r in rounds),
                n=sum(r["n"] for r in rounds), rounds=len(rounds), round_medians=[r["median_ms"] for r in rounds])


def run_time(out):
    """When the run finished: the newest result file's modification time."""
    stamps = [os.path.getmtime(p) for p in glob.glob(os.path.join(out, "*.json"))]
    when = datetime.datetime.fromtimestamp(max(stamps), datetime.timezone.utc) if stamps else None
    return when.strftime("%Y-%m-%d %H:%M UTC") if when else "?"


def png_rgba(path):
    import skia
    im = skia.Image.open(path)
    return np.array(im.toarray(colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kUnpremul_AlphaType))


def agreement(out, scene, title):
    ref = os.path.join(out, "png", f"{scene}-{title}-skia.png")
    mine = os.path.join(out, "png", f"{scene}-{title}-citrine.png")
    if not (os.path.exists(ref) and os.path.exists(mine)):
        return None
    a, b = png_rgba(ref).astype(np.int16), png_rgba(mine).astype(np.int16)
    if a.shape != b.shape:
        return None
    d = np.abs(a - b)
    return float(d.mean()), int(d.max()), float((d.max(-1) > 8).mean() * 100)


def fmt(v):
    return "n/a" if v is None else (f"{v:.3f}" if v < 1 else f"{v:.1f}" if v >= 100 else f"{v:.2f}")


def sanitize(line, args):
    return line.strip().replace(args.anchors, "$ANCHORS").replace(args.root, "$ROOT")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--commands", required=True)
    ap.add_argument("--root", required=True, help="the repository root (shown as $ROOT)")
    ap.add_argument("--anchors", required=True, help="the anchor harness folder (shown as $ANCHORS)")
    args = ap.parse_args()
    rows, machine, versions, memset, skipped, diffs = load_results(args.out)
    scenes = [s for s in SCENE_ORDER if s in rows]
    lines = ["# Benchmarks", "",
             "Citrine's rasterizer (Swift; its hottest pixel loops also in AVX2 and AVX-512, chosen at run time) against the",
             "anchor engines on the scenes of",
             "`../shared/bench/anchors/scenes.md`, run interleaved in one go by `scripts/bench`",
             "(per scene, in rounds: the anchor harness `bench.py`, then Citrine's `Benchmarks/` executable,",
             "release build; every anchor engine in the first round, Blend2D — Skia for S7 — and Citrine in",
             "every round). Milliseconds per frame (clear + draw everything, single-threaded): the median of",
             "an engine's rounds' medians; the ratio columns are Citrine / engine (< 1 = Citrine faster).",
             "Absolute times on this shared machine are noise; compare within the table.", ""]
    now = run_time(args.out)
    m = machine or {}
    lines += [f"- Date: {now}",
              f"- Machine: {m.get('nproc', '?')} CPUs, {m.get('cpu_model', '?')} ({m.get('simd_flags', '')}), "
              f"{m.get('platform', '?')}; pinned with `taskset` to one CPU when available",
              "- Engines: " + "; ".join(f"{k}: {v}" for k, v in versions.items()), ""]
    head = "| scene | canvas | memset | " + " | ".join(ENGINES) + " | **citrine** | " + \
        " | ".join(f"citrine/{e}" for e in ENGINES) + " |"
    lines += ["## Median ms per frame", "", head, "|---|---|---:|" + "---:|" * (2 * len(ENGINES) + 1)]
    for s in scenes:
        d = rows[s]
        any_r = next(iter(d.values()))
        size = f"{any_r['w']}x{any_r['h']}"
        mine = d.get("citrine", {}).get("median_ms")
        cells = [fmt(d[e]["median_ms"]) if e in d else "—" for e in ENGINES]
        ratios = [f"{mine / d[e]['median_ms']:.2f}" if mine is not None and e in d else "—" for e in ENGINES]
        ms = memset.get(size, {}).get("median_ms")
        lines.append(f"| {s} {any_r['title']} | {size} | {fmt(ms)} | " + " | ".join(cells) +
                     f" | **{fmt(mine)}** | " + " | ".join(ratios) + " |")
    lines += ["", "Min ms per frame (Citrine): " + ", ".join(
        f"{s} {fmt(rows[s]['citrine']['min_ms'])}" for s in scenes if "citrine" in rows[s]), ""]
    target = {s: "skia" if s == "S7" else "blend2d" for s in scenes}
    per_round = [(s, rows[s][target[s]], rows[s]["citrine"]) for s in scenes
                 if target[s] in rows[s] and "citrine" in rows[s] and rows[s]["citrine"]["rounds"] > 1]
    if per_round:
        lines += ["Each round's median, Citrine / the target engine (Blend2D; Skia for S7), in run order:", ""]
        lines += [f"- {s}: " + ", ".join(f"{fmt(c)} / {fmt(e)} = {c / e:.2f}"
                                         for c, e in zip(mine["round_medians"], eng["round_medians"]))
                  for s, eng, mine in per_round]
        lines += [""]
    lines += ["## Pixel agreement with Skia", "",
              "Citrine's frame (the harness's reference frame: last frame of the first cycle) against Skia's,",
              "RGBA 8-bit over the whole canvas. The criterion: mean ≤ 0.6 and ≤ 4 % of pixels off by > 8.", "",
              "The last column is the same measure for the anchor engines against Skia in this run",
              "(bench.py's own check), for scale.", "",
              "| scene | mean abs diff | max | % px with a channel off by > 8 | meets the criterion | anchors vs Skia: mean / % > 8 |",
              "|---|---:|---:|---:|---|---|"]
    for s in scenes:
        title = next(iter(rows[s].values()))["title"]
        ag = agreement(args.out, s, title)
        anchors = ", ".join(f"{d['engine']} {d['mean_abs']:.3f} / {d['pct_px_over_8']:.2f}" for d in diffs.get(s, [])) or "—"
        if ag is None:
            lines.append(f"| {s} {title} | n/a | n/a | n/a | no frame to compare | {anchors} |")
        else:
            ok = "yes" if ag[0] <= 0.6 and ag[2] <= 4 else "**no**"
            lines.append(f"| {s} {title} | {ag[0]:.3f} | {ag[1]} | {ag[2]:.2f} | {ok} | {anchors} |")
    missing = [s for s in scenes if "citrine" not in rows[s]]
    failures = os.path.join(args.out, "failures.txt")
    if missing or os.path.exists(failures) or skipped:
        lines += ["", "## Runs that failed or were skipped", ""]
        lines += [f"- Citrine produced no timing for {s} (see below: exit 2 = scene not drawable yet, 132 = a runtime trap)."
                  for s in missing]
        if os.path.exists(failures):
            with open(failures) as f:
                lines += [f"- `{sanitize(l, args)}`" for l in f if l.strip()]
        lines += [f"- anchor skipped: {x}" for x in skipped]
    notes = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Benchmarks", "NOTES.md")
    if os.path.exists(notes):
        with open(notes) as f:
            lines += ["", f.read().strip()]
    with open(args.commands) as f:
        cmds = [sanitize(l, args) for l in f if l.strip()]
    lines += ["", "## Exact commands", "",
              "`scripts/bench` (`$ROOT` = the repository root, `$ANCHORS` = the anchor harness folder) built `swift build -c release --package-path "
              "Benchmarks --product anchor-bench`, then ran, in this order:", "", "```sh"] + cmds + ["```", ""]
    print("\n".join(lines))


if __name__ == "__main__":
    main()

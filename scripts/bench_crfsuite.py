#!/usr/bin/env python3
"""Training time of victor's CRF trainers (crfs, the reference, and the parallel trainer
on 1 and 2 threads) against CRFsuite's C implementation.

All train on the same CRFsuite-format data file, written by
`victor train ANNOTATIONS --export-crfsuite FILE`: crfs and the parallel trainer through the
Rust example `crates/train/examples/train_export.rs`, CRFsuite through python-crfsuite's
Trainer. All get L-BFGS with the same c1, c2, iteration limit, feature.minfreq and the same
stopping rule, run alternately, each in its own process, --runs times; every tool but
`parallel-2` is pinned to one core, `parallel-2` gets two (--cores). Only the training is timed (feature generation, optimisation, writing the
model), not reading the file. The script then labels held-out data with both models
through python-crfsuite's Tagger (crfs writes CRFsuite model files) and reports each
model's label accuracy and how often the two agree.

Stopping rule. crfs 0.4.1 runs the `liblbfgs` crate 0.1.0, a Rust port of libLBFGS
with CRFsuite's defaults: 6 memories, More-Thuente line search of at most 20 trials,
epsilon 1e-5 on ||g|| / max(1, ||x||). The port stores `delta` and `period` but never
applies the delta test, so CRFsuite gets `period=0` (no delta test) here. crfs counts
the starting point as iteration 1, so crfs gets the limit plus one: both then take the
same number of line-search steps ("iterations" below). The parallel trainer counts steps as
CRFsuite does and keeps CRFsuite's delta test (1e-5 over 10 steps), which can only make it
stop earlier than the others: the "iter" column shows whether it did (the runs are comparable
when it shows the same count as CRFsuite's).

    scripts/bench_crfsuite.py DATA.crfsuite --c2 10 --max-iterations 100 --runs 3 \\
        --heldout OTHER.crfsuite

Prints a table and writes every run to --json (default: DATA.bench.json).
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "target" / "release" / "examples" / "train_export"


# --- reading the CRFsuite text format ------------------------------------------------

def _unescape(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            out.append(s[i + 1])
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def _field(f):
    """`name[:value]` with CRFsuite's escapes (slow path, any input)."""
    i, colon = 0, -1
    while i < len(f):
        if f[i] == "\\":
            i += 2
            continue
        if f[i] == ":":
            colon = i
        i += 1
    if colon < 0:
        return _unescape(f), 1.0
    return _unescape(f[:colon]), float(f[colon + 1:])


def _item(line):
    """(label, item) of one line; item is a list of names, or a dict when a value is not 1."""
    if "\x00" in line or "\x01" in line:
        fields = line.split("\t")
        pairs = [_field(f) for f in fields[1:]]
    else:
        # Fast path: hide the escapes, split, then put them back.
        fields = line.replace("\\\\", "\x00").replace("\\:", "\x01").split("\t")
        pairs = []
        for f in fields[1:]:
            name, sep, value = f.rpartition(":")
            if not sep:
                name, value = f, None
            name = name.replace("\x01", ":").replace("\x00", "\\")
            pairs.append((name, 1.0 if value is None else float(value)))
    label = fields[0]
    if all(v == 1.0 for _, v in pairs):
        return label, [n for n, _ in pairs]
    return label, {n: v for n, v in pairs}


def sequences(path):
    """Yields (xseq, yseq) per sequence of a CRFsuite-format file."""
    xs, ys = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                if xs:
                    yield xs, ys
                    xs, ys = [], []
                continue
            y, x = _item(line)
            ys.append(y)
            xs.append(x)
    if xs:
        yield xs, ys


# --- the python-crfsuite worker (a subprocess per run) --------------------------------

def crfsuite_params(a):
    return {
        "feature.minfreq": a.min_freq,
        "c1": a.c1,
        "c2": a.c2,
        "max_iterations": a.max_iterations,
        "num_memories": 6,
        "epsilon": 1e-5,
        "period": 0,          # no delta test: crfs's liblbfgs never applies it
        "delta": 1e-5,
        "linesearch": "MoreThuente",
        "max_linesearch": 20,
    }


def worker(a):
    import pycrfsuite

    t0 = time.perf_counter()
    tr = pycrfsuite.Trainer(verbose=False)
    n_seq = n_items = 0
    for xs, ys in sequences(a.data):
        tr.append(xs, ys)
        n_seq += 1
        n_items += len(xs)
    read = time.perf_counter() - t0
    tr.select("lbfgs", "crf1d")
    tr.set_params(crfsuite_params(a))
    c0, t0 = time.process_time(), time.perf_counter()
    tr.train(str(a.model))
    secs = time.perf_counter() - t0
    cpu = time.process_time() - c0
    its = tr.logparser.iterations
    last = tr.logparser.last_iteration or {}
    print(json.dumps({
        "tool": "crfsuite",
        "sequences": n_seq,
        "items": n_items,
        "read_seconds": read,
        "seconds": secs,
        "cpu_seconds": cpu,
        "features": tr.logparser.featgen_num_features,
        "iterations": last.get("num"),
        "loss": last.get("loss"),
        "evaluations": sum(i.get("linesearch_trials", 0) for i in its) + 1,
        "params": tr.get_params(),
        "model": str(a.model),
    }))


# --- running and reporting ------------------------------------------------------------

def run_child(cmd, cores=None, threads=None):
    """Runs cmd (on `cores`, with RAYON_NUM_THREADS=`threads` when given), returns its JSON
    line with wall s, CPU s, peak RSS MB, load before and after."""
    load0 = os.getloadavg()[0]
    env = dict(os.environ)
    if threads:
        env["RAYON_NUM_THREADS"] = str(threads)
    pre = (lambda: os.sched_setaffinity(0, cores)) if cores else None
    t0 = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True, env=env,
                             preexec_fn=pre)
        out = p.stdout.read()
        _, status, ru = os.wait4(p.pid, 0)
        err.seek(0)
        errors = err.read().decode("utf-8", "replace")
    p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"{errors}failed ({p.returncode}): {' '.join(map(str, cmd))}")
    lines = [l for l in out.splitlines() if l.startswith("{")]
    if not lines:
        sys.exit(f"no result from: {' '.join(map(str, cmd))}")
    r = json.loads(lines[-1])
    r["process_wall"] = wall
    r["process_cpu"] = ru.ru_utime + ru.ru_stime
    r["peak_rss_mb"] = ru.ru_maxrss / 1024
    r["load_before"] = load0
    r["load_after"] = os.getloadavg()[0]
    return r


def crfs_cmd(a, model):
    return [str(a.example), str(a.data), str(model), "--algorithm", "lbfgs",
            "--c1", str(a.c1), "--c2", str(a.c2),
            # crfs counts the starting point as an iteration (see the module doc).
            "--max-iterations", str(a.max_iterations + 1), "--min-freq", str(a.min_freq)]


def parallel_cmd(a, model):
    return [str(a.example), str(a.data), str(model), "--algorithm", "lbfgs",
            "--trainer", "parallel", "--c1", str(a.c1), "--c2", str(a.c2),
            "--max-iterations", str(a.max_iterations), "--min-freq", str(a.min_freq)]


def crfsuite_cmd(a, model):
    return [sys.executable, str(Path(__file__).resolve()), "--worker", str(a.data),
            "--model", str(model), "--c1", str(a.c1), "--c2", str(a.c2),
            "--max-iterations", str(a.max_iterations), "--min-freq", str(a.min_freq)]


def agreement(models, path):
    """Label accuracy of each model and agreement between them on one data file."""
    import pycrfsuite

    taggers = {}
    for name, m in models.items():
        t = pycrfsuite.Tagger()
        t.open(str(m))
        taggers[name] = t
    names = list(models)
    items = seqs = agree = seq_agree = 0
    correct = dict.fromkeys(names, 0)
    for xs, ys in sequences(path):
        out = {n: taggers[n].tag(xs) for n in names}
        seqs += 1
        items += len(ys)
        for n in names:
            correct[n] += sum(p == g for p, g in zip(out[n], ys))
        same = sum(p == q for p, q in zip(out[names[0]], out[names[1]]))
        agree += same
        seq_agree += same == len(ys)
    return {
        "file": str(path),
        "sequences": seqs,
        "items": items,
        "accuracy": {n: correct[n] / max(items, 1) for n in names},
        "agreement": agree / max(items, 1),
        "sequences_identical": seq_agree / max(seqs, 1),
    }


def median(rs, key):
    vals = [r[key] for r in rs if r.get(key) is not None]
    return statistics.median(vals) if vals else None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", type=Path, help="training data (victor train --export-crfsuite)")
    ap.add_argument("--heldout", type=Path, action="append", default=[],
                    help="data to label with both models (repeatable; default: the training data)")
    ap.add_argument("--runs", type=int, default=3, help="runs per tool (default 3)")
    ap.add_argument("--c1", type=float, default=0.0)
    ap.add_argument("--c2", type=float, default=1.0)
    ap.add_argument("--max-iterations", type=int, default=100,
                    help="L-BFGS steps (CRFsuite's count; crfs gets one more, see above)")
    ap.add_argument("--min-freq", type=float, default=0.0)
    ap.add_argument("--core", type=int, default=None,
                    help="the core every one-core run is pinned to (default: the last allowed one)")
    ap.add_argument("--tools", default="crfs,parallel-1,parallel-2,crfsuite",
                    help="comma-separated subset of crfs, parallel-1, parallel-2, crfsuite")
    ap.add_argument("--work-dir", type=Path, default=None, help="where the models go")
    ap.add_argument("--json", type=Path, default=None, help="all runs as JSON")
    ap.add_argument("--example", type=Path, default=EXAMPLE, help="the train_export binary")
    ap.add_argument("--no-build", action="store_true", help="do not run cargo build first")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--model", type=Path, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        worker(a)
        return
    if a.c1 > 0:
        sys.exit("c1 > 0 (OWL-QN) is not supported: the stopping rules differ")
    if not a.data.exists():
        sys.exit(f"{a.data}: not found (write it with victor train --export-crfsuite)")
    if not a.no_build:
        subprocess.run(["cargo", "build", "--release", "-p", "victor-train",
                        "--example", "train_export"], cwd=ROOT, check=True)
    if not a.example.exists():
        sys.exit(f"{a.example}: not found (cargo build --release -p victor-train "
                 "--example train_export)")
    allowed = sorted(os.sched_getaffinity(0))
    core = a.core if a.core is not None else max(allowed)
    two = set(allowed[-2:])
    work = a.work_dir or Path(tempfile.mkdtemp(prefix="bench-crfsuite-"))
    work.mkdir(parents=True, exist_ok=True)
    tools = [t.strip() for t in a.tools.split(",") if t.strip()]
    for t in tools:
        if t not in ("crfs", "parallel-1", "parallel-2", "crfsuite"):
            sys.exit(f"unknown tool {t}")
    models = {t: work / f"{t}.model" for t in tools}
    runs = {t: [] for t in tools}
    for i in range(a.runs):
        order = tools if i % 2 == 0 else tools[::-1]
        for tool in order:
            if tool == "crfs":
                r = run_child(crfs_cmd(a, models[tool]), cores={core})
            elif tool == "crfsuite":
                r = run_child(crfsuite_cmd(a, models[tool]), cores={core})
            elif tool == "parallel-1":
                r = run_child(parallel_cmd(a, models[tool]), cores={core}, threads=1)
            else:
                r = run_child(parallel_cmd(a, models[tool]), cores=two, threads=2)
            runs[tool].append(r)
            print(f"run {i + 1} {tool:9s} {r['seconds']:8.2f} s  {r['iterations']} iterations"
                  f"  loss {r['loss']}  load {r['load_before']:.2f}", file=sys.stderr)
    pair = {t: models[t] for t in ("crfsuite", "parallel-2", "crfs", "parallel-1") if t in models}
    pair = dict(list(pair.items())[:2])
    checks = [agreement(pair, h) for h in (a.heldout or [a.data])] if len(pair) == 2 else []

    summary = {}
    for tool, rs in runs.items():
        summary[tool] = {
            "median_seconds": median(rs, "seconds"),
            "median_cpu_seconds": median(rs, "cpu_seconds"),
            "features": rs[-1].get("features"),
            "seconds": [r["seconds"] for r in rs],
            "iterations": rs[-1]["iterations"],
            "loss": rs[-1]["loss"],
            "median_process_cpu": median(rs, "process_cpu"),
            "median_process_wall": median(rs, "process_wall"),
            "peak_rss_mb": max(r["peak_rss_mb"] for r in rs),
        }
    ratios = {}
    if "crfsuite" in summary:
        base = summary["crfsuite"]
        for t, s in summary.items():
            if t != "crfsuite":
                ratios[t] = {"seconds": s["median_seconds"] / base["median_seconds"],
                             "process_wall": s["median_process_wall"] / base["median_process_wall"]}
    loads = [r[k] for rs in runs.values() for r in rs for k in ("load_before", "load_after")]
    first = runs[tools[0]][0]
    print(f"\ndata: {a.data} ({first['sequences']} sequences, {first['items']} items)")
    print(f"L-BFGS c1={a.c1} c2={a.c2} max {a.max_iterations} steps, min-freq {a.min_freq}; "
          f"{a.runs} runs per tool, alternating, one-core runs pinned to core {core}, "
          f"parallel-2 on cores {sorted(two)}; "
          f"load average {min(loads):.2f}-{max(loads):.2f}")
    print(f"{'tool':10s} {'median s':>9s} {'runs s':>24s} {'CPU s':>8s} {'iter':>5s} "
          f"{'s/iter':>7s} {'final loss':>14s} {'features':>9s} {'peak MB':>8s} {'process s':>9s}")
    for tool, s in summary.items():
        per = s["median_seconds"] / s["iterations"] if s["iterations"] else float("nan")
        cpu = s["median_cpu_seconds"]
        runs_s = " ".join(f"{x:.2f}" for x in s["seconds"])
        print(f"{tool:10s} {s['median_seconds']:9.2f} {runs_s:>24s} "
              f"{'-' if cpu is None else f'{cpu:.2f}':>8s} {s['iterations']!s:>5s} "
              f"{per:7.3f} {s['loss'] or float('nan'):14.4f} {s['features']!s:>9s} "
              f"{s['peak_rss_mb']:8.0f} {s['median_process_wall']:9.2f}")
    for t, rr in ratios.items():
        print(f"ratio {t}/CRFsuite: median training seconds {rr['seconds']:.2f}, "
              f"whole process (reading the file included) {rr['process_wall']:.2f}")
    evals = runs["crfsuite"][-1].get("evaluations") if "crfsuite" in runs else None
    if evals:
        print(f"CRFsuite: {evals} objective evaluations "
              f"({summary['crfsuite']['median_seconds'] / evals:.3f} s each)")
    for c in checks:
        acc = ", ".join(f"{n} {v:.4f}" for n, v in c["accuracy"].items())
        print(f"labels on {c['file']} ({c['sequences']} sequences, {c['items']} items): "
              f"accuracy {acc}; agreement {c['agreement']:.4f}, "
              f"identical sequences {c['sequences_identical']:.3f}")
    out = a.json or a.data.with_suffix(".bench.json")
    out.write_text(json.dumps({
        "data": str(a.data), "core": core, "runs": runs, "summary": summary,
        "ratios_over_crfsuite": ratios,
        "labels": checks,
        "params": crfsuite_params(a),
    }, indent=1))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()

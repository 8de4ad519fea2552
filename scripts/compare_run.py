"""compare.py's runs of victor: `victor label --format text --jobs 1` once over all pages of a set,
pinned to one core, timed as a whole process (median of VICTOR_RUNS runs), its start-up measured
on a list of one empty page."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from compare_pages import out_stem
from compare_proc import pinned, children_cpu, wait_exact

ROOT = Path(__file__).resolve().parent.parent


def shown(path: Path) -> str:
    """A path as shown in reports: relative to the project root when inside it."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


# Timed runs of victor over a set's pages (the median is reported).
VICTOR_RUNS = 3


def victor_startup(command: list[str], core: int, runs: int = 3) -> tuple[float, float] | None:
    """Best of `runs` (wall, CPU) times of victor on a list holding one empty page (start-up and
    model loading; `victor label` refuses an empty list), or None if that command fails."""
    best = None
    out = Path(command[command.index("--out") + 1])
    for _ in range(runs):
        t0, c0 = time.perf_counter(), children_cpu()
        try:
            with pinned(core):
                proc = subprocess.Popen(
                    command,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
            if wait_exact(proc, 120) == "timeout":
                return None
            rc = proc.returncode
        except OSError:
            return None
        shutil.rmtree(out, ignore_errors=True)
        if rc != 0:
            return None
        took = (time.perf_counter() - t0, children_cpu() - c0)
        best = took if best is None else min(best, took)
    return best


def run_victor(binary: Path, model: str | None, pages, out_dir: Path, args, log_path: Path) -> dict:
    """Run the victor CLI once over all pages, pinned to one core; time the whole process."""
    per_page = [{"status": "missing", "error": "", "wall": 0.0, "cpu": 0.0} for _ in pages]
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        return {"unavailable": f"binary not found: {shown(binary)}", "per_page": per_page}
    if out_dir.exists():
        shutil.rmtree(out_dir)
    work = out_dir.parent
    list_path = work / f".{out_dir.name}.list"
    list_path.write_text("".join(f"{p['html_path']}\n" for p in pages), encoding="utf-8")
    # victor label refuses an empty list: start-up is timed on one empty page
    empty_page = work / ".victor-empty.html"
    empty_page.write_text("<html><body></body></html>\n", encoding="utf-8")
    empty_list = work / ".victor-empty.list"
    empty_list.write_text(f"{empty_page}\n", encoding="utf-8")
    model_args = ["--model", model] if model else []

    def cmd(files_from: Path, out: Path):
        return [
            str(binary),
            "label",
            *model_args,
            "--format",
            "text",
            "--jobs",
            "1",
            "--out",
            str(out),
            "--files-from",
            str(files_from),
        ]

    version = ""
    try:
        v = subprocess.run(
            [str(binary), "--version"], check=False, capture_output=True, text=True, timeout=30
        )
        version = v.stdout.strip() if v.returncode == 0 else ""
    except (OSError, subprocess.TimeoutExpired):
        pass
    print(
        f"victor{' --model ' + model if model else ''}: {len(pages)} pages in one process...", file=sys.stderr
    )
    limit = args.timeout * max(1, len(pages)) + 60
    walls, cpus = [], []
    with open(log_path, "ab") as log:
        # The whole run takes a fraction of a second: time it VICTOR_RUNS times, keep the median.
        for _ in range(VICTOR_RUNS):
            shutil.rmtree(out_dir, ignore_errors=True)
            cpu0 = children_cpu()
            t0 = time.perf_counter()
            try:
                with pinned(args.core):
                    proc = subprocess.Popen(
                        cmd(list_path, out_dir),
                        stdin=subprocess.DEVNULL,
                        stdout=subprocess.DEVNULL,
                        stderr=log,
                        start_new_session=True,
                    )
                rc = wait_exact(proc, limit)
            except OSError as e:
                return {"unavailable": f"cannot run {binary}: {e}", "per_page": per_page}
            walls.append(time.perf_counter() - t0)
            cpus.append(children_cpu() - cpu0)
            if rc != 0:
                break
        process_wall = statistics.median(walls)
        process_cpu = statistics.median(cpus)
        startup = victor_startup(cmd(empty_list, work / ".victor-empty-out"), args.core) if rc == 0 else None
    list_path.unlink(missing_ok=True)
    empty_list.unlink(missing_ok=True)
    empty_page.unlink(missing_ok=True)
    found = 0
    for p, rec in zip(pages, per_page):
        if (out_dir / f"{out_stem(p['html_path'])}.txt").exists():
            rec["status"] = "ok"
            found += 1
    if rc != 0 and found == 0:
        tail = log_path.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-1:] or [""]
        return {"unavailable": f"exit {rc}: {tail[0][:200]}", "per_page": per_page}
    return {
        "per_page": per_page,
        "version": version,
        "process_wall": process_wall,
        "process_cpu": process_cpu,
        "startup": startup,
        "note": "" if rc == 0 else f"exit {rc}",
    }

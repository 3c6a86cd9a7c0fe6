#!/usr/bin/env python3
"""Flakes counted, not guessed: make test's steps run again and again on a
loaded machine.

  load_loop.py [--runs N] [--busy K] [--log-dir DIR] STEP...
      Starts K busy loops (default: one per core, so each step gets about
      half the CPU it would have), then runs `make STEP` N times (default
      10) for each STEP in turn, and prints one line per step: runs,
      failures, median and longest time. A failed run's output is kept in
      DIR (default build/load-loop/) as STEP.RUN.log. Exits 1 when any run
      failed, 2 on bad usage.

make bench is where speed is measured; this only asks whether a step that
depends on timing still passes at about twice its time.
"""
import argparse
import os
import statistics
import sys
import time

from hosttools import ROOT, procs
from hosttools.tool_table import guard

BUSY = "while :; do :; done"


def loop(step, runs, log_dir):
    """[(ok, seconds)] of `make STEP`, runs times."""
    results = []
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    for n in range(1, runs + 1):
        start = time.monotonic()
        code, out = procs.run(["make", "--no-print-directory", step], timeout=3600,
                              cwd=ROOT, env=env, text=True, errors="replace")
        took = time.monotonic() - start
        results.append((code == 0, took))
        print(f"  {step} run {n}: {'ok' if code == 0 else f'FAILED (exit {code})'}, {took:.0f} s",
              flush=True)
        if code != 0:
            with open(os.path.join(log_dir, f"{step}.{n}.log"), "w") as f:
                f.write(out)
    return results


def main(argv):
    p = argparse.ArgumentParser(prog="tests/load_loop.py", description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--busy", type=int, default=os.cpu_count() or 1)
    p.add_argument("--log-dir", default=os.path.join(ROOT, "build", "load-loop"))
    p.add_argument("steps", nargs="+", metavar="STEP")
    args = p.parse_args(argv)
    if args.runs < 1 or args.busy < 0:
        p.error("--runs is at least 1, --busy at least 0")
    os.makedirs(args.log_dir, exist_ok=True)
    busy = [procs.start(["sh", "-c", BUSY]) for _ in range(args.busy)]
    summary, failed = [], 0
    try:
        print(f"load_loop: {args.busy} busy loops on {os.cpu_count()} cores, {args.runs} runs a step",
              flush=True)
        for step in args.steps:
            results = loop(step, args.runs, args.log_dir)
            bad = sum(not ok for ok, _ in results)
            failed += bad
            times = [t for _, t in results]
            summary.append(f"{step}: {len(results)} runs, {bad} failed, median "
                           f"{statistics.median(times):.0f} s, longest {max(times):.0f} s")
    finally:
        for proc in busy:
            procs.done(proc)
    print("\n".join(summary))
    return 1 if failed else 0


if __name__ == "__main__":
    procs.exit_on_signals()
    sys.exit(guard(main, sys.argv[1:]))

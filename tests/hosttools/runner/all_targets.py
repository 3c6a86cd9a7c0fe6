"""--all: every available target, booted in parallel, and the table that
sums them up."""
import concurrent.futures
import io
import os
import sys
import threading
import time

from .. import targets as target_table

from .globs import glob_regex
from .junit import junit
from .report import write_report
from .output import closing_line, kernel_counts_line, printer, report, say
from .version import project_version
from .target_run import EXIT_ERROR, TargetRun
from .workdir import cleanup, context


def all_targets(opts):
    ctx = context(opts)
    runs = []
    todo = []
    for t in target_table.TARGETS:
        named = opts.only and any(glob_regex(g).match(t["name"])
                                  for g in opts.only.split(","))
        if opts.only and not named:
            continue
        r = TargetRun(t, opts, ctx, None)
        if t.get("explicit") and not named and r.available:
            r.available, r.why_not = False, ("booted only when --only or "
                                             "--target names it")
        runs.append(r)
        if r.available:
            todo.append(r)
    if not runs:
        say(f"no target matches --only {opts.only}")
        return EXIT_ERROR
    if opts.log_dir:
        os.makedirs(opts.log_dir, exist_ok=True)
    start = time.monotonic()
    print_lock = threading.Lock()

    def go(r):
        name = r.target["name"]
        log = os.path.join(opts.log_dir, name + ".log") if opts.log_dir else None
        # -v: each target's TAP as one block when it is done, so that the
        # targets booted in parallel do not interleave their lines.
        block = io.StringIO() if opts.verbose else None
        r.out = printer(log, block, f"[{name}] ")
        r.run()
        if r.out.log:
            r.out.log.close()
        if block:
            with print_lock:
                sys.stdout.write(block.getvalue())
                sys.stdout.flush()
        word = r.verdict_word()
        print(f"run: {name}: {word} ({r.seconds:.1f} s)", flush=True)
        report(r)
        return r

    try:
        with concurrent.futures.ThreadPoolExecutor(opts.jobs) as pool:
            list(pool.map(go, todo))
    finally:
        cleanup(ctx, opts)
    wall = time.monotonic() - start
    table(runs, wall)
    ran = [r for r in runs if r.available]
    if opts.junit:
        junit(runs, opts.junit, project_version())
    if opts.report:
        write_report(runs, opts.report)
    print(kernel_counts_line(ran), flush=True)
    print(closing_line(ran), flush=True)
    if not ran:
        say("no target is available here")
        return EXIT_ERROR
    return max(r.exit for r in ran)


def table(runs, wall):
    width = max(len(r.target["name"]) for r in runs)
    head = (f"{'target':<{width}}  {'route':<5} {'verdict':<8} {'pass':>4} "
            f"{'fail':>4} {'todo':>4} {'skip':>4} {'stale':>5} {'time':>6}  "
            "emulator / why")
    print(head)
    print("-" * len(head))
    for r in runs:
        c = r.counts() or dict(pass_="", fail="", todo="", skip="", stale="")
        why = (r.why_not if not r.available else
               (r.outcome.emulator if r.outcome else ""))
        if r.problems and r.available:
            why = r.problems[0]
        t = f"{r.seconds:.1f}" if r.available else ""
        print(f"{r.target['name']:<{width}}  {r.target['route']:<5} "
              f"{r.verdict_word():<8} {c['pass_']:>4} {c['fail']:>4} "
              f"{c['todo']:>4} {c['skip']:>4} {c['stale']:>5} {t:>6}  {why}")
    print(f"wall time {wall:.1f} s")

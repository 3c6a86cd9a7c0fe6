"""--all: every available target, booted in parallel, and the table that
sums them up."""
import concurrent.futures
import io
import os
import sys
import threading
import time

from .. import targets
from ..boot.workdir import scratch
from ..judge.globs import glob_regex
from ..lava.job import JobError, LavaJob
from ..report.outfile import ToolError, problem
from ..report.outputs import Outputs
from ..report.printer import closing_line, kernel_counts_line, printer, report, say
from .target_run import EXIT_ERROR, TargetRun


def chosen(only, options):
    """The targets --only names (all without it), each with whether it is
    available here, and those to boot."""
    runs = []
    todo = []
    for t in targets.TARGETS:
        named = only and any(glob_regex(g).match(t.name)
                             for g in only.split(","))
        if only and not named:
            continue
        r = TargetRun(targets.select(t, options.programs), options)
        if t.explicit and not named and r.available:
            r.available, r.why_not = False, ("booted only when --only or "
                                             "--target names it")
        runs.append(r)
        if r.available:
            todo.append(r)
    return runs, todo


def open_logs(args, runs, blocks):
    """Each run's printer (by target name): its --log-dir file, and with -v
    one block of its own, so that the targets booted in parallel do not
    interleave lines."""
    if args.log_dir:
        try:
            os.makedirs(args.log_dir, exist_ok=True)
        except OSError as e:
            raise problem("the log directory", args.log_dir, e)
    outs = {}
    for r in runs:
        name = r.target.name
        blocks[name] = io.StringIO() if args.verbose else None
        outs[name] = printer(os.path.join(args.log_dir, name + ".log")
                             if args.log_dir else None, blocks[name], f"[{name}] ")
    return outs


def lava_runs(args, options):
    """--lava: finished LAVA jobs, judged next to the targets booted here."""
    return [TargetRun(targets.lava_kind(LavaJob.from_dir(d), options.programs,
                                        targets.by_name), options)
            for d in args.lava]


def all_targets(args, options):
    runs, todo = chosen(args.only, options)
    try:
        lava = lava_runs(args, options)
    except JobError as e:
        say(f"--lava: {e}")
        return EXIT_ERROR
    runs += lava
    if not runs:
        say(f"no target matches --only {args.only}")
        return EXIT_ERROR
    # Everything written is opened before the first boot, and what the run
    # made is removed however it ends.
    outputs = Outputs(options)
    blocks = {}
    try:
        outs = open_logs(args, todo + lava, blocks)
        with scratch(options.programs.elf, options.keep) as s:
            wall = run_all(args.jobs, todo, s, outs, blocks)
            for r in lava:
                run_and_say(r, s, outs, blocks, threading.Lock(), lava=True)
        table(runs, wall)
        outputs.write(runs)
    finally:
        outputs.discard()
    ran = [r for r in runs if r.available]
    print(kernel_counts_line(ran), flush=True)
    print(closing_line(ran), flush=True)
    if not ran:
        say("no target is available here")
        return EXIT_ERROR
    return max(r.exit for r in ran)


def run_all(jobs, todo, s, outs, blocks):
    """Boots the targets, jobs at a time; the wall time it took."""
    start = time.monotonic()
    print_lock = threading.Lock()

    def go(r):
        run_and_say(r, s, outs, blocks, print_lock)
        return r

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        list(pool.map(go, todo))
    return time.monotonic() - start


def run_and_say(r, s, outs, blocks, print_lock, lava=False):
    """r run (booted, or a LAVA job judged) and its output closed; its
    block of lines, its verdict line (with the time a boot took) and its
    report."""
    name = r.target.name
    r.run(s, outs[name])
    try:
        outs[name].close()
    except ToolError as e:
        r.problems.append(str(e))
        r.exit = EXIT_ERROR
    if blocks[name]:
        with print_lock:
            sys.stdout.write(blocks[name].getvalue())
            sys.stdout.flush()
    when = "LAVA" if lava else f"{r.seconds:.1f} s"
    print(f"run: {name}: {r.verdict_word()} ({when})", flush=True)
    report(r)


def table(runs, wall):
    width = max(len(r.target.name) for r in runs)
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
        print(f"{r.target.name:<{width}}  {r.target.route:<5} "
              f"{r.verdict_word():<8} {c['pass_']:>4} {c['fail']:>4} "
              f"{c['todo']:>4} {c['skip']:>4} {c['stale']:>5} {t:>6}  {why}")
    print(f"wall time {wall:.1f} s")

"""What tests/run prints besides the TAP: its messages on stderr, the TAP
printer, the reasons a run is not a match, and the closing line."""
import sys
import threading

from .outfile import problem


def say(msg):
    print(f"run: {msg}", file=sys.stderr, flush=True)


def printer(log_path, echo, prefix=""):
    """out(line): the line to echo (with prefix) and to the log at
    log_path, opened now; a log that cannot be written is a ToolError."""
    try:
        log = open(log_path, "w", encoding="utf-8") if log_path else None
    except OSError as e:
        raise problem("the log", log_path, e)
    lock = threading.Lock()
    broken = []         # the log's write error: said once, then no log

    def out(line):
        with lock:
            if echo:
                print(prefix + line, file=echo, flush=True)
            if log and not broken:
                try:
                    log.write(line + "\n")
                    log.flush()
                except OSError as e:
                    broken.append(e)
                    raise problem("the log", log_path, e)

    def close():
        if log:
            try:
                log.close()
            except OSError as e:
                if not broken:
                    raise problem("the log", log_path, e)
    out.close = close
    return out


def report(run):
    """The lines that say why a target's run is not a match, and how it
    differs from an expectation file of another host."""
    name = run.target.name
    for msg in run.problems:
        say(f"{name}: {msg}")
    for msg in run.mismatches:
        say(f"{name}: {msg}")
    if run.differences:
        say(f"{name}: {run.host_note}")
        for msg in run.differences:
            say(f"{name}: on this host: {msg}")


def kernel_counts_line(runs):
    """The kernel's own counts next to the runner's, in one vocabulary: the
    kernel's failures split into known (tests/expect), unexpected and, for
    its passes and skips, stale expectations."""
    k = dict(passed=0, failed=0, skipped=0, known=0, unexpected=0, stale=0)
    for run in runs:
        for r in (run.judge.results if run.judge else []):
            k[{"pass": "passed", "fail": "failed", "skip": "skipped"}[r.kind]] += 1
            if r.verdict in ("todo", "unexpected", "stale"):
                k[{"todo": "known"}.get(r.verdict, r.verdict)] += 1
    return (f"# the kernel said: {k['passed']} passed, {k['failed']} failed, "
            f"{k['skipped']} skipped; of its failures {k['known']} known "
            f"(counted as skipped below), {k['unexpected']} unexpected; "
            f"{k['stale']} stale expectations")


def closing_line(runs):
    """'N passed, N failed, N skipped' over every result, for CI readers:
    an unexpected failure, a stale expectation or a failed boot counts as
    failed; an expected failure (TODO) counts as skipped, and so do the
    differences of a run on another host than its expectation file's."""
    p = f = s = 0
    for run in runs:
        c = run.counts()
        if c:
            p += c["pass_"]
            other = c["fail"] + c["stale"]
            if run.differences:
                s += other
            else:
                f += other
            s += c["skip"] + c["todo"]
        f += len(run.problems) if run.available else 0
        f += sum("matches no test" in m for m in run.mismatches)
    return f"run: {p} passed, {f} failed, {s} skipped"

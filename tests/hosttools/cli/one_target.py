"""--target: boot one target, stream its TAP, and give its verdict; with
--suggest-expectations, print an expectation file for what it did."""
import os
import sys

from .. import targets
from ..boot.workdir import scratch
from ..judge.expectations import (HEADER_LINE, HOST_LINE, Expectation, host_suffix,
                                  recorded_host, required_header)
from ..judge.judge import reason_of
from ..judge.patterns import COUNTERS_LEFT
from ..report.outputs import Outputs
from ..report.printer import closing_line, kernel_counts_line, printer, report, say
from .target_run import EXIT_ERROR, EXIT_MATCH, TargetRun


def one_target(name, options):
    target = targets.by_name(name)
    if not target:
        say(f"no target named '{name}'; tests/run --list-targets lists them")
        return EXIT_ERROR
    kind = targets.select(target, options.programs)
    # Everything written is opened before the boot, and what the run made
    # is removed however it ends.
    outputs = Outputs(options)
    try:
        out = printer(options.log, sys.stderr if options.suggest else sys.stdout)
        with scratch(options.programs.elf, options.keep) as s:
            run = boot_until_it_runs(kind, options, s, out)
        if run.outcome:
            for note in run.outcome.notes:
                say(f"{target.name}: {note}")
        for line in counters_left(run):
            say(f"{target.name}: {line[2:]} (the test's leftover, "
                "no verdict on the target: kernel/counters_left.h)")
        if options.suggest:
            return suggest(run)
        report(run)
        if run.judge:
            out(closing_comment(run))
        out.close()
        outputs.write([run])
    finally:
        outputs.discard()
    print(kernel_counts_line([run]), flush=True)
    print(closing_line([run]), flush=True)
    return run.exit


def closing_comment(run, seconds=True):
    """The log's last line: the run's verdict and counts."""
    c = run.counts()
    return (f"# run: {run.target.name}: {verdict_text(run)}: {c['pass_']} "
            f"passed, {c['fail']} unexpected failures, {c['todo']} expected "
            f"failures (TODO), {c['skip']} skipped, {c['stale']} stale, " +
            (f"{run.seconds:.1f} s, " if seconds else "") +
            f"{run.outcome.emulator if run.outcome else ''}")


def counters_left(run):
    """The harness's lines on what a test left in the counters."""
    lines = run.judge.lines if run.judge else []
    return [line for line in lines if COUNTERS_LEFT.match(line)]


def boot_until_it_runs(kind, options, s, out):
    """One run; with --suggest-expectations, a test that stops the target
    is left out ('!ID') and the target booted again, up to --max-stops."""
    extra = []
    while True:
        run = TargetRun(kind, options, extra).run(s, out)
        if not (options.suggest and run.stop and run.running_id and
                len(extra) < options.max_stops):
            return run
        # the kernel takes at most 16 exclude= patterns: leave out the
        # running test's group (its ID less the last part)
        group = run.running_id.rsplit(".", 1)[0] + ".*"
        say(f"{kind.target.name}: {run.running_id} stopped the run "
            f"({run.stop}); booting again without {group}")
        extra.append(Expectation("(observed)", len(extra) + 1,
                                 "!" + group, f"{run.stop}, in "
                                 f"{run.running_id}"))


def verdict_text(run):
    return {"MATCH": "matches its expectations",
            "OTHER-HOST": "differs from the expectations of another host",
            "MISMATCH": "does not match its expectations",
            "ERROR": "could not be run", "n/a": "not available"}[
        run.verdict_word()]


def suggest(run):
    """Print an expectation file for what the target did: one line per
    not ok, the reason taken from the test's first diagnostic. The header
    lines the old file required are kept where the run wrote them; one
    it did not write is left out, and said on stderr."""
    if run.problems:
        for msg in run.problems:
            say(f"{run.target.name}: {msg}")
        for e in run.excluded:
            say(f"observed so far: !{e.pattern}  {e.reason}")
        return EXIT_ERROR
    name = os.path.basename(run.expect_path())
    if run.outcome.host and recorded_host(run.expect_path()) not in (None, run.outcome.host):
        # a host the file was not recorded on: the file of a variant
        name = f"{run.target.expect}.{host_suffix(run.outcome.host)}"
    print(f"# tests/expect/{name}: what "
          f"{run.target.name} is known to fail")
    print(f"# observed on {run.outcome.emulator}; each reason is the test's "
          "first diagnostic")
    if run.outcome.host:
        print(f"{HOST_LINE}{run.outcome.host}")
    for line in required_header(run.expect_path()):
        if line in run.judge.lines:
            print(f"{HEADER_LINE}{line}")
        else:
            say(f"{run.target.name}: the header no longer writes "
                f"{line!r}: left out of the suggestion")
    for e in run.excluded:
        print(f"!{e.pattern}  {e.reason}")
    written = set()
    for r in run.judge.results:
        # an ID without '@cpuN' matches the test on every CPU, so an AP's
        # failure needs its own line only where CPU 0's test passed
        if r.kind == "fail" and r.id.partition("@cpu")[0] not in written:
            print(f"{r.id}  {reason_of(r)}")
            written.add(r.id)
    return EXIT_MATCH

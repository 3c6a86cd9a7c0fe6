"""What make bench reads in the kernel's TAP: the bench.* group's
"bench NAME cycles_median=N cycles_min=N n=N outcome=WHAT" lines, which
sit in the YAML diagnostics of each bench test (its `message` where the
line is the test's first diagnostic, else an item of its list); with
`timing`, the exit tally's "# exits: GROUP KIND=N ... io.0xPORT=N" lines;
and the header's "# cpus:" lines (arch/smp.c): CPUs started, and the AP
start-up's microseconds."""
import re

from ..judge.tap import read

BENCH_LINE = re.compile(r"^bench (\S+) cycles_median=(\d+) "
                        r"cycles_min=(\d+) n=(\d+) outcome=(\S+)")


def bench_rows(lines):
    """(name, median, min, n, outcome) of each bench line, in order."""
    rows = []
    for text in (t for r in read(lines).results for t in r.written):
        if text.startswith("message: "):
            text = text[len("message: "):]
        m = BENCH_LINE.match(text)
        if m:
            rows.append(m.groups())
    return rows


EXITS_LINE = re.compile(r"^# exits: (\S+)((?: [a-z0-9.]+=\d+)+)$")


def exit_tallies(lines):
    """{group: {kind or "io.0xPORT": count}} of the "# exits:" lines, the
    total as the group "total"."""
    tallies = {}
    for line in lines:
        m = EXITS_LINE.match(line)
        if m:
            tallies[m.group(1)] = {k: int(v) for k, v in
                                   (kv.split("=") for kv in m.group(2).split())}
    return tallies


CPUS_LINE = re.compile(r"^# cpus: (\d+) listed \(.*\), (\d+) started")
AP_STARTUP_LINE = re.compile(r"^# cpus: AP start-up (\d+) us")


def ap_startup(lines):
    """(CPUs listed, CPUs started, AP start-up in us or None) of a
    header, or None without a "# cpus:" line naming them."""
    counts, us = None, None
    for line in lines:
        m = CPUS_LINE.match(line)
        if m:
            counts = (int(m[1]), int(m[2]))
        m = AP_STARTUP_LINE.match(line)
        if m:
            us = int(m[1])
    return (*counts, us) if counts else None

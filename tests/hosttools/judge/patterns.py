"""The patterns the host tools match in the kernel's output, line by line:
a result line, the summary comment, a short YAML block's one diagnostic
(`same: "EARLIER_ID: BRIEF"`, a failure that deviates as an earlier test
did), the lines of its `list` option and the screen codes before them.
The YAML blocks themselves are read by the one verdict's reader
(hosttools/judge/tap.py, TapReader and read())."""
import re

# A result: kind, number, test ID, statements, SKIP or TODO, and reason.
RESULT = re.compile(r"^(ok|not ok) (\d+) - (\S+)(?: \[([^\]]*)\])?"
                    r"(?: # (SKIP|TODO)\b ?(.*))?$")
SUMMARY_PREFIX = "# pmctest: "
SUMMARY = re.compile(r"^# pmctest: ([0-9]{1,9}) passed, ([0-9]{1,9}) failed, "
                     r"([0-9]{1,9}) skipped$")
# A line of the kernel's `list`: test ID, statements, description.
LISTED = re.compile(r"^(\S+)\s+\[([^\]]*)\]\s*(.*)$")
# A short YAML block's one diagnostic: the earlier test that reported the
# same deviation in full, and what the check said of this one in a few
# words ("#UD at RCX=0x10000"), if it said anything the earlier test's
# report did not (without it, the earlier test's context holds here too).
SAME = re.compile(r"^same: ([^:\s]+)(?:: (.*))?$")
# What a test left in the counters of a CPU, which the harness names after
# its result (kernel/counters_left.h): the test ID and the CPU.
COUNTERS_LEFT = re.compile(r"^# counters left by (\S+) on CPU (\d+): ")
# The mark the line splitter (hosttools/boot/lines.py) ends a cut line
# with, and the pattern that finds it.
CUT_MARK = b" [pmctest: %d more bytes of this line cut]"
CUT = re.compile(r" \[pmctest: ([0-9]+) more bytes of this line cut\]$")
# Screen control that GRUB and SeaBIOS send before the kernel's first line.
CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|[\x00-\x08\x0b-\x1f\x7f]")


def summary_counts(line):
    """(passed, failed, skipped) if line is the summary comment, else None."""
    m = SUMMARY.match(line)
    return tuple(int(x) for x in m.groups()) if m else None


def same_as(diagnostics):
    """(earlier test ID, brief) if the diagnostics are a short block's,
    else None."""
    for line in diagnostics:
        m = SAME.match(line)
        if m:
            return m.group(1), m.group(2) or ""
    return None

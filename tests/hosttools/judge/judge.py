"""The TAP of one boot, read line by line, written out annotated, and each
result held against the target's expectations."""
import re
import time

from . import patterns as tap_log
from .tap import TapReader
from .xmltext import MESSAGE_CHARS, xml_text

RCX = re.compile(r"RCX=0x([0-9a-f]+)")
# The runner marks an expected failure with TAP's TODO directive: the
# kernel's not ok line, this, and the expectation's reason.
TODO_MARK = " # TODO "
# A not ok line as the kernel writes it (a test ID and its statements, no
# directive), with the runner's mark.
TODO_MARKED = re.compile(r"^(not ok [0-9]+ - [^\s\[\]#]+ \[[^\]]*\])" +
                         re.escape(TODO_MARK))


def kernel_line(line):
    """A line of the runner's log as the kernel wrote it: a not ok line
    without the runner's TODO mark, any other line as it is."""
    m = TODO_MARKED.match(line)
    return m.group(1) if m else line


def _message_and_rcx(d):
    """The diagnostic that says what went wrong, and the RCX of the
    context it went wrong in (None where there is none)."""
    rcx = None
    for line in d:
        m = re.search(r"^context: .*?(RCX=0x[0-9a-f]+)", line)
        if m:
            rcx = m.group(1)
            break
    for key in ("message:", "deviation:"):
        for line in d:
            if line.startswith(key):
                return line[len(key):].strip(), rcx
    for line in d:
        if line.startswith(("context:", "expected:")) or \
                line.endswith("as the model says"):
            continue
        return line, rcx
    return (d[0] if d else "not ok, no diagnostic"), rcx


def reason_of(result):
    """The diagnostic that says what went wrong, in at most MESSAGE_CHARS
    characters: the YAML block's message (the harness's first deviation,
    with the RCX of its "context:" line), a "deviation:" line, else the
    first line that is neither context nor a case that held. A short block
    gives the message of the test it names and the RCX of its own brief,
    written as a context writes it: the same reason the full report would
    have given."""
    earlier = result.same_as
    if earlier is not None:
        text, rcx = _message_and_rcx(earlier.diagnostics)
        m = RCX.search(tap_log.same_as(result.diagnostics)[1])
        if m:
            rcx = f"RCX=0x{int(m.group(1), 16):016x}"
    else:
        text, rcx = _message_and_rcx(result.diagnostics)
    return xml_text(f"{text}, {rcx}" if rcx else text, MESSAGE_CHARS)


def diagnostics_of(result):
    """The result's diagnostic lines; for a short block, followed by those
    of the test it names, which reported the deviation in full."""
    if result.same_as is None:
        return list(result.diagnostics)
    return result.diagnostics + [f"(as reported in full for {result.same_as.id})"] + \
        result.same_as.diagnostics


class Judge:
    """Reads the kernel's lines of one boot (a target's one stream, its
    screen codes already taken off: hosttools/boot/lines.py), writes them
    out annotated, and
    decides whether each result is what the target is expected to do; its
    TapReader judges the TAP itself (plan, numbers, summary)."""

    def __init__(self, expectations, out):
        self.expectations = expectations
        self.out = out
        self.lines = []
        self.tap = TapReader()
        self.by_id = {}         # the first result of each test ID
        self.last_time = time.monotonic()

    @property
    def results(self):
        return self.tap.results

    @property
    def bailed(self):
        return self.tap.bailed

    def feed(self, line):
        now = time.monotonic()
        self.lines.append(line)
        kind = self.tap.feed(line)
        if kind == "result":
            self._result(self.tap.results[-1], line, now)
            return
        if kind == "yaml" and self.results and self.results[-1].same_as is None:
            # a short block names the earlier test that reported in full;
            # a line completes at most two diagnostics (a folded value and
            # its own), each looked at once
            same = tap_log.same_as(self.results[-1].diagnostics[-2:])
            if same:
                self.results[-1].same_as = self.by_id.get(same[0])
        if kind == "plan":
            self.last_time = now    # the boot is no test's time
        self.out(line)

    def _result(self, r, line, now):
        self.by_id.setdefault(r.id, r)
        r.seconds = now - self.last_time
        self.last_time = now
        r.expectation = None
        for e in self.expectations:
            if e.regex.match(r.id):
                r.expectation = e
                e.matched.append(r)
                break
        e = r.expectation
        if r.kind == "fail":
            r.verdict = "todo" if e else "unexpected"
        elif e:
            r.verdict = "stale"
        else:
            r.verdict = r.kind
        if r.verdict == "stale":    # a comment before it: a YAML block may follow
            did = "was skipped" if r.kind == "skip" else "passed"
            self.out(f"# stale expectation: {e.where} lists {e.pattern} "
                     f"as failing ({e.reason}), but it {did}")
        if r.verdict == "todo":
            self.out(f"{line}{TODO_MARK}{e.reason}")
        else:
            self.out(line)

    def unused_expectations(self):
        return [e for e in self.expectations if not e.matched]

    def counts(self):
        c = dict(pass_=0, fail=0, skip=0, todo=0, stale=0)
        for r in self.results:
            key = {"pass": "pass_", "unexpected": "fail"}.get(r.verdict,
                                                               r.verdict)
            c[key] += 1
        return c

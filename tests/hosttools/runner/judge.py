"""The TAP of one boot, read line by line, written out annotated, and each
result held against the target's expectations."""
import re
import time

from .. import tap_log
from ..verdict import TapReader
from ..xmltext import MESSAGE_CHARS, xml_text


def reason_of(result):
    """The diagnostic that says what went wrong, in at most MESSAGE_CHARS
    characters: the YAML block's message (the harness's first deviation,
    with the RCX of its "context:" line), a "deviation:" line, else the
    first line that is neither context nor a case that held."""
    return xml_text(first_reason(result.diagnostics), MESSAGE_CHARS)


def first_reason(d):
    rcx = None
    for line in d:
        m = re.search(r"^context: .*?(RCX=0x[0-9a-f]+)", line)
        if m:
            rcx = m.group(1)
            break
    for key in ("message:", "deviation:"):
        for line in d:
            if line.startswith(key):
                text = line[len(key):].strip()
                return f"{text}, {rcx}" if rcx else text
    for line in d:
        if line.startswith(("context:", "expected:")) or \
                line.endswith("as the model says") or line.startswith(" "):
            continue
        return line
    return d[0] if d else "not ok, no diagnostic"


class Judge:
    """Reads the serial lines of one boot, writes them out annotated, and
    decides whether each result is what the target is expected to do; its
    TapReader judges the TAP itself (plan, numbers, summary)."""

    def __init__(self, expectations, out):
        self.expectations = expectations
        self.out = out
        self.lines = []
        self.tap = TapReader()
        self.last_time = time.monotonic()

    @property
    def results(self):
        return self.tap.results

    @property
    def bailed(self):
        return self.tap.bailed

    def feed(self, line):
        line = tap_log.CONTROL.sub("", line)    # GRUB's and SeaBIOS's screen codes
        now = time.monotonic()
        self.lines.append(line)
        kind = self.tap.feed(line)
        if kind == "result":
            self._result(self.tap.results[-1], line, now)
            return
        if kind == "plan":
            self.last_time = now    # the boot is no test's time
        self.out(line)

    def _result(self, r, line, now):
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
            self.out(f"{line} # TODO {e.reason}")
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

"""The TAP of one boot, read line by line, written out annotated, and each
result held against the target's expectations."""
import re
import time

from .. import tap_log

PLAN = re.compile(r"^1\.\.(\d+)$")


class Result:
    def __init__(self, number, test_id, statements, kind, skip_reason):
        self.number = number
        self.id = test_id
        self.statements = statements
        self.kind = kind            # pass, fail, skip (what the kernel said)
        self.skip_reason = skip_reason
        self.diagnostics = []
        self.expectation = None
        self.verdict = None         # pass, skip, todo, unexpected, stale
        self.seconds = 0.0



def reason_of(result):
    """The diagnostic that says what went wrong: the YAML block's message
    (the harness's first deviation, with the RCX of its "context:" line), a
    "deviation:" line, else the first line that is neither context nor a
    case that held."""
    d = result.diagnostics
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
    decides whether each result is what the target is expected to do."""

    def __init__(self, expectations, out):
        self.expectations = expectations
        self.out = out
        self.lines = []
        self.results = []
        self.plan = None
        self.summary = None
        self.bailed = None
        self.tap_headers = 0
        self.yaml = tap_log.YamlBlock()
        self.last_time = time.monotonic()

    def feed(self, line):
        line = tap_log.CONTROL.sub("", line)    # GRUB's and SeaBIOS's screen codes
        now = time.monotonic()
        self.lines.append(line)
        m = tap_log.RESULT.match(line)
        if m:
            self._result(m, line, now)
            return
        in_yaml, diagnostics = self.yaml.feed(line)
        if self.results:
            self.results[-1].diagnostics += [d.strip() for d in diagnostics]
        if in_yaml:
            self.out(line)
            return
        if PLAN.match(line):
            self.plan = int(PLAN.match(line).group(1))
            self.last_time = now    # the boot is no test's time
        elif tap_log.summary_counts(line):
            self.summary = tap_log.summary_counts(line)
        elif line.startswith("Bail out!"):
            self.bailed = line
        elif line.startswith("TAP version"):
            self.tap_headers += 1
        self.out(line)

    def _result(self, m, line, now):
        status, number, test_id, statements, directive, reason = m.groups()
        kind = ("skip" if directive == "SKIP" else
                "pass" if status == "ok" else "fail")
        r = Result(int(number), test_id, statements or "", kind,
                   reason or "")
        r.seconds = now - self.last_time
        self.last_time = now
        for e in self.expectations:
            if e.regex.match(test_id):
                r.expectation = e
                e.matched.append(r)
                break
        e = r.expectation
        if kind == "fail":
            r.verdict = "todo" if e else "unexpected"
        elif e:
            r.verdict = "stale"
        else:
            r.verdict = kind
        self.results.append(r)
        if r.verdict == "stale":    # a comment before it: a YAML block may follow
            did = "was skipped" if kind == "skip" else "passed"
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

"""TAP on stdout for make test's host checks: a result line per check, a
failing check's details as comment lines, the plan and a count at the end.
"""


class Tap:
    def __init__(self, detail_lines=None):
        self.n = self.failed = self.skipped = 0
        self.detail_lines = detail_lines    # the last N lines; None: all

    def check(self, ok, name, detail=()):
        """detail: a string (its lines) or a list of lines, shown on failure."""
        self.n += 1
        self.failed += not ok
        print(f"{'ok' if ok else 'not ok'} {self.n} - {name}")
        if not ok:
            lines = (str(detail).strip().splitlines() if isinstance(detail, str)
                     else [str(d) for d in detail])
            for line in lines[-self.detail_lines if self.detail_lines else 0:]:
                print(f"  # {line}")
        return ok

    def skip(self, name, reason):
        """A check that cannot be made here, and why."""
        self.n += 1
        self.skipped += 1
        print(f"ok {self.n} - {name} # SKIP {reason}")

    def finish(self):
        """The plan and the count; the exit status: 1 if a check failed."""
        print(f"1..{self.n}")
        passed = self.n - self.failed - self.skipped
        print(f"# {passed} passed, {self.failed} failed" +
              (f", {self.skipped} skipped" if self.skipped else ""))
        return 1 if self.failed else 0

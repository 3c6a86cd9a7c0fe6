"""One boot of one target, judged: the kind's stream of lines into the one
Judge, the expectations held against the results, and tests/run's exit
status out."""
import os
import time

from ..boot.cmdline import PATTERNS_MAX, kernel_cmdline
from ..boot.test_list import list_tests, running_test
from ..judge.expectations import (expectation_file, load_expectations, recorded_host,
                                  required_header)
from ..judge.judge import Judge, reason_of
from ..judge.outcome import Outcome
from ..report.outfile import ToolError
from ..targets import Launch

# tests/run's exit statuses
EXIT_MATCH, EXIT_MISMATCH, EXIT_ERROR = 0, 1, 2


class TargetRun:
    """One boot of one target (its kind, bound to the run's programs),
    judged under the run's options; extra_excluded: expectations that
    leave more tests out (--suggest-expectations' stops)."""

    def __init__(self, kind, options, extra_excluded=()):
        self.kind = kind
        self.target = kind.target
        self.options = options
        # --subset: the target's make-test selection, unless --tests chose
        self.subset = bool(kind.boots_here and options.subset and
                           self.target.subset and not options.tests)
        self.tests = (self.target.subset if self.subset else
                      options.tests if kind.boots_here else "")
        self.extra_excluded = list(extra_excluded)
        self.running_id = None  # the test that was running when it stopped
        self.stop = None        # why it stopped, if it stopped mid-run
        self.seconds = 0.0
        self.available, self.why_not = kind.availability()
        self.judge = None
        self.outcome = None
        self.excluded = []      # expectations that keep tests out of the run
        self.problems = []      # harness-level: the run could not be done
        self.mismatches = []    # result-level: expectations do not hold
        # The mismatches of a run on another host than the expectation
        # file's: reported, but no pmctest regression (host_note says why).
        self.differences = []
        self.host_note = None
        self.exit = None
        self._expect_path = None

    def expect_path(self):
        """The target's expectation file for the host its kind says it
        boots on (what the emulator binary says of itself, before the
        boot: the '!' lines must be known then): the target's file, or a
        host variant of it (judge/expectations.py)."""
        if self._expect_path is None:
            host = self.kind.host() if self.available else None
            self._expect_path = expectation_file(self.options.expect_dir,
                                                 self.target.expect, host)
        return self._expect_path

    def run(self, scratch, out):
        """Boots the target in the run's scratch (hosttools/boot/workdir.py),
        its log lines to out, and judges it; a log that cannot be written
        ends the boot and is the run's problem."""
        try:
            return self._run(scratch, out)
        except ToolError as e:
            self.problems.append(str(e))
            self.exit = EXIT_ERROR
            return self

    def _run(self, scratch, out):
        if not self.available:
            return self._cannot(f"not available here: {self.why_not}")
        try:
            self._expectations(out)
        except (ValueError, OSError) as e:
            return self._cannot(str(e))
        if len(self.excluded) > PATTERNS_MAX:
            return self._cannot(
                f"{len(self.excluded)} '!' expectations, but the kernel takes at "
                f"most {PATTERNS_MAX} exclude= patterns: merge them")
        if os.path.basename(self.expect_path()) != self.target.expect:
            path = os.path.relpath(self.expect_path())
            path = self.expect_path() if path.startswith("..") else path
            out(f"# run: expectations {path}, "
                f"recorded on {recorded_host(self.expect_path())}")
        for e in self.excluded:
            out(f"# run: left out {e.pattern} ({e.where}): {e.reason}")
        start = time.monotonic()
        out(f"# run: target {self.target.name}: {self.target.about}")
        self.outcome = self._boot(scratch, out)
        self.seconds = time.monotonic() - start
        problem = self.kind.judged(self)
        if problem:
            self.outcome.problem = problem
        self._check()
        return self

    def _cannot(self, why):
        self.problems.append(why)
        self.exit = EXIT_ERROR
        return self

    def _expectations(self, out):
        """The expectation file, read: the excluded patterns and a Judge of
        the rest."""
        suggest = self.options.suggest and self.kind.boots_here
        expectations = load_expectations(self.expect_path(), missing_ok=suggest)
        if suggest:             # keep only what keeps the run alive
            expectations = [e for e in expectations if e.excluded]
        excluded = [e for e in expectations if e.excluded]
        if self.options.include_excluded and self.kind.boots_here:
            excluded = []
        self.excluded = excluded + self.extra_excluded
        self.judge = Judge([e for e in expectations if not e.excluded], out)

    def cmdline(self):
        return kernel_cmdline(self.tests, [e.pattern for e in self.excluded],
                              self.target.kernel_args, self.options.kernel_args)

    def _boot(self, scratch, out):
        """The kind's stream of lines into the Judge: the Outcome."""
        timeout = self.options.timeout or self.target.timeout
        launch = Launch(cmdline=self.cmdline(), timeout=timeout,
                        workdir=scratch.workdir, isos=scratch.isos,
                        note=lambda text: out(f"# run: {text}"),
                        console_log=self.options.console_log(self.target.name),
                        keep=self.options.keep)
        try:
            stream = self.kind.boot(launch)
            for line in stream.lines():
                self.judge.feed(line)
            return stream.outcome(self.judge)
        except RuntimeError as e:
            outcome = Outcome()
            outcome.problem = str(e)
            return outcome

    def _check(self):
        j, o = self.judge, self.outcome
        if o.problem:
            msg = o.problem
            if j.lines and not j.tap.summary and not j.bailed:
                self.stop = msg
                msg += "; " + self.where_it_stopped()
            self.problems.append(msg)
        else:
            verdict = j.tap.finish(o.status)
            if verdict.reason:
                msg = verdict.reason
                if verdict.reason.startswith("truncated"):
                    msg += "; " + self.where_it_stopped()
                self.problems.append(msg)
        self._hold_results()
        if not self.problems:
            self.hold_header()
        selection = self.tests if o.selection is None else o.selection
        if not self.problems and (not selection or self.subset):
            for e in self.unused_expectations():
                self.mismatches.append(
                    f"stale expectation: {e.where}: {e.pattern} matches no "
                    "test of the run")
        if o.changed:   # not pmctest's regression: the target changed
            self.mismatches = [f"{o.changed}: {m}" for m in self.mismatches]
        self.hold_host()
        if self.kind.foreign:
            self.mismatches, self.differences = [], []
        self.exit = (EXIT_ERROR if self.problems else
                     EXIT_MISMATCH if self.mismatches else EXIT_MATCH)

    def _hold_results(self):
        for r in self.judge.results:
            if r.verdict == "unexpected":
                self.mismatches.append(
                    f"unexpected failure: {r.id}: {reason_of(r)}")
            elif r.verdict == "stale":
                e = r.expectation
                self.mismatches.append(
                    f"stale expectation: {e.where}: {r.id} "
                    f"{'was skipped' if r.kind == 'skip' else 'passed'}")

    def unused_expectations(self):
        """The expectations no test matched. A --subset run leaves tests
        out on purpose: there, only those that match no test of the default
        run (the ELF's own list) count."""
        unused = self.judge.unused_expectations()
        if not self.subset or not unused:
            return unused
        ids = list_tests(self.kind.programs, "")
        if not ids:     # no list to hold them against: say nothing
            return []
        return [e for e in unused
                if not any(e.regex.match(i) for i in ids)]

    def hold_header(self):
        """Each line the expectation file's "# header:" lines require must
        be in the log (the kernel writes its header before the first
        result); where one is missing, the run's lines that start as it
        does say what the kernel wrote instead."""
        lines = self.judge.lines
        for want in required_header(self.expect_path()):
            if want in lines:
                continue
            start = want.split(":", 1)[0] + ":"
            said = [l for l in lines if l.startswith(start)]
            self.mismatches.append(
                f"header: no line {want!r} (the kernel wrote "
                f"{'; '.join(repr(l) for l in said[:3]) or 'none such'})")

    def hold_host(self):
        """A result that differs from an expectation file recorded on
        another host (its "# host:" line against the run's) is the other
        host's doing, not a regression of pmctest: the mismatches become
        differences, reported but not failing the run."""
        recorded = recorded_host(self.expect_path())
        here = self.outcome.host if self.outcome else ""
        if not (self.mismatches and recorded and here and recorded != here):
            return
        expect = os.path.relpath(self.expect_path())
        self.host_note = (f"{expect} was recorded on {recorded}; this run "
                          f"is on {here}: a different host, not a pmctest "
                          "regression (record this host's results with "
                          "--suggest-expectations)")
        self.differences, self.mismatches = self.mismatches, []

    def where_it_stopped(self):
        done = self.judge.results
        head = ("before any result" if not done else
                f"after result {done[-1].number} ({done[-1].id})")
        # The TAP names a test only once it ends: which one was running
        # when the boot stopped only the ELF's own list says (a `list`
        # boot under TCG, hosttools/boot/test_list.py).
        running = None
        if self.kind.boots_here:
            running = running_test(self.kind.programs, self.list_cmdline(),
                                   len(done) + 1)
        self.running_id = running
        if running:
            return f"{head}; test {len(done) + 1} ({running}) was running"
        return head

    def list_cmdline(self):
        """The command line whose `list` orders the tests as this run did:
        its selection and what it left out (the target's own words change
        no order)."""
        return kernel_cmdline(self.tests, [e.pattern for e in self.excluded],
                              "", self.options.kernel_args)

    def counts(self):
        return self.judge.counts() if self.judge else None

    def verdict_word(self):
        if not self.available:
            return "n/a"
        if self.differences and self.exit == EXIT_MATCH:
            return "OTHER-HOST"
        return {EXIT_MATCH: "MATCH", EXIT_MISMATCH: "MISMATCH",
                EXIT_ERROR: "ERROR"}[self.exit]

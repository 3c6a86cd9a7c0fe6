"""One boot of one target, judged: expectations in, problems, mismatches
and tests/run's exit status out."""
import os
import time
from types import SimpleNamespace

from .availability import availability
from .bochs import run_bochs
from .cmdline import KERNEL_MAX_PATTERNS
from .expectations import load_expectations, recorded_host, required_header
from .judge import Judge, reason_of
from .nested import run_nested
from .outcome import Outcome
from .outfile import ToolError
from .qemu import run_qemu
from .vmm import run_vmm
from .test_list import list_tests, running_test
from .xen import run_xen

BOOTS = {"qemu": run_qemu, "bochs": run_bochs, "nested": run_nested,
         "xen": run_xen}

# tests/run's exit statuses
EXIT_MATCH, EXIT_MISMATCH, EXIT_ERROR = 0, 1, 2


class TargetRun:
    """One boot of one target, judged."""

    def __init__(self, target, opts, ctx, out, extra_excluded=()):
        self.target = target
        # --subset: the target's make-test selection, unless --tests chose
        self.subset = bool(opts.subset and target.get("subset") and
                           not opts.tests)
        if self.subset:
            opts = SimpleNamespace(**vars(opts))
            opts.tests = target["subset"]
        self.extra_excluded = list(extra_excluded)
        self.running_id = None  # the test that was running when it stopped
        self.stop = None        # why it stopped, if it stopped mid-run
        self.opts = opts
        self.ctx = ctx
        self.out = out
        self.seconds = 0.0
        self.available, self.why_not = self.availability()
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

    def availability(self):
        """(whether the target can boot here, why not)"""
        return availability(self.target, self.opts)

    def expect_path(self):
        return os.path.join(self.opts.expect_dir, self.target["expect"])

    def run(self):
        """Boots the target and judges it; a log that cannot be written
        ends the boot and is the run's problem."""
        try:
            return self._run()
        except ToolError as e:
            self.problems.append(str(e))
            self.exit = EXIT_ERROR
            return self

    def _run(self):
        if not self.available:
            self.problems.append(f"not available here: {self.why_not}")
            self.exit = EXIT_ERROR
            return self
        try:
            expectations = load_expectations(self.expect_path(),
                                             missing_ok=self.opts.suggest)
            if self.opts.suggest:       # keep only what keeps the run alive
                expectations = [e for e in expectations if e.excluded]
        except (ValueError, OSError) as e:
            self.problems.append(str(e))
            self.exit = EXIT_ERROR
            return self
        excluded = [e for e in expectations if e.excluded]
        if self.opts.include_excluded:
            excluded = []
        excluded += self.extra_excluded
        self.excluded = excluded
        self.judge = Judge([e for e in expectations if not e.excluded],
                           self.out)
        if len(excluded) > KERNEL_MAX_PATTERNS:
            self.problems.append(
                f"{len(excluded)} '!' expectations, but the kernel takes at "
                f"most {KERNEL_MAX_PATTERNS} exclude= patterns: merge them")
            self.exit = EXIT_ERROR
            return self
        for e in excluded:
            self.out(f"# run: left out {e.pattern} ({e.where}): {e.reason}")
        self.ctx = SimpleNamespace(**vars(self.ctx))
        self.ctx.excluded = [e.pattern for e in excluded]
        timeout = self.opts.timeout or self.target["timeout"]
        start = time.monotonic()
        self.out(f"# run: target {self.target['name']}: "
                 f"{self.target['about']}")
        try:
            self.outcome = self.boot(timeout)
        except RuntimeError as e:
            self.outcome = Outcome()
            self.outcome.problem = str(e)
        self.seconds = time.monotonic() - start
        self._check()
        return self

    def boot(self, timeout):
        """Boots the target, its serial lines fed to self.judge: the
        Outcome."""
        boot = BOOTS.get(self.target["emulator"], run_vmm)
        return boot(self.target, self.opts, self.ctx, self.judge, timeout)

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
        for r in j.results:
            if r.verdict == "unexpected":
                self.mismatches.append(
                    f"unexpected failure: {r.id}: {reason_of(r)}")
            elif r.verdict == "stale":
                e = r.expectation
                self.mismatches.append(
                    f"stale expectation: {e.where}: {r.id} "
                    f"{'was skipped' if r.kind == 'skip' else 'passed'}")
        if not self.problems:
            self.hold_header()
        if not self.problems and (not self.opts.tests or self.subset):
            for e in self.unused_expectations():
                self.mismatches.append(
                    f"stale expectation: {e.where}: {e.pattern} matches no "
                    "test of the run")
        if o.changed:   # not pmctest's regression: the target changed
            self.mismatches = [f"{o.changed}: {m}" for m in self.mismatches]
        self.hold_host()
        self.exit = (EXIT_ERROR if self.problems else
                     EXIT_MISMATCH if self.mismatches else EXIT_MATCH)

    def unused_expectations(self):
        """The expectations no test matched. A --subset run leaves tests
        out on purpose: there, only those that match no test of the default
        run (the ELF's own list) count."""
        unused = self.judge.unused_expectations()
        if not self.subset or not unused:
            return unused
        whole = SimpleNamespace(**vars(self.opts))
        whole.tests, whole.kernel_args = "", ""
        ids = list_tests(whole, ())
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
        if not done:
            head = "before any result"
        else:
            last = done[-1]
            head = f"after result {last.number} ({last.id})"
        running = running_test(self.opts, self.ctx.excluded, len(done) + 1)
        self.running_id = running
        if running:
            return f"{head}; test {len(done) + 1} ({running}) was running"
        return head

    def counts(self):
        return self.judge.counts() if self.judge else None

    def verdict_word(self):
        if not self.available:
            return "n/a"
        if self.differences and self.exit == EXIT_MATCH:
            return "OTHER-HOST"
        return {EXIT_MATCH: "MATCH", EXIT_MISMATCH: "MISMATCH",
                EXIT_ERROR: "ERROR"}[self.exit]

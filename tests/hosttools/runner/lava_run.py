"""A finished LAVA job judged as tests/run --target judges a boot: the
kernel's serial lines from the job's log fed to the same Judge, against
the expectation file of the target the job's metadata names, with the
same verdict, JUnit and report. The TAP decides; LAVA's own results are
only held against it. Before that, what makes the job no whole run of
that target is a problem (status 2): a job LAVA did not finish or
failed, a hypervisor other than the target's (a lab's device dictionary
can force KVM whatever the job asked), test IDs the TAP repeats or that
LAVA's names cannot tell apart, LAVA results that disagree with the
TAP."""
import collections
import re
from types import SimpleNamespace

from ..lava_ids import collisions, lava_case
from .outcome import Outcome
from .target_run import TargetRun

# The kernel's header line on the hypervisor (arch/platform.c): CPUID
# 40000000H's signature, non-printing bytes as '.'.
HYPERVISOR = re.compile(r'^# hypervisor: (?:"([^"]*)"|none reported)')
# The kernel's command line as its header says it; a tests= in it.
COMMAND_LINE = re.compile(r'^# boot: [^,]*, command line "(.*)"$')
TESTS_OPTION = re.compile(r"(?:^| )tests=(\S+)")
EXCLUDE_OPTION = re.compile(r"(?:^| )exclude=(\S+)")
# The signature each QEMU accelerator gives the guest.
SIGNATURES = {"tcg": "TCGTCGTCGTCG", "kvm": "KVMKVMKVM..."}
# The test monitor of the job templates (tests/lava/): LAVA's results
# of the kernel's tests carry it as their definition.
MONITOR = "pmctest"
VERDICT = {"pass": "pass", "fail": "fail", "skip": "skip"}
SHOWN = 5           # offending IDs named in one problem


class LavaRun(TargetRun):
    """A LAVA job, judged: a TargetRun whose boot is the job's log."""

    def __init__(self, job, opts, out):
        target = dict(job.target, name=f"{job.target['name']}.lava-{job.label}",
                      about=f"LAVA job {job.label}: {job.target['about']}")
        # no boot here: no ELF to list tests with, no emulator to probe
        opts = SimpleNamespace(**vars(opts))
        opts.elf, opts.qemu, opts.tests = "", "", ""
        opts.subset, opts.suggest = False, False
        opts.include_excluded, opts.timeout = False, None
        self.job = job
        self.wrong_target = False   # another hypervisor ran the job
        super().__init__(target, opts, SimpleNamespace(), out)

    def availability(self):
        return True, None       # the job ran in the lab

    def boot(self, timeout):
        outcome = Outcome()
        outcome.emulator = f"LAVA job {self.job.label}"
        release = self.job.qemu_release()
        if release and self.target["accel"] == "tcg":
            outcome.host = release
            outcome.emulator += f", {release}"
        result = self.job.job_result()
        if result is None:
            outcome.problem = ("the log ends before LAVA's job did (no 'job' "
                               "result): a cut log, or a job still running")
        elif result.get("result") != "pass":
            why = result.get("error_msg") or "; ".join(self.job.errors()[:2])
            outcome.problem = (f"LAVA's job ended '{str(result.get('result'))[:20]}'"
                               f"{': ' + str(why)[:200] if why else ''}: not "
                               "carried out")
        lines = self.job.serial_lines()
        for line in lines:
            self.judge.feed(line)
        self.opts.tests = option(lines, TESTS_OPTION)
        if not outcome.problem:
            outcome.problem = self.lava_problem(lines)
        return outcome

    def _check(self):
        super()._check()
        if self.wrong_target:   # its results say nothing of the target's file
            self.mismatches, self.differences = [], []

    def lava_problem(self, lines):
        """Why the job is no whole run of its target, or None."""
        want = SIGNATURES.get(self.target["accel"])
        said = next((m for m in map(HYPERVISOR.match, lines) if m), None)
        if said is None:
            return "no '# hypervisor:' line in the kernel's header"
        if said.group(1) != want:
            self.wrong_target = True
            return (f"the kernel's header says hypervisor "
                    f"{said.group(0)[len('# hypervisor: '):][:40]}, but "
                    f"{self.target['expect']} is the expectation file of "
                    f"QEMU {self.target['accel'].upper()} (\"{want}\"): the "
                    "lab ran another hypervisor than the job's target")
        left_out = set(option(lines, EXCLUDE_OPTION).split(","))
        missing = [e.pattern for e in self.excluded if e.pattern not in left_out]
        if missing:
            return (f"the kernel's command line has no exclude= for "
                    f"{', '.join(missing[:SHOWN])}: {self.target['expect']} "
                    "lists them as tests that stop the target, and a lab's "
                    "job must leave them out (tests/lava.py --lab --cmdline)")
        ids = [r.id for r in self.judge.results]
        twice = [i for i, n in collections.Counter(ids).items() if n > 1]
        if twice:
            return f"the TAP repeats test IDs: {', '.join(twice[:SHOWN])}"
        clash = collisions(ids)
        if clash:
            return ("test IDs LAVA's case names cannot tell apart: " +
                    "; ".join(f"{' and '.join(v)} are all {k}"
                              for k, v in list(clash.items())[:SHOWN]))
        return self.results_problem()

    def results_problem(self):
        """LAVA's results of the kernel's tests held against the TAP: one
        each, under the case name LAVA makes of its ID, with its ID in
        extra.test_case_id and its verdict."""
        lava = [r for r in self.job.results() if r.get("definition") == MONITOR]
        by_case = collections.defaultdict(list)
        for r in lava:
            by_case[str(r.get("case"))].append(r)
        twice = [c for c, rs in by_case.items() if len(rs) > 1]
        if twice:
            return f"LAVA recorded cases twice: {', '.join(twice[:SHOWN])}"
        tap = {lava_case(r.id): r for r in self.judge.results}
        differ = []
        for case, r in tap.items():
            got = by_case.get(case)
            if not got:
                differ.append(f"{r.id}: no LAVA result")
                continue
            extra = got[0].get("extra")
            original = extra.get("test_case_id") if isinstance(extra, dict) else None
            if original is not None and original != r.id:
                differ.append(f"{r.id}: LAVA's test_case_id is {str(original)[:40]!r}")
            elif VERDICT.get(got[0].get("result")) != r.kind:
                differ.append(f"{r.id}: TAP {r.kind}, LAVA "
                              f"{str(got[0].get('result'))[:20]}")
        differ += [f"{c[:40]}: a LAVA result with no TAP line"
                   for c in by_case if c not in tap]
        if differ:
            return (f"LAVA's results disagree with the TAP ({len(differ)} "
                    f"tests): {'; '.join(differ[:SHOWN])}")
        return None


def option(lines, pattern):
    """The value of an option of the kernel's command line, as its header
    says it, or "": tests= is a selection, like tests/run --tests (the
    expectations of the tests it left out are not stale); exclude= the
    patterns it left out."""
    for m in map(COMMAND_LINE.match, lines):
        if m:
            value = pattern.search(m.group(1))
            return value.group(1) if value else ""
    return ""


def judged(job, opts, out):
    """The LavaRun of job, judged."""
    return LavaRun(job, opts, out).run()

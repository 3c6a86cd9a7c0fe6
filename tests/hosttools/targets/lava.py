"""The kind "lava": a finished LAVA job, judged as a boot of the target its
metadata names is judged. Its lines are the kernel's serial lines in the
job's log (hosttools/lava/), fed to the same Judge against that target's
expectation file, with the same verdict, JUnit and report. The TAP
decides; LAVA's own results are only held against it. Before that, what
makes the job no whole run of that target is a problem (status 2): a job
LAVA did not finish or failed, a hypervisor other than the target's (a
lab's device dictionary can force KVM whatever the job asked), test IDs
the TAP repeats or that LAVA's names cannot tell apart, LAVA results that
disagree with the TAP.

It is no row of table.py: tests/lava-judge and tests/run --lava make one
of a job (lava_kind()). LAVA's qemu device type runs the "qemu" kind's
targets only."""
import collections
import re

from ..lava.ids import collisions, lava_case
from ..lava.job import TARGET_KEY, JobError
from .kind import Kind, new_outcome

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


def lava_kind(job, programs, by_name):
    """The Lava kind of a LavaJob; by_name finds a target of the table.
    JobError where the job names no target LAVA can run."""
    target = by_name(job.target_name)
    where, name = job.definition, job.target_name
    if not target:
        raise JobError(f"{where}: {TARGET_KEY} {name[:80]!r} is no target of "
                       "tests/run (tests/run --list-targets lists them)")
    if target.kind != "qemu":
        raise JobError(f"{where}: {TARGET_KEY} {name} is a {target.kind} "
                       "target; LAVA's qemu device type runs QEMU targets only")
    return Lava(target.renamed(f"{target.name}.lava-{job.label}",
                               f"LAVA job {job.label}: {target.about}"),
                programs, job)


class Lava(Kind):
    NAME = "lava"
    boots_here = False      # no ELF to list tests with, no emulator to probe

    def __init__(self, target, programs, job):
        super().__init__(target, programs)
        self.job = job

    def availability(self):
        return True, ""         # the job ran in the lab

    def boot(self, launch):
        return LavaStream(self)

    def judged(self, run):
        """Why the job is no whole run of its target, or None."""
        if run.outcome.problem:
            return None
        lines = run.judge.lines
        accel = self.target.params["accel"]
        want = SIGNATURES.get(accel)
        said = next((m for m in map(HYPERVISOR.match, lines) if m), None)
        if said is None:
            return "no '# hypervisor:' line in the kernel's header"
        if said.group(1) != want:
            self.foreign = True     # its results say nothing of the file
            return (f"the kernel's header says hypervisor "
                    f"{said.group(0)[len('# hypervisor: '):][:40]}, but "
                    f"{self.target.expect} is the expectation file of "
                    f"QEMU {accel.upper()} (\"{want}\"): the "
                    "lab ran another hypervisor than the job's target")
        left_out = set(option(lines, EXCLUDE_OPTION).split(","))
        missing = [e.pattern for e in run.excluded if e.pattern not in left_out]
        if missing:
            return (f"the kernel's command line has no exclude= for "
                    f"{', '.join(missing[:SHOWN])}: {self.target.expect} "
                    "lists them as tests that stop the target, and a lab's "
                    "job must leave them out (tests/lava.py --lab --cmdline)")
        return self.ids_problem(run.judge.results) or \
            self.results_problem(run.judge.results)

    def ids_problem(self, results):
        ids = [r.id for r in results]
        twice = [i for i, n in collections.Counter(ids).items() if n > 1]
        if twice:
            return f"the TAP repeats test IDs: {', '.join(twice[:SHOWN])}"
        clash = collisions(ids)
        if clash:
            return ("test IDs LAVA's case names cannot tell apart: " +
                    "; ".join(f"{' and '.join(v)} are all {k}"
                              for k, v in list(clash.items())[:SHOWN]))
        return None

    def results_problem(self, results):
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
        tap = {lava_case(r.id): r for r in results}
        differ = [d for case, r in tap.items()
                  for d in [case_difference(r, by_case.get(case))] if d]
        differ += [f"{c[:40]}: a LAVA result with no TAP line"
                   for c in by_case if c not in tap]
        if differ:
            return (f"LAVA's results disagree with the TAP ({len(differ)} "
                    f"tests): {'; '.join(differ[:SHOWN])}")
        return None


def case_difference(r, got):
    """How LAVA's result of a test differs from its TAP line, or None."""
    if not got:
        return f"{r.id}: no LAVA result"
    extra = got[0].get("extra")
    original = extra.get("test_case_id") if isinstance(extra, dict) else None
    if original is not None and original != r.id:
        return f"{r.id}: LAVA's test_case_id is {str(original)[:40]!r}"
    if VERDICT.get(got[0].get("result")) != r.kind:
        return f"{r.id}: TAP {r.kind}, LAVA {str(got[0].get('result'))[:20]}"
    return None


class LavaStream:
    """The job's log as a boot's stream: its kernel lines, and an outcome
    from LAVA's result of the whole job."""

    def __init__(self, kind):
        self.kind = kind
        self.job = kind.job

    def lines(self):
        return iter(self.job.serial_lines())

    def outcome(self, judge):
        o = new_outcome(f"LAVA job {self.job.label}")
        release = self.job.qemu_release()
        if release and self.kind.target.params["accel"] == "tcg":
            o.host = release
            o.emulator += f", {release}"
        result = self.job.job_result()
        if result is None:
            o.problem = ("the log ends before LAVA's job did (no 'job' "
                         "result): a cut log, or a job still running")
        elif result.get("result") != "pass":
            why = result.get("error_msg") or "; ".join(self.job.errors()[:2])
            o.problem = (f"LAVA's job ended '{str(result.get('result'))[:20]}'"
                         f"{': ' + str(why)[:200] if why else ''}: not "
                         "carried out")
        # tests= is a selection, as tests/run --tests is: the expectations
        # of the tests it left out are not stale
        o.selection = option(judge.lines, TESTS_OPTION)
        return o


def option(lines, pattern):
    """The value of an option of the kernel's command line, as its header
    says it, or ""."""
    for m in map(COMMAND_LINE.match, lines):
        if m:
            value = pattern.search(m.group(1))
            return value.group(1) if value else ""
    return ""

"""An AP lost at every line it writes: the log stays whole TAP (SMP-6).

pmctest-sim's ap-hangs-writing deviation stops CPU 1 as it writes its
Nth line of the log, before any of it is out (--ap-stop-line N, as the
kernel's ring holds back a line not all put) or once all of it is
(--ap-stop-after-line N, before the code after the write runs); CPU 2
then runs its part. For every line CPU 1 writes, each way,
with and without `verbose`, on an AMD and an Intel profile with three
CPUs, and once with only the APs' tests selected (their SKIP reasons and
deviations then said in full on an AP), the log must read as a completed
run: the plan's count of results numbered in order, every YAML block
closed, the summary's counts the results', the status theirs; or, where an AP
had written all its result lines, a Bail out! naming the lost CPU and
status 2. No "same as ID" or `same:` may name a test whose reason or
deviation is not in the log (CPU 2 says what CPU 1 said in full).
"""
import os
import subprocess

from .. import TESTS
from ..report.tap_out import Tap
from ..judge.tap import SKIP_SAME, read
from . import argument_parser

PROFILES = ["amd-perfmon-v2", "intel-v5-sapphire-rapids"]
CPUS = 3
SELECTIONS = [[], ["verbose"], ["tests=*@cpu*"], ["tests=*@cpu*", "verbose"]]


def sim_run(sim, profile, line, words, after=False):
    cmd = [sim, "--profile", os.path.join(TESTS, "profiles", profile + ".profile"),
           "--cpus", str(CPUS), "--deviate", "ap-hangs-writing",
           "--ap-stop-after-line" if after else "--ap-stop-line", str(line)] + words
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=60)
    return proc.returncode, proc.stdout.decode("utf-8", "replace").splitlines()


def dangling(reader):
    """The references to an earlier test whose words are not in the log."""
    said_in_full, problems = {}, []
    for r in reader.results:
        if r.kind == "skip":
            m = SKIP_SAME.match(r.skip_reason or "")
            if m and said_in_full.get(m.group(1)) != "skip":
                problems.append(f"{r.id}: SKIP same as {m.group(1)}, which gave no reason")
            if not m:
                said_in_full[r.id] = "skip"
        same = [d for d in r.diagnostics if d.startswith("same: ")]
        if same:
            named = same[0][len("same: "):].split(": ")[0]
            if said_in_full.get(named) != "deviation":
                problems.append(f"{r.id}: same: {named}, which reported no deviation in full")
        elif any(d.startswith("message: ") for d in r.diagnostics) and \
                not any(d.startswith("cut: ") for d in r.diagnostics):
            said_in_full[r.id] = "deviation"
    return problems


def judge(code, lines):
    """What is wrong with one run's log, and whether it stopped an AP."""
    reader = read(lines)
    bail = next((l for l in lines if l.startswith("Bail out!")), None)
    problems = dangling(reader)
    if bail:
        if code != 2 or "was lost in" not in bail:
            problems.append(f"status {code}, {bail!r}")
        if reader.problem:
            problems.append(f"the TAP breaks its form at {reader.problem}")
        return problems, True
    verdict = reader.finish(code)
    if verdict.status == 2:
        problems.append(f"status {code}: {verdict.reason}")
    lost = any(r.id.endswith("@cpu1") and r.kind == "fail" and
               "SMP-6" in r.statements.split() for r in reader.results)
    return problems, lost


def main(argv):
    p = argument_parser(__name__, __doc__)
    p.add_argument("--sim", required=True)
    args = p.parse_args(argv)
    tap = Tap()
    for profile in PROFILES:
        for words in SELECTIONS:
            # The lines CPU 1 writes when it is not lost.
            _, whole = sim_run(args.sim, profile, 9999, words)
            first = [next(k for k, l in enumerate(whole) if f"@cpu{n}" in l)
                     for n in (1, 2)]
            ap_lines = first[1] - first[0]
            failures, stopped = [], 0
            for line in range(1, ap_lines + 1):
                for after in (False, True):
                    code, lines = sim_run(args.sim, profile, line, words, after)
                    problems, lost = judge(code, lines)
                    stopped += lost
                    where = "--ap-stop-after-line" if after else "--ap-stop-line"
                    failures += [f"{where} {line}: {p}" for p in problems]
            label = f"{profile}, {' '.join(words) or 'the default run'}"
            tap.check(not failures and stopped == 2 * ap_lines,
                      f"{label}: CPU 1 stopped before and after each of its lines 1-{ap_lines}: "
                      f"whole TAP, exact counts, no dangling same-as, the loss "
                      f"reported each time",
                      failures[:12])
    return tap.finish()

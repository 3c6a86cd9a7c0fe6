"""The jobs make lava-lab submits to its lab, made from tests/lava/'s lab
templates (hosttools.lava_jobs: images by URL, the context that keeps QEMU
TCG), and the one call that judges a fetched job by pmctest's own
expectations.

Each job runs one tests/run target (its route and -cpu come from
hosttools.targets), and names it in its metadata (pmctest.target), so that
the judge holds its results to that target's expectation file. Two more
jobs show how a run the lab did not carry out reads: one the lab cancels
as soon as it is queued, and one that times out because its guest never
starts (QEMU's -S: the kernel never prints, as a kernel that hangs at
boot).
"""
import collections
import os
import subprocess
import sys

from .. import TESTS
from .jobs import lab_job

Job = collections.namedtuple("Job", "name target cancel hang expect")

# status the judge gives: 0 the run matches its target's expectations;
# 2 not carried out (a job the lab cancelled or that timed out)
MATCHES, NOT_CARRIED_OUT = 0, 2
# seconds a job may take on the lab (the kernel's run takes seconds)
TIMEOUT = 300
# seconds the hung job waits before LAVA times it out
HANG_TIMEOUT = 30
CONTEXT_OPTIONS = "  extra_options:\n  - -no-reboot\n"

JOBS = [
    Job("pvh-max", "qemu-tcg-max-pvh", False, False, MATCHES),
    Job("iso-max", "qemu-tcg-max", False, False, MATCHES),
    Job("pvh-skylake", "qemu-tcg-intel", False, False, MATCHES),
    Job("iso-epyc", "qemu-tcg-amd", False, False, MATCHES),
    Job("cancelled", "qemu-tcg-max-pvh", True, False, NOT_CARRIED_OUT),
    Job("timed-out", "qemu-tcg-max-pvh", False, True, NOT_CARRIED_OUT),
]


class RenderError(Exception):
    """A job the lab templates cannot make: why."""


def render(job, files_url, t):
    """The job's YAML for the lab: its image from files_url; t: the target
    it runs, one LAVA's qemu device type runs
    (hosttools.targets.lava_device_target)."""
    image = "pmctest.iso" if t.route == "iso" else "pmctest.elf"
    text = lab_job(t.route, f"{files_url}/{image}", t.params["cpu"],
                   HANG_TIMEOUT if job.hang else TIMEOUT, t.name)
    if f"pmctest.target: {job.target}\n" not in text:
        raise RenderError(f"the lab template names another target than {job.target} "
                          f"for -cpu {t.params['cpu']} by {t.route}")
    text = text.replace("job_name: pmctest", f"job_name: pmctest lab {job.name}", 1)
    if job.hang:
        if CONTEXT_OPTIONS not in text:
            raise RenderError("the lab template has no context extra_options to add -S to")
        text = text.replace(CONTEXT_OPTIONS, CONTEXT_OPTIONS + "  - -S\n", 1)
    return text


def verdict_line(stdout, stderr):
    """The judge's one line on the run: why it could not be judged (its
    stderr), else its closing line on the target (its stdout)."""
    reasons = [line for line in stderr.splitlines() if line.startswith("run: ")]
    closing = [line[2:] for line in stdout.splitlines() if line.startswith("# run: ")]
    return (reasons or closing or ["(the judge printed no verdict)"])[-1]


def judge(folder, health):
    """(status, output, its one line) for a job fetched into folder (log.yaml,
    definition.yaml) whose health the lab gave: pmctest's judge
    (tests/lava-judge) on its log, 0 the run matches its target's
    expectations, 1 it does not, 2 not carried out or not a whole run.
    A job the lab did not finish as Complete (Canceled, Incomplete) is
    not carried out whatever its log holds: a job cancelled after its
    kernel's last line has a whole log, and only the lab's record says
    it was cancelled."""
    tool = os.path.join(TESTS, "lava-judge")
    proc = subprocess.run([sys.executable, tool, "--dir", folder], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, errors="replace", timeout=300)
    text, line = proc.stdout + proc.stderr, verdict_line(proc.stdout, proc.stderr)
    if health != "Complete" and proc.returncode != NOT_CARRIED_OUT:
        line = (f"run: the lab's health of the job is {health}: not carried out"
                f" (its log alone is judged status {proc.returncode})")
        return NOT_CARRIED_OUT, line + "\n" + text, line
    return proc.returncode, text, line

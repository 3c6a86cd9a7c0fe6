"""The jobs make lava-lab submits to its lab, rendered from tests/lava/'s
templates for a lab (images by URL, the lab's context), and the one call
that judges a fetched job by pmctest's own expectations.

Each job runs one tests/run target (its route, -cpu and vCPUs come from
hosttools.targets), and names it in its metadata (pmctest.target), so that
the judge holds its results to that target's expectation file. Two more
jobs show how a run the lab did not carry out reads: one the lab cancels
as soon as it is queued, one whose timeout is too short for the kernel to
finish.
"""
import collections
import os
import subprocess
import sys

from . import TESTS
from .targets import TARGETS

Job = collections.namedtuple("Job", "name target timeout cancel expect")

# status the judge gives: 0 the run matches its target's expectations;
# 2 not carried out (a job the lab cancelled or that timed out)
MATCHES, NOT_CARRIED_OUT = 0, 2
# seconds a job may take on the lab (the kernel's run is about 20 s)
TIMEOUT = 300
# a timeout too short for the kernel's run: the job times out
TOO_SHORT = 6

JOBS = [
    Job("pvh-max", "qemu-tcg-max-pvh", TIMEOUT, False, MATCHES),
    Job("iso-max", "qemu-tcg-max", TIMEOUT, False, MATCHES),
    Job("pvh-skylake", "qemu-tcg-intel", TIMEOUT, False, MATCHES),
    Job("iso-epyc", "qemu-tcg-amd", TIMEOUT, False, MATCHES),
    Job("cancelled", "qemu-tcg-max-pvh", TIMEOUT, True, NOT_CARRIED_OUT),
    Job("timed-out", "qemu-tcg-max-pvh", TOO_SHORT, False, NOT_CARRIED_OUT),
]

# The lab's job context: the stock qemu device type's memory (512 MiB
# otherwise) and its extra options: no reboot, and the port pmctest's
# exit writes to. Its NIC stays (the kernel does not look at it).
LAB_CONTEXT = """context:
  arch: x86_64
  memory: 64
  extra_options:
  - -no-reboot
  - -device isa-debug-exit,iobase=0xf4,iosize=4
"""
TEMPLATE_CONTEXT = "context:\n  arch: x86_64\n"


class RenderError(Exception):
    """A template that does not have what the lab replaces: what."""


def target(name):
    found = [t for t in TARGETS if t["name"] == name]
    if not found or found[0]["emulator"] != "qemu" or found[0]["firmware"] != "bios" \
            or found[0]["machine"] not in ("", "pc"):
        raise RenderError(f"{name} is not a QEMU target on pc with SeaBIOS, "
                          f"which the stock qemu device type runs")
    return found[0]


def render(job, files_url):
    """The job's YAML for the lab: images from files_url."""
    t = target(job.target)
    iso = t["route"] == "iso"
    path = os.path.join(TESTS, "lava", "job-iso.yaml" if iso else "job-pvh.yaml")
    with open(path) as f:
        text = f.read()
    for needed in (TEMPLATE_CONTEXT, "@TARGET@", "file://@ISO@" if iso else "file://@ELF@"):
        if needed not in text:
            raise RenderError(f"{path} has no {needed.strip()!r} for the lab to replace")
    image = "pmctest.iso" if iso else "pmctest.elf"
    for key, value in ((TEMPLATE_CONTEXT, LAB_CONTEXT),
                       ("file://@ISO@", f"{files_url}/{image}"),
                       ("file://@ELF@", f"{files_url}/{image}"),
                       ("job_name: pmctest", f"job_name: pmctest lab {job.name}"),
                       ("@APPEND@", ""), ("@CPU@", t["cpu"]), ("@SMP@", str(t["cpus"])),
                       ("@TARGET@", job.target), ("@TIMEOUT@", str(job.timeout))):
        text = text.replace(key, value)
    return text


def judge(folder, health):
    """(status, output) for a job fetched into folder (log.yaml,
    definition.yaml) whose health the lab gave: pmctest's judge
    (tests/lava-judge) on its log, 0 the run matches its target's
    expectations, 1 it does not, 2 not carried out or not a whole run.
    A job the lab did not finish as Complete (Canceled, Incomplete) is
    not carried out whatever its log holds: a job cancelled after its
    kernel's last line has a whole log, and only the lab's record says
    it was cancelled."""
    tool = os.path.join(TESTS, "lava-judge")
    if not os.path.exists(tool):
        return 2, "run: tests/lava-judge is not on this branch (issue #37 item 2)\n"
    proc = subprocess.run([sys.executable, tool, "--dir", folder], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, errors="replace", timeout=300)
    text = proc.stdout + proc.stderr
    if health != "Complete" and proc.returncode != NOT_CARRIED_OUT:
        return NOT_CARRIED_OUT, (f"run: the lab's health of the job is {health}: not carried out"
                                 f" (its log alone is judged status {proc.returncode})\n" + text)
    return proc.returncode, text

"""pmctest's LAVA job templates (tests/lava/), filled in: the local jobs
lava-run runs here (job-pvh.yaml, job-iso.yaml) and the jobs for a real
lab (lab-pvh.yaml, lab-iso.yaml for its qemu device type, lab-x86-iso.yaml
for a bare-metal x86 board: not tried here), whose images come from URLs
the lab serves. Each names its tests/run target in its metadata (the
caller finds it: hosttools.targets.lava_target)."""
import os
import re

from .. import TESTS

JOBS = os.path.join(TESTS, "lava")
LAB_TEMPLATES = {"pvh": "lab-pvh.yaml", "iso": "lab-iso.yaml",
                 "x86": "lab-x86-iso.yaml"}
# What a filled-in value may hold: it lands in YAML and on QEMU's
# command line unquoted, so no space, quote, '#' or ': '.
URL = re.compile(r"^(https?|file)://[A-Za-z0-9._~/?&=%+-]+(:[0-9]+)?"
                 r"[A-Za-z0-9._~/?&=%+-]*$")
CPU = re.compile(r"^[A-Za-z0-9_.,=+-]{1,64}$")


def fill(template, values):
    """The template's text with each @KEY@ of values replaced."""
    with open(os.path.join(JOBS, template)) as f:
        job = f.read()
    for key, value in values.items():
        job = job.replace(f"@{key}@", value)
    return job


def lab_problem(route, url, cpu):
    """Why these values make no lab job, or None."""
    if route not in LAB_TEMPLATES:
        return f"--lab: one of {', '.join(LAB_TEMPLATES)}"
    m = URL.match(url or "")
    if not m:
        return ("--image-url: an http://, https:// or file:// URL of "
                "letters, digits and ._~/?&=%+- (it lands in YAML unquoted)")
    if route == "x86" and m.group(1) != "http":
        return "--image-url: iPXE's sanboot needs an http:// URL"
    if not CPU.match(cpu):
        return "--cpu: a QEMU -cpu model of letters, digits and _.,=+-"
    return None


def lab_job(route, url, cpu, timeout, target, cmdline=""):
    """The lab job of route (pvh, iso, x86) for the image at url; target:
    the tests/run target it is (hosttools.targets.lava_target), or
    "none"."""
    return fill(LAB_TEMPLATES[route], {
        "ELF_URL": url, "ISO_URL": url, "CPU": cpu, "TARGET": target,
        "TIMEOUT": str(timeout),
        "APPEND": f"-append '{cmdline}'" if cmdline else ""})

#!/usr/bin/env python3
"""Run pmctest as a LAVA job with lava-run, and read back what LAVA
recorded. lava-run is LAVA 2023.01, Debian 12's, in a throwaway bookworm
root (hosttools/images/lava_root.py: cached, nothing installed here), on
a Debian 12 host and a Debian 13 host alike; the jobs, the images and the
output folder are bound into it at their own paths.

  lava.py --elf ELF [--cmdline WORDS] [--cpu CPU] [--out DIR]
  lava.py --iso ISO [--cpu CPU] [--out DIR]
      renders tests/lava/job-pvh.yaml for ELF (job-iso.yaml for ISO, whose
      command line is built in), runs it and prints LAVA's
      results, one line per test; exits 2 if the job did not complete,
      1 if LAVA recorded a failed test, else 0.
  lava.py --lab pvh|iso|x86 --image-url URL [--cpu CPU] [--cmdline WORDS]
      prints the job for a real lab (tests/lava/lab-*.yaml): the image
      from the lab's URL; x86 is a bare-metal board's, not tried here.
  lava.py --elf ELF --iso ISO --check
      make test's check, TAP on stdout: LAVA's console logger writes
      its own "poweroff" as the console's line when the echo comes
      late (the shape of tests/lava/logs/pvh-poweroff-echo.log); the
      lab templates, their images served from 127.0.0.1, pass lava-run
      --validate (the bare-metal one LAVA's job schema), and
      lab-pvh.yaml runs on the stock qemu device type as its context
      renders it, tests/lava-judge matching it with its target; both
      local jobs pass lava-run --validate; a default run, by each route,
      records exactly one LAVA result per TAP test line, with the same
      verdict, as many as the kernel's summary counts; a kernel that
      stops before its summary line fails the job.
      SKIPs, saying why, where LAVA's root cannot be made (not root).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

from hosttools import TESTS, procs, targets
from hosttools.boot.cmdline import cmdline_problem
from hosttools.images import lava_root
from hosttools.judge import patterns as tap_log
from hosttools.judge.tap import verdict
from hosttools.lava import log as lava_log
from hosttools.lava.jobs import JOBS, fill, lab_job, lab_problem
from hosttools.lava.serve import serve
from hosttools.report.tap_out import Tap
from hosttools.tool_table import guard

VERDICT = {"ok": "pass", "not ok": "fail", "SKIP": "skip"}


def why_not_runnable():
    problem = lava_root.why_not()
    return f"LAVA's bookworm root: {problem}" if problem else None


def say(line):
    print(f"lava: {line}", file=sys.stderr, flush=True)


def dispatcher(out, images):
    """LAVA's root for this run, the images' folders bound in; its first
    install's log in out."""
    return lava_root.Dispatcher(os.path.join(out, "lava-root-install.log"), say,
                                [os.path.dirname(os.path.abspath(i)) for i in images])


def target_of(cpu, route, smp=1):
    """The tests/run target a job of -cpu cpu by route (pvh, iso; x86: a
    bare-metal board) is, or "none"."""
    t = targets.lava_target(cpu, route, smp) if route != "x86" else None
    return t.name if t else "none"


def render(image, cmdline, cpu, timeout, out, smp=1):
    """The job for image (an ELF: PVH, an ISO: GRUB) in out/job.yaml; smp
    vCPUs (the ELF's job)."""
    iso = image.endswith(".iso")
    job = fill("job-iso.yaml" if iso else "job-pvh.yaml", {
        "ELF": os.path.abspath(image), "ISO": os.path.abspath(image),
        "APPEND": f"-append '{cmdline}'" if cmdline else "",
        "CPU": cpu, "SMP": str(smp),
        "TARGET": target_of(cpu, "iso" if iso else "pvh", smp),
        "TIMEOUT": str(timeout)})
    path = os.path.join(out, "job.yaml")
    with open(path, "w") as f:
        f.write(job)
    return path


class Job:
    """One lava-run: its log records, LAVA's results and the serial lines."""

    def __init__(self, lava, job, out, validate=False, device="device-qemu.yaml"):
        """lava: the Dispatcher (LAVA's root); job: the rendered job, in
        out; its images are those of images()."""
        cmd = ["lava-run", "--job-id", "pmctest", "--output-dir",
               os.path.join(out, "lava"), "--device", os.path.join(JOBS, device), job]
        if validate:
            cmd.insert(1, "--validate")
        proc = lava.run(cmd, binds=[JOBS, out], timeout=600)
        self.returncode = proc.returncode
        self.read(proc.stdout + proc.stderr)

    def read(self, log):
        """LAVA's log records: its results, the kernel's serial lines
        (hosttools/lava/log.py says which records they are), its errors."""
        self.log = log
        records = lava_log.records(log, strict=False)
        self.results = lava_log.results(records)
        self.serial = lava_log.serial_lines(records)
        self.errors = lava_log.errors(records)

    def tests(self):
        """LAVA's per-test results: [(test ID, pass/fail/skip)]."""
        return [(r["extra"]["test_case_id"], r["result"]) for r in self.results
                if r.get("definition") == "pmctest"]

    def job_result(self):
        return next((r["result"] for r in self.results
                     if r.get("definition") == "lava" and r.get("case") == "job"),
                    None)

    def tap(self):
        """The TAP result lines LAVA saw on the serial line, as verdicts."""
        out = []
        for line in self.serial:
            m = tap_log.RESULT.match(line)
            if m:
                out.append((m[3], VERDICT["SKIP" if m[5] == "SKIP" else m[1]]))
        return out

    def summary(self):
        return next(filter(None, map(tap_log.summary_counts, self.serial)), None)

    def verdict(self):
        """hosttools.verdict on the serial lines (LAVA keeps no exit
        status), and whether LAVA's failures agree with it."""
        v = verdict(self.serial, None)
        failed = "fail" in [r for _, r in self.tests()]
        if v.status != 2 and failed != (v.status == 1):
            v.status, v.reason = 2, (f"LAVA recorded {'a' if failed else 'no'} "
                                     f"failed test, the TAP says status {v.status}")
        return v


# LAVA's own console logger (lava_dispatcher/shell.py, ShellLogger) fed
# what its finalize action makes of "poweroff" when the echo's line end
# comes late: pexpect's copy of the line LAVA sent, the echo's word read by
# listen_feedback, and close(), whose flush writes out the partial line.
POWEROFF_ECHO = r"""
import json
from lava_dispatcher.shell import ShellLogger

class Logger:
    def target(self, msg):
        print(json.dumps({"lvl": "target", "msg": msg}))

    def feedback(self, msg, namespace=None):
        print(json.dumps({"lvl": "feedback", "msg": msg}))

log = ShellLogger(Logger())
log.namespace = None
log.write("poweroff")
log.write("\n")
log.is_feedback = True
log.write("poweroff")
log.is_feedback = False
log.flush(force=True)
"""


def poweroff_echo(lava):
    """The records LAVA's ShellLogger writes in that order of events."""
    proc = lava.run(["python3", "-c", POWEROFF_ECHO], timeout=60)
    return proc.stdout.splitlines(), proc.stderr.strip()


# LAVA's own job schema (what lava-run --validate checks first), for the
# bare-metal job, whose pipeline needs a worker's TFTP server.
SCHEMA_CHECK = r"""
import sys, yaml
from lava_common.schemas import validate
try:
    validate(yaml.safe_load(open(sys.argv[1])), strict=True)
except Exception as e:
    sys.exit(str(e))
"""


def lab_checks(tap, args, out):
    """Each lab template, filled in with URLs of a web server on
    127.0.0.1: lava-run --validate (the qemu ones), LAVA's job schema
    (the bare-metal one); each names its target."""
    images = os.path.join(out, "images")
    os.makedirs(images)
    for image in (args.elf, args.iso):
        shutil.copy(image, images)
    with serve(images) as url:
        for route, image, target in (("pvh", args.elf, "qemu-tcg-max-pvh"),
                                     ("iso", args.iso, "qemu-tcg-max"),
                                     ("x86", args.iso, "none")):
            text = lab_job(route, url + os.path.basename(image), "max",
                           args.timeout, target_of("max", route))
            path = os.path.join(out, f"lab-{route}.yaml")
            with open(path, "w") as f:
                f.write(text)
            named = f"pmctest.target: {target}\n" in text
            if route == "x86":
                proc = args.lava.run(["python3", "-c", SCHEMA_CHECK, path],
                                     binds=[out], timeout=60)
                tap.check(proc.returncode == 0 and named,
                          "LAVA's job schema accepts the bare-metal x86 job "
                          "(lab-x86-iso.yaml; its pipeline needs a worker's "
                          "TFTP server: not tried here)",
                          [proc.stderr.strip()[-400:], f"target named: {named}"])
                continue
            v = Job(args.lava, path, out, validate=True)
            tap.check(v.returncode == 0 and not v.errors and named,
                      f"lava-run --validate accepts lab-{route}.yaml with its "
                      f"image from a URL, and it names {target}",
                      [f"status {v.returncode}", f"target named: {named}"] +
                      v.errors + v.log.splitlines()[-5:])
        lab_run(tap, args.lava, os.path.join(out, "lab-pvh.yaml"), out)


def lab_run(tap, lava, job, out):
    """lab-pvh.yaml run on the stock qemu device type as the lab's context
    renders it (a NIC, its monitor, extra_options) and its log judged
    by tests/lava-judge against the target its metadata names."""
    run = Job(lava, job, out, device="device-qemu-stock.yaml")
    judged = os.path.join(out, "lab-pvh-job")
    os.makedirs(judged)
    shutil.copy(job, os.path.join(judged, "definition.yaml"))
    with open(os.path.join(judged, "log.yaml"), "w") as f:
        f.write(run.log)
    proc = subprocess.run([sys.executable, os.path.join(TESTS, "lava-judge"),
                           "--dir", judged], capture_output=True, text=True,
                          timeout=300)
    tap.check(run.job_result() == "pass" and proc.returncode == 0,
              "lab-pvh.yaml runs on the stock qemu device type with its "
              "context, and tests/lava-judge finds it matches "
              "qemu-tcg-max-pvh's expectations",
              [f"job {run.job_result()}, judge status {proc.returncode}"] +
              run.errors + proc.stderr.splitlines()[-5:])


def check(args):
    tap = Tap()

    why_not = why_not_runnable()
    if why_not:
        print(f"1..0 # SKIP {why_not}")
        return 0
    with tempfile.TemporaryDirectory() as out, \
            dispatcher(out, (args.elf, args.iso)) as lava:
        args.lava = lava
        records, error = poweroff_echo(lava)
        target = '{"lvl": "target", "msg": "poweroff"}'
        tap.check(records == [target, target],
                  "LAVA's ShellLogger logs \"poweroff\" twice as the console's "
                  "when the echo's line end comes after close (the stored "
                  "log tests/lava/logs/pvh-poweroff-echo.log)",
                  records + [error])
        lab_checks(tap, args, out)
        for image in (args.elf, args.iso):
            image_checks(tap, args, image, out)
        smp_check(tap, args, out)
        stopped_check(tap, args, out)
    return tap.finish()


def image_checks(tap, args, image, out):
    """One image's job: LAVA validates it, and keeps every TAP verdict."""
    name = os.path.basename(image)
    job = render(image, "", args.cpu, args.timeout, out)
    v = Job(args.lava, job, out, validate=True)
    tap.check(v.returncode == 0 and not v.errors,
              f"lava-run --validate accepts {name}'s job and device-qemu.yaml",
              [f"status {v.returncode}"] + v.errors + v.log.splitlines()[-5:])

    run = Job(args.lava, job, out)
    lava, seen, counts = run.tests(), run.tap(), run.summary()
    verdicts = [v for _, v in seen]
    tap.check(run.job_result() == "pass" and counts is not None and
              len(lava) == len(seen) == sum(counts),
              f"{name}: one LAVA result per TAP test: {len(lava)} results, "
              f"{len(seen)} TAP lines, summary {counts}",
              [f"job {run.job_result()}, status {run.returncode}"] + run.errors)
    v = run.verdict()
    tap.check(v.status != 2, f"{name}: the serial TAP LAVA kept has the "
              "verdict of a complete run", [v.reason])
    differ = [f"TAP {t} {a}, LAVA {u} {b}"
              for (t, a), (u, b) in zip(seen, lava) if (t, a) != (u, b)]
    tap.check(not differ and [t for t, _ in seen] == [t for t, _ in lava] and
              counts == (verdicts.count("pass"), verdicts.count("fail"),
                         verdicts.count("skip")),
              f"{name}: every LAVA result has its TAP line's test ID and "
              "verdict (pass, fail, skip)", differ[:10])


def smp_check(tap, args, out):
    """Two vCPUs: CPU 1's tests carry "@cpu1", and LAVA records each under
    its own case (the ID with '.' and '@' made '_')."""
    job = render(args.elf, "tests=smp.enum,priv.long.cpl3.pce1.valid",
                 args.cpu, args.timeout, out, smp=2)
    run = Job(args.lava, job, out)
    lava, seen = run.tests(), run.tap()
    cases = [r["case"] for r in run.results if r.get("definition") == "pmctest"]
    tap.check(seen == lava and ("smp.enum@cpu1", "pass") in seen and
              "smp_enum_cpu1" in cases and "smp_enum" in cases,
              "with 2 vCPUs an AP's result is a LAVA result of its own, "
              "its test ID with @cpu1, its case smp_enum_cpu1",
              [f"TAP {seen}", f"LAVA {lava}", f"cases {cases}"] + run.errors)


def stopped_check(tap, args, out):
    """A kernel that stops after TAP began and before the summary line: a
    malformed command line makes it bail out."""
    job = render(args.elf, "tests=selftest.pass bogus", args.cpu,
                 args.timeout, out)
    stopped = Job(args.lava, job, out)
    v = stopped.verdict()
    tap.check(stopped.job_result() == "fail" and not stopped.tests() and
              v.status == 2,
              "a kernel that stops before its summary line fails the job, "
              "and its TAP's verdict is status 2",
              [f"job {stopped.job_result()}, tests {stopped.tests()}, "
               f"verdict {v}"])


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--elf", help="the kernel, booted by PVH")
    p.add_argument("--iso", help="the GRUB ISO")
    p.add_argument("--cmdline", default="", help="kernel command line")
    p.add_argument("--cpu", default="max", help="QEMU -cpu")
    p.add_argument("--timeout", type=int, default=300, help="seconds")
    p.add_argument("--out", help="keep the rendered job and LAVA's log here")
    p.add_argument("--check", action="store_true", help="make test's check")
    p.add_argument("--lab", metavar="ROUTE",
                   help="print the job for a real lab: pvh or iso (its qemu "
                        "device type), x86 (a bare-metal board: not tried "
                        "here), the image at --image-url")
    p.add_argument("--image-url", help="--lab: where the lab serves the image")
    args = p.parse_args(argv)
    if args.lab or args.image_url:
        return print_lab_job(p, args)
    images = [i for i in (args.elf, args.iso) if i]
    if args.check and len(images) != 2 or not args.check and len(images) != 1:
        p.error("give --elf or --iso; --check needs both")
    for image in images:
        if not os.path.isfile(image):
            p.error(f"no such file: {image}")
    if args.iso and args.cmdline and not args.check:
        p.error("--cmdline: an ISO has its command line built in")
    problem = cmdline_problem(args.cmdline)
    if problem:         # the kernel's refusal; none leaves a quote in it
        p.error(f"--cmdline: {problem}")
    try:
        return check(args) if args.check else run_local(args, images[0])
    except lava_root.RootError as e:
        print(f"lava: LAVA's bookworm root: {e} (status 2)", file=sys.stderr)
        return 2


def print_lab_job(p, args):
    """--lab: the job a real lab runs, after the same checks of its words."""
    problem = (lab_problem(args.lab, args.image_url, args.cpu) or
               (args.elf or args.iso or args.check) and
               "--lab takes --image-url, not --elf, --iso or --check" or
               args.cmdline and args.lab != "pvh" and
               "--cmdline: only the pvh route takes one" or
               cmdline_problem(args.cmdline))
    if problem:
        p.error(problem)
    print(lab_job(args.lab, args.image_url, args.cpu, args.timeout,
                  target_of(args.cpu, args.lab), args.cmdline), end="")
    return 0


def run_local(args, image):
    """One job under lava-run here; pmctest's statuses: 2 the job did not
    complete or its TAP is not a complete run's, 1 a test failed."""
    why_not = why_not_runnable()
    if why_not:
        sys.exit(f"lava: cannot run: {why_not}")
    out = args.out or tempfile.mkdtemp(prefix="pmctest-lava-")
    os.makedirs(out, exist_ok=True)
    with dispatcher(out, [image]) as lava:
        run = Job(lava, render(image, args.cmdline, args.cpu, args.timeout, out), out)
    with open(os.path.join(out, "lava-run.log"), "w") as f:
        f.write(run.log)
    for test_id, result in run.tests():
        print(f"lava: {result:4s} {test_id}")
    verdicts = [r for _, r in run.tests()]
    print(f"lava: job {run.job_result()}; {verdicts.count('pass')} pass, "
          f"{verdicts.count('fail')} fail, {verdicts.count('skip')} skip; "
          f"log in {os.path.join(out, 'lava-run.log')}")
    if run.job_result() != "pass":
        return 2
    v = run.verdict()
    if v.reason:
        print(f"lava: {v.reason} (status 2)", file=sys.stderr)
    return v.status


if __name__ == "__main__":
    procs.exit_on_signals()         # LAVA's root removed on a signal too
    sys.exit(guard(main, sys.argv[1:]))

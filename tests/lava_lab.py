#!/usr/bin/env python3
"""make lava-lab: a real LAVA lab in a throwaway root, pmctest's jobs run on
it, each judged by pmctest's own expectations.

  lava_lab.py [--elf ELF] [--iso ISO] [--out DIR] [--timeout SECONDS]
      A bookworm root (hosttools.rootfs), LAVA's root of make lava
      (hosttools/images/lava_root.py) with PostgreSQL, lava-server and
      lavacli added and LAVA's database migrated (on any host's release),
      cached in ~/.cache/pmctest/rootfs/ as a tarball and, unpacked once, as
      a tree; each run mounts an overlay over the tree (nothing unpacked,
      the tree never written) inside a mount, PID and network namespace of
      its own (only its loopback: nothing collides with ports of this
      machine, nothing outside reaches in).
      There tests/lavalab/lab.py brings up PostgreSQL, lava-server under
      gunicorn, the scheduler, one worker with 2 qemu devices (no_kvm) and a
      file server for ELF and ISO, all on 127.0.0.1, and submits the jobs
      of hosttools.lava.lab at once with lavacli: four targets, one job the
      lab cancels, one that times out. Each job's log, definition and
      results come back through lavacli into DIR/job-NAME/ and are judged
      by tests/lava-judge. The root is removed at the end, also on failure
      or a signal. Exit status: 0 every job reads as it should (the four
      targets match their expectations, the cancelled and the timed-out
      job are "not carried out": status 2), 1 one does not, 2 the lab
      could not be brought up.
  lava_lab.py --kill-check [TERM|INT]
      The teardown's own test: the lab stopped by SIGTERM (or SIGINT) once
      it is up exits 128 + the signal and leaves none of its processes, no
      root folder, and /dev whole.
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from hosttools import ROOT, TESTS, procs, targets
from hosttools.images import lava_root, rootfs
from hosttools.lava.lab import JOBS, RenderError, judge, render
from hosttools.tool_table import guard

# the base root is make lava's (lava-dispatcher, QEMU), itself over the
# clean room's bookworm root: one debootstrap
PACKAGES = ["lava-server", "lava-dispatcher", "lavacli", "qemu-system-x86", "iproute2",
            "gunicorn"]
RECIPE = os.path.join(TESTS, "lavalab", "install.sh")
DEVICES = ["qemu-01", "qemu-02"]
FILES_URL = "http://127.0.0.1:8080"
# seconds the lab may wait for one job's end (queued behind others included)
JOB_WAIT = 900


def say(line):
    print(f"lava-lab: {line}", flush=True)


def cached_root(out):
    """The lab's cached root: (tarball, built now)."""
    base, built_base = lava_root.cached(os.path.join(out, "lava-root-install.log"), say)
    with open(RECIPE) as f:
        recipe = f.read()
    log = os.path.join(out, "install.log")
    layer, built = rootfs.cached_layer(base, "lavalab", PACKAGES, recipe, log, say)
    return layer, built or built_base


def lab_target(name):
    """The target named name, where LAVA's qemu device type runs it."""
    t = targets.lava_device_target(name)
    if t is None:
        raise RenderError(f"{name}: no target LAVA's qemu device type runs "
                          "(QEMU TCG on pc with SeaBIOS, one CPU, PVH or ISO)")
    return t


def stage(upper, args):
    """The images, the jobs, the lab's script and its plan in /lab/ of the
    root (its overlay's upper folder)."""
    lab = os.path.join(upper, "lab")
    images, jobs = os.path.join(lab, "images"), os.path.join(lab, "jobs")
    for folder in (images, jobs, os.path.join(lab, "out")):
        os.makedirs(folder)
    shutil.copy(args.elf, os.path.join(images, "pmctest.elf"))
    shutil.copy(args.iso, os.path.join(images, "pmctest.iso"))
    for name in ("lab.py", "dictionary.jinja2"):
        shutil.copy(os.path.join(TESTS, "lavalab", name), lab)
    plan = {"out": "/lab/out", "images": "/lab/images", "devices": DEVICES,
            "wait": JOB_WAIT, "jobs": [], "started": args.started}
    for job in JOBS:
        with open(os.path.join(jobs, f"{job.name}.yaml"), "w") as f:
            f.write(render(job, FILES_URL, lab_target(job.target)))
        plan["jobs"].append({"name": job.name, "file": f"/lab/jobs/{job.name}.yaml",
                             "cancel": job.cancel})
    with open(os.path.join(lab, "plan.json"), "w") as f:
        json.dump(plan, f, indent=1)


def keep(upper, out):
    """What the lab fetched and its services' logs (from the root's
    overlay's upper folder: what the run wrote), copied into out."""
    fetched = os.path.join(upper, "lab", "out")
    for name in sorted(os.listdir(fetched)):
        dest = os.path.join(out, name)
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(os.path.join(fetched, name), dest)
    services = os.path.join(out, "services")
    shutil.rmtree(services, ignore_errors=True)
    for logs in ("lava-lab", "lava-server", "lava-dispatcher", "postgresql"):
        folder = os.path.join(upper, "var", "log", logs)
        if os.path.isdir(folder):
            shutil.copytree(folder, os.path.join(services, logs))


def judged(out):
    """Each job judged: the number that did not read as they should."""
    wrong = 0
    for job in JOBS:
        folder = os.path.join(out, f"job-{job.name}")
        if not os.path.isdir(folder):
            say(f"{job.name}: never fetched")
            wrong += 1
            continue
        with open(os.path.join(folder, "job.json")) as f:
            lab = json.load(f)
        status, text, last = judge(folder, lab["health"])
        with open(os.path.join(folder, "judged.txt"), "w") as f:
            f.write(text)
        ok = status == job.expect
        wrong += not ok
        say(f"{job.name} ({job.target}, LAVA job {lab['id']}: {lab['health']}): "
            f"status {status}, {'as it should' if ok else f'NOT the expected {job.expect}'}"
            f" | {last[:160]}")
    return wrong


def lab(args):
    problem = rootfs.need_root()
    if problem:
        print(f"lava_lab.py: {problem}", file=sys.stderr)
        return 2
    for image in (args.elf, args.iso):
        if not os.path.isfile(image):
            print(f"lava_lab.py: {image} is not there: run make first", file=sys.stderr)
            return 2
    os.makedirs(args.out, exist_ok=True)
    start = time.monotonic()
    args.started = time.time()          # for the lab's "up N s after the start"
    tarball, built = cached_root(args.out)
    say(f"root: {'built' if built else 'cached'} {os.path.basename(tarball)}, "
        f"{time.monotonic() - start:.0f} s")
    tree = rootfs.tree(tarball, say)
    work = rootfs.work_folder()
    try:
        root, upper = rootfs.overlay(work)
        stage(upper, args)
        say(f"staged in {work} over the cached tree: {time.monotonic() - start:.0f} s")
        env = {"LIBGUESTFS_BACKEND_SETTINGS": "force_tcg", "PYTHONUNBUFFERED": "1"}
        code = rootfs.run_in(root, ["python3", "/lab/lab.py", "/lab/plan.json"], env,
                             sys.stdout, args.timeout, net=True, lower=tree)
        keep(upper, args.out)
    finally:
        rootfs.remove(work)
        say(f"lab torn down, {work} removed: {time.monotonic() - start:.0f} s after the start")
    if code != 0:
        say(f"the lab stopped ({'timed out' if code is None else f'exit {code}'}); "
            f"its services' logs: {os.path.join(args.out, 'services')}")
        return 2
    wrong = judged(args.out)
    say(f"{len(JOBS) - wrong} of {len(JOBS)} jobs read as they should; "
        f"{time.monotonic() - start:.0f} s in all ({'first run: root built' if built else 'cached root'})")
    return 1 if wrong else 0


def running(pid):
    """Whether pid is a process that has not ended (a zombie has: its
    parent has only not reaped it yet)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def kill_check(args):
    """make lava-lab stopped by SIGTERM (or SIGINT) once its lab is up: it
    exits 128 + the signal and leaves no process of the lab, no root
    folder; the host's /dev whole."""
    signum = signal.Signals[f"SIG{args.kill_check}"]
    problem = rootfs.need_root()
    if problem:
        print(f"lava_lab.py: {problem}", file=sys.stderr)
        return 2
    dev_before = sorted(os.listdir("/dev"))
    with tempfile.TemporaryDirectory() as out:
        child = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--elf", args.elf,
                                  "--iso", args.iso, "--out", out],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                 # a shell's background job inherits SIGINT ignored
                                 preexec_fn=lambda: signal.signal(signum, signal.SIG_DFL))
        work, lab_pids, seen = "", [], []
        for line in child.stdout:
            seen.append(line.rstrip())
            m = re.search(r"staged in (\S+) ", line)
            work = m[1] if m else work
            if "lab: lab up" in line:
                lab_pids = rootfs.users(work)
                break
        child.send_signal(signum)
        rest, _ = child.communicate(timeout=300)
    time.sleep(1)
    alive = [pid for pid in lab_pids if running(pid)]
    problems = []
    if not lab_pids:
        problems.append("the lab never came up: " + " | ".join(seen[-5:]))
    if child.returncode != 128 + signum:
        problems.append(f"the stopped tool exited {child.returncode}, not {128 + signum}")
    if work and os.path.lexists(work):
        problems.append(f"{work} is still there")
    if alive:
        problems.append(f"processes of the lab left running: {alive}")
    if sorted(os.listdir("/dev")) != dev_before or not os.path.exists("/dev/null"):
        problems.append("the host's /dev changed")
    for p in problems:
        print(f"  | {p}")
    say(f"kill check: the lab up with {len(lab_pids)} processes, then {signum.name}: " +
        (f"passed: exit {128 + signum}, none of them left, no root folder, /dev whole"
         if not problems else "FAILED"))
    return 1 if problems else 0


def main(argv):
    build = os.path.join(ROOT, "build")
    p = argparse.ArgumentParser(prog="tests/lava_lab.py", description=__doc__.splitlines()[0])
    p.add_argument("--elf", default=os.path.join(build, "pmctest.elf"))
    p.add_argument("--iso", default=os.path.join(build, "pmctest.iso"))
    p.add_argument("--out", default=os.path.join(build, "lava-lab"),
                   help="the fetched jobs, their verdicts and the services' logs")
    p.add_argument("--timeout", type=int, default=3600, help="seconds the lab may run")
    p.add_argument("--kill-check", nargs="?", const="TERM", choices=["TERM", "INT"],
                   help="test the teardown: the lab stopped by SIGTERM (or SIGINT) once it is up")
    args = p.parse_args(argv)
    try:
        return kill_check(args) if args.kill_check else lab(args)
    except (rootfs.RootError, RenderError) as e:
        print(f"lava_lab.py: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    procs.exit_on_signals()
    sys.exit(guard(main, sys.argv[1:]))

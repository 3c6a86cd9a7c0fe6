#!/usr/bin/env python3
"""make clean-room: the README's two commands on a new Debian machine.

  clean_room.py [--release bookworm|trixie] [--keep-log DIR] [--timeout SECONDS]
      A minbase root of the release (Debian 12 bookworm unless said) with
      only git, make and ca-certificates (cached in ~/.cache/pmctest/rootfs/,
      debootstrap'd from the release's suites on this machine's Debian
      mirror), the committed HEAD cloned into it, /proc, /sys and /dev
      bound in; then, as root, `make run` (status 0, or 1: TCG deviates, as
      the README says) and `.ci/run` with CI=true. Prints each step's time
      and every package the Makefile installed; exits 0 when both pass, 1
      when one fails, 2 when the room could not be made.
  clean_room.py --kill-check [--release bookworm|trixie]
      The cleanup's own test: a room whose command is killed halfway (the
      tool itself gets SIGTERM) leaves no mount, no process and no file,
      and the host's /dev is whole.

Each step's whole output is kept in DIR (default build/clean-room/), and
the room's build/run/ (each target's log of make test) in DIR/run/.
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from hosttools import ROOT, procs
from hosttools.images import rootfs
from hosttools.tool_table import guard

INCLUDE = ["git", "make", "ca-certificates"]
MAKE_RUN_DEVIATES = "Error 1"       # make's line for a recipe's status 1


def say(line):
    print(f"clean-room: {line}", flush=True)


def head_commit():
    r = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True,
                       text=True, timeout=60)
    if r.returncode != 0:
        raise rootfs.RootError(f"not a git checkout: {r.stderr.strip()}")
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True, timeout=60).stdout.strip()
    if dirty:
        say("note: uncommitted changes are not part of the room (it clones the committed HEAD)")
    return r.stdout.strip()


def clone(root, commit):
    dest = os.path.join(root, "root", "pmctest")
    for cmd in (["git", "clone", "--quiet", "--no-local", "--no-checkout", ROOT, dest],
                ["git", "-C", dest, "checkout", "--quiet", "--detach", commit]):
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            raise rootfs.RootError(f"{' '.join(cmd[:2])} failed: {r.stderr.strip()[-300:]}")


def packages(root):
    r = subprocess.run(["chroot", root, "dpkg-query", "-W", "-f", "${Package}\\n"],
                       capture_output=True, text=True, timeout=120)
    return set(r.stdout.split())


class Steps:
    """The room's steps, each timed, its output in log_dir/NAME.log."""

    def __init__(self, root, log_dir):
        self.root, self.log_dir, self.failed = root, log_dir, []

    def run(self, name, words, env, timeout, accept):
        path = os.path.join(self.log_dir, f"{name}.log")
        start = time.monotonic()
        with open(path, "w") as log:
            code = rootfs.run_in(self.root, words, env, log, timeout)
        with open(path, errors="replace") as log:
            text = log.read()
        ok = code is not None and accept(code, text)
        took = time.monotonic() - start
        state = "timed out" if code is None else f"exit {code}"
        say(f"{name}: {state}, {took:.0f} s{'' if ok else ' FAILED'} (log: {path})")
        if not ok:
            self.failed.append(name)
            for line in text.strip().splitlines()[-15:]:
                print(f"  | {line}")
        return ok


def make_run_accepted(code, text):
    """make run's status 1 is the kernel's (TCG deviates): make says Error 1."""
    return code == 0 or (code == 2 and "[Makefile" in text and MAKE_RUN_DEVIATES in text
                         and "the target deviates from the spec" in text)


def room(args):
    """The two commands in a new root: 0, 1 or 2 as the usage says."""
    commit = head_commit()
    os.makedirs(args.keep_log, exist_ok=True)
    start = time.monotonic()
    tarball, built = rootfs.cached(INCLUDE, say, args.release)
    say(f"root: {'built' if built else 'cached'} {os.path.basename(tarball)}, "
        f"{time.monotonic() - start:.0f} s")
    work = rootfs.work_folder()
    try:
        start = time.monotonic()
        root = rootfs.unpack(tarball, work)
        clone(root, commit)
        say(f"unpacked and cloned {commit[:12]}: {time.monotonic() - start:.0f} s")
        before = packages(root)
        steps = Steps(root, args.keep_log)
        make = ["sh", "-c", 'cd /root/pmctest && exec make run']
        ci = ["sh", "-c", 'cd /root/pmctest && exec bash .ci/run']
        if steps.run("make-run", make, {}, args.timeout, make_run_accepted):
            steps.run("ci-run", ci, {"CI": "true"}, args.timeout, lambda c, _: c == 0)
        added = sorted(packages(root) - before)
        say(f"the Makefile installed {len(added)} packages: {' '.join(added)}")
        keep_run_logs(root, args.keep_log)
        return 1 if steps.failed else 0
    finally:
        rootfs.remove(work)
        say(f"removed {work}")


def keep_run_logs(root, keep):
    """The room's build/run/ (make test's target logs) copied into keep/run/."""
    logs, dest = os.path.join(root, "root", "pmctest", "build", "run"), os.path.join(keep, "run")
    shutil.rmtree(dest, ignore_errors=True)
    if os.path.isdir(logs):
        shutil.copytree(logs, dest, symlinks=True)
        say(f"make test's target logs kept in {dest}")


def dev_listing():
    return sorted(os.listdir("/dev"))


def kill_check(args):
    """A room killed halfway: nothing left behind, /dev whole. 0 or 1."""
    dev_before = dev_listing()
    marker = f"600.{os.getpid()}"       # the held command: sleep MARKER
    with tempfile.TemporaryDirectory() as tmp:
        ready = os.path.join(tmp, "ready")
        child = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--hold",
                                  marker, ready, args.release], stdout=subprocess.PIPE,
                                 text=True)
        deadline = time.monotonic() + 600
        while not os.path.exists(ready) and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        work = open(ready).read().strip() if os.path.exists(ready) else ""
        child.send_signal(signal.SIGTERM)
        out, _ = child.communicate(timeout=120)
    time.sleep(1)                       # the namespace's last processes reaped
    stray = subprocess.run(["pgrep", "-f", f"sleep {marker}"], capture_output=True,
                           text=True).stdout.split()
    problems = []
    if not work:
        problems.append(f"the room never got ready: {out.strip()[-300:]}")
    if child.returncode != 128 + signal.SIGTERM:
        problems.append(f"the killed tool exited {child.returncode}, not {128 + signal.SIGTERM}")
    if work and os.path.lexists(work):
        problems.append(f"{work} is still there")
    if stray:
        problems.append(f"processes left running: {stray}")
    if dev_listing() != dev_before or not os.path.exists("/dev/null"):
        problems.append("the host's /dev changed")
    for p in problems:
        print(f"  | {p}")
    say("kill check: " + ("passed: killed with /dev bound in, nothing left, /dev whole"
                          if not problems else "FAILED"))
    return 1 if problems else 0


def hold(marker, ready, release):
    """(the kill check's room) a root whose command, with /dev bound in,
    runs until a signal ends the tool."""
    procs.exit_on_signals()
    tarball, _ = rootfs.cached(INCLUDE, say, release)
    work = rootfs.work_folder()
    try:
        root = rootfs.unpack(tarball, work)
        inside = f"grep -q ' /dev ' /proc/self/mountinfo && touch /held && sleep {marker}; true"
        with open(os.devnull, "w") as log:
            proc = procs.start(rootfs.command_in(root, ["sh", "-c", inside], {}),
                               stdout=log, stderr=log)
            held = os.path.join(root, "held")
            while not os.path.exists(held) and proc.poll() is None:
                time.sleep(0.1)
            if not os.path.exists(held):
                return 1        # /dev was not a mount in the room: never ready
            with open(ready, "w") as f:
                f.write(work)
            proc.wait()
    finally:
        rootfs.remove(work)
    return 0


def main(argv):
    if argv[:1] == ["--hold"] and len(argv) == 4:
        return hold(argv[1], argv[2], argv[3])
    p = argparse.ArgumentParser(prog="tests/clean_room.py", description=__doc__.splitlines()[0])
    p.add_argument("--kill-check", action="store_true",
                   help="test the cleanup with a room killed halfway")
    p.add_argument("--release", default=rootfs.RELEASE, choices=rootfs.ROOT_RELEASES,
                   help=f"the Debian release of the room (default {rootfs.RELEASE})")
    p.add_argument("--keep-log", default=os.path.join(ROOT, "build", "clean-room"),
                   help="the folder for each step's log")
    p.add_argument("--timeout", type=int, default=5400, help="seconds a step may take")
    args = p.parse_args(argv)
    problem = rootfs.need_root()
    if problem:
        print(f"clean_room.py: {problem}", file=sys.stderr)
        return 2
    try:
        return kill_check(args) if args.kill_check else room(args)
    except rootfs.RootError as e:
        print(f"clean_room.py: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    procs.exit_on_signals()
    sys.exit(guard(main, sys.argv[1:]))

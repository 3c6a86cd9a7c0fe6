"""What a user types, checked: every tool's --help, `make help`, and the
refusals that keep a run honest. A command line the kernel would not take
(too long, not printable ASCII) is refused before anything boots; GRUB
passes the ISO's command line to the kernel word for word, never running
or expanding it; `make run` boots the image it has just built; ACCEL=kvm
without /dev/kvm says so and exits 2; `make bench KUT_PMU=path` runs
kvm-unit-tests' pmu.flat beside the suite, and without it that row says
SKIP and why.

usage: tests/check.py cli --elf ELF --build DIR [--qemu QEMU]
"""
import os
import subprocess
import sys
import tempfile

from .. import ROOT, SCRIPTS, TESTS
from ..devtools import kut
from ..images import cache
from ..images.bochs_pmu.build import BOCHS_PMU
from ..images.counting.recipe import cache_key
from ..images.qemu_pmu.build import QEMU_PMU
from ..report.tap_out import Tap
from . import argument_parser, names


def run(cmd, timeout=120, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, **kw)


def check_helps(tap, args):
    """Every command's --help prints its usage and exits 0."""
    py = sys.executable
    host = os.path.join(args.build, "host")
    commands = ([[os.path.join(host, t)] for t in ("pmctest-model", "pmctest-sim", "model-test")] +
                [[py, os.path.join(TESTS, t)] for t in
                 ("run", "boot.py", "bench.py", "lava.py", "lava-judge", "mutation.py", "check.py",
                  "cmdline.py", "kvm.py", "clean_room.py", "lava_lab.py", "load_loop.py",
                  "qemu_pmu.py", "images.py", "xen.py", "bochs_pmu.py")] +
                [[py, os.path.join(TESTS, "check.py"), name] for name in names()] +
                [[py, os.path.join(SCRIPTS, "psf2c.py")], [os.path.join(SCRIPTS, "mkiso")]])
    for cmd in commands:
        r = run(cmd + ["--help"])
        name = " ".join(os.path.basename(word) for word in cmd if word != py)
        tap.check(r.returncode == 0 and "usage" in r.stdout.lower(),
                  f"{name} --help prints its usage and exits 0",
                  f"exit {r.returncode}\n{r.stdout[:200]}{r.stderr[:200]}")


def check_run_kvm_pmu(tap):
    """make run-kvm TCG_PMU=on: L1 on the QEMU with the TCG PMU, built
    first; a value other than on/off refused before anything runs."""
    r = run(["make", "--no-print-directory", "-n", "run-kvm", "TCG_PMU=on",
             "BUILD=/tmp/elsewhere"])
    tap.check(r.returncode == 0 and "tests/qemu_pmu.py build" in r.stdout and
              "--qemu /tmp/elsewhere/qemu-pmu/qemu-system-x86_64 --tcg-pmu" in r.stdout,
              "make run-kvm TCG_PMU=on builds the QEMU with the TCG PMU and runs L1 on it",
              f"exit {r.returncode}\n{r.stdout[-400:]}{r.stderr[-200:]}")
    r = run(["make", "--no-print-directory", "-n", "run-kvm", "TCG_PMU=yes"])
    tap.check(r.returncode != 0 and "TCG_PMU=yes" in r.stderr,
              "make run-kvm TCG_PMU=yes is refused, naming the value", r.stderr[-300:])
    r = run([sys.executable, os.path.join(TESTS, "qemu_pmu.py"), "build", "--pinned", "",
             "--out", "/nonexistent"])
    tap.check(r.returncode == 2 and "--pinned" in r.stderr,
              "qemu_pmu.py refuses an empty --pinned, status 2", r.stderr[-300:])


def check_build_host(tap):
    """The counting builds' cache keys name the system they are built on:
    a Debian 12 machine upgraded to 13 builds again."""
    keys = {}
    with tempfile.TemporaryDirectory() as tmp:
        saved = cache.OS_RELEASE
        try:
            for name, text in (("bookworm", 'ID=debian\nVERSION_ID="12"\nVERSION_CODENAME=bookworm\n'),
                               ("trixie", 'ID=debian\nVERSION_ID="13"\nVERSION_CODENAME=trixie\n'),
                               ("none", None)):
                cache.OS_RELEASE = os.path.join(tmp, name)
                if text:
                    with open(cache.OS_RELEASE, "w") as f:
                        f.write(text)
                keys[name] = (cache.build_host(), cache_key(QEMU_PMU, "1:7.2"),
                              cache_key(BOCHS_PMU, "3.0"))
        finally:
            cache.OS_RELEASE = saved
    hosts = [k[0] for k in keys.values()]
    distinct = all(len({k[i] for k in keys.values()}) == 3 for i in (1, 2))
    tap.check(hosts == ["debian 12 bookworm", "debian 13 trixie", "unknown"] and distinct,
              "the counting QEMU's and Bochs' cache keys name the system they are built "
              "on (os-release): bookworm, trixie and none give three keys each", repr(keys))


def check_images(tap):
    """make images asks the kinds what the targets need (tests/images.py),
    and a target that is not one is refused."""
    for target, version in (("xen-pvh-dom0-vpmu-counting", "4.17"),
                            ("xen-4.20-pvh-dom0-vpmu-counting", "4.20")):
        r = run([sys.executable, os.path.join(TESTS, "images.py"), "--target", target])
        tap.check(r.returncode == 0 and r.stdout.split() == [f"xen-{version}", "qemu-pmu"],
                  f"tests/images.py names what a target's kind needs: Xen {version} "
                  f"and the QEMU with the TCG PMU for {target}",
                  f"exit {r.returncode}\n{r.stdout[-300:]}{r.stderr[-300:]}")
    r = run([sys.executable, os.path.join(TESTS, "images.py"), "--check", "--build",
             "/nonexistent", "--qemu-pmu", "/nonexistent/qemu-pmu/qemu-system-x86_64"])
    tap.check(r.returncode == 2 and "kvm-6.12: /nonexistent/kvm-6.12 is not built" in r.stderr
              and "xen-pvh-dom0: /nonexistent/xen-4.17 has no Xen 4.17" in r.stderr
              and "xen-4.20-pvh-dom0: /nonexistent/xen-4.20 has no Xen 4.20" in r.stderr,
              "tests/images.py --check names each target whose images make images "
              "did not make, status 2", f"exit {r.returncode}\n{r.stderr[-400:]}")
    r = run([sys.executable, os.path.join(TESTS, "images.py"), "--check", "--build",
             "/nonexistent", "--xen", "4.20=/my/xen"])
    tap.check(r.returncode == 2 and "xen-pvh-dom0: /nonexistent/xen-4.17" in r.stderr
              and "xen-4.20-pvh-dom0:" not in r.stderr,
              "tests/images.py --check --xen 4.20=PATH: your own Xen stands for "
              "Debian's 4.20, not 4.17's", f"exit {r.returncode}\n{r.stderr[-400:]}")
    r = run([sys.executable, os.path.join(TESTS, "run"), "--list-targets",
             "--xen", "4.99=/my/xen"])
    tap.check(r.returncode == 2 and "no Xen targets of version '4.99'" in r.stderr
              and "4.17, 4.20" in r.stderr,
              "tests/run --xen 4.99=PATH is refused, naming the versions there are",
              f"exit {r.returncode}\n{r.stderr[-300:]}")
    with tempfile.TemporaryDirectory() as tmp:
        r = run(["make", "--no-print-directory", "-n", "test-targets", "XEN=/my/xen",
                 "XEN_VERSION=4.20", f"BUILD={tmp}/build"])
    tap.check(r.returncode == 0 and '--xen "$PMCTEST_XEN_VERSION=$PMCTEST_XEN"' in r.stdout
              and "--xen-console-dir" in r.stdout and "tests/xen.py fetch 4.17" in r.stdout
              and "tests/xen.py fetch 4.20" not in r.stdout,
              "make test XEN=path XEN_VERSION=4.20 runs your Xen in the 4.20 targets "
              "and fetches Debian's 4.17 for the others",
              f"exit {r.returncode}\n{r.stdout[-600:]}{r.stderr[-300:]}")
    r = run([sys.executable, os.path.join(TESTS, "images.py"), "--target", "no-such"])
    tap.check(r.returncode == 2 and "no-such" in r.stderr,
              "tests/images.py --target no-such is refused, naming it, status 2",
              f"exit {r.returncode}\n{r.stderr[-300:]}")


def check_make_run(tap, args):
    """make help, and make run in another BUILD."""
    r = run(["make", "--no-print-directory", "help"])
    tap.check(r.returncode == 0 and all(f"make {t}" in r.stdout for t in ("run", "test", "bench", "lava")),
              "make help names the targets", r.stdout + r.stderr)

    r = run(["make", "--no-print-directory", "-n", "run", "BUILD=/tmp/elsewhere"])
    tap.check("--iso /tmp/elsewhere/pmctest.iso" in r.stdout,
              "make run BUILD=dir boots the ISO it builds in dir", r.stdout[-400:])
    # A failing selection in another BUILD: built there (from copies of the
    # objects, so only the ISO is made), booted, and reported as failing.
    with tempfile.TemporaryDirectory() as other:
        for part in ("obj", ".tools-run", "version.h"):
            subprocess.run(["cp", "-a", os.path.join(args.build, part), other], check=True)
        r = run(["make", "--no-print-directory", "run", f"BUILD={other}",
                 "TESTS=selftest.fail", f"QEMU={args.qemu}"], timeout=300)
        tap.check(r.returncode != 0 and "not ok 1 - selftest.fail" in r.stdout and
                  "deviates from the spec (status 1)" in r.stderr,
                  "make run BUILD=dir TESTS=selftest.fail boots what it built and fails",
                  f"exit {r.returncode}\n{r.stdout[-300:]}\n{r.stderr[-300:]}")
        tap.check("expected finding" not in r.stderr,
                  "make run does not call a failure TCG is not known for expected",
                  r.stderr[-300:])
        r = run(["make", "--no-print-directory", "run", f"BUILD={other}",
                 f"QEMU={args.qemu}"], timeout=300)
        tap.check(r.returncode != 0 and "expected finding under QEMU TCG, not a broken build"
                  in r.stderr,
                  "make run under TCG says its failures are the expected finding",
                  f"exit {r.returncode}\n{r.stderr[-300:]}")


def check_refusals(tap, args):
    """A command line the kernel would not take refused before booting;
    ACCEL=kvm without /dev/kvm."""
    py = sys.executable
    boot = [py, os.path.join(TESTS, "boot.py"), "--route", "pvh", "--elf", args.elf,
            "--qemu", args.qemu, "--timeout", "60"]
    for cmdline, what in (("tests=" + "a" * 1100, "1106 bytes"),
                          ("verbose\nhalt", "a newline")):
        r = run(boot + ["--cmdline", cmdline])
        tap.check(r.returncode == 2 and "command line" in r.stderr and "TAP" not in r.stdout,
                  f"boot.py refuses a command line with {what} before booting, status 2",
                  f"exit {r.returncode}\n{r.stderr}")
    r = run([py, os.path.join(TESTS, "run"), "--target", "qemu-tcg-max-pvh",
             "--elf", args.elf, "--tests", "a" * 1100])
    tap.check(r.returncode == 2 and "command line" in r.stderr,
              "tests/run refuses a command line the kernel would not take, status 2",
              f"exit {r.returncode}\n{r.stderr}")
    check_run_kvm_words(tap, args)
    if not os.path.exists("/dev/kvm"):
        r = run(boot + ["--accel", "kvm"])
        tap.check(r.returncode == 2 and "/dev/kvm" in r.stderr and "does not exist" in r.stderr,
                  "ACCEL=kvm without /dev/kvm: a clear message and status 2", r.stderr)


def check_run_kvm_words(tap, args):
    """make run-kvm's KVM_PARAMS and L1_ARGS refused before anything boots
    where they are not words L1 can take; make hands them over untouched."""
    kvm = [sys.executable, os.path.join(TESTS, "kvm.py"), "run", "--images",
           args.build, "--elf", args.elf]
    for flag, words, what in (
            ("--kvm-params", "enable_mediated_pmu=1", "KVM_PARAMS without its module"),
            ("--kvm-params", "kvm_amd.x='1'", "KVM_PARAMS with a quote"),
            ("--l1-args", 'nmi_watchdog="0"', "L1_ARGS with a quote")):
        r = run(kvm + [flag, words])
        tap.check(r.returncode == 2 and flag.strip("-").split("-")[0].upper() in
                  r.stderr.replace("_", "-").upper(),
                  f"tests/kvm.py run refuses {what} before booting, status 2",
                  f"exit {r.returncode}\n{r.stderr[-300:]}")
    # --inner-qemu (make's BUILD/qemu-pmu, or the user's): the script is
    # read for the binary it execs; a binary, or an exec line cut short or
    # with an open quote, is refused by name
    bad = os.path.join(args.build, "bad-inner-qemu")
    for body, what in ((b"\x7fELF\x02\x01\x01\xd0\xff\n", "a binary"),
                       (b"#!/bin/sh\nexec \n", "an exec line with no program"),
                       (b"#!/bin/sh\nexec '/x \"$@\"\n", "an open quote")):
        with open(bad, "wb") as f:
            f.write(body)
        r = run(kvm + ["--inner-qemu", bad])
        tap.check(r.returncode == 2 and f"--inner-qemu: {bad}" in r.stderr and
                  "Traceback" not in r.stderr,
                  f"tests/kvm.py run refuses an inner QEMU script that is {what}, "
                  "naming it, status 2", f"exit {r.returncode}\n{r.stderr[-300:]}")
    os.unlink(bad)
    r = run(["make", "--no-print-directory", "-n", "run-kvm", "KVM=7.3",
             "KVM_PARAMS=kvm_amd.enable_mediated_pmu=1", "L1_ARGS=nmi_watchdog=0"])
    tap.check(r.returncode == 0 and '--kvm-params "$PMCTEST_KVM_PARAMS"' in r.stdout
              and "build/kvm-7.3" in r.stdout,
              "make run-kvm KVM=7.3 KVM_PARAMS= L1_ARGS= hands both to tests/kvm.py",
              f"exit {r.returncode}\n{r.stdout[-400:]}{r.stderr[-200:]}")
    r = run(["make", "--no-print-directory", "-n", "run-kvm", "KVM=7.3",
             "TCG_PMU=perfmon-v2", "BUILD=/tmp/elsewhere"])
    tap.check(r.returncode == 0 and "--tcg-pmu --perfmon-v2 --inner-qemu "
              "/tmp/elsewhere/qemu-pmu/qemu-system-x86_64" in r.stdout,
              "make run-kvm TCG_PMU=perfmon-v2 gives L1 PerfMonV2 and the guest "
              "the QEMU with the TCG PMU", f"exit {r.returncode}\n{r.stdout[-400:]}")
    r = run(["make", "--no-print-directory", "-n", "run-kvm", "KVM=../x"])
    tap.check(r.returncode != 0 and "KVM=../x" in r.stderr,
              "make run-kvm KVM=../x is refused, naming the value", r.stderr[-300:])


def check_bench_kut(tap, args):
    """make bench KUT_PMU=path: the path handed over, the SKIP, the boot."""
    # make bench KUT_PMU=path: the path reaches tests/bench.py; its row
    # SKIPs with the reason without one; QEMU takes the command line that
    # boots it (here with pmctest's ELF in the place of pmu.flat: QEMU boots
    # it by its PVH note); a run that stopped at an assertion says so.
    # (make hands it over in the environment, never through a shell's parser)
    r = run(["make", "--no-print-directory", "-n", "bench", "KUT_PMU=/kut/x86/pmu.flat"])
    printed = run(["make", "--no-print-directory", "-s", "-f", "tests/bench.mk",
                   "-f", "-", "show-kut", "KUT_PMU=/kut/x86/pmu.flat"],
                  input="show-kut:\n\t@printf '%s\\n' \"$$PMCTEST_KUT_PMU\"\n")
    tap.check('--kut-pmu "$PMCTEST_KUT_PMU"' in r.stdout and
              printed.stdout.strip() == "/kut/x86/pmu.flat",
              "make bench KUT_PMU=path hands the path to tests/bench.py",
              [r.stdout[-400:], printed.stdout[-200:], printed.stderr[-200:]])
    unset, missing = kut.why_not(""), kut.why_not("/kut/x86/pmu.flat")
    tap.check(unset and "KUT_PMU is not set" in unset and missing and "no such file" in missing,
              "make bench: without a pmu.flat the kvm-unit-tests row says SKIP and why",
              [f"unset: {unset}", f"missing: {missing}"])
    q = subprocess.run(kut.qemu_command(args.qemu, args.elf, "tcg", "max"),
                       capture_output=True, timeout=120)
    ended = kut.how_it_ended(b"PASS: a\nFAIL: b\nFAIL: c\n/src/lib/x86/processor.h:730: "
                             b"assert failed: !vector: Unexpected #UD on RDPMC(0)\n\tSTACK: 401b57\n")
    tap.check(q.returncode in (1, 3) and b"# pmctest: " in q.stdout and
              ended == "1 PASS, 2 FAIL, then stopped: assert failed: !vector: Unexpected #UD on RDPMC(0)",
              "make bench: QEMU boots a kernel with kvm-unit-tests' command line; how its run ended is read",
              [f"QEMU exit {q.returncode}", q.stderr.decode()[-300:], ended])


def check_iso_words(tap, args):
    """mkiso refuses a newline; GRUB hands odd words over as written."""
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        iso = os.path.join(tmp, "t.iso")
        r = run([os.path.join(SCRIPTS, "mkiso"), args.elf, iso, "verbose\nhalt"])
        tap.check(r.returncode == 2 and "printable ASCII" in r.stderr,
                  "mkiso refuses a newline in the command line, status 2", r.stderr)
        # GRUB must hand these words over verbatim: the kernel then names
        # the offending one (a '#' comment, a ';' command, a '$' variable).
        for word, message in (("#verbose", "unknown option '#verbose'"),
                              ("$prefix", "unknown option '$prefix'"),
                              ("exclude=x;echo", "';' is not allowed in a pattern")):
            r = run([os.path.join(SCRIPTS, "mkiso"), args.elf, iso, "tests=selftest.pass " + word])
            b = run([py, os.path.join(TESTS, "boot.py"), "--route", "iso", "--iso", iso,
                     "--qemu", args.qemu, "--timeout", "60"])
            tap.check(r.returncode == 0 and b.returncode == 2 and message in b.stdout,
                      f"the ISO passes {word!r} to the kernel as written",
                      f"mkiso {r.returncode}, boot {b.returncode}\n{b.stdout[-300:]}{b.stderr[-200:]}")


def main(argv):
    p = argument_parser(__name__, __doc__)
    p.add_argument("--elf", required=True)
    p.add_argument("--build", required=True)
    p.add_argument("--qemu", default="qemu-system-x86_64")
    args = p.parse_args(argv)
    tap = Tap(detail_lines=6)
    print("TAP version 13")
    check_helps(tap, args)
    check_make_run(tap, args)
    check_run_kvm_pmu(tap)
    check_images(tap)
    check_build_host(tap)
    check_refusals(tap, args)
    check_bench_kut(tap, args)
    check_iso_words(tap, args)
    return tap.finish()


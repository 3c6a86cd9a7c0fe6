"""Checks of tests/run itself: expectations, JUnit, and every way a boot can
go wrong, each made to happen.

Real boots (QEMU TCG, PVH) check the expectation mechanism on the selftest
group; fake emulators (small scripts passed with --qemu/--bochs) make the
guest hang, reset, stop mid-TAP, bail out, fail to start, need the
-arch-capabilities retry, or hit a KVM internal error, on demand.

  tests/check.py runner [--elf build/pmctest.elf] [--junit FILE]

--junit FILE also validates a JUnit file that tests/run --all wrote
(--junit-only: nothing else).
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

from .. import ROOT, TESTS, targets
from ..judge import patterns as tap_log
from ..boot.qemu import qemu_release
from . import argument_parser

RUN = os.path.join(TESTS, "run")
BOOT = os.path.join(TESTS, "boot.py")

# A fake qemu-system-x86_64: what it prints is chosen by FAKE_SCENARIO.
FAKE_QEMU = r'''#!/usr/bin/env python3
import os, sys, time
args = sys.argv[1:]
scenario = os.environ.get("FAKE_SCENARIO", "pass")
if "--version" in args:
    print("QEMU emulator version 0.0.0 (fake)"); sys.exit(0)
if "-machine" in args and "help" in args:
    print("pc    Standard PC\nmicrovm  microvm (i386)\nq35   Q35"); sys.exit(0)
if "-device" in args and "help" in args:
    print('name "amd-iommu", bus System, desc "AMD IOMMU (AMD-Vi)"'); sys.exit(0)
append = args[args.index("-append") + 1] if "-append" in args else ""
cpu = args[args.index("-cpu") + 1]
# With -initrd this is Xen: the kernel's lines come as Xen prints what a
# guest writes to port E9H, "(d0) " first, cut at 199 characters.
xen = "-initrd" in args
def out(line):
    if xen:
        pieces = [line[i:i + 199] for i in range(0, len(line), 199)]
        if len(line) % 199 == 0:
            pieces.append("")
        line = "\n".join("(d0) " + p for p in pieces)
    sys.stdout.write(line + "\n"); sys.stdout.flush()
if xen:
    sys.stdout.write("(XEN) Xen version 4.17.7 (fake) debug=n\n")
    if "vpmu=on" in append:
        sys.stdout.write("(XEN) VPMU: version 0.1\n")
    sys.stdout.write("(XEN) fake: module " + args[args.index("-initrd") + 1] + "\n")
    sys.stdout.flush()
if append.startswith("list"):
    for i in ("fake.one", "fake.two", "fake.three"):
        out(f"{i:<40} [HARNESS] a fake test")
    out("# pmctest: 3 tests"); sys.exit(1)
if scenario == "start-failure":
    sys.stderr.write("qemu-system-x86_64: -accel bogus: invalid accelerator\n")
    sys.exit(1)
if scenario == "msr" and "-arch-capabilities" not in cpu:
    sys.stderr.write("qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69\n")
    sys.exit(134)
out("TAP version 13")
if scenario == "smp":   # CPU 0 and the per-CPU part of two APs
    out("1..5")
    out("ok 1 - fake.one [HARNESS]")
    out("not ok 2 - fake.two [HARNESS]")
    out("ok 3 - fake.one@cpu1 [HARNESS]")
    out("not ok 4 - fake.two@cpu1 [HARNESS]")
    out("not ok 5 - fake.two@cpu2 [HARNESS]")
    out("# pmctest: 2 passed, 3 failed, 0 skipped")
    sys.exit(3)
out("# pmctest fake")
out("1..3")
out("ok 1 - fake.one [HARNESS]")
if scenario == "hang":
    time.sleep(60)
if scenario == "reset":
    sys.exit(0)
if scenario == "truncated":
    sys.exit(3)
if scenario == "bail":
    out("Bail out! the harness gave up"); sys.exit(5)
if scenario == "xen-crash":
    sys.stdout.write("(XEN) Hardware Dom0 crashed: 'noreboot' set - not rebooting.\n")
    sys.stdout.flush(); time.sleep(60)
if scenario == "internal-error":
    sys.stderr.write("KVM internal error. Suberror: 1\nemulation failure\n"
                     "EIP=000081fa EFL=00000046 [---Z-P-] CPL=0 II=0\n")
    sys.stderr.flush(); time.sleep(60)
out("not ok 2 - fake.two [HARNESS]")
for line in ("  ---", "  message: \"fake deviation\"", "  diagnostics:",
             "    - text: \"deviation: fake deviation\"",
             "    - text: \"" + "a line of 250 characters " * 10 + "\"", "  ..."):
    out(line)
out("ok 3 - fake.three [HARNESS] # SKIP fake skip")
out("# pmctest: 1 passed, 1 failed, 1 skipped")
sys.exit(3)
'''

# A fake bochs: writes TAP to the COM1 file its bochsrc names, then either
# hangs (as the real kernel halts under Bochs) or exits. The scenarios
# xen-* are Xen's console on COM1: its own lines, the guest's after
# "(d0) ", and Bochs never exits (Xen's noreboot).
FAKE_BOCHS = r'''#!/usr/bin/env python3
import os, re, sys, time
args = sys.argv[1:]
if "-help" in args:
    print("Supported CPU models:\n\ncorei7_skylake_x\ncorei7_icelake_u\ntigerlake\nryzen\n")
    sys.exit(0)
cfg = open(args[args.index("-f") + 1]).read()
com1 = re.search(r"^com1: .*dev=(\S+)", cfg, re.M).group(1)
scenario = os.environ.get("FAKE_SCENARIO", "pass")
xen = scenario.startswith("xen")
print("Bochs x86 Emulator 9.9 (fake)"); sys.stdout.flush()
with open(com1, "w") as f:
    def xen_line(line):
        f.write("(XEN) " + line + "\n"); f.flush()
    def out(line):
        f.write(("(d0) " if xen else "") + line + "\n"); f.flush()
    if xen:
        xen_line("Xen version 4.20.5-pre (fake) debug=n")
        xen_line("VPMU: version 0.1")
    out("TAP version 13")
    out("1..3")
    out("ok 1 - fake.one [HARNESS]")
    if scenario == "xen-panic":
        for line in ("****************************************", "Panic on CPU 0:",
                     "Presently, iommu must be enabled for PVH hardware domain",
                     "****************************************"):
            xen_line(line)
        time.sleep(60)
    if scenario == "hang":
        time.sleep(60)
    if scenario == "reset":
        out("TAP version 13")
        time.sleep(60)
    if scenario == "exit":
        sys.exit(1)
    out("not ok 2 - fake.two [HARNESS]")
    for line in ("  ---", "  message: \"fake deviation\"", "  diagnostics:",
                 "    - text: \"deviation: fake deviation\"", "  ..."):
        out(line)
    out("ok 3 - fake.three [HARNESS] # SKIP fake skip")
    out("# pmctest: 1 passed, 1 failed, 1 skipped")
    out("# pmctest: exit status 1; no isa-debug-exit device, halting")
    if xen:
        xen_line("Hardware Dom0 halted: halting machine")
time.sleep(60)
'''

checks = []


def check(fn):
    checks.append(fn)
    return fn


class Env:
    def __init__(self, elf):
        self.elf = elf
        self.tmp = tempfile.mkdtemp(prefix="runner-test-")
        self.qemu = self.script("qemu-system-x86_64", FAKE_QEMU)
        self.bochs = self.script("bochs", FAKE_BOCHS)
        self.expect = os.path.join(self.tmp, "expect")
        os.makedirs(self.expect)
        for t in targets.TARGETS:     # every target passes everything
            open(os.path.join(self.expect, t.expect), "a").close()
        # the fake emulators never read the ELF: its header is enough
        self.fake_elf = os.path.join(self.tmp, "pmctest.elf")
        with open(self.fake_elf, "wb") as f:
            f.write(b"\x7fELF\x02\x01\x01" + bytes(9) +
                    struct.pack("<HH", 2, 62) + bytes(44))
        self.fake_xen = os.path.join(self.tmp, "xen", "xen")
        os.makedirs(os.path.dirname(self.fake_xen))
        open(self.fake_xen, "w").close()

    def script(self, name, text):
        path = os.path.join(self.tmp, "bin", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o755)
        return path

    def expectations(self, target, text):
        with open(os.path.join(self.expect, target), "w") as f:
            f.write(text)

    def run(self, *args, scenario="pass", fake=True, timeout=60, own_xen=True):
        """tests/run under the fake emulators (fake); own_xen: the fake
        Xen as your own of every version (else Debian's, from --build)."""
        cmd = [sys.executable, RUN, "--expect-dir", self.expect]
        if fake:
            cmd += ["--qemu", self.qemu, "--bochs", self.bochs,
                    "--elf", self.fake_elf]
        if fake and own_xen:
            cmd += ["--xen", self.fake_xen, "--xen", f"4.20={self.fake_xen}"]
        else:
            cmd += ["--elf", self.elf]
        env = dict(os.environ, FAKE_SCENARIO=scenario)
        start = time.monotonic()
        p = subprocess.run(cmd + list(args), stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=env, timeout=timeout)
        p.seconds = time.monotonic() - start
        p.out = p.stdout.decode("utf-8", "replace")
        p.err = p.stderr.decode("utf-8", "replace")
        return p


def expect(cond, what, p=None):
    if not cond:
        detail = ""
        if p is not None:
            detail = (f"\n    exit {p.returncode}\n    stdout: "
                      + p.out[-1500:].replace("\n", "\n    ")
                      + "\n    stderr: " + p.err[-1500:].replace("\n", "\n    "))
        raise AssertionError(what + detail)


# ----------------------------------------------------------------- JUnit

# The rules of the Jenkins xunit plugin's junit-10.xsd, as this test reads
# them: which attributes and children each element may have.
JUNIT_ATTRS = {
    "testsuites": {"name", "time", "tests", "failures", "errors"},
    "testsuite": {"name", "tests", "failures", "errors", "group", "time",
                  "skipped", "timestamp", "hostname", "id", "package",
                  "file", "log", "url"},
    "testcase": {"name", "time", "classname", "group"},
    "failure": {"type", "message"}, "error": {"type", "message"},
    "skipped": {"type", "message"}, "property": {"name", "value"},
    "properties": set(), "system-out": set(), "system-err": set(),
}
JUNIT_CHILDREN = {
    "testsuites": {"testsuite"},
    "testsuite": {"testsuite", "properties", "testcase", "system-out",
                  "system-err"},
    "properties": {"property"},
    "testcase": {"skipped", "error", "failure", "rerunFailure", "rerunError",
                 "flakyFailure", "flakyError", "system-out", "system-err"},
}
JUNIT_REQUIRED = {"testsuite": {"name", "tests", "failures", "errors"},
                  "testcase": {"name"}, "property": {"name", "value"}}
SUREFIRE_TIME = re.compile(r"^(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?$")


def junit_schema_problems(el, where="testsuites"):
    """Where el and its descendants break the junit-10.xsd rules."""
    problems = []
    extra = set(el.attrib) - JUNIT_ATTRS.get(el.tag, set())
    if el.tag not in JUNIT_ATTRS:
        problems.append(f"{where}: <{el.tag}> is not in the schema")
    if extra:
        problems.append(f"{where}: <{el.tag}> has attributes {sorted(extra)}")
    missing = JUNIT_REQUIRED.get(el.tag, set()) - set(el.attrib)
    if missing:
        problems.append(f"{where}: <{el.tag}> lacks {sorted(missing)}")
    if el.tag in ("testsuites", "testsuite") and el.get("time") is not None \
            and not SUREFIRE_TIME.match(el.get("time")):
        problems.append(f"{where}: time {el.get('time')!r}")
    for child in el:
        if el.tag in JUNIT_CHILDREN and child.tag not in JUNIT_CHILDREN[el.tag]:
            problems.append(f"{where}: <{child.tag}> inside <{el.tag}>")
        problems += junit_schema_problems(child, f"{where}/{child.tag}")
    return problems


def validate_junit(path, suites=None):
    """junit-10.xsd's rules (junit_schema_problems), and what dashboards
    read: every testcase with classname pmctest.<suite>[.<group>], name and
    time, at most one failure/error/skipped child, counts that agree with
    the children. Returns the root."""
    root = ET.parse(path).getroot()
    expect(root.tag == "testsuites", f"{path}: root is <{root.tag}>")
    problems = junit_schema_problems(root)
    expect(not problems, f"{path}: " + "; ".join(problems[:5]))
    names = []
    for suite in root.findall("testsuite"):
        for attr in ("skipped", "time"):
            expect(suite.get(attr) is not None,
                   f"{path}: testsuite without {attr}")
        names.append(suite.get("name"))
        count = dict(tests=0, failures=0, errors=0, skipped=0)
        for case in suite.findall("testcase"):
            for attr in ("classname", "name", "time"):
                expect(case.get(attr), f"{path}: testcase without {attr}")
            expect(case.get("classname").startswith(f"pmctest.{names[-1]}"),
                   f"{path}: classname {case.get('classname')}")
            float(case.get("time"))
            count["tests"] += 1
            kinds = [c.tag for c in case
                     if c.tag in ("failure", "error", "skipped")]
            expect(len(kinds) <= 1, f"{path}: {case.get('name')} has {kinds}")
            for kind in kinds:
                count[{"failure": "failures", "error": "errors",
                       "skipped": "skipped"}[kind]] += 1
                el = case.find(kind)
                expect(el.get("message") is not None and el.get("type"),
                       f"{path}: <{kind}> without message or type")
        for k, v in count.items():
            expect(int(suite.get(k)) == v,
                   f"{path}: testsuite {suite.get('name')} says {k}="
                   f"{suite.get(k)}, its testcases {v}")
    for k in ("tests", "failures", "errors"):
        total = sum(int(s.get(k)) for s in root.findall("testsuite"))
        expect(int(root.get(k)) == total, f"{path}: testsuites {k} wrong")
    if suites is not None:
        expect(names == suites, f"{path}: suites {names}, wanted {suites}")
    return root


def cases(root):
    return {c.get("name"): c for c in root.iter("testcase")}


# ------------------------------------------------- expectations (real boot)

SELECTED = "selftest.pass,selftest.fail,selftest.skip"


@check
def listed_failure_becomes_todo(env):
    env.expectations("qemu-tcg-max",
                     "# deliberate\nselftest.fail  expected 1, observed 2 "
                     "(deliberate)\n")
    junit = os.path.join(env.tmp, "todo.xml")
    p = env.run("--target", "qemu-tcg-max-pvh", "--tests", SELECTED,
                "--junit", junit, fake=False)
    expect(p.returncode == 0, "a listed failure must not fail the run", p)
    expect("not ok 2 - selftest.fail [HARNESS] # TODO expected 1, observed 2"
           in p.out, "the listed failure is not a TAP TODO", p)
    expect(p.out.rstrip().endswith("run: 1 passed, 0 failed, 2 skipped"),
           "closing line", p)
    root = validate_junit(junit, ["qemu-tcg-max-pvh"])
    c = cases(root)
    expect(set(c) == {"selftest.pass", "selftest.fail", "selftest.skip"},
           f"testcases {sorted(c)}")
    known = c["selftest.fail"].find("skipped")
    expect(known.get("type") == "known-deviation" and
           "expected 1, observed 2" in known.get("message"),
           "a known deviation is a skipped of its own type in JUnit")
    expect(c["selftest.fail"].get("classname") == "pmctest.qemu-tcg-max-pvh.selftest.fail",
           "classname names the target and the group")
    expect(c["selftest.skip"].find("skipped").get("type") == "skip",
           "a skip is a skipped of type skip")
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    expect(props.get("pmctest", "").startswith("0.") and "pmctest-runner" in props
           and props.get("cpu") and props.get("version"),
           f"version, commit, emulator and CPU as properties: {sorted(props)}")
    expect(c["selftest.skip"].find("skipped").get("message") ==
           "deliberate skip", "SKIP reason in JUnit")
    expect(len(list(c["selftest.pass"])) == 0, "a pass has no children")


@check
def short_blocks_keep_their_reason(env):
    # ecx.index.fixed.cpl3 and ecx.vmware.* deviate as ecx.index.fixed.cpl0
    # did (TCG: #UD where #GP(0) is required), so the kernel reports them as
    # short blocks naming it. Their reason (JUnit's message, the suggested
    # expectation) is still the whole message with their own RCX: the
    # lines of tests/expect/qemu-tcg-max. JUnit's text adds the full report.
    ids = ["ecx.index.fixed.cpl0", "ecx.index.fixed.cpl3", "ecx.vmware.cpl0",
           "ecx.vmware.cpl3.pce1"]
    with open(os.path.join(TESTS, "expect", "qemu-tcg-max")) as f:
        committed = {l.split(None, 1)[0]: l.split(None, 1)[1].strip()
                     for l in f if l.split(None, 1)[0] in ids}
    junit = os.path.join(env.tmp, "same.xml")
    p = env.run("--target", "qemu-tcg-max-pvh", "--tests", ",".join(ids),
                "--junit", junit, fake=False)
    expect(p.returncode == 1 and 'same: "ecx.index.fixed.cpl0: ' in p.out,
           "short blocks naming ecx.index.fixed.cpl0", p)
    c = cases(validate_junit(junit, ["qemu-tcg-max-pvh"]))
    got = {i: c[i].find("failure").get("message") for i in ids if i in c}
    expect(got == committed, f"JUnit messages {got}, the expectation file's "
           f"reasons {committed}")
    text = c["ecx.vmware.cpl0"].find("failure").text
    expect("as reported in full for ecx.index.fixed.cpl0" in text and
           "observed: #UD" in text, f"JUnit text of a short block: {text}")


@check
def unlisted_failure_fails_the_run(env):
    env.expectations("qemu-tcg-max", "")
    junit = os.path.join(env.tmp, "unlisted.xml")
    p = env.run("--target", "qemu-tcg-max-pvh", "--tests", SELECTED,
                "--junit", junit, fake=False)
    expect(p.returncode == 1, "an unlisted failure must exit 1", p)
    expect("unexpected failure: selftest.fail: expected 1, observed 2" in p.err,
           "the failure is named on stderr", p)
    root = validate_junit(junit)
    failure = cases(root)["selftest.fail"].find("failure")
    expect(failure is not None and "observed 2" in failure.text,
           "the diagnostic is in the JUnit failure")


@check
def another_hosts_file_reports_differences(env):
    env.expectations("qemu-tcg-max", "# host: QEMU 0.1\n")
    junit = os.path.join(env.tmp, "other-host.xml")
    p = env.run("--target", "qemu-tcg-max-pvh", "--tests", SELECTED,
                "--junit", junit, fake=False)
    expect(p.returncode == 0, "a difference from another host's file exits 0", p)
    expect("was recorded on QEMU 0.1" in p.err and "a different host" in p.err
           and "on this host: unexpected failure: selftest.fail" in p.err,
           "the hosts and the difference are named on stderr", p)
    skipped = cases(validate_junit(junit))["selftest.fail"].find("skipped")
    expect(skipped is not None and skipped.get("type") == "other-host",
           "JUnit has the difference as skipped, type other-host")
    env.expectations("qemu-tcg-max",
                     f"# host: {qemu_release('qemu-system-x86_64')}\n")
    p = env.run("--target", "qemu-tcg-max-pvh", "--tests", SELECTED, fake=False)
    expect(p.returncode == 1, "on the file's own host the same difference fails", p)


@check
def header_lines_are_required(env):
    # A "# header:" line is a line the kernel's header must write (how
    # bochs-skylake-smp2 holds its run to x2APIC mode): one the run lacks
    # is a mismatch naming what the kernel wrote instead.
    listed = "selftest.fail  expected 1, observed 2 (deliberate)\n"
    env.expectations("qemu-tcg-max", "# header: # cpus: 1 listed (ACPI MADT via "
                     "the RSDT), 1 started, x2APIC\n" + listed)
    p = env.run("--target", "qemu-tcg-max-pvh", "--tests", SELECTED, fake=False)
    expect(p.returncode == 1 and "header: no line '# cpus: 1 listed (ACPI MADT via "
           "the RSDT), 1 started, x2APIC' (the kernel wrote '# cpus: 1 listed (ACPI "
           "MADT via the RSDT), 1 started, xAPIC'" in p.err,
           "a header line the run lacks is a mismatch naming what it wrote", p)
    env.expectations("qemu-tcg-max", "# header: # cpus: 1 listed (ACPI MADT via "
                     "the RSDT), 1 started, xAPIC\n" + listed)
    p = env.run("--target", "qemu-tcg-max-pvh", "--tests", SELECTED, fake=False)
    expect(p.returncode == 0, "a header line the run writes holds", p)


@check
def bad_expectation_paths_are_errors(env):
    os.remove(os.path.join(env.expect, "qemu-tcg-max"))
    p = env.run("--target", "qemu-tcg-max-pvh")
    expect(p.returncode == 2 and "does not exist" in p.err and
           "Traceback" not in p.err, "a missing expectation file: status 2", p)
    os.makedirs(os.path.join(env.expect, "qemu-tcg-max"))
    p = env.run("--target", "qemu-tcg-max-pvh")
    expect(p.returncode == 2 and "is a directory" in p.err and
           "Traceback" not in p.err, "an expectation path that is a directory: status 2", p)
    os.rmdir(os.path.join(env.expect, "qemu-tcg-max"))
    os.symlink("nowhere", os.path.join(env.expect, "qemu-tcg-max"))
    p = env.run("--target", "qemu-tcg-max-pvh")
    expect(p.returncode == 2 and "dangling" in p.err,
           "a dangling expectation link: status 2", p)
    os.remove(os.path.join(env.expect, "qemu-tcg-max"))
    env.expectations("qemu-tcg-max", "")


@check
def listed_test_that_passes_is_stale(env):
    env.expectations("qemu-tcg-max",
                     "selftest.fail  expected 1, observed 2 (deliberate)\n"
                     "selftest.pass  it used to fail\n")
    junit = os.path.join(env.tmp, "stale.xml")
    p = env.run("--target", "qemu-tcg-max-pvh", "--tests", SELECTED,
                "--junit", junit, fake=False)
    expect(p.returncode == 1, "a stale expectation must exit 1", p)
    expect("stale expectation" in p.out and "selftest.pass" in p.err,
           "stale expectation reported", p)
    f = cases(validate_junit(junit))["selftest.pass"].find("failure")
    expect(f is not None and f.get("type") == "stale-expectation",
           "stale expectation in JUnit")


@check
def iso_route_bakes_the_selection(env):
    env.expectations("qemu-tcg-max", "")
    p = env.run("--target", "qemu-tcg-max", "--tests", "selftest.pass",
                fake=False)
    expect(p.returncode == 0, "ISO boot with --tests", p)
    expect('command line "tests=selftest.pass"' in p.out,
           "the per-run ISO carries the command line", p)


@check
def real_hang_is_caught(env):
    p = env.run("--target", "qemu-tcg-max-pvh", "--tests", "selftest.hang",
                "--timeout", "3", fake=False)
    if "nothing to run" in p.out:
        return "no selftest.hang in this kernel (the fake emulators hang)"
    expect(p.returncode == 2 and "hung" in p.err and
           "selftest.hang" in p.err, "selftest.hang: timeout and its ID", p)
    expect(p.seconds < 20, f"the timeout took {p.seconds:.1f} s")


# --------------------------------------------- failure modes (fake QEMU)

@check
def fake_pass_with_expectation(env):
    env.expectations("qemu-tcg-max", "fake.two  fake deviation\n")
    p = env.run("--target", "qemu-tcg-max-pvh")
    expect(p.returncode == 0, "fake run matching its expectations", p)


@check
def ap_ids_in_expectations_and_junit(env):
    env.expectations("qemu-tcg-max", "fake.two  fake deviation on every CPU\n")
    junit = os.path.join(env.tmp, "smp.xml")
    p = env.run("--target", "qemu-tcg-max-pvh", "--junit", junit,
                scenario="smp")
    expect(p.returncode == 0 and p.out.count("# TODO fake deviation") == 3,
           "an expectation without '@' names the test on every CPU", p)
    c = cases(validate_junit(junit, ["qemu-tcg-max-pvh"]))
    expect(set(c) == {"fake.one", "fake.two", "fake.one@cpu1",
                      "fake.two@cpu1", "fake.two@cpu2"},
           f"an AP's testcase is named by its whole ID: {sorted(c)}")
    expect(c["fake.two@cpu2"].get("classname") ==
           "pmctest.qemu-tcg-max-pvh.fake.two",
           "an AP's testcase is in the class of CPU 0's")
    env.expectations("qemu-tcg-max", "fake.two@cpu2  fake deviation on CPU 2\n")
    p = env.run("--target", "qemu-tcg-max-pvh", scenario="smp")
    expect(p.returncode == 1 and "# TODO fake deviation on CPU 2" in p.out and
           p.out.count("# TODO") == 1,
           "an expectation with '@cpu2' names CPU 2's test alone", p)
    env.expectations("qemu-tcg-max", "")


@check
def hang(env):
    p = env.run("--target", "qemu-tcg-max-pvh", "--timeout", "2",
                scenario="hang")
    expect(p.returncode == 2, "a hang exits 2", p)
    expect("the guest hung: no exit within 2 s" in p.err, "hang message", p)
    expect("after result 1 (fake.one); test 2 (fake.two) was running" in p.err,
           "the hang names the test that was running", p)
    expect(p.seconds < 15, f"the timeout took {p.seconds:.1f} s")


@check
def reset(env):
    p = env.run("--target", "qemu-tcg-max-pvh", scenario="reset")
    expect(p.returncode == 2 and "reset or powered off" in p.err and
           "fake.two" in p.err, "a reset (triple fault) exits 2", p)


@check
def truncated(env):
    p = env.run("--target", "qemu-tcg-max-pvh", scenario="truncated")
    expect(p.returncode == 2 and "truncated TAP" in p.err,
           "truncated TAP exits 2", p)


@check
def bail_out(env):
    junit = os.path.join(env.tmp, "bail.xml")
    p = env.run("--target", "qemu-tcg-max-pvh", "--junit", junit,
                scenario="bail")
    expect(p.returncode == 2 and "Bail out! the harness gave up" in p.err,
           "Bail out! exits 2 and is quoted", p)
    err = cases(validate_junit(junit))["(boot)"].find("error")
    expect(err is not None and "Bail out!" in err.get("message"),
           "the bail out is a JUnit error")


@check
def emulator_missing(env):
    p = env.run("--target", "qemu-tcg-max-pvh", "--qemu",
                os.path.join(env.tmp, "no-such-qemu"))
    expect(p.returncode == 2 and "not found" in p.err,
           "a missing QEMU exits 2 with a message", p)


@check
def emulator_fails_to_start(env):
    p = env.run("--target", "qemu-tcg-max-pvh", scenario="start-failure")
    expect(p.returncode == 2 and "QEMU failed" in p.err and
           "invalid accelerator" in p.err, "QEMU's own error is shown", p)


@check
def kvm_internal_error_stops_at_once(env):
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return "no usable /dev/kvm"
    env.expectations("qemu-kvm-host", "")
    p = env.run("--target", "qemu-kvm-host", "--timeout", "30",
                scenario="internal-error")
    expect(p.returncode == 2 and "KVM internal error" in p.err and
           "test 2 (fake.two) was running" in p.err,
           "a KVM internal error ends the run with the running test", p)
    expect(p.seconds < 15, f"it waited {p.seconds:.1f} s for the timeout")


@check
def arch_capabilities_retry(env):
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return "no usable /dev/kvm"
    env.expectations("qemu-kvm-host", "fake.two  fake deviation\n")
    p = env.run("--target", "qemu-kvm-host", scenario="msr")
    expect(p.returncode == 0 and "-cpu host,-arch-capabilities" in p.err,
           "MSR 10AH failure is retried with -arch-capabilities", p)


@check
def exclusion_reaches_the_kernel(env):
    env.expectations("qemu-tcg-max",
                     "!selftest.fail  stops this target (made up)\n")
    p = env.run("--target", "qemu-tcg-max-pvh", "--tests", SELECTED,
                fake=False)
    expect(p.returncode == 0, "a '!' expectation leaves the test out", p)
    expect("exclude=selftest.fail" in p.out and
           not any(m and m.group(3) == "selftest.fail"
                   for m in map(tap_log.RESULT.match, p.out.splitlines())),
           "exclude= on the command line, the test not run", p)


@check
def suggest_prints_an_expectation_file(env):
    p = env.run("--target", "qemu-tcg-max-pvh", "--suggest-expectations")
    expect(p.returncode == 0 and "fake.two  fake deviation" in p.out,
           "suggested line 'ID  reason from the deviation line'", p)
    expect("TAP version 13" in p.err and "TAP version" not in p.out,
           "the TAP goes to stderr, the expectations to stdout", p)


@check
def suggest_names_a_test_once_for_every_cpu(env):
    env.expectations("qemu-tcg-max", "")
    p = env.run("--target", "qemu-tcg-max-pvh", "--suggest-expectations",
                scenario="smp")
    ids = [line.split()[0] for line in p.out.splitlines()
           if line and not line.startswith("#")]
    expect(p.returncode == 0 and ids == ["fake.two"],
           "CPU 0's line covers fake.two@cpu1 and @cpu2 (a line of their "
           f"own would be stale): suggested {ids}", p)


# ------------------------------------------------------------ fake Bochs

@check
def bochs_exit_line_ends_the_run(env):
    env.expectations("bochs-ryzen", "fake.two  fake deviation\n")
    p = env.run("--target", "bochs-ryzen", "--timeout", "20")
    expect(p.returncode == 0 and p.seconds < 10,
           f"Bochs stopped on the exit line ({p.seconds:.1f} s)", p)
    expect("Bochs 9.9" in p.out, "the Bochs version is reported", p)


@check
def bochs_hang(env):
    p = env.run("--target", "bochs-ryzen", "--timeout", "2", scenario="hang")
    expect(p.returncode == 2 and "hung" in p.err and
           "test 2 (fake.two) was running" in p.err, "Bochs hang", p)


@check
def bochs_reset(env):
    p = env.run("--target", "bochs-ryzen", "--timeout", "20",
                scenario="reset")
    expect(p.returncode == 2 and "reset" in p.err and p.seconds < 10,
           "a second TAP header is a reset", p)


@check
def bochs_stops_early(env):
    p = env.run("--target", "bochs-ryzen", "--timeout", "20",
                scenario="exit")
    expect(p.returncode == 2 and "truncated TAP" in p.err,
           "Bochs exiting before the exit line is truncated TAP", p)


# -------------------------------------------------------------- --all

@check
def all_runs_in_parallel_with_a_table(env):
    for t in ("qemu-tcg-max", "bochs-ryzen"):    # -pvh shares -max's
        env.expectations(t, "fake.two  fake deviation\n")
    junit = os.path.join(env.tmp, "all.xml")
    p = env.run("--all", "--only", "qemu-tcg-max,qemu-tcg-max-pvh,bochs-ryzen",
                "--junit", junit, "--timeout", "20")
    expect(p.returncode == 0, "--all over matching targets exits 0", p)
    expect("verdict" in p.out and "MATCH" in p.out, "summary table", p)
    validate_junit(junit, ["qemu-tcg-max", "qemu-tcg-max-pvh", "bochs-ryzen"])
    expect("# the kernel said: 3 passed, 3 failed, 3 skipped; of its failures 3 known" in p.out,
           "the kernel's counts and the known deviations named in one line", p)
    p = env.run("--all", "--only", "qemu-tcg-max,qemu-tcg-max-pvh,bochs-ryzen",
                "-v", "--timeout", "20")
    owners = [l.split("]")[0] for l in p.out.splitlines() if l.startswith("[")]
    blocks = [o for i, o in enumerate(owners) if i == 0 or owners[i - 1] != o]
    expect(len(blocks) == len(set(blocks)) == 3,
           f"-v: each target's TAP in one block, not interleaved ({blocks})", p)
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        p = env.run("--all", "--only", "qemu-tcg-max-pvh,qemu-kvm-host",
                    "--junit", junit, "--timeout", "20")
        c = cases(validate_junit(junit, ["qemu-tcg-max-pvh", "qemu-kvm-host"]))
        gone = c.get("(target)")
        expect(gone is not None and
               gone.find("skipped").get("type") == "target-unavailable" and
               "/dev/kvm" in gone.find("skipped").get("message"),
               "an unavailable target is a skipped testsuite with the reason")


@check
def xen_route(env):
    env.expectations("xen-pvh-dom0", "fake.two  fake deviation\n")
    log = os.path.join(env.tmp, "xen.log")
    p = env.run("--target", "xen-pvh-dom0", "--tests", "fake.one,fake.two",
                "--log", log)
    expect(p.returncode == 0, "a xen target under the fake Xen matches", p)
    text = open(log).read()
    lines = text.splitlines()
    expect("TAP version 13" in lines and not any(l.startswith("(d0)") for l in lines),
           "the TAP log holds the guest's lines, Xen's (d0) prefix stripped", p)
    expect("    - text: \"" + "a line of 250 characters " * 10 + "\"" in lines,
           "a line Xen cut at 199 characters is whole again", p)
    expect("# run: xen: Xen version 4.17.7 (fake) debug=n" in lines and
           "# xen: Xen version 4.17.7 (fake)" in lines and
           "Xen version 4.17.7" in p.out, "the header names Xen's version", p)
    vpmu = "# header: # xen: VPMU: version 0.1\nfake.two  fake deviation\n"
    for target, status in (("xen-pvh-dom0-vpmu", 0), ("xen-pvh-dom0", 1)):
        env.expectations(target, vpmu)
        p = env.run("--target", target, "--tests", "fake.one,fake.two")
        expect(p.returncode == status, f"{target}: Xen's VPMU line is a "
               "header comment an expectation file can require (status "
               f"{status})", p)
    env.expectations("xen-pvh-dom0-vpmu", "")
    console = open(os.path.join(env.tmp, "xen.console.log")).read()
    expect("(d0) TAP version 13" in console and
           "(XEN) fake: module " + env.fake_elf + " tests=fake.one,,fake.two" in console,
           "Xen's whole console is kept; the module's commas doubled for QEMU",
           p)
    p = env.run("--target", "xen-pvh-dom0-vpmu", scenario="xen-crash")
    expect(p.returncode == 2 and p.seconds < 30 and
           "Xen stopped the guest: Hardware Dom0 crashed" in p.err,
           "Xen's 'Hardware Dom0 crashed' ends the run at once, status 2", p)


@check
def xen_in_bochs(env):
    """The kind xen-bochs: Xen's console read from Bochs' COM1 file, the
    run ended by the kernel's exit line or by Xen's panic, Bochs never
    exiting."""
    target = "xen-4.20-pvh-dom0-vmx-vpmu"
    env.expectations(target, "# header: # xen: VPMU: version 0.1\n"
                     "fake.two  fake deviation\n")
    log = os.path.join(env.tmp, "xen-bochs.log")
    p = env.run("--target", target, "--bochs-pmu", env.bochs, "--log", log,
                "--timeout", "30", scenario="xen")
    lines = open(log).read().splitlines()
    expect(p.returncode == 0 and p.seconds < 20 and "TAP version 13" in lines
           and not any(l.startswith("(d0)") for l in lines) and
           "# xen: Xen version 4.20.5-pre (fake)" in lines,
           "Xen in Bochs: the guest's lines from COM1, Xen's version a header "
           f"line, the run ended at the exit line ({p.seconds:.1f} s)", p)
    p = env.run("--target", target, "--bochs-pmu", env.bochs, "--timeout", "30",
                scenario="xen-panic")
    expect(p.returncode == 2 and p.seconds < 20 and
           "Xen stopped the guest: Panic on CPU 0: Presently, iommu must be "
           "enabled for PVH hardware domain" in p.err,
           "Xen's panic in Bochs ends the run at once, status 2, its reason "
           "named", p)


@check
def nested_hang_quotes_l1(env):
    """A nested target that hangs: its reason quotes L1's last console
    lines past init's reports (a lockup report, say), printable; where L1
    said nothing more, it says so."""
    from ..boot.process import ProcessLines
    from ..targets.kind import new_outcome
    from ..targets.nested import NestedQemuStream
    reasons = []
    for console in ("pmctest-l1: params kvm_amd.enable_mediated_pmu=Y\\n"
                    "watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [qemu:77]\\x1b[0m\\n",
                    "pmctest-l1: params kvm_amd.enable_mediated_pmu=Y\\n"):
        initrd = os.path.join(env.tmp, "initrd.cpio")
        open(initrd, "w").close()
        hang = [sys.executable, "-c", f"import sys, time; sys.stderr.write('{console}'); "
                "sys.stderr.flush(); time.sleep(30)"]
        outcome = new_outcome("fake")
        outcome.problem = "the guest hung"
        stream = NestedQemuStream(ProcessLines(hang, 1.5), outcome, initrd)
        for _ in stream.lines():
            pass
        stream.finish(None, outcome)
        reasons.append(outcome.problem)
    expect(stream.source.ending.timed_out and
           reasons[0] == "the guest hung; L1's console before the hang: watchdog: BUG: "
                         "soft lockup - CPU#0 stuck for 22s! [qemu:77]?[0m" and
           reasons[1] == "the guest hung; L1's console said nothing past init's "
                         "reports before the hang",
           f"a nested hang's reason quotes L1's last lines, or says it said nothing: {reasons}")


# What the inner QEMU's monitor answered in a hang of kvm-7.3-mediated-fewer
# (docs/run-kvm.md), its lines ending CR LF, the readline's echo between
# them, cut to what guest_state.awk reads and a line either side.
HUNG_MONITOR = "\r\n".join([
    "QEMU 7.2.22 monitor - type 'help' for more information",
    "(qemu) info lapic 0\x1b[K",
    "dumping local APIC state for CPU 0 ",
    "LVTTHMR\t 0x00010000 active-hi edge  masked                      Fixed  (vec 0)",
    "LVTT\t 0x000000fd active-hi edge                 one-shot     Fixed  (vec 253)",
    "Timer\t DCR=0x3 (divide by 16) initial_count = 5697 current_count = 0",
    "ISR\t (none)",
    "IRR\t (none)",
    "APR 0x00 TPR 0xe0 DFR 0x0f LDR 0x00 PPR 0xe0",
    "(qemu) info lapic 1\x1b[K",
    "dumping local APIC state for CPU 1 ",
    "LVTT\t 0x00010000 active-hi edge  masked         one-shot     Fixed  (vec 0)",
    "Timer\t DCR=0x0 (divide by 2) initial_count = 0 current_count = 0",
    "ISR\t (none)",
    "IRR\t (none)",
    "APR 0x00 TPR 0x00 DFR 0x0f LDR 0x00 PPR 0x00",
    "(qemu) info registers -a\x1b[K",
    "CPU#0",
    "RAX=000000000000006d RBX=0000000000000020 RCX=0000000000124280 RDX=00000000000003f8",
    "RIP=000000000010201f RFL=00000206 [-----P-] CPL=0 II=0 A20=1 SMM=0 HLT=1",
    "CPU#1",
    "RIP=00000000001045e9 RFL=00000297 [--S-APC] CPL=0 II=0 A20=1 SMM=0 HLT=1",
    "EFER=0000000000000500", ""])


@check
def nested_hang_guest_state(env):
    """A nested hang's guest state: L1's init reads the inner QEMU's
    monitor through guest_state.awk into one line per vCPU (RIP, flags,
    HLT; the local APIC timer, ISR, IRR, TPR and PPR), which the hang's
    reason then quotes."""
    from ..images.nested.initramfs import GUEST_STATE
    dump = os.path.join(env.tmp, "monitor.log")
    with open(dump, "w", newline="") as f:
        f.write(HUNG_MONITOR)
    r = subprocess.run(["awk", "-f", GUEST_STATE, dump], capture_output=True,
                       text=True)
    expect(r.returncode == 0 and r.stdout.splitlines() == [
        "pmctest-l1: guest CPU 0 at 60 s: RIP=000000000010201f RFL=00000206 "
        "HLT=1; LVTT 0x000000fd active-hi edge one-shot Fixed (vec 253); Timer "
        "DCR=0x3 (divide by 16) initial_count = 5697 current_count = 0; ISR "
        "(none); IRR (none); TPR 0xe0 PPR 0xe0",
        "pmctest-l1: guest CPU 1 at 60 s: RIP=00000000001045e9 RFL=00000297 "
        "HLT=1; LVTT 0x00010000 active-hi edge masked one-shot Fixed (vec 0); "
        "Timer DCR=0x0 (divide by 2) initial_count = 0 current_count = 0; ISR "
        "(none); IRR (none); TPR 0x00 PPR 0x00"],
           f"the monitor's answers in a hang give one line per vCPU: "
           f"{r.stdout!r} {r.stderr[-300:]!r}")


@check
def xen_versions(env):
    """Each Xen target's version: the header line its file can require,
    and the host its results are of."""
    env.expectations("xen-4.20-pvh-dom0",
                     "# header: # xen: Xen version 4.20.4 (fake)\nfake.two  fake deviation\n")
    p = env.run("--target", "xen-4.20-pvh-dom0")
    expect(p.returncode == 1 and "header: no line '# xen: Xen version 4.20.4 "
           "(fake)' (the kernel wrote '# xen: Xen version 4.17.7 (fake)')" in p.err,
           "an expectation file requires the Xen version: another version is a "
           "mismatch that names both", p)
    env.expectations("xen-4.20-pvh-dom0", "")
    # Another Xen than the file's (your own, a newer package) is another host.
    env.expectations("xen-pvh-dom0", "# host: QEMU 0.0 TCG -cpu EPYC, Xen 4.17.6 (fake)\n")
    p = env.run("--target", "xen-pvh-dom0")
    expect(p.returncode == 0 and "this run is on QEMU 0.0 TCG -cpu EPYC, Xen "
           "4.17.7 (fake): a different host" in p.err and
           "on this host: unexpected failure: fake.two" in p.err,
           "a Xen other than the one the file names is another host: its "
           "differences reported, not failed", p)
    env.expectations("xen-pvh-dom0", "")


@check
def xen_images(env):
    """Your own Xen missing, Debian's as make images leaves it (missing,
    unavailable with the reason, or a newer package than the pin)."""
    p = env.run("--list-targets", "--xen", os.path.join(env.tmp, "no", "xen"))
    expect(re.search(r"xen-pvh-dom0 .*unavailable: no Xen image at", p.out) or
           re.search(r"xen-pvh-dom0.*\n.*no Xen image at", p.out),
           "without a Xen image the xen targets are unavailable, with the reason", p)

    # Debian's Xen as make images leaves it in BUILD/xen-VERSION/.
    build = os.path.join(env.tmp, "build")
    debian = os.path.join(build, "xen-4.17")
    os.makedirs(debian)
    p = env.run("--list-targets", "--build", build, own_xen=False)
    expect(re.search(r"xen-pvh-dom0 .*unavailable: no Xen 4.17 image in .*make "
                     r"xen-4.17", p.out) and
           re.search(r"xen-4.20-pvh-dom0 .*unavailable: no Xen 4.20 image in", p.out),
           "without Debian's Xen each version's targets are unavailable, "
           "naming what fetches it", p)
    with open(os.path.join(debian, "unavailable"), "w") as f:
        f.write("apt-get update of bookworm's lists failed: no network\n")
    p = env.run("--list-targets", "--build", build, own_xen=False)
    expect(re.search(r"xen-pvh-dom0 .*unavailable: no Xen 4.17 image: apt-get "
                     "update of bookworm's lists failed: no network", p.out),
           "a fetch that could not be had: the targets say why", p)
    os.unlink(os.path.join(debian, "unavailable"))
    shutil.copy(env.fake_xen, os.path.join(debian, "xen"))
    # The archive no longer had the pinned package: a mismatch is Xen's.
    with open(os.path.join(debian, "xen.txt"), "w") as f:
        f.write("package=xen-hypervisor-4.17-amd64\nversion=4.17.8+1\n"
                "pinned=xen-hypervisor-4.17-amd64 4.17.7+1\nrelease=bookworm\n")
    env.expectations("xen-pvh-dom0", "")
    p = env.run("--target", "xen-pvh-dom0", "--build", build, own_xen=False)
    expect(p.returncode == 1 and
           "Xen changed: xen-hypervisor-4.17-amd64 4.17.7+1 is pinned, the "
           "archive had 4.17.8+1: unexpected failure: fake.two" in p.err,
           "a changed Xen version: the mismatch names both versions", p)


DIFF_A = """TAP version 13
1..4
# hypervisor: "TCGTCGTCGTCG" (CPUID 40000000H, max leaf 0x40000001)
ok 1 - t.same [X-1]
not ok 2 - t.verdict [X-1]
  ---
  message: "read where #GP(0) is required"
  ...
not ok 3 - t.diagnostics [X-1]
  ---
  message: "MSR-1: C0010200H completed"
  diagnostics:
    - text: "MSR-1: C0010240H completed"
  ...
ok 4 - t.only-a [X-1] # SKIP not here
# pmctest: 2 passed, 2 failed, 0 skipped
"""
DIFF_B = """TAP version 13
1..4
# hypervisor: "XenVMMXenVMM" (CPUID 40000000H, max leaf 0x40000005)
ok 1 - t.same [X-1]
ok 2 - t.verdict [X-1]
not ok 3 - t.diagnostics [X-1]
  ---
  message: >
    MSR-1: C0010200H
    completed
  ...
ok 4 - t.only-b [X-1]
# pmctest: 3 passed, 1 failed, 0 skipped
"""


@check
def diff_option(env):
    def log(name, text):
        path = os.path.join(env.tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path
    a, b = log("a.log", DIFF_A), log("b.log", DIFF_B)
    p = env.run("--diff", a, a)
    expect(p.returncode == 0 and "0 with another verdict, 0 more" in p.out,
           "--diff of a log with itself: no difference, status 0", p)
    p = env.run("--diff", a, b)
    for line in ("header hypervisor:",
                 '  b.log: "XenVMMXenVMM" (CPUID 40000000H, max leaf 0x40000005)',
                 "t.verdict: a.log not ok, b.log ok",
                 "  a.log: message: read where #GP(0) is required",
                 "t.diagnostics: not ok on both, the diagnostics differ",
                 "  only a.log: MSR-1: C0010240H completed",
                 "t.only-a: only a.log ran it", "t.only-b: only b.log ran it"):
        expect(line in p.out.splitlines(), f"--diff says {line.strip()!r}", p)
    expect(p.returncode == 1 and "t.same" not in p.out and
           "MSR-1: C0010200H completed" not in p.out,
           "--diff: status 1; the same result, and a value folded on one "
           "side only, are no difference", p)
    # Xen's console: the (d0) lines are the kernel's, cut at 199.
    xen = "(XEN) Xen version 4.17.7 (fake)\n" + "".join(
        "(d0) " + line + "\n" for line in DIFF_A.splitlines())
    p = env.run("--diff", a, log("xen.console.log", xen))
    expect(p.returncode == 0, "--diff reads Xen's console as the kernel's log", p)
    p = env.run("--diff", a, os.path.join(env.tmp, "no-such.log"))
    expect(p.returncode == 2 and "neither a log file nor a target" in p.err,
           "--diff of what is neither a log nor a target: status 2", p)
    p = env.run("--diff", "qemu-tcg-max-pvh", "xen-pvh-dom0")
    expect(p.returncode == 1 and "0 with another verdict" in p.out and
           "xen-pvh-dom0: Xen version 4.17.7 (fake)" in p.out and
           "1 header lines differ" in p.out,
           "--diff boots two targets (the fake QEMU, the fake Xen): the same "
           "results, Xen's version line the one header line that differs", p)


@check
def list_targets(env):
    p = env.run("--list-targets")
    expect(p.returncode == 0, "--list-targets", p)
    for name in ("qemu-tcg-max", "qemu-tcg-intel", "qemu-tcg-amd",
                 "qemu-kvm-host", "qemu-kvm-intel-model", "bochs-skylake",
                 "bochs-icelake", "bochs-tigerlake", "bochs-ryzen"):
        expect(name in p.out, f"{name} listed", p)
    p = env.run("--list-targets", "--bochs", os.path.join(env.tmp, "nobochs"))
    expect("unavailable: " in p.out and "bochs" in p.out,
           "a missing Bochs says why", p)


def main(argv):
    ap = argument_parser(__name__, __doc__)
    ap.add_argument("--elf", default=os.path.join(ROOT, "build",
                                                  "pmctest.elf"))
    ap.add_argument("--junit", action="append", default=[],
                    help="also validate this JUnit file")
    ap.add_argument("--junit-only", action="store_true",
                    help="only validate the --junit files")
    ap.add_argument("-k", dest="only", help="run the checks whose name has this")
    args = ap.parse_args(argv)
    env = Env(os.path.abspath(args.elf))
    passed = failed = 0
    try:
        for path in args.junit:
            try:
                validate_junit(path)
                print(f"ok - {path} is valid JUnit")
                passed += 1
            except (AssertionError, ET.ParseError, OSError) as e:
                print(f"not ok - {path}: {e}")
                failed += 1
        real = shutil.which("qemu-system-x86_64") and os.path.exists(env.elf)
        for fn in [] if args.junit_only else checks:
            if args.only and args.only not in fn.__name__:
                continue
            needs_real = fn.__name__ in (
                "listed_failure_becomes_todo", "unlisted_failure_fails_the_run",
                "another_hosts_file_reports_differences",
                "listed_test_that_passes_is_stale",
                "iso_route_bakes_the_selection", "real_hang_is_caught",
                "exclusion_reaches_the_kernel")
            if needs_real and not real:
                print(f"ok - {fn.__name__} # SKIP no QEMU or no {args.elf}")
                continue
            try:
                skip = fn(env)
                print(f"ok - {fn.__name__}" + (f" # SKIP {skip}" if skip
                                               else ""))
                passed += 1
            except (AssertionError, subprocess.TimeoutExpired) as e:
                print(f"not ok - {fn.__name__}: {e}")
                failed += 1
    finally:
        shutil.rmtree(env.tmp, ignore_errors=True)
    print(f"runner check: {passed} passed, {failed} failed")
    return 1 if failed else 0


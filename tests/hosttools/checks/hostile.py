"""The host tools against hostile logs, arguments, resources and signals,
through a stand-in emulator that prints a given serial log and exits with a
given status.

  verdict    tests/run and tests/boot.py exit 2, with the reason, for TAP
             whose plan, numbers, result lines, summary or exit status do
             not agree (and 0 or 1 for TAP that does)
  xml        the JUnit file and the report stay well-formed for any bytes,
             a diagnostic capped with a marker
  failures   an unwritable or full --junit, --report or --log, a bad
             --timeout or --jobs, an image that is not an ELF or an ISO, an
             ISO on -M microvm, too little memory: status 2 and one line,
             before any emulator starts where it can be known before
  signals    SIGTERM, SIGHUP and SIGINT at each moment of a run (before the
             first emulator, as one starts, while they run) end tests/run
             and every emulator; nohup's ignored SIGHUP stays ignored
  reading    a 50 MiB line without a newline is read to its end and judged
  make       make variables (TESTS, KERNEL_ARGS, ACCEL, CPU, FIRMWARE,
             QEMU_ARGS, BUILD) never reach a shell's parser; a command line
             the kernel would refuse stops make run before it boots

After every run of tests/run, its scratch directory (TMPDIR) is empty.

  tests/check.py hostile --elf ELF --iso ISO --build DIR [-k PART]...
"""
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from .. import ROOT, TESTS, targets
from ..boot import image_checks as images
from ..report.tap_out import Tap
from . import argument_parser

RUN = os.path.join(TESTS, "run")
BOOT = os.path.join(TESTS, "boot.py")

# The stand-in qemu-system-x86_64: STANDIN_LOG's bytes on stdout (the serial
# console), then exit STANDIN_EXIT (QEMU's code: kernel status N is 2N+1).
# STANDIN_PIDS: a directory where each stand-in leaves a file named after
# its pid. STANDIN_HANG: sleep instead of exiting. STANDIN_SIGNAL,
# STANDIN_PROBE_SIGNAL: the signal to send the runner when the stand-in
# starts, or when it is asked its --version. STANDIN_SPLIT=N: after N lines,
# wait for the file STANDIN_GO.
STANDIN = r'''#!/usr/bin/env python3
import os, signal, sys, time
args, env = sys.argv[1:], os.environ.get
if "--version" in args:
    if env("STANDIN_PROBE_SIGNAL"):
        os.kill(os.getppid(), getattr(signal, env("STANDIN_PROBE_SIGNAL")))
        time.sleep(0.5)
    print("QEMU emulator version 0.0.0 (stand-in)"); sys.exit(0)
if "-machine" in args and "help" in args:
    print("pc    Standard PC\nmicrovm  microvm (i386)"); sys.exit(0)
if env("STANDIN_PIDS"):
    open(os.path.join(env("STANDIN_PIDS"), str(os.getpid())), "w").close()
if env("STANDIN_SIGNAL"):
    os.kill(os.getppid(), getattr(signal, env("STANDIN_SIGNAL")))
data = open(env("STANDIN_LOG"), "rb").read() if env("STANDIN_LOG") else b""
out = sys.stdout.buffer
if env("STANDIN_SPLIT"):
    head = b"".join(data.splitlines(True)[:int(env("STANDIN_SPLIT"))])
    out.write(head); out.flush()
    while not os.path.exists(env("STANDIN_GO")):
        time.sleep(0.05)
    data = data[len(head):]
for i in range(0, len(data), 1 << 16):
    out.write(data[i:i + (1 << 16)]); out.flush()
if env("STANDIN_HANG"):
    time.sleep(3600)
sys.exit(int(env("STANDIN_EXIT", "1")))
'''

HEAD = ["TAP version 13", "1..3", "# pmctest stand-in"]
RESULTS = ["ok 1 - a.one [X]", "ok 2 - a.two [X]", "ok 3 - a.three [X]"]
PASS = HEAD + RESULTS + ["# pmctest: 3 passed, 0 failed, 0 skipped"]
FAIL = HEAD + RESULTS[:1] + ["not ok 2 - a.two [X]", "  ---",
                             '  message: "expected 1, observed 2"', "  ..."] + \
    RESULTS[2:] + ["# pmctest: 2 passed, 1 failed, 0 skipped"]
EXIT = {0: 1, 1: 3, 2: 5}      # the kernel's status -> QEMU's exit code
# XML 1.0's characters; what is not one makes a file ill-formed
NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


class Env:
    def __init__(self, elf, build):
        self.elf = elf
        self.build = build
        self.tmp = tempfile.mkdtemp(prefix="hostile-")
        self.qemu = os.path.join(self.tmp, "bin", "qemu-system-x86_64")
        os.makedirs(os.path.dirname(self.qemu))
        with open(self.qemu, "w") as f:
            f.write(STANDIN)
        os.chmod(self.qemu, 0o755)
        self.expect = os.path.join(self.tmp, "expect")
        os.makedirs(self.expect)
        for t in targets.TARGETS:     # every target passes everything
            open(os.path.join(self.expect, t.expect), "w").close()
        self.n = 0

    def path(self, name):
        self.n += 1
        return os.path.join(self.tmp, f"{self.n}-{name}")

    def folder(self, name):
        path = self.path(name)
        os.makedirs(path)
        return path

    def log(self, lines):
        path = self.path("serial.log")
        with open(path, "wb") as f:
            f.write(lines if isinstance(lines, bytes) else
                    "".join(line + "\n" for line in lines).encode())
        return path

    def run(self, cmd, lines=PASS, status=0, env=None, timeout=120, **popen):
        """cmd to its end; .out, .err, .seconds, .leaked (what it left in
        its TMPDIR) and .started (the stand-ins it started)."""
        pids = self.folder("pids")
        scratch = self.folder("tmp")
        e = dict(os.environ, STANDIN_LOG=self.log(lines), STANDIN_PIDS=pids,
                 STANDIN_EXIT=str(EXIT.get(status, status)), TMPDIR=scratch)
        e.update(env or {})
        start = time.monotonic()
        p = subprocess.run(cmd, capture_output=True, env=e, timeout=timeout,
                           stdin=subprocess.DEVNULL, **popen)
        p.seconds = time.monotonic() - start
        p.out = p.stdout.decode("utf-8", "replace")
        p.err = p.stderr.decode("utf-8", "replace")
        p.leaked = os.listdir(scratch)
        p.started = os.listdir(pids)
        return p

    def tests_run(self, *args, **kw):
        return self.run([sys.executable, RUN, "--expect-dir", self.expect,
                         "--qemu", self.qemu, "--elf", self.elf,
                         "--target", "qemu-tcg-max-pvh"] + list(args), **kw)

    def tests_all(self, *args, **kw):
        return self.run([sys.executable, RUN, "--expect-dir", self.expect,
                         "--qemu", self.qemu, "--elf", self.elf, "--all",
                         "--only", "qemu-tcg-max-pvh"] + list(args), **kw)

    def boot(self, *args, **kw):
        return self.run([sys.executable, BOOT, "--qemu", self.qemu, "--route",
                         "pvh", "--elf", self.elf] + list(args), **kw)


def shown(p):
    return [f"exit {p.returncode} after {p.seconds:.1f} s; left in TMPDIR: "
            f"{p.leaked}", "stderr: " + p.err.strip()[-600:]]


def status_2_one_line(p, words):
    """Status 2, one line on stderr naming words, no traceback, no scratch
    left."""
    return (p.returncode == 2 and len(p.err.strip().splitlines()) == 1 and
            words in p.err and "Traceback" not in p.err and not p.leaked)


def xml_problem(path):
    """None if xmllint reads path as well-formed XML, else its complaint."""
    if not os.path.exists(path):
        return "not written"
    r = subprocess.run(["xmllint", "--noout", path], capture_output=True, text=True)
    return r.stderr[:300] if r.returncode else None


# ------------------------------------------------------------------ verdict

BROKEN = [
    ("the same test number three times under 1..3",
     HEAD + RESULTS[:1] * 3 + ["# pmctest: 3 passed, 0 failed, 0 skipped"], 0,
     "test number 1 where 2 was due"),
    ("no plan", [l for l in PASS if l != "1..3"], 0, "a result before the plan"),
    ("a not ok line the kernel's pattern does not take",
     PASS[:-1] + ["not ok 4 - a.four [X] trailing words"] + PASS[-1:], 0,
     "a result line that does not parse"),
    ("a summary that contradicts the results",
     PASS[:-1] + ["# pmctest: 0 passed, 3 failed, 0 skipped"], 0,
     "the summary says 0 passed, 3 failed"),
    ("1..5 with 3 results", ["TAP version 13", "1..5"] + PASS[2:], 0,
     "plan 1..5 but 3 results"),
    ("exit status 0 beside a not ok line", FAIL, 0,
     "exit status 0 does not match its 1 not ok lines"),
    ("exit status 1 and no not ok line", PASS, 1,
     "exit status 1 does not match its 0 not ok lines"),
    ("a YAML block with an unescaped quote",
     FAIL[:6] + ['  message: "say "hi""'] + FAIL[7:], 1,
     "not a line of the kernel's YAML block"),
    ("a line that is not TAP", PASS[:4] + ["garbage"] + PASS[4:], 0,
     "not a line of TAP"),
    ("a second TAP version line", PASS[:4] + ["TAP version 13"] + PASS[4:], 0,
     "a second 'TAP version' line"),
]


def verdict(env, tap):
    for what, lines, status, reason in BROKEN:
        for tool, p in (("tests/run", env.tests_run(lines=lines, status=status)),
                        ("boot.py", env.boot(lines=lines, status=status))):
            tap.check(p.returncode == 2 and reason in p.err and not p.leaked,
                      f"{tool}: {what}: status 2, \"{reason}\"", shown(p))
    for what, lines, status, want in (("complete TAP, no failure", PASS, 0, 0),
                                      ("complete TAP with a not ok", FAIL, 1, 1),
                                      ("firmware's line left open before the "
                                       "version line", ["SeaBIOS", "Booting from "
                                       "ROM..TAP version 13"] + PASS[1:], 0, 0)):
        for tool, p in (("tests/run", env.tests_run(lines=lines, status=status)),
                        ("boot.py", env.boot(lines=lines, status=status))):
            tap.check(p.returncode == want and not p.leaked,
                      f"{tool}: {what}: status {want}", shown(p))


# ---------------------------------------------------------------------- xml

def xml(env, tap):
    odd = "\ufffe \uffff \x85 \ud7ff"
    lines = ["SeaBIOS " + odd] + HEAD + ["# cpu: " + odd] + FAIL[3:6] + \
        ['  message: "' + odd + '"'] + FAIL[7:]
    junit, report = env.path("odd.xml"), env.path("report")
    p = env.tests_run("--junit", junit, "--report", report, lines=lines, status=1)
    index = os.path.join(report, "index.html")
    page = open(index, encoding="utf-8").read() if os.path.exists(index) else ""
    tap.check(p.returncode == 1 and xml_problem(junit) is None and page and
              not NOT_XML.search(page),
              "U+FFFE and U+FFFF in the firmware's, the header's and a "
              "diagnostic's lines: well-formed JUnit and report",
              shown(p) + [f"xmllint: {xml_problem(junit)}"])

    big = "d" * (900 << 10)
    lines = FAIL[:6] + [f'  message: "{big}"', "  diagnostics:"] + \
        [f'    - text: "{big}"'] * 4 + FAIL[7:]
    junit = env.path("big.xml")
    p = env.tests_run("--junit", junit, lines=lines, status=1)
    size = os.path.getsize(junit) if os.path.exists(junit) else 0
    text = open(junit, encoding="utf-8").read() if size else ""
    tap.check(p.returncode == 1 and xml_problem(junit) is None and
              size < (3 << 20) and "more characters cut here" in text,
              "4.5 MiB of diagnostics: the JUnit file capped (each text at "
              "64 Ki characters, with a marker) and well-formed",
              shown(p) + [f"{size} bytes; xmllint: {xml_problem(junit)}"])

    huge = ('  message: "' + "d" * (20 << 20) + '"').encode()
    junit = env.path("huge.xml")
    p = env.tests_run("--junit", junit, status=1,
                      lines=("\n".join(FAIL[:6]) + "\n").encode() + huge + b"\n" +
                      ("\n".join(FAIL[7:]) + "\n").encode())
    tap.check(p.returncode == 2 and "YAML" in p.err and
              xml_problem(junit) is None and os.path.getsize(junit) < (10 << 20),
              "a 20 MiB diagnostic line: status 2 and a well-formed JUnit file",
              shown(p) + [f"xmllint: {xml_problem(junit)}"])


# ----------------------------------------------------------------- failures

def failures(env, tap):
    unwritable_outputs(env, tap)
    junit_disk_full(env, tap)
    bad_numbers(env, tap)
    bad_images(env, tap)


def unwritable_outputs(env, tap):
    """Every output that cannot be written: status 2, one line, and before
    any emulator where it can be known then."""
    a_file = env.path("a-file")
    open(a_file, "w").close()
    under = os.path.join(a_file, "x")
    for option, path, words in (("--junit", under, "cannot write the JUnit file"),
                                ("--junit", "/dev/full", "No space left"),
                                ("--report", under, "cannot write the report"),
                                ("--log", under, "cannot write the log"),
                                ("--log", "/dev/full", "No space left")):
        p = env.tests_run(option, path)
        before = "/dev/full" not in path or option == "--log"
        tap.check(status_2_one_line(p, words) and (not p.started or not before),
                  f"tests/run {option} {path.replace(env.tmp, 'TMP')}: status 2, "
                  "one line" + (", before any emulator" if before else ""), shown(p))
    p = env.tests_all("--log-dir", under)
    tap.check(status_2_one_line(p, "cannot write the log directory") and not p.started,
              "tests/run --all --log-dir under a file: status 2, one line, "
              "before any emulator", shown(p))
    p = env.boot("--log", under)
    tap.check(status_2_one_line(p, "cannot write the log"),
              "boot.py --log under a file: status 2, one line", shown(p))


def junit_disk_full(env, tap):
    junit = env.path("limited.xml")
    with open(junit, "w") as f:
        f.write("<testsuites/>\n")

    def limited():      # a full disk, for this one file
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (300, 300))
    p = env.tests_run("--junit", junit, preexec_fn=limited)
    left = [n for n in os.listdir(os.path.dirname(junit)) if n.startswith(".")]
    tap.check(status_2_one_line(p, "File too large") and
              open(junit).read() == "<testsuites/>\n" and not left,
              "a JUnit file that cannot be written whole: status 2, the old "
              "file as it was, no temporary file left", shown(p) + [f"left {left}"])


def bad_numbers(env, tap):
    for args, words in ((["--timeout", "nan"], "--timeout"), (["--timeout", "-5"], "--timeout"),
                        (["--timeout", "inf"], "--timeout"), (["--timeout", "0"], "--timeout"),
                        (["--elf", "/etc/hostname"], "not an ELF file")):
        for tool, p in (("tests/run", env.tests_run(*args)), ("boot.py", env.boot(*args))):
            tap.check(status_2_one_line(p, words) and not p.started,
                      f"{tool} {' '.join(args)}: status 2, one line, no boot", shown(p))
    for args, words in ((["--jobs", "0"], "--jobs"), (["--max-stops", "-1"], "--max-stops")):
        p = env.tests_all(*args)
        tap.check(status_2_one_line(p, words) and not p.started,
                  f"tests/run {' '.join(args)}: status 2, one line, no boot", shown(p))


def bad_images(env, tap):
    """An image or a machine that cannot hold it: refused before the boot."""
    iso = ["--route", "iso", "--iso"]
    for args, words in ((iso + [env.elf], "not an ISO 9660 image"),
                        (iso + [env.iso, "--machine", "microvm"], "-M microvm"),
                        (iso + [env.iso, "--qemu-args", "-machine microvm,accel=tcg"],
                         "-M microvm"),
                        (iso + [env.iso, "--qemu-args", "-m 3"], "at least 4 MiB"),
                        (iso + [env.iso, "--firmware", "uefi", "--memory", "32"],
                         f"at least {images.ISO_MIN_MEMORY['uefi']} MiB"),
                        # the ELF's last byte, its stacks included, in MiB
                        (["--memory", "1"], "at least "
                         f"{-(-images.elf_end(env.elf) // (1 << 20))} MiB")):
        p = env.boot(*args)
        tap.check(status_2_one_line(p, words) and not p.started,
                  f"boot.py {' '.join(args[1:]).replace(env.tmp, 'TMP')}: status 2, "
                  "one line, no boot", shown(p))


# ------------------------------------------------------------------ signals

def alive(pids):
    """The pids that are still processes (a zombie is not one)."""
    out = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] != "Z":
                    out.append(pid)
        except OSError:
            pass
    return out


def signalled(env, cmd, sig, when):
    """Runs cmd over hanging stand-ins and signals it when: "running" (once
    a stand-in has started), "probe" (the stand-in asked its version sends
    it, before any emulator), "start" (a stand-in sends it as it starts).
    (exit status, seconds from the signal to the exit, stand-ins alive
    after the exit, scratch left)."""
    pids, scratch = env.folder("pids"), env.folder("tmp")
    e = dict(os.environ, STANDIN_LOG=env.log(HEAD + RESULTS[:1]), STANDIN_HANG="1",
             STANDIN_PIDS=pids, TMPDIR=scratch)
    if when == "probe":
        e["STANDIN_PROBE_SIGNAL"] = sig.name
    if when == "start":
        e["STANDIN_SIGNAL"] = sig.name
    # The signal at its default, as a terminal's foreground job has it: a
    # non-interactive shell starts its background jobs with SIGINT ignored
    # (POSIX), and the tools keep an inherited SIG_IGN (the nohup check).
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=e,
                            preexec_fn=lambda: signal.signal(sig, signal.SIG_DFL))
    sent = time.monotonic()
    if when == "running":
        while not os.listdir(pids) and proc.poll() is None:
            time.sleep(0.01)
        sent = time.monotonic()
        proc.send_signal(sig)
    try:
        code = proc.wait(timeout=60)     # a bound for a hang, not a measure
    except subprocess.TimeoutExpired:
        proc.kill()
        code = proc.wait()
        code = f"none in 60 s (killed: {code})"
    took = time.monotonic() - sent
    left = alive(os.listdir(pids))
    for pid in left:
        os.kill(int(pid), signal.SIGKILL)
    return code, took, left, os.listdir(scratch)


def signals(env, tap):
    run_all = [sys.executable, RUN, "--expect-dir", env.expect, "--qemu", env.qemu,
               "--elf", env.elf, "--all", "--only", "qemu-tcg-max,qemu-tcg-max-pvh"]
    boot = [sys.executable, BOOT, "--qemu", env.qemu, "--route", "pvh", "--elf", env.elf]
    times = []
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        for tool, cmd, moments in (("tests/run --all", run_all, ("probe", "start", "running")),
                                   ("boot.py", boot, ("start", "running"))):
            for when in moments:
                code, took, left, leaked = signalled(env, cmd, sig, when)
                if when == "running":
                    times.append(took)
                tap.check(code == 128 + sig and not left and not leaked,
                          f"{sig.name} to {tool} ({when}): exit {128 + sig}, no "
                          "emulator left, no scratch left",
                          [f"exit {code} after {took:.2f} s; alive: {left}; "
                           f"left in TMPDIR: {leaked}"])
    print(f"# from the signal to the exit, while emulators ran: "
          f"{min(times):.2f} to {max(times):.2f} s")

    go = env.path("go")
    pids = env.folder("pids")
    e = dict(os.environ, STANDIN_LOG=env.log(PASS), STANDIN_EXIT="1",
             STANDIN_PIDS=pids, STANDIN_SPLIT="4", STANDIN_GO=go)
    proc = subprocess.Popen([sys.executable, RUN, "--expect-dir", env.expect,
                             "--qemu", env.qemu, "--elf", env.elf, "--target",
                             "qemu-tcg-max-pvh"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e,
                            preexec_fn=lambda: signal.signal(signal.SIGHUP,
                                                             signal.SIG_IGN))
    while not os.listdir(pids) and proc.poll() is None:
        time.sleep(0.01)
    proc.send_signal(signal.SIGHUP)
    open(go, "w").close()
    out, err = proc.communicate(timeout=120)
    tap.check(proc.returncode == 0 and b"3 passed" in out,
              "nohup: tests/run started with SIGHUP ignored takes a SIGHUP and "
              "runs on to status 0", [f"exit {proc.returncode}", err.decode()[-300:]])


# ------------------------------------------------------------------ reading

def reading(env, tap):
    data = ("\n".join(HEAD + RESULTS[:1]) + "\n").encode() + b"x" * (50 << 20)
    p = env.tests_run("--timeout", "120", lines=data, status=0, timeout=300)
    tap.check(p.returncode == 2 and "not a line of TAP" in p.err and
              "more bytes were cut from it as it came" in p.err and "hung" not in p.err,
              "a 50 MiB line without a newline is read to its end and judged "
              f"({p.seconds:.1f} s)", shown(p))


# --------------------------------------------------------------------- make

def make(env, tap):
    build = env.folder("build")
    for part in ("obj", "version.h"):
        subprocess.run(["cp", "-a", os.path.join(env.build, part), build], check=True)
    for stamp in os.listdir(env.build):
        if stamp.startswith(".tools"):
            shutil.copy(os.path.join(env.build, stamp), build)
    work = env.folder("cwd")
    for variable, value, words in (
            ("TESTS", "enc.*'; touch x; echo '", "is not allowed in a pattern"),
            ("KERNEL_ARGS", "'; touch x; echo '", "unknown option"),
            ("KERNEL_ARGS", "tests=a tests=b", "given twice"),
            ("ACCEL", "tcg; touch x", None),
            ("CPU", "max$(touch x)", None),
            ("FIRMWARE", "bios; touch x", "invalid choice"),
            ("QEMU_ARGS", "$$(touch x) `touch x`", None),
            ("BUILD", "b;touch x", "letters, digits")):
        args = [f"BUILD={build}", f"QEMU={env.qemu}", f"{variable}={value}"]
        p = env.run(["make", "-C", ROOT, "--no-print-directory", "run"] + args,
                    cwd=work, timeout=600)
        touched = [d for d in (work, ROOT) if os.path.exists(os.path.join(d, "x"))]
        for d in touched:
            os.remove(os.path.join(d, "x"))
        ran_as = p.started and words is None
        tap.check(not touched and (p.returncode != 0 and words in p.err and not p.started
                                   if words else p.returncode == 0 and ran_as),
                  f"make run {variable}={value!r}: no shell runs it; " +
                  (f"refused before booting ({words})" if words else
                   "it reaches the tool as written"),
                  [f"make exit {p.returncode}, touched {touched}, stand-ins "
                   f"{len(p.started)}", p.err[-400:]])


PARTS = {"verdict": verdict, "xml": xml, "failures": failures,
         "signals": signals, "reading": reading, "make": make}


def main(argv):
    p = argument_parser(__name__, __doc__)
    p.add_argument("--elf", required=True)
    p.add_argument("--iso", required=True)
    p.add_argument("--build", required=True)
    p.add_argument("-k", dest="only", choices=sorted(PARTS), action="append")
    args = p.parse_args(argv)
    env = Env(os.path.abspath(args.elf), os.path.abspath(args.build))
    env.iso = os.path.abspath(args.iso)
    print("TAP version 13")
    tap = Tap(detail_lines=8)
    try:
        for name, part in PARTS.items():
            if not args.only or name in args.only:
                print(f"# {name}")
                part(env, tap)
    finally:
        shutil.rmtree(env.tmp, ignore_errors=True)
    return tap.finish()

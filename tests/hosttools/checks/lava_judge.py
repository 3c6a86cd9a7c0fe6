"""tests/lava-judge on the LAVA jobs kept in tests/lava/logs/ (README
there says how each was made) and on hostile variants made from them
here: a whole run of each route matches its expectation file; a cut
log, a log with a foreign line, a TAP with a foreign line, repeated test
IDs, IDs LAVA's case names cannot tell apart, LAVA results that disagree
with the TAP, a cancelled job, a lab that ran another hypervisor than
the job's target, a KVM run without the exclude= its expectation file
requires, and metadata naming no QEMU target are each refused
with status 2 and one line, never a traceback; a result the expectation
file does not list is status 1; tests/run --all --lava puts a judged job
in the report.

usage: tests/check.py lava_judge [--logs DIR]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from .. import TESTS
from ..lava import log as lava_log
from ..lava.ids import lava_case
from ..report.tap_out import Tap
from . import argument_parser

JUDGE = os.path.join(TESTS, "lava-judge")
RUN = os.path.join(TESTS, "run")
RESULT_ID = re.compile(r"^(?:not )?ok \d+ - (\S+)")


def judge(args):
    proc = subprocess.run([sys.executable, JUDGE] + args, capture_output=True,
                          text=True, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


def job_dir(root, name, log, definition):
    """A LAVA job directory under root holding the texts log, definition."""
    path = os.path.join(root, name)
    os.makedirs(path)
    for file, text in (("log.yaml", log), ("definition.yaml", definition)):
        with open(os.path.join(path, file), "w") as f:
            f.write(text)
    return path


def first_ids(log):
    """The first two test IDs of the log's TAP."""
    lines = lava_log.serial_lines(lava_log.records(log))
    ids = [m.group(1) for m in map(RESULT_ID.match, lines) if m]
    return ids[0], ids[1]


def renamed(log, old, new):
    """The log with test old called new: its TAP line and LAVA's result."""
    log = re.sub(r'(ok \d+ - )' + re.escape(old) + r'( \[)', r'\g<1>' + new + r'\2', log)
    log = log.replace(f'"case": "{lava_case(old)}"', f'"case": "{lava_case(new)}"')
    return log.replace(f'"test_case_id": "{old}"', f'"test_case_id": "{new}"')


def hostile(log, definition):
    """(name, log, definition, what the refusal says) for each variant."""
    a, b = first_ids(log)
    lines = log.splitlines(keepends=True)
    tap_at = next(i for i, l in enumerate(lines)
                  if '"lvl": "target"' in l and 'TAP version 13"' in l)
    half = len(lines) // 2
    cancelled = re.sub(r'"case": "job", "definition": "lava", "result": "pass"',
                       '"case": "job", "definition": "lava", "error_msg": '
                       '"Job canceled", "error_type": "Canceled", "result": "fail"',
                       log)
    other_verdict = re.sub(r'("extra": \{"test_case_id": "' + re.escape(b) +
                           r'"\}, "level": "[0-9.]+", "result": )"(\w+)"',
                           r'\1"unknown"', log)
    foreign_tap = "".join(lines[:tap_at + 3] +
                          ['{"dt": "2026-01-01T00:00:00", "lvl": "target", '
                           '"msg": "login: "}\n'] + lines[tap_at + 3:])
    kvm = re.sub(r"pmctest\.target: \S+", "pmctest.target: qemu-kvm-host",
                 definition)
    return [
        ("cut mid-record", "".join(lines[:half]) + lines[half][:30],
         definition, "is not a LAVA log record"),
        ("cut between records", "".join(lines[:half]), definition,
         "the log ends before LAVA's job did"),
        ("a foreign line in the file", "".join(lines[:half] + ["login: root\n"] +
                                              lines[half:]), definition,
         "is not a LAVA log record"),
        ("a foreign line in the TAP", foreign_tap, definition,
         "not a line of TAP: 'login:"),
        ("repeated test IDs", renamed(log, b, a), definition,
         f"the TAP repeats test IDs: {a}"),
        ("IDs LAVA cannot tell apart", renamed(log, b, a.replace(".", "-", 1)),
         definition, "test IDs LAVA's case names cannot tell apart"),
        ("LAVA's result disagrees with the TAP", other_verdict, definition,
         "LAVA's results disagree with the TAP (1 tests)"),
        ("a cancelled job", cancelled, definition, "Job canceled: not carried out"),
        ("another hypervisor than the target's", log, kvm,
         "the lab ran another hypervisor than the job's target"),
        ("a KVM target's run without the exclude= its file requires",
         log.replace("TCGTCGTCGTCG", "KVMKVMKVM..."), kvm,
         "the kernel's command line has no exclude= for"),
        ("metadata naming no target",
         log, definition.replace("pmctest.target", "other.key"),
         "the job's metadata names no pmctest.target"),
        ("metadata naming a Bochs target", log,
         re.sub(r"pmctest\.target: \S+", "pmctest.target: bochs-skylake",
                definition), "LAVA's qemu device type runs QEMU targets only"),
        ("a definition that is not YAML", log, "metadata: [\n", "not YAML"),
    ]


def refusals(tap, root, name, log, definition):
    for what, text, job, says in hostile(log, definition):
        path = job_dir(root, f"{name}-{len(os.listdir(root))}", text, job)
        status, _, err = judge(["--dir", path])
        tap.check(status == 2 and says in err and "Traceback" not in err,
                  f"{name}: {what}: status 2, saying so", [f"status {status}",
                                                            err[-600:]])


def main(argv):
    p = argument_parser(__name__, __doc__)
    p.add_argument("--logs", default=os.path.join(TESTS, "lava", "logs"))
    args = p.parse_args(argv)
    print("TAP version 13")
    tap = Tap()
    root = tempfile.mkdtemp(prefix="pmctest-lava-judge-")
    try:
        for name in ("pvh", "iso"):
            stored = os.path.join(args.logs, name)
            status, out, err = judge(["--dir", stored])
            tap.check(status == 0 and "matches its expectations" in out,
                      f"{name}: lava-run's whole run matches its target's "
                      "expectation file", [f"status {status}", err[-600:]])
            with open(os.path.join(stored, "log.yaml")) as f:
                log = f.read()
            with open(os.path.join(stored, "definition.yaml")) as f:
                definition = f.read()
            refusals(tap, root, name, log, definition)
        server_form(tap, root, args.logs)
        fetched(tap, root, args.logs)
        unexpected(tap, root, args.logs)
        report(tap, root, args.logs)
        status, _, err = judge(["--log", os.path.join(args.logs,
                                                      "pvh-poweroff-echo.log"),
                                "--definition",
                                os.path.join(args.logs, "pvh", "definition.yaml")])
        tap.check(status == 0, "the log with LAVA's 'poweroff' echo as a "
                  "console line is judged a whole run", [err[-600:]])
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return tap.finish()


def server_form(tap, root, logs):
    """The log as a server keeps it (lavacli jobs logs --raw): a YAML
    list, "- " before each record."""
    with open(os.path.join(logs, "iso", "log.yaml")) as f:
        log = "".join("- " + line for line in f)
    with open(os.path.join(logs, "iso", "definition.yaml")) as f:
        path = job_dir(root, "server-form", log, f.read())
    status, _, err = judge(["--dir", path])
    tap.check(status == 0, "the server's form of the log (a YAML list) is "
              "judged as lava-run's", [f"status {status}", err[-600:]])


# A stand-in lavacli: the stored job's log and definition for job 42 on
# --uri http://lab.invalid/RPC2, and for job 44, which the lab cancelled
# after its kernel had finished (the same whole log); anything else an
# error as lavacli's.
FAKE_LAVACLI = """#!/bin/sh
[ "$1 $2" = "--uri http://lab.invalid/RPC2" ] || { echo "bad uri: $*" >&2; exit 1; }
case "$3 $4 $5 $6" in
"jobs show --yaml 42") printf 'id: 42\\nstate: Finished\\nhealth: Complete\\n' ;;
"jobs show --yaml 44") printf 'id: 44\\nstate: Finished\\nhealth: Canceled\\n' ;;
"jobs logs --raw 4"[24]) sed 's/^/- /' "{job}/log.yaml" ;;
"jobs definition 4"[24]" ") cat "{job}/definition.yaml" ;;
*) echo "Unable to call 'scheduler.jobs.show': <Fault 404: 'Unknown job'>" >&2; exit 1 ;;
esac
"""


def fetched(tap, root, logs):
    """--url --job: lavacli fetches the job into --save DIR; a job the
    server does not know is status 2 with lavacli's own message."""
    bin_dir = os.path.join(root, "bin")
    os.makedirs(bin_dir)
    fake = os.path.join(bin_dir, "lavacli")
    with open(fake, "w") as f:
        f.write(FAKE_LAVACLI.replace("{job}", os.path.join(logs, "iso")))
    os.chmod(fake, 0o755)
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"])
    save = os.path.join(root, "fetched")
    args = [sys.executable, JUDGE, "--url", "http://lab.invalid/RPC2"]
    ok = subprocess.run(args + ["--job", "42", "--save", save], env=env,
                        capture_output=True, text=True, timeout=300)
    tap.check(ok.returncode == 0 and sorted(os.listdir(save)) ==
              ["definition.yaml", "log.yaml"] and
              "qemu-tcg-max.lava-job42" in ok.stdout,
              "--url --job fetches the log and definition with lavacli "
              "into --save and judges them",
              [f"status {ok.returncode}", ok.stderr[-600:]])
    unknown = subprocess.run(args + ["--job", "43"], env=env,
                             capture_output=True, text=True, timeout=300)
    tap.check(unknown.returncode == 2 and "Unknown job" in unknown.stderr and
              "Traceback" not in unknown.stderr,
              "a job the server does not know: status 2, lavacli's message",
              [f"status {unknown.returncode}", unknown.stderr[-600:]])
    cancelled = subprocess.run(args + ["--job", "44"], env=env,
                               capture_output=True, text=True, timeout=300)
    tap.check(cancelled.returncode == 2 and "health Canceled: not carried out" in
              cancelled.stderr,
              "a job the lab cancelled after its kernel finished (a whole log): "
              "status 2, not carried out",
              [f"status {cancelled.returncode}", cancelled.stderr[-600:]])


def unexpected(tap, root, logs):
    """An expectation file without one of the run's failures: status 1."""
    expect = os.path.join(root, "expect")
    shutil.copytree(os.path.join(TESTS, "expect"), expect)
    path = os.path.join(expect, "qemu-tcg-max")
    with open(path) as f:
        lines = f.readlines()
    dropped = next(l for l in lines if l.strip() and not l.startswith("#"))
    with open(path, "w") as f:
        f.writelines(l for l in lines if l is not dropped)
    status, _, err = judge(["--dir", os.path.join(logs, "iso"),
                            "--expect-dir", expect])
    test_id = dropped.split()[0]
    tap.check(status == 1 and f"unexpected failure: {test_id}" in err,
              "a failure the expectation file does not list is status 1",
              [f"status {status}", err[-600:]])


def report(tap, root, logs):
    """tests/run --all --lava: the lab's run in the table and the report."""
    out = os.path.join(root, "report")
    proc = subprocess.run([sys.executable, RUN, "--all", "--only", "none",
                           "--lava", os.path.join(logs, "iso"), "--report", out],
                          capture_output=True, text=True, timeout=300)
    try:
        with open(os.path.join(out, "index.html")) as f:
            html = f.read()
    except OSError:
        html = ""
    tap.check(proc.returncode == 0 and "qemu-tcg-max.lava-iso" in html and
              "qemu-tcg-max.lava-iso  iso   MATCH" in proc.stdout,
              "tests/run --all --lava puts the judged job in its table and report",
              [f"status {proc.returncode}", proc.stdout[-400:], proc.stderr[-400:]])

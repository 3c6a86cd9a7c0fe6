"""Boot checks of the kernel itself, for `make test` (TAP on stdout).

Both boot routes reach the summary line, and the ISO also as a raw disk
on BIOS and UEFI; the selftest group reports pass,
fail, skip, contained faults and caught fabricated outcomes exactly as
expected; bad command lines are refused with a clear error and status 2;
`list` lists; exit=debug, exit=reset and exit=triple each end QEMU
(-no-reboot) after the summary, the verdict read from its status or, where
it carries none, from the summary; `timing` adds a tick count per test and
the exit tally per group; explicit-only groups stay out of the default run;
the log goes to COM1 where a UART answers, else to port E9H, and console=
chooses; no line is longer than 198 characters; on QEMU TCG
every restricted RDPMC is #GP(0) and every permitted one is reported not ok
with the #UD TCG raises, each distinct deviation once in full and the rest
as short blocks naming it (all in full with `verbose`), each SKIP reason
given in full once; with -smp 4 the per-CPU part runs on each AP, and
cpus= and "@cpuN" patterns choose; without ACPI the CPUs come from the MP
table; apic=xapic keeps xAPIC, and apic=x2apic on a CPU without x2APIC
says so in the header.
"""
import os
import re
import shutil
import subprocess
import tempfile

from ..boot import bootshim
from ..boot import qemu as boot
from ..boot.booted import Boot
from ..devtools import bench_log
from ..judge import patterns as tap_log
from ..judge.tap import read
from ..report.tap_out import Tap
from . import argument_parser

# selftest.*: the result each must have and text its diagnostics must hold.
SELFTESTS = {
    "selftest.pass": ("ok", []),
    "selftest.fail": ("not ok", ["expected 1, observed 2 (deliberate)"]),
    "selftest.skip": ("skip", []),
    "selftest.fault": ("not ok", ["unexpected #UD (vector 6)", "CPL 0, long mode", "RAX "]),
    "selftest.fault.cpl3": ("not ok", ["unexpected #UD (vector 6)", "CPL 3, long mode", "R15 "]),
    "selftest.recovered": ("ok", []),
    "selftest.caught.error-code": ("not ok", ["message: #GP error code 0x1"]),
    "selftest.caught.high-half": ("not ok", ["MODE-1 requires both cleared"]),
    "selftest.fault.real": ("not ok", ["unexpected #UD (vector 6) in real-address mode"]),
    "selftest.fault.v86": ("not ok", ["unexpected #UD (vector 6) in virtual-8086 mode"]),
    "selftest.interrupt": ("ok", []),
    # selftest.contain.*: each exception reported as its test's failure,
    # the harness going on (QEMU TCG: no #AC, no #XM; #GP for the #SS case).
    "selftest.contain.de": ("not ok", ["unexpected #DE (vector 0)", "RAX "]),
    "selftest.contain.db": ("not ok", ["unexpected #DB (vector 1)"]),
    "selftest.contain.nmi": ("not ok", ["unexpected NMI (vector 2)"]),
    "selftest.contain.bp": ("not ok", ["unexpected #BP (vector 3)"]),
    "selftest.contain.of": ("not ok", ["unexpected #OF (vector 4)"]),
    "selftest.contain.br": ("not ok", ["unexpected #BR (vector 5)"]),
    "selftest.contain.nm": ("not ok", ["unexpected #NM (vector 7)"]),
    "selftest.contain.df": ("not ok", ["stack overflow: the CPL 0 kernel stack ran into its guard page",
                                       "unexpected #DF (vector 8)"]),
    "selftest.contain.ts": ("skip", []),
    "selftest.contain.np": ("not ok", ["unexpected #NP (vector 11) error code 0xe0"]),
    "selftest.contain.ss": ("not ok", ["unexpected #GP (vector 13) error code 0x0"]),
    "selftest.contain.gp": ("not ok", ["unexpected #GP (vector 13) error code 0x0"]),
    "selftest.contain.pf": ("not ok", ["unexpected #PF (vector 14)", "CR2 8000000000"]),
    "selftest.contain.mf": ("not ok", ["unexpected #MF (vector 16)"]),
    "selftest.contain.ac": ("skip", []),
    "selftest.contain.mc": ("skip", []),
    "selftest.contain.xm": ("skip", []),
    "selftest.contain.ve": ("skip", []),
    "selftest.contain.cp": ("skip", []),
    "selftest.contain.hv-vc-sx": ("skip", []),
    "selftest.contain.reserved": ("not ok", ["(vector 15)"]),
    "selftest.contain.overflow.cpl3": ("not ok", ["stack overflow: the ring_run stack ran into its guard page",
                                                  "unexpected #PF (vector 14)", "CPL 3"]),
    "selftest.contain.stray-interrupt": ("not ok", ["unexpected interrupt: vector 0x41 arrived 1 time"]),
    "selftest.contain.after": ("ok", []),
    # selftest.cpus.*: one CPU here (the -smp 4 run below has APs).
    "selftest.cpus.roundtrip": ("skip", []),
    "selftest.cpus.fault": ("skip", []),
    "selftest.cpus.hang": ("skip", []),
    "selftest.cpus.after": ("skip", []),
    "selftest.cpus.cut": ("skip", []),
}

# selftest.cpus.* with 4 CPUs: the text each must hold.
SMP_SELFTESTS = {
    "selftest.cpus.roundtrip": ["CPU 1: APIC ID 0x1", "CPU 3: APIC ID 0x3"],
    "selftest.cpus.fault": ["CPU 3 (APIC ID 0x3): unexpected #UD (vector 6) at RIP",
                            "the CPU is lost"],
    "selftest.cpus.hang": ["CPU 2 (APIC ID 0x2) did not return within 200 ms"],
    "selftest.cpus.after": ["2 APs lost, 1 still run"],
    "selftest.cpus.cut": ["CPU 1 (APIC ID 0x1) did not return within 200 ms"],
}


# The full ECX sweeps of the default run; those at CPL 3 run when named
# (docs/spec.md, "What the default run sweeps").
FULL_SWEEPS_CPL0 = ["ecx.index.full.gp.cpl0", "ecx.index.full.fixed.cpl0",
                    "ecx.types.full.cpl0"]


def run_boot(args, route, cmdline="", accel="tcg", cpu="max", timeout=60,
             qemu_args="", machine=""):
    cmd = boot.qemu_command(args.qemu, accel, cpu, route, elf=args.elf,
                            iso=args.iso, cmdline=cmdline, machine=machine,
                            qemu_args=qemu_args.split())
    b = Boot(cmd, timeout)
    status, problem = b.verdict()
    return b, status, problem


def results(lines, resolve=True):
    """[(result, id, statements, diagnostics)] in order, as the verdict's
    reader reads them (a diagnostic as the block writes it). With resolve, a
    short block (`same: "ID: ..."`) is followed by the diagnostics of the
    test it names, which reported the deviation in full."""
    kinds = {"pass": "ok", "fail": "not ok", "skip": "skip"}
    out = [[kinds[r.kind], r.id, r.statements, list(r.written)]
           for r in read(lines).results]
    if resolve:
        by_id = {r[1]: r for r in out}
        for r in out:
            same = tap_log.same_as(r[3])
            if same and same[0] in by_id:
                r[3] = r[3] + by_id[same[0]][3]
    return out


def context_rcx(diags):
    """The RCX of a full report's context line, as a number, or None."""
    for d in diags:
        m = re.match(r"^context: .*?RCX=0x([0-9a-f]+)", d)
        if m:
            return int(m.group(1), 16)
    return None


def said_once_problems(res, in_full):
    """Where a log says a deviation twice in full (the same message,
    expected and observed outcome), or a short block does not name an
    earlier failure that said its deviation in full, or leaves out its
    brief where the RCX of its own report (in_full: {ID: diagnostics} of
    the same run under `verbose`) is not the named test's."""
    problems, said = [], {}
    for kind, test_id, _, diags in res:
        if kind != "not ok":
            continue
        same = tap_log.same_as(diags)
        if same:
            earlier, brief = same
            if earlier not in said.values():
                problems.append(f"{test_id}: same as {earlier}, which said no deviation in full before it")
            own, theirs = (context_rcx(in_full.get(t, [])) for t in (test_id, earlier))
            if not brief and (own is None or own != theirs):
                problems.append(f"{test_id}: a short block without its brief, its RCX {own} not {earlier}'s {theirs}")
            continue
        keys = {d.split(": ", 1)[0]: d for d in diags
                if d.startswith(("message: ", "expected: ", "observed: "))}
        key = tuple(keys.get(k) for k in ("message", "expected", "observed"))
        if key in said:
            problems.append(f"{test_id}: says in full what {said[key]} said")
        said.setdefault(key, test_id)
    return problems


def summary(lines):
    for line in lines:
        counts = tap_log.summary_counts(line)
        if counts:
            return counts
    return None


# Xen passes a guest's line of up to 198 characters whole (kernel/console.h).
LOG_LINE_MAX = 198


def too_long(lines):
    return [f"{len(l)} characters: {l[:60]}..." for l in lines
            if len(l) > LOG_LINE_MAX]


def console_boot(args, cmdline, serial, debugcon):
    """A PVH boot with COM1 and port E9H (QEMU's isa-debugcon) where given:
    "stdio" (what the Boot reads), a file path, or None (no device)."""
    cmd = boot.qemu_command(args.qemu, "tcg", "max", "pvh", elf=args.elf,
                            cmdline=cmdline)
    at = cmd.index("-serial")
    cmd[at + 1] = {"stdio": "stdio", None: "none"}.get(serial, f"file:{serial}")
    if debugcon:
        cmd += ["-debugcon", "stdio" if debugcon == "stdio" else f"file:{debugcon}"]
    b = Boot(cmd, 60)
    status, problem = b.verdict()
    return b, status, problem


def file_lines(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "replace").replace("\r", "").splitlines()


def check_consoles(tap, args, keep):
    """COM1 where a UART answers, else port E9H; console= forces either or
    both."""
    with tempfile.TemporaryDirectory() as tmp:
        e9, com1 = os.path.join(tmp, "e9.log"), os.path.join(tmp, "com1.log")
        b, status, problem = console_boot(args, "tests=selftest.pass", "stdio", e9)
        tap.check(problem is None and summary(b.lines) == (1, 0, 0) and
                  not file_lines(e9),
                  "a UART answers at COM1: the log goes there, none to E9H",
                  [f"problem {problem}", f"E9H: {file_lines(e9)[:3]}"])

        b, status, problem = console_boot(args, "tests=selftest.pass", None, "stdio")
        tap.check(problem is None and status == 0 and
                  summary(b.lines) == (1, 0, 0),
                  "no UART at COM1 (QEMU -serial none): the log goes to E9H",
                  [f"problem {problem}, status {status}"] + b.lines[-3:])

        for ports, on_com1, on_e9 in (("e9", False, True), ("com1", True, False),
                                      ("com1,e9", True, True)):
            b, status, problem = console_boot(
                args, f"console={ports} tests=selftest.pass", com1, e9)
            got = {"COM1": summary(file_lines(com1)) == (1, 0, 0),
                   "E9H": summary(file_lines(e9)) == (1, 0, 0)}
            same = not (on_com1 and on_e9) or file_lines(com1) == file_lines(e9)
            # QEMU's exit code: (status << 1) | 1 from isa-debug-exit
            tap.check(b.returncode == 1 and got == {"COM1": on_com1, "E9H": on_e9} and same,
                      f"console={ports}: the log goes to "
                      f"{' and '.join(k for k, v in got.items() if v) or 'nowhere'}"
                      f"{', the same lines' if on_com1 and on_e9 else ''}",
                      [f"QEMU exit {b.returncode}, summary on {got}, same lines {same}"])

        b, status, problem = console_boot(args, "console=com2 tests=selftest.pass",
                                          "stdio", None)
        tap.check(status == 2 and any("'com2' is not a console" in l for l in b.lines) and
                  any(l.startswith("Bail out! bad command line") for l in b.lines),
                  "console=com2: refused, status 2", [f"status {status}"] + b.lines[-3:])


def check_long_command_line(tap, args, keep):
    """A command line longer than a line: the header's copy goes on in
    comment lines, and the TAP stays TAP (tap_parsers.py reads it)."""
    long_cmdline = "tests=selftest.pass," + ",".join(
        f"no.such.group.number.{i}.*" for i in range(12))
    b, status, problem = run_boot(args, "pvh", long_cmdline)
    keep("long-cmdline", b)
    joined = []
    for line in b.tap_lines:      # a full line goes on in the next "# " line
        if joined and len(joined[-1]) == LOG_LINE_MAX and line.startswith("# "):
            joined[-1] += line[2:]
        else:
            joined.append(line)
    tap.check(status == 0 and len(long_cmdline) > LOG_LINE_MAX and
              not too_long(b.tap_lines) and
              f'# boot: pvh, command line "{long_cmdline}"' in joined,
              f"a {len(long_cmdline)}-character command line: the header goes on "
              f"in '# ' lines, none longer than {LOG_LINE_MAX} characters",
              [f"status {status}"] + too_long(b.tap_lines) +
              [l for l in b.tap_lines if l.startswith("# ")][:4])


def check_full_run(tap, name, b, status, problem):
    res = results(b.lines)
    counts = summary(b.lines)
    plan = next((int(l[3:]) for l in b.lines if re.match(r"^1\.\.\d+$", l)), None)
    failed = sum(r[0] == "not ok" for r in res)
    expected_counts = (sum(r[0] == "ok" for r in res), failed,
                       sum(r[0] == "skip" for r in res))
    tap.check(problem is None and counts == expected_counts and
              plan == len(res) and status == (1 if failed else 0),
              f"{name}: TAP complete, summary line and exit status agree",
              [f"problem: {problem}", f"summary {counts}, counted {expected_counts}",
               f"plan {plan}, results {len(res)}, status {status}"] + b.lines[-5:])
    tap.check(not too_long(b.tap_lines),
              f"{name}: no line longer than {LOG_LINE_MAX} characters",
              too_long(b.tap_lines)[:5])
    return res


# The per-CPU part on QEMU TCG -smp 4: after CPU 0's tests each AP runs
# its own, one AP after another, their IDs ending in "@cpuN" and counted in
# the plan; cpus= and "@" patterns choose the APs and their tests as
# docs/command-line.md says; a cpus= naming a CPU the run lacks is a Bail out!, status 2.

PER_CPU_SELECTED = "smp.enum,smp.pce,priv.long.cpl3.pce0.valid"
PER_CPU = ["priv.long.cpl3.pce0.valid", "smp.enum"]   # in run order


def result_ids(b):
    return [m.group(3) for m in map(tap_log.RESULT.match, b.lines) if m]


def plan_of(b):
    return next((int(l[3:]) for l in b.lines if l.startswith("1..")), None)


def check_per_cpu(tap, args, keep):
    b, status, problem = run_boot(args, "pvh", f"tests={PER_CPU_SELECTED}",
                                  qemu_args="-smp 4")
    keep("per-cpu-smp4", b)
    got = result_ids(b)
    want = ["priv.long.cpl3.pce0.valid", "smp.enum", "smp.pce"] + [
        f"{t}@cpu{n}" for n in (1, 2, 3) for t in PER_CPU]
    tap.check(problem is None and got == want and plan_of(b) == len(want),
              "-smp 4: CPU 0's tests, then each AP's part in turn, IDs with "
              "@cpuN, all counted in the plan",
              [f"plan {plan_of(b)}, problem {problem}", f"observed {got}",
               f"wanted {want}"])
    verdicts = {m.group(3): m.group(1) for m in map(tap_log.RESULT.match, b.lines) if m}
    tap.check(all(verdicts.get(f"smp.enum@cpu{n}") == "ok" for n in (1, 2, 3)) and
              any(l == "# cpus: 4, APIC IDs 0 1 2 3; the per-CPU part runs on CPU 0 1 2 3"
                  for l in b.lines),
              "-smp 4: each AP enumerates the PMU as CPU 0 (smp.enum@cpuN ok), "
              "the header names the CPUs of the per-CPU part",
              [f"{k} {v}" for k, v in verdicts.items() if k.startswith("smp.enum")])

    for cmdline, want, what in (
            (f"tests={PER_CPU_SELECTED} cpus=0,2", PER_CPU, "cpus=0,2: CPU 2's part alone"),
            ("tests=smp.*@cpu3", ["smp.enum", "smp.pmi"],
             "tests=smp.*@cpu3: CPU 3's smp.* alone, none of CPU 0's"),
            (f"tests={PER_CPU_SELECTED} exclude=*@cpu1,*@cpu3", PER_CPU,
             "exclude=*@cpu1,*@cpu3: CPU 2's part alone beside CPU 0's")):
        b, status, problem = run_boot(args, "pvh", cmdline, qemu_args="-smp 4")
        keep("per-cpu-select", b)
        aps = [i for i in result_ids(b) if "@" in i]
        cpu = "cpu3" if "@cpu3" in cmdline.split()[0] else "cpu2"
        cpu0 = [i for i in result_ids(b) if "@" not in i]
        tap.check(problem is None and aps == [f"{t}@{cpu}" for t in want] and
                  (cpu0 == [] if "@" in cmdline.split()[0] else
                   "smp.enum" in cpu0),
                  f"-smp 4, {what}", [f"observed {result_ids(b)}, problem {problem}"])

    b, status, problem = run_boot(args, "pvh", "tests=smp.enum cpus=1,5",
                                  qemu_args="-smp 4")
    keep("per-cpu-bail", b)
    tap.check(status == 2 and any(l.startswith("Bail out! cpus= names CPU 5; the run has 4 CPU(s)")
                                  for l in b.lines),
              "-smp 4, cpus=1,5: a CPU the run lacks is a Bail out! naming it, status 2",
              [f"status {status}"] + b.lines[-3:])


def keeper(log_dir):
    """keep(name, b): b's TAP as log_dir/name.log, where a log_dir is given."""
    def keep(name, b):
        if log_dir:
            os.makedirs(log_dir, exist_ok=True)
            with open(os.path.join(log_dir, name + ".log"), "w") as f:
                f.write("".join(line + "\n" for line in b.tap_lines))
    return keep

def check_images(tap, args):
    """The ISO's boot images and the ELF's entry points."""
    r = subprocess.run(["xorriso", "-indev", args.iso, "-report_el_torito", "plain"],
                       capture_output=True, text=True)
    platforms = {l.split()[6] for l in r.stdout.splitlines()
                 if l.startswith("El Torito boot img :") and len(l.split()) > 6}
    tap.check({"BIOS", "UEFI"} <= platforms,
              "the ISO boots on BIOS and on UEFI (xorriso lists both boot images)",
              [f"platforms {sorted(platforms)}"])

    if shutil.which("grub-file"):
        r = subprocess.run(["grub-file", "--is-x86-multiboot2", args.elf])
        tap.check(r.returncode == 0, "the ELF carries a Multiboot2 header (grub-file)")
        r = subprocess.run(["grub-file", "--is-x86-multiboot", args.elf])
        tap.check(r.returncode != 0, "the ELF carries no Multiboot v1 header "
                  "(QEMU's -kernel would take it before the PVH note)")

    # e_entry is the Linux 64-bit entry (crosvm, Firecracker before 1.12);
    # GRUB finds the 32-bit one in the Multiboot2 header's entry address tag.
    r = subprocess.run(["nm", args.elf], capture_output=True, text=True)
    symbols = {f[2]: int(f[0], 16) for f in (l.split() for l in r.stdout.splitlines())
               if len(f) == 3}
    entries, _ = bootshim.elf_facts(args.elf)
    want = {"linux64": symbols.get("boot_entry_linux64"),
            "multiboot2": symbols.get("boot_entry_multiboot2"),
            "pvh": symbols.get("boot_entry_pvh")}
    tap.check(None not in want.values() and entries == want,
              "e_entry is the Linux 64-bit entry, the Multiboot2 entry address tag and "
              "the PVH note name the 32-bit entries",
              [f"found {entries}", f"symbols {want}"])


def check_default_runs(tap, args, keep):
    """The default run from the ISO and by PVH; the ISO's boot, the PVH
    run's results and its lines, for the checks that read them."""
    for route in ("iso", "pvh"):
        b, status, problem = run_boot(args, route)
        keep(route, b)
        if route == "iso":
            cd = b
        res = check_full_run(tap, f"{route} default run", b, status, problem)
        ids = [r[1] for r in res]
        tap.check(not any(i.startswith("selftest.") for i in ids),
                  f"{route} default run: no explicit-only selftest runs")
        full = [i for i in ids if ".full." in i]
        tap.check(sorted(full) == sorted(FULL_SWEEPS_CPL0),
                  f"{route} default run: the full ECX sweeps at CPL 0 run, those at CPL 3 are explicit",
                  [f"full sweeps run: {full}"])
        tap.check(any(l == f"# boot: {'multiboot2' if route == 'iso' else 'pvh'}, command line \"\"" for l in b.lines),
                  f"{route}: the kernel names its boot protocol")
        if route == "pvh":
            tcg_run, pvh_lines = res, b.lines
    return cd, tcg_run, pvh_lines


def check_usb_disk(tap, args, cd):
    """The hybrid ISO as a raw disk runs what it runs from CD (cd)."""
    # Written to a USB stick (dd), the hybrid ISO is a hard disk: booted
    # so, by BIOS (its MBR) and by UEFI (its EFI partition), it must run
    # the same suite as from the CD. (snapshot=on: the ISO stays unwritten.)
    for firmware in ("bios", "uefi"):
        cmd = boot.qemu_command(args.qemu, "tcg", "max", "iso", iso=args.iso,
                                firmware=firmware)
        at = cmd.index("-cdrom")
        cmd[at:at + 4] = ["-drive", f"file={args.iso},format=raw,if=ide,snapshot=on"]
        disk = Boot(cmd, 120)
        tap.check(disk.verdict()[1] is None and summary(disk.lines) is not None and
                  summary(disk.lines) == summary(cd.lines),
                  f"the ISO as a raw disk (USB stick) boots on {firmware.upper()} "
                  "and runs the suite it runs from CD",
                  [f"problem {disk.verdict()[1]}", f"disk {summary(disk.lines)}, "
                   f"CD {summary(cd.lines)}"] + disk.lines[-3:])


def check_tcg_priv(tap, tcg_run):
    """The priv cases of TCG's default run (tcg_run): restricted pass, permitted #UD."""
    # QEMU TCG checks CPL and CR4.PCE (#GP(0) where RDPMC is restricted)
    # but does not implement the read: every permitted RDPMC raises #UD.
    priv = [r for r in tcg_run if r[1].startswith("priv.")]
    # PRIV-1..3: CPL 1-3 (v8086 is CPL 3) with CR4.PCE = 0 is restricted.
    restricted = [r for r in priv if re.search(r"\.(cpl[123]|v86)\.pce0\.", r[1])]
    permitted = [r for r in priv if r not in restricted and r[1].endswith((".valid", ".rcxhigh"))]
    tap.check(restricted and all(r[0] == "ok" for r in restricted),
              f"TCG: all {len(restricted)} restricted priv cases pass",
              [f"{r[1]}: {r[0]}" for r in restricted if r[0] != "ok"])
    ud = [r for r in permitted if r[0] == "not ok" and any("observed: #UD" in d for d in r[3])]
    tap.check(permitted and len(ud) == len(permitted),
              f"TCG: all {len(permitted)} permitted reads are not ok with observed #UD",
              [f"{r[1]}: {r[0]} {r[3][-1:] }" for r in permitted if r not in ud])


def check_said_once(tap, args, pvh_lines):
    """Deviations and SKIP reasons of the default run (pvh_lines) said once."""
    # Each distinct deviation said once in full: a later failure that
    # deviates the same way (RCX and context aside) is a short block
    # naming the first, with what deviated in a few words where that is
    # not what the first's report says (its RCX, checked against the
    # same run under verbose, which says every failure in full).
    shown = results(pvh_lines, resolve=False)
    b, status, problem = run_boot(args, "pvh", "verbose")
    problems = said_once_problems(shown, {r[1]: r[3] for r in results(b.lines)})
    short = [r for r in shown if tap_log.same_as(r[3])]
    tap.check(short and not problems,
              f"TCG: each deviation said once in full, {len(short)} failures as short blocks naming it",
              problems[:10])

    # Each SKIP reason said once in full: a later SKIP for the same reason
    # names the earlier test ("same as ID") where that is shorter; under
    # verbose every reason is given in full, and they read the same.
    skips = {}
    for name, lines in (("default", pvh_lines), ("verbose", b.lines)):
        skips[name] = [(m.group(3), m.group(6)) for m in map(tap_log.RESULT.match, lines)
                       if m and m.group(5) == "SKIP"]
    given, resolved, problems = {}, {}, []
    for test_id, reason in skips["default"]:
        m = re.match(r"^same as (\S+)$", reason)
        if m and m.group(1) not in given:
            problems.append(f"{test_id}: same as {m.group(1)}, which gave no reason before it")
        elif not m and reason in given.values() and \
                len("same as ") + len(next(k for k, v in given.items() if v == reason)) < len(reason):
            problems.append(f"{test_id}: says in full the reason an earlier SKIP gave")
        resolved[test_id] = given[m.group(1)] if m and m.group(1) in given else reason
        if not m:
            given.setdefault(test_id, reason)
    named = sum(1 for _, r in skips["default"] if r.startswith("same as "))
    tap.check(named and not problems and dict(skips["verbose"]) == resolved,
              f"TCG: each SKIP reason said once in full, {named} SKIPs naming it; in full with verbose",
              problems[:10] + [f"{t}: verbose says {r!r}, default {resolved.get(t)!r}"
                               for t, r in skips["verbose"] if resolved.get(t) != r][:5])


def check_selftests(tap, args, keep):
    """The selftests, each with its verdict and words, and their summary."""
    b, status, problem = run_boot(args, "pvh", "tests=selftest.*")  # not selftest.hang
    keep("selftest", b)
    res = {r[1]: r for r in results(b.lines)}
    tap.check(set(res) == set(SELFTESTS), "selftest.*: exactly the selftests run",
              [f"ran {sorted(res)}"])
    for test_id, (want, texts) in SELFTESTS.items():
        got = res.get(test_id)
        diags = "\n".join(got[3]) if got else ""
        tap.check(got is not None and got[0] == want and all(t in diags for t in texts),
                  f"selftest: {test_id} is {want}",
                  [f"observed {got[0] if got else 'missing'}"] + (got[3] if got else []))
    n_ok = sum(w == "ok" for w, _ in SELFTESTS.values())
    n_fail = sum(w == "not ok" for w, _ in SELFTESTS.values())
    n_skip = sum(w == "skip" for w, _ in SELFTESTS.values())
    tap.check(summary(b.lines) == (n_ok, n_fail, n_skip) and status == 1 and problem is None,
              f"selftest: summary {n_ok} passed, {n_fail} failed, {n_skip} skipped, status 1",
              [f"summary {summary(b.lines)}, status {status}, problem {problem}"])


def check_smp(tap, args, keep):
    """APs at work, lost and cut off; the clock and APIC mode on microvm."""
    # Four CPUs: each AP runs work and returns; an AP's fault and an AP
    # that hangs are reported to CPU 0, which goes on without them.
    # apic=xapic: the mode TCG's firmware left, nothing to say about it.
    b, status, problem = run_boot(args, "pvh", "tests=selftest.cpus.*,cpus.tables verbose apic=xapic",
                                  qemu_args="-smp 4")
    keep("selftest-smp4", b)
    res = {r[1]: r for r in results(b.lines)}
    tap.check(any(l.startswith("# cpus: 4 listed (ACPI MADT via the ") and
                  l.endswith(", 4 started, xAPIC") for l in b.lines) and
              not any("apic=" in l or "x2APIC" in l for l in b.lines
                      if l.startswith("# cpus")),
              "-smp 4 apic=xapic: the header says 4 CPUs listed by the MADT, 4 started, xAPIC",
              [l for l in b.lines if l.startswith("# cpus")])
    for test_id, texts in SMP_SELFTESTS.items():
        got = res.get(test_id)
        diags = "\n".join(got[3]) if got else ""
        tap.check(got is not None and got[0] == "ok" and all(t in diags for t in texts),
                  f"-smp 4: {test_id} is ok, saying {texts}",
                  [f"observed {got[0] if got else 'missing'}"] + (got[3] if got else []))
    cut = [l for l in b.lines if l.startswith("# selftest.cpus.cut:")]
    tap.check(cut == ["# selftest.cpus.cut: a whole line from an AP"],
              "-smp 4: of the AP lost partway through a log line, the whole line is in the log, "
              "no byte of the cut one",
              [f"observed {cut}"])
    tap.check(summary(b.lines) == (6, 0, 0) and status == 0 and problem is None,
              "-smp 4: summary 6 passed, status 0",
              [f"summary {summary(b.lines)}, status {status}, problem {problem}"])
    # microvm has a PIT but no port 61H (channel 2's gate): the clock is
    # measured on channel 0's count, CPU 0's alarm (the local APIC timer)
    # serves its waits, and the AP starts. A CPU without x2APIC
    # (CPUID.01H:ECX[21] = 0; QEMU 7.2's TCG has none, 10.0's has it, so
    # -cpu max,-x2apic on both): apic=x2apic is not followed, and the
    # header says so rather than the run pretending.
    b, status, problem = run_boot(args, "pvh", "tests=selftest.cpus.roundtrip apic=x2apic",
                                  qemu_args="-smp 2", machine="microvm", cpu="max,-x2apic")
    keep("selftest-microvm-smp2", b)
    tap.check(status == 0 and summary(b.lines) == (1, 0, 0) and
              any(l.endswith(", 2 started, xAPIC") for l in b.lines) and
              any("against PIT channel 0 over 2 ms" in l and
                  "CPU 0 halts in its waits" in l for l in b.lines),
              "-M microvm -smp 2: the TSC measured on PIT channel 0, CPU 0 halting in its waits (arch/alarm.h), the AP started and back",
              [f"status {status}, summary {summary(b.lines)}"] +
              [l for l in b.lines if l.startswith("# cpus")])
    tap.check("# cpus: apic=x2apic not followed, xAPIC kept: no x2APIC mode: "
              "CPUID.01H:ECX.x2APIC (bit 21) = 0" in b.lines,
              "apic=x2apic where CPUID has no x2APIC: the header says the run stays in xAPIC, and why",
              [l for l in b.lines if l.startswith("# cpus")])


def check_mp_table(tap, args, keep):
    """The CPUs from the MP table where there is no ACPI."""
    # No ACPI tables (acpi=off): SeaBIOS's MP table names the CPUs
    # (arch/mp_table.c). It lists the first logical CPU of each package
    # only, so the four vCPUs are four sockets.
    b, status, problem = run_boot(args, "pvh", "tests=cpus.tables,smp.enum",
                                  machine="pc,acpi=off", qemu_args="-smp 4,sockets=4")
    keep("mp-table-smp4", b)
    verdicts = {r[1]: r[0] for r in results(b.lines)}
    want = ["smp.enum", "cpus.tables"] + [f"smp.enum@cpu{n}" for n in (1, 2, 3)]
    tap.check(status == 0 and sorted(verdicts) == sorted(want) and
              all(v == "ok" for v in verdicts.values()) and
              "# cpus: 4 listed (MP table), 4 started, xAPIC" in b.lines,
              "-M pc,acpi=off -smp 4,sockets=4: the MP table lists 4 CPUs, 4 started, "
              "cpus.tables and smp.enum@cpu1..3 ok",
              [f"status {status}, problem {problem}", f"results {verdicts}"] +
              [l for l in b.lines if l.startswith("# cpus")])
    # Four cores of one socket: the MP table lists one, and the header
    # says CPUID's package has four, so the unchecked three are not silent.
    b, status, problem = run_boot(args, "pvh", "tests=cpus.tables",
                                  machine="pc,acpi=off", qemu_args="-smp 4")
    keep("mp-table-smp4-one-socket", b)
    hint = ("# cpus: CPUID.0BH gives CPU 0's package 4 logical processors, "
            "the tables list 1: the others are not checked")
    tap.check(status == 0 and "# cpus: 1 listed (MP table), 1 started, xAPIC" in b.lines and
              hint in b.lines,
              "-M pc,acpi=off -smp 4: the MP table lists 1 CPU of the package's 4, "
              "and the header says the other 3 are not checked",
              [f"status {status}, problem {problem}"] +
              [l for l in b.lines if l.startswith("# cpus")])


def check_ap_overflow(tap, args, keep):
    """An AP's stack overflow reported to CPU 0."""
    # An AP's own kernel stack overflows into its own guard page; the #DF
    # that follows is taken on the AP's own IST1 stack and reported.
    b, status, problem = run_boot(args, "pvh", "tests=selftest.cpus.overflow verbose",
                                  qemu_args="-smp 2")
    keep("selftest-overflow-smp2", b)
    res = {r[1]: r for r in results(b.lines)}
    got = res.get("selftest.cpus.overflow")
    diags = "\n".join(got[3]) if got else ""
    tap.check(got is not None and got[0] == "ok" and status == 0 and
              "CPU 1 (APIC ID 0x1): unexpected #DF (vector 8)" in diags and
              "its CPL 0 kernel stack ran into its guard page" in diags,
              "-smp 2: an AP's kernel stack overflow faults on its guard page, "
              "the #DF reported to CPU 0",
              [f"observed {got[0] if got else 'missing'}, status {status}"] +
              (got[3] if got else []))


def check_bad_command_lines(tap, args, keep):
    """Each bad command line refused by the kernel, status 2."""
    for cmdline, message in [
            ("tests=selftest.pass bogus", "unknown option 'bogus'"),
            ("tests=", "tests= needs at least one pattern"),
            ("tests=Priv.*", "'P' is not allowed in a pattern"),
            ("tests=a,,b", "empty pattern"),
            ("tests=a tests=b", "tests= given twice"),
            ("exclude=", "exclude= needs at least one pattern"),
            ("exit=poweroff", "exit=poweroff: not debug, reset or triple"),
            ("exit=reset exit=triple", "exit= given twice"),
            ("cpus=16", "cpus=16: pmctest runs CPUs 0-15"),
            ("cpus=3-1", "cpus=3-1: the range 3-1 runs backwards")]:
        b, status, problem = run_boot(args, "pvh", cmdline)
        keep("bail", b)
        tap.check(status == 2 and any(message in l for l in b.lines) and
                  any(l.startswith("Bail out! bad command line") for l in b.lines),
                  f"bad command line {cmdline!r}: refused, status 2",
                  [f"status {status}"] + b.lines[-3:])


def check_exit_methods(tap, args):
    """Each exit= method ends QEMU after the summary, with the verdict."""
    # exit=: each way of ending follows the summary; with QEMU -no-reboot
    # the reset and the triple fault end QEMU with status 0, and the boot
    # reads the verdict from the summary (a failing test gives 1 all the
    # same). No "halting" line: the end came from the method asked for.
    for method, raw in (("debug", {0: 1, 1: 3}), ("reset", {0: 0, 1: 0}),
                        ("triple", {0: 0, 1: 0})):
        for test_id, want in (("selftest.pass", 0), ("selftest.fail", 1)):
            b, status, problem = run_boot(args, "pvh", f"tests={test_id} exit={method}")
            last = b.lines[-1] if b.lines else ""
            tap.check(problem is None and status == want and b.returncode == raw[want] and
                      tap_log.summary_counts(last) is not None,
                      f"exit={method} after {test_id}: QEMU ends after the summary "
                      f"(its status {raw[want]}), verdict {want}",
                      [f"status {status}, QEMU status {b.returncode}, problem {problem}"] +
                      b.lines[-3:])
    b, status, problem = run_boot(args, "pvh", "tests=selftest.pass exit=reset bogus")
    tap.check(status == 2 and any("unknown option 'bogus'" in l for l in b.lines),
              "exit=reset, then a bad command line: refused, status 2",
              [f"status {status}, problem {problem}"] + b.lines[-3:])


def check_selection(tap, args):
    """tests=, exclude= and list select what they say."""
    b, status, problem = run_boot(args, "pvh", "tests=no.such.test")
    tap.check(status == 2 and any("no test is selected" in l for l in b.lines),
              "a pattern that selects nothing is a harness error")

    b, status, problem = run_boot(args, "pvh", "tests=selftest.pass,selftest.fail exclude=selftest.fail")
    ran = [r[1] for r in results(b.lines)]
    tap.check(ran == ["selftest.pass"] and status == 0,
              "exclude= leaves the tests it names out", [f"ran {ran}, status {status}"])

    b, status, problem = run_boot(args, "pvh", "list")
    listed = [l.split()[0] for l in b.lines if l and not l.startswith(("#", "TAP", "pmctest"))]
    tap.check(status == 0 and "priv.long.cpl2.pce0.valid" in listed and
              not any(i.startswith("selftest.") for i in listed),
              "list: prints the default run's IDs and exits 0", [f"status {status}"])


def check_timing(tap, args):
    """timing's time lines and exit tally."""
    # timing (make bench): after each result, its ticks; then the suite's.
    b, status, problem = run_boot(args, "pvh", "tests=selftest.pass,selftest.fail timing")
    ids = [r[1] for r in results(b.lines)]
    times = [l.split()[2] for l in b.lines
             if re.match(r"^# time: \S+ run=\d+ report=\d+$", l)]
    suite = [l for l in b.lines if re.match(r"^# time: suite \d+$", l)]
    tap.check(problem is None and ids == ["selftest.pass", "selftest.fail"] and
              times == ids and len(suite) == 1,
              "timing: one '# time:' line per test, in order, and one for the suite",
              [f"problem {problem}", f"ids {ids}", f"times {times}", f"suite {suite}"])

    # The exit tally (timing): per group, each instruction that exits to a
    # hypervisor where it is issued. Three RDPMCs, two of them through the
    # legacy-mode trampoline, whose every trip issues 5 RDMSRs and 5 WRMSRs,
    # one more WRMSR where it enters CPL 3 by SYSEXIT; COM1's data port
    # takes every byte the tests wrote, CR LF line ends included. Before
    # its read, priv.long.cpl0.pce0.valid gives the counters known values
    # (tests/lib/known_values.h), which on TCG stops at the probe of counter
    # 0 (the WRMSR that stops it, the WRMSR of a value and its read-back:
    # TCG's counters hold nothing). The harness's RDMSRs of what each test left in the counters
    # (kernel/counters_left.h) are a group of their own.
    three = ["priv.long.cpl0.pce0.valid", "priv.real.pce0.valid", "priv.prot32.cpl3.pce1.valid"]
    b, status, problem = run_boot(args, "pvh", f"tests={','.join(three)} timing")
    tallies = bench_log.exit_tallies(b.lines)
    written, inside = 0, False
    for line in b.lines:
        m = tap_log.RESULT.match(line)
        inside = bool(m) or (inside and not line.startswith("# time:"))
        written += len(line) + 2 if inside else 0
    priv, total = tallies.get("priv", {}), tallies.get("total", {})
    tap.check(sorted(tallies) == ["harness", "priv", "start", "total"] and
              tallies["harness"].get("rdmsr", 0) > 0 and
              (priv.get("rdpmc"), priv.get("rdmsr"), priv.get("wrmsr")) == (3, 11, 13) and
              priv.get("io.0x3f8") == written and
              all(total[k] == sum(t.get(k, 0) for g, t in tallies.items() if g != "total")
                  for k in total),
              "timing: the exit tally counts each RDPMC, MSR access and COM1 byte of a group, and the total adds up",
              [f"{g}: {t}" for g, t in tallies.items()] + [f"COM1 bytes of the tests {written}"])


def check_reports(tap, args):
    """A mismatch's report, make bench's rows and the short blocks."""
    # The YAML block of a mismatch (TCG: #UD where a read is required):
    # message, context, expected, observed once each, no line twice; the
    # model's reasoning ("  PRIV-1: ...") only with verbose.
    reports = {}
    for words in ("", " verbose"):
        b, status, problem = run_boot(args, "pvh", "tests=priv.long.cpl3.pce1.anyecx" + words)
        got = results(b.lines)
        reports[words] = got[0][3] if got and got[0][0] == "not ok" else []
    default, verbose = reports[""], reports[" verbose"]
    reasoning = [d for d in verbose if re.match(r"^  [A-Z]+-\d+: ", d)]
    keys = [d.split(":")[0] for d in default if d.startswith(("message:", "context:", "expected:", "observed:"))]
    tap.check(sorted(keys) == ["context", "expected", "message", "observed"] and
              len(default) == len(set(default)) and
              not any(re.match(r"^  [A-Z]+-\d+: ", d) for d in default) and reasoning,
              "a mismatch's report: each line once, the model's reasoning only with verbose",
              [f"default: {default}", f"verbose reasoning: {reasoning}"])

    # make bench's rows (tests/bench.py): every bench line, also where it
    # is a test's only diagnostic and so its YAML message (the reference
    # rows, NOP to CPUID).
    names = ["nop", "lfence", "rdtsc", "cpuid", "rdpmc.gp.cpl0"]
    b, status, problem = run_boot(args, "pvh", "tests=" + ",".join(
        f"bench.{n}" for n in names) + " verbose")
    rows = [r[0] for r in bench_log.bench_rows(b.lines)]
    tap.check(rows == names, "make bench reads a row of each bench test, the reference rows too",
              [f"rows {rows}", f"problem {problem}"])

    # verbose says everything: no short block, each failure in full.
    blocks = {}
    for words in ("", " verbose"):
        b, status, problem = run_boot(args, "pvh", "tests=ecx.index.fixed.*" + words)
        blocks[words] = [(r[1], tap_log.same_as(r[3]) is not None, any(d.startswith("message: ") for d in r[3]))
                         for r in results(b.lines, resolve=False)]
    tap.check([s for _, s, _ in blocks[""]] == [False, True] and
              [(s, m) for _, s, m in blocks[" verbose"]] == [(False, True), (False, True)],
              "the second of two like deviations is a short block, and in full with verbose",
              [f"default {blocks['']}", f"verbose {blocks[' verbose']}"])


def main(argv):
    p = argument_parser(__name__, __doc__)
    p.add_argument("--elf", required=True)
    p.add_argument("--iso", required=True)
    p.add_argument("--qemu", default="qemu-system-x86_64")
    p.add_argument("--log-dir", help="keep the serial logs of the default runs, "
                   "the selftests and a Bail out! here (for the tap_parsers check)")
    args = p.parse_args(argv)
    keep = keeper(args.log_dir)

    tap = Tap()
    print("TAP version 13")

    check_images(tap, args)
    cd, tcg_run, pvh_lines = check_default_runs(tap, args, keep)
    check_usb_disk(tap, args, cd)
    check_tcg_priv(tap, tcg_run)
    check_said_once(tap, args, pvh_lines)
    check_selftests(tap, args, keep)
    check_smp(tap, args, keep)
    check_mp_table(tap, args, keep)
    check_ap_overflow(tap, args, keep)
    check_bad_command_lines(tap, args, keep)
    check_exit_methods(tap, args)
    check_consoles(tap, args, keep)
    check_long_command_line(tap, args, keep)
    check_per_cpu(tap, args, keep)
    check_selection(tap, args)
    check_timing(tap, args)
    check_reports(tap, args)
    return tap.finish()


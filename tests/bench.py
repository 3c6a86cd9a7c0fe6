#!/usr/bin/env python3
"""make bench: RDPMC's cost per target, and what the suite costs in time.

For each target, boots the kernel with tests=bench.* and collects the
"bench NAME cycles_median=N cycles_min=N n=N outcome=WHAT" lines of its
YAML diagnostics; then measures the default suite per boot route by the
CPU time of its QEMU process (user and system, all threads, from
os.wait4()), the median of --runs runs, as it is and with COM1 discarded
inside QEMU, next to the floor kernel (tests/bench/floor.c) booted the
same way, the three in turn (with --kut-pmu, kvm-unit-tests' x86/pmu.flat
in the same turns, beside the suite on -M pc); the wall time beside it. On
a machine other jobs load, the wall time of a short run grows with the
load and the CPU time much less, so the ratios are CPU times'. Then, with
the kernel's `timing` option, the time per group of tests, the
instructions that exit to a hypervisor per group (the exit tally) and the
RDPMCs per second of the full ECX sweeps; the time the kernel takes to
start the APs of a 4-vCPU machine, and what the default suite costs with
4 vCPUs against 1.
Writes a Markdown report.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from types import SimpleNamespace

from hosttools import TESTS, procs
from hosttools.boot import qemu as boot
from hosttools.boot.booted import Boot
from hosttools.devtools import bench_log, kut
from hosttools.judge import patterns as tap_log
from hosttools.targets.qemu import counting_qemu_why_not
from hosttools.judge.tap import read
from hosttools.tool_table import guard

# name: (accel, cpu, label, expectation file, [(route, machine)]); the
# machine "uefi" is -M pc with OVMF instead of SeaBIOS.
TARGETS = {
    "tcg": ("tcg", "max", "TCG, -cpu max", "qemu-tcg-max",
            [("pvh", ""), ("pvh", "microvm"), ("iso", ""), ("iso", "uefi")]),
    # Under this KVM a SeaBIOS + GRUB boot alone takes about a minute
    # (tests/run --target qemu-kvm-host-iso): five of them per kernel are
    # left out of the CPU times.
    "kvm": ("kvm", "host,-arch-capabilities", "KVM, -cpu host,-arch-capabilities",
            "qemu-kvm-host", [("pvh", ""), ("pvh", "microvm")]),
}
EXPECT_DIR = os.path.join(TESTS, "expect")


def excluded(expect_name):
    """The kernel's exclude= for a target: its `!GLOB reason` lines, the
    tests that stop the guest or take too long there (tests/expect)."""
    with open(os.path.join(EXPECT_DIR, expect_name)) as f:
        globs = [l.split()[0][1:] for l in f if l.startswith("!")]
    return f"exclude={','.join(globs)}" if globs else ""


def qemu(args, accel, cpu, route, elf, iso, cmdline, machine="", cpus=1,
         binary=None):
    uefi = machine == "uefi"
    return boot.qemu_command(binary or args.qemu, accel, cpu, route, elf=elf,
                             iso=iso, cmdline=cmdline,
                             machine="" if uefi else machine,
                             firmware="uefi" if uefi else "bios",
                             qemu_args=boot.smp(cpus))


def target_usable(accel):
    if accel != "kvm":
        return None
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return "/dev/kvm is not accessible"
    return None


def bench_rows(args, accel, cpu):
    run = Boot(qemu(args, accel, cpu, "pvh", args.elf, args.iso,
                         "tests=bench.* verbose"), args.timeout, False, None)
    status, problem = run.verdict()
    return bench_log.bench_rows(run.lines), problem


def quiet(cmd):
    """The same QEMU command with COM1 discarded inside QEMU (-serial null):
    the guest still writes every byte, the host writes none."""
    i = cmd.index("-serial")
    return cmd[:i + 1] + ["null"] + cmd[i + 2:]


def measured_run(cmd, timeout):
    """One run of cmd to its end (killed after timeout seconds): its exit
    code ("timeout" if killed), its stdout, the CPU seconds of the process
    (user and system, from os.wait4()) and the wall seconds."""
    proc = procs.start(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL)
    out, killed = [], []

    def kill():
        killed.append(True)
        procs.kill(proc)

    reader = threading.Thread(target=lambda: out.append(proc.stdout.read()))
    timer = threading.Timer(timeout, kill)
    start = time.monotonic()
    reader.start()
    timer.start()
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        timer.cancel()
        wall = time.monotonic() - start
        reader.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    procs.done(proc)
    code = "timeout" if killed else proc.returncode
    return code, out[0] if out else b"", usage.ru_utime + usage.ru_stime, wall


class Timed:
    """The runs of one command: median and least CPU and wall seconds, the
    CPU seconds of each run in turn, the exit codes, and the stdout (COM1)
    of the last run."""

    def __init__(self, cpu, wall, codes, output):
        self.cpu_runs = list(cpu)
        self.cpu = statistics.median(cpu)
        self.wall = statistics.median(wall)
        self.least_cpu = min(cpu)
        self.least_wall = min(wall)
        self.codes = codes
        self.output = output
        self.size = len(output)


def measure(args, commands):
    """For each of the commands, run in turn args.runs times so that the
    machine's load falls on all of them alike: {name: Timed}."""
    cpu = {name: [] for name in commands}
    wall = {name: [] for name in commands}
    codes = {name: set() for name in commands}
    outputs = {}
    for _ in range(args.runs):
        for name, cmd in commands.items():
            code, output, seconds, elapsed = measured_run(cmd, args.timeout)
            codes[name].add(code)
            outputs[name] = output
            cpu[name].append(seconds)
            wall[name].append(elapsed)
    return {name: Timed(cpu[name], wall[name], codes[name],
                        outputs.get(name, b"")) for name in commands}


TIME_LINE = re.compile(r"^# time: (\S+) run=(\d+) report=(\d+)$")
SUITE_TIME = re.compile(r"^# time: suite (\d+)$")
SWEEP_COUNT = re.compile(r"^(?:\d+ of )?(\d+) (?:ECX values|indices)")


def timed_boot(args, accel, cpu, machine, cmdline):
    """One PVH boot with the kernel's `timing` option: per test the TSC
    ticks of the test itself and of its report (result line, diagnostics),
    the suite's ticks, and ticks per second, from the host's clock between
    the plan line and the summary line."""
    run = Boot(qemu(args, accel, cpu, "pvh", args.elf, args.iso,
                         f"{cmdline} timing".strip(), machine),
                    args.timeout, False, None)
    tests, suite, plan_at, end_at = [], None, None, None
    for line, at in zip(run.tap_lines, run.arrived):
        m = TIME_LINE.match(line)
        if m:
            tests.append((m[1], int(m[2]), int(m[3])))
        elif SUITE_TIME.match(line):
            suite = int(SUITE_TIME.match(line)[1])
        elif line.startswith("1..") and plan_at is None:
            plan_at = at
        elif tap_log.summary_counts(line):
            end_at = at
    _, problem = run.verdict()
    if not problem and (suite is None or plan_at is None or end_at is None):
        problem = "no timing lines"
    hz = suite / (end_at - plan_at) if not problem else None
    return tests, suite, hz, run, problem


def exit_tallies(args, accel, cpu, machine, cmdline):
    """The exit tally of one `timing` boot of the suite: {group: counts}
    (bench_log.exit_tallies), or a problem."""
    _, _, _, run, problem = timed_boot(args, accel, cpu, machine, cmdline)
    tallies = bench_log.exit_tallies(run.lines)
    if not problem and "total" not in tallies:
        problem = "no '# exits:' lines"
    return tallies, problem


COM1_PORTS = range(0x3F8, 0x400)


def exit_rows(tallies):
    """Per group (and the total): COM1's port I/O, the other port I/O,
    RDMSR, WRMSR, CPUID, RDPMC, HLT, all of them."""
    rows = []
    for group, t in tallies.items():
        com1 = sum(n for k, n in t.items() if k.startswith("io.0x") and
                   int(k[5:], 16) in COM1_PORTS)
        row = [com1, t.get("io", 0) - com1] + \
            [t.get(k, 0) for k in ("rdmsr", "wrmsr", "cpuid", "rdpmc", "hlt")]
        rows.append((group, *row, t.get("io", 0) + sum(row[2:])))
    return rows


def group_of(test_id):
    return test_id.split(".")[0]


def group_times(args, accel, cpu, machine, cmdline):
    """Median over --runs boots of each group's milliseconds, split into
    the tests themselves and their reports, and its share of the suite."""
    per_run, problem = [], None
    for _ in range(args.runs):
        tests, suite, hz, _, problem = timed_boot(args, accel, cpu, machine,
                                                  cmdline)
        if problem:
            return [], problem
        groups = {}
        for test_id, ran, report in tests:
            g = groups.setdefault(group_of(test_id), [0, 0, 0])
            g[0] += 1
            g[1] += ran
            g[2] += report
        per_run.append({name: (n, ran / hz * 1e3, report / hz * 1e3,
                               (ran + report) / suite)
                        for name, (n, ran, report) in groups.items()})
    rows = []
    for name in per_run[0]:
        runs = [r[name] for r in per_run]
        rows.append((name, runs[0][0],
                     *(statistics.median(r[k] for r in runs) for k in (1, 2, 3))))
    return sorted(rows, key=lambda r: -(r[2] + r[3])), None


def sweep_rates(args, accel, cpu, machine):
    """RDPMC executions per second of each full sweep, from the ticks of
    the test alone (its report excluded): median over --runs boots of
    tests=ecx.*.full.* verbose (verbose: the count of RDPMCs comes from
    each sweep's own diagnostics)."""
    per_test, problem = {}, None
    for _ in range(args.runs):
        tests, _, hz, run, problem = timed_boot(args, accel, cpu, machine,
                                                "tests=ecx.*.full.* verbose")
        if problem:
            return [], problem
        counts = {}
        for result in read(run.lines).results:
            for text in result.written:
                m = SWEEP_COUNT.match(text)
                if m:
                    counts[result.id] = int(m[1])
        for test_id, ran, _ in tests:
            if test_id in counts:
                per_test.setdefault(test_id, []).append(
                    (counts[test_id], ran / hz))
    return [(test_id, runs[0][0], statistics.median(s for _, s in runs))
            for test_id, runs in per_test.items()], None


AP_CPUS = 4
# Issue 39's SMP time budget: the default suite with AP_CPUS vCPUs takes
# at most this much more CPU time than with one.
VCPU_BUDGET = 0.20
# The fewest rounds of vcpu_cost(): on a shared host one round's ratio
# moves by a third, a median of five by a fifth.
VCPU_ROUNDS = 21
# QEMU's own cost of the idle vCPUs: the same machine without ACPI, where
# SeaBIOS's MP table lists one CPU, so that the kernel runs exactly its
# one-CPU run with -smp AP_CPUS as with -smp 1.
ONE_CPU_LISTED = "pc,acpi=off"


def ap_startup(args, accel, cpu, route):
    """The kernel's AP start-up with AP_CPUS vCPUs (its "# cpus:" header
    lines), args.runs boots of cpus.tables alone: (listed, started, median
    us, min us), or a problem."""
    runs, counts = [], None
    for _ in range(args.runs):
        run = Boot(qemu(args, accel, cpu, route, args.elf, args.iso,
                             "tests=cpus.tables", "", AP_CPUS),
                        args.timeout, False, None)
        _, problem = run.verdict()
        said = bench_log.ap_startup(run.lines)
        if problem or not said or said[2] is None:
            return None, problem or "no \"# cpus: AP start-up\" line"
        counts = said[:2]
        runs.append(said[2])
    return (*counts, statistics.median(runs), min(runs)), None


def vcpu_cost(args, accel, cpu, expect):
    """The default suite and the floor kernel with 1 and AP_CPUS vCPUs
    (PVH on -M pc), the suite with AP_CPUS vCPUs and cpus=0 (the APs
    started, no per-CPU part), and the suite with 1 and AP_CPUS vCPUs where
    the firmware lists one CPU (ONE_CPU_LISTED), all in turn, at least
    VCPU_ROUNDS times: {name: Timed}."""
    def command(elf, cmdline, cpus, machine=""):
        return qemu(args, accel, cpu, "pvh", elf, args.iso, cmdline, machine,
                    cpus)

    suite = excluded(expect)
    rounds = argparse.Namespace(**vars(args))
    rounds.runs = max(args.runs, VCPU_ROUNDS)
    return measure(rounds, {
        "suite-1": command(args.elf, suite, 1),
        f"suite-{AP_CPUS}": command(args.elf, suite, AP_CPUS),
        "cpus0": command(args.elf, f"{suite} cpus=0".strip(), AP_CPUS),
        "floor-1": command(args.floor_elf, "", 1),
        f"floor-{AP_CPUS}": command(args.floor_elf, "", AP_CPUS),
        "listed-1": command(args.elf, suite, 1, ONE_CPU_LISTED),
        f"listed-{AP_CPUS}": command(args.elf, suite, AP_CPUS,
                                     ONE_CPU_LISTED)})


def paired_ratio(one, many):
    """The median over the rounds of many's CPU time over one's in the same
    round, less 1: each ratio from two runs under the same load."""
    return statistics.median(b / a for a, b in zip(one.cpu_runs,
                                                   many.cpu_runs)) - 1


def vcpu_rows(label, runs):
    """The table rows of vcpu_cost()'s runs: CPU and wall seconds, median
    and least, and each 4-vCPU figure over its 1-vCPU one, whole and net
    of the floor."""
    one, many = runs["suite-1"], runs[f"suite-{AP_CPUS}"]
    floor1, floor_n, bare = runs["floor-1"], runs[f"floor-{AP_CPUS}"], runs["cpus0"]
    listed1, listed_n = runs["listed-1"], runs[f"listed-{AP_CPUS}"]
    rows = []
    for kind in ("cpu", "wall", "least_cpu", "least_wall"):
        a, b = getattr(one, kind), getattr(many, kind)
        f1, fn, c0 = getattr(floor1, kind), getattr(floor_n, kind), getattr(bare, kind)
        l1, ln = getattr(listed1, kind), getattr(listed_n, kind)
        rows.append(f"| {label} | {kind.replace('least_', 'least ')} | {a:.3f} | {b:.3f} | {b / a - 1:+.0%} | "
                    f"{f1:.3f} / {fn:.3f} | {(b - fn) / (a - f1) - 1:+.0%} | "
                    f"{c0:.3f} | {l1:.3f} / {ln:.3f} | {ln / l1 - 1:+.0%} |")
    return rows


# The TCG PMU's cost (docs/counting-tcg.md): the QEMUs, each with its -cpu.
WORKLOAD_SOURCE = os.path.join(TESTS, "bench", "workload.c")
TCG_PMU_RUNS = (
    ("debian", "Debian's qemu-system-x86_64", "EPYC"),
    ("patched", "the QEMU with the TCG PMU", "EPYC"),
    ("counting", "the QEMU with the TCG PMU", "EPYC,tcg-pmu=on"),
)


def workload_iterations():
    """The loop's iterations, as tests/bench/workload.c defines them."""
    with open(WORKLOAD_SOURCE) as f:
        return int(re.search(r"#define WORKLOAD_ITERATIONS (\d+)u", f.read())[1])


def tcg_pmu_why_not(args):
    if not args.qemu_pmu or not args.workload_elf:
        return "no --qemu-pmu and --workload-elf (make bench gives both)"
    return counting_qemu_why_not(args.qemu_pmu)


def tcg_pmu_cost(args):
    """The workload kernel (tests/bench/workload.c) and the floor on each
    QEMU of TCG_PMU_RUNS, PVH on -M pc, all in turn: {name: Timed}."""
    commands = {}
    for name, _, cpu in TCG_PMU_RUNS:
        binary = args.qemu if name == "debian" else args.qemu_pmu
        for kernel, elf in (("workload", args.workload_elf),
                            ("floor", args.floor_elf)):
            commands[f"{kernel}-{name}"] = qemu(
                args, "tcg", cpu, "pvh", elf, args.iso, "", binary=binary)
    return measure(args, commands)


def tcg_pmu_section(args, runs, why_not):
    """The loop's CPU time on each QEMU, and the ratios within the run."""
    iterations = workload_iterations()
    out = ["", "## The TCG PMU's cost", "",
           "The workload kernel (tests/bench/workload.c: a fixed loop of "
           f"{iterations:,} iterations of integer instructions, "
           "loads, stores and a branch, no PMU access) and the floor, PVH "
           "on -M pc, on Debian's QEMU and on the QEMU with the TCG PMU "
           "with and without `tcg-pmu=on`, all in turn; CPU time of the "
           f"QEMU process, median of {args.runs} runs. The loop is the "
           "workload less the floor; each ratio is of two loops of this "
           "run.", ""]
    if why_not:
        return out + [f"Not run: {why_not}.", ""]
    out += ["| QEMU | -cpu | workload (s) | floor (s) | loop (s) | "
            "ns per iteration | loop / the row above | wall: workload (s) "
            "| workload exit |", "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    previous = None
    for name, label, cpu in TCG_PMU_RUNS:
        work, floor = runs[f"workload-{name}"], runs[f"floor-{name}"]
        loop = work.cpu - floor.cpu
        ratio = f"{loop / previous:.2f}x" if previous else "-"
        out.append(f"| {label} | {cpu} | {work.cpu:.3f} | {floor.cpu:.3f} | "
                   f"{loop:.3f} | {loop / iterations * 1e9:.2f} | "
                   f"{ratio} | {work.wall:.2f} | {status_text(work.codes)} |")
        previous = loop
    return out + [""]


# The QEMU exit codes of a run that ended at the kernel's exit with
# status 0 or 1 (passed, or some test failed).
FINISHED = {1, 3}


def status_text(codes):
    # isa-debug-exit: QEMU exits with (status << 1) | 1.
    names = {1: "status 0", 3: "status 1", 5: "status 2", "timeout": "timed out"}
    return ", ".join(names.get(c, f"QEMU exit {c}") for c in sorted(codes, key=str))


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in ("elf", "iso", "floor-elf", "floor-iso", "out"):
        p.add_argument("--" + name, required=True)
    p.add_argument("--targets", default="tcg,kvm")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--timeout", type=float, default=600.0)
    p.add_argument("--qemu", default="qemu-system-x86_64")
    p.add_argument("--kut-pmu", default="",
                   help="a built kvm-unit-tests x86/pmu.flat to run beside the suite")
    p.add_argument("--qemu-pmu", default="",
                   help="the QEMU with the TCG PMU (make qemu-pmu), for --targets tcg-pmu")
    p.add_argument("--workload-elf", default="",
                   help="tests/bench/workload.c's kernel, for --targets tcg-pmu")
    return p.parse_args(argv)


def bench_section(args, accel, cpu, label):
    """The bench.* group's table of one target."""
    print(f"bench: {label}: bench.* group", flush=True)
    rows, problem = bench_rows(args, accel, cpu)
    out = [f"## {label}", "", "| bench | median | min | n | outcome |",
           "|---|---:|---:|---:|---|"]
    out += [f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} |" for r in rows]
    if problem:
        out += ["", f"The bench run did not finish cleanly: {problem}."]
    out.append("")
    return out


def measure_cpu_times(args, accel, cpu, label, expect, routes, kut_why_not, found):
    """The CPU time of the suite, its quiet twin, the floor (and
    kvm-unit-tests beside) by each route of one target, into found."""
    for route, machine in routes:
        where = route + (" on UEFI (OVMF)" if machine == "uefi" else
                         f" on {machine}" if machine else "")
        print(f"bench: {label}: CPU time via {where}, {args.runs} runs",
              flush=True)
        if route == "iso" and excluded(expect):
            sys.exit(f"bench: {label} leaves tests out, which an ISO "
                     "boot cannot (its command line is baked in)")
        suite_cmd = qemu(args, accel, cpu, route, args.elf, args.iso,
                         excluded(expect), machine)
        commands = {
            "suite": suite_cmd, "quiet": quiet(suite_cmd),
            "floor": qemu(args, accel, cpu, route, args.floor_elf,
                          args.floor_iso, "", machine)}
        beside = route == "pvh" and not machine and not kut_why_not
        if beside:
            commands["kut"] = kut.qemu_command(args.qemu, args.kut_pmu,
                                               accel, cpu)
        runs = measure(args, commands)
        found.times.append((label, where, runs))
        if route == "pvh" and not machine:
            found.kuts.append((label, runs if beside else None))


def measure_more(args, accel, cpu, label, expect, found):
    """One target's time per group, exit tally, sweep rates, vCPU cost and
    AP start-up, into found."""
    for machine in ("", "microvm"):
        where = f"pvh on {machine or 'pc'}"
        print(f"bench: {label}: time per group via {where}, "
              f"{args.runs} runs", flush=True)
        found.groups.append((label, where, *group_times(
            args, accel, cpu, machine, excluded(expect))))
    print(f"bench: {label}: the exit tally of the suite via pvh on pc",
          flush=True)
    found.exits.append((label, *exit_tallies(args, accel, cpu, "",
                                             excluded(expect))))
    print(f"bench: {label}: RDPMCs per second of the full sweeps, "
          f"{args.runs} runs", flush=True)
    rows, problem = sweep_rates(args, accel, cpu, "microvm")
    found.rates += [(label, *row, None) for row in rows]
    if problem:
        found.rates.append((label, "ecx.*.full.*", 0, 0, problem))
    if accel == "tcg":
        print(f"bench: {label}: the default suite with 1 and {AP_CPUS} "
              f"vCPUs, {max(args.runs, VCPU_ROUNDS)} rounds", flush=True)
        found.vcpus.append((label, vcpu_cost(args, accel, cpu, expect)))
        print(f"bench: {vcpu_budget(*found.vcpus[-1])}", flush=True)
    for route in ("pvh", "iso") if accel == "tcg" else ("pvh",):
        print(f"bench: {label}: AP start-up with {AP_CPUS} vCPUs via "
              f"{route}, {args.runs} runs", flush=True)
        found.aps.append((label, route, *ap_startup(args, accel, cpu, route)))


def cpu_time_section(args, times):
    """The CPU time of the default suite, each target and route."""
    out = ["## CPU time of the default suite",
           "",
           "The CPU time of the QEMU process (user and system, all its "
           f"threads, from wait4()), median of {args.runs} runs; the floor "
           "is a kernel that boots the same way and exits at once. The "
           "suite runs twice: as it is, COM1 on QEMU's stdout (a pipe), and "
           "with COM1 discarded inside QEMU (`-serial null`: the guest "
           "writes every byte, the host none). Their difference over the "
           "bytes of COM1 is what the host spends per byte: QEMU's 16550 "
           "makes one `write()` per byte. The three run in turn, so the "
           "ratios come from one run. The wall time (QEMU's start to its "
           "exit) is beside them: other jobs on the machine stretch it, the "
           "short floor most.", "",
           "| target | route | suite (s) | COM1 discarded (s) | floor (s) "
           "| suite / floor | discarded / floor | COM1 bytes | host us per "
           "byte | wall: suite / floor (s) | suite exit |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for label, route, runs in times:
        suite, discarded, floor = runs["suite"], runs["quiet"], runs["floor"]
        per_byte = ((suite.cpu - discarded.cpu) / suite.size * 1e6
                    if suite.size else 0)
        out.append(f"| {label} | {route} | {suite.cpu:.3f} | "
                   f"{discarded.cpu:.3f} | {floor.cpu:.3f} | "
                   f"{suite.cpu / floor.cpu:.2f}x | "
                   f"{discarded.cpu / floor.cpu:.2f}x | {suite.size:,} | "
                   f"{per_byte:.1f} | {suite.wall:.2f} / {floor.wall:.2f} | "
                   f"{status_text(suite.codes)} |")
    return out


def kut_section(kuts, kut_why_not):
    """pmctest beside kvm-unit-tests' x86/pmu.flat."""
    out = ["", "## Beside kvm-unit-tests", "",
           "kvm-unit-tests' x86/pmu.flat (KUT_PMU), booted as its x86/run "
           "boots it, in the same turns as the suite and the floor on -M pc, "
           "in CPU time as above. Under TCG it stops at its first #UD (an "
           "RDPMC that TCG does not implement), where pmctest goes on "
           "through every test: the two did unequal work.", "",
           "| target | run | CPU (s) | / floor | COM1 bytes | how it ended |",
           "|---|---|---:|---:|---:|---|"]
    for label, runs in kuts:
        if runs is None:
            out.append(f"| {label} | kvm-unit-tests x86/pmu.flat | - | - | - | "
                       f"SKIP: {kut_why_not} |")
            continue
        floor, suite, peer = runs["floor"], runs["suite"], runs["kut"]
        out.append(f"| {label} | pmctest, default suite (PVH) | "
                   f"{suite.cpu:.3f} | {suite.cpu / floor.cpu:.2f}x | "
                   f"{suite.size:,} | {status_text(suite.codes)} |")
        out.append(f"| {label} | kvm-unit-tests x86/pmu.flat (Multiboot) | "
                   f"{peer.cpu:.3f} | {peer.cpu / floor.cpu:.2f}x | "
                   f"{peer.size:,} | {kut.how_it_ended(peer.output)} |")
    return out


def exits_section(exits):
    """The exit tally of each target."""
    out = ["", "## Exits", "",
           "Instructions that exit to a typical hypervisor, as the kernel "
           "counts them where it issues them (`timing`'s `# exits:` lines), "
           "in one boot of the suite, PVH on pc. `start` is the boot, the "
           "enumeration and the header; a group's count includes its "
           "reports. The console is COM1 (ports 3F8H-3FFH): an OUT per "
           "byte, an IN of the line status per 16. Not counted: MMIO (the "
           "xAPIC, a framebuffer), exceptions, the boot code before the "
           "kernel's C entry.", ""]
    for label, tallies, problem in exits:
        out += [f"### {label}", ""]
        if problem:
            out += [f"Not measured: {problem}.", ""]
            continue
        rows = exit_rows(tallies)
        out += ["| group | COM1 port I/O | other port I/O | RDMSR | WRMSR | "
                "CPUID | RDPMC | HLT | all |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        out += ["| " + " | ".join([group] + [f"{n:,}" for n in row]) + " |"
                for group, *row in rows]
        total = rows[-1]
        out += ["", f"The console's share: {total[1]:,} of {total[-1]:,} "
                f"exits ({total[1] / total[-1]:.1%}); without the RDPMCs, "
                f"{total[1] / (total[-1] - total[6]):.1%}.", ""]
    return out


def groups_section(args, groups):
    """The time per group of each target."""
    out = ["", "## Where the time goes", "",
           "The kernel's `timing` option: TSC ticks of each test, and of its "
           "report (result line and diagnostics on the serial console), "
           "summed per group and turned into milliseconds at the TSC rate "
           "of that boot (its ticks between the plan line and the summary "
           f"line over the host's clock); median of {args.runs} boots.", ""]
    for label, where, rows, problem in groups:
        out += [f"### {label}, {where}", ""]
        if problem:
            out += [f"Not measured: {problem}.", ""]
            continue
        out += ["| group | tests | tests (ms) | reports (ms) | share of suite |",
                "|---|---:|---:|---:|---:|"]
        out += [f"| {name} | {n} | {ran:.1f} | {report:.1f} | {share:.0%} |"
                for name, n, ran, report, share in rows]
        out.append("")
    return out


def rates_section(args, rates):
    """RDPMCs per second in the full sweeps."""
    out = ["## RDPMC executions per second in the full ECX sweeps", "",
           "Ticks of the sweep alone (its report left out) on microvm, "
           f"median of {args.runs} boots; the count of RDPMCs is the "
           "sweep's own. Under TCG and this KVM every RDPMC of the sweep "
           "faults.", "",
           "| target | sweep | RDPMCs | seconds | per second |",
           "|---|---|---:|---:|---:|"]
    for label, test_id, rdpmcs, seconds, problem in rates:
        out.append(f"| {label} | {test_id} | {rdpmcs} | {seconds:.3f} | "
                   f"{rdpmcs / seconds:,.0f} |" if not problem else
                   f"| {label} | {test_id} | - | - | not measured: {problem} |")
    return out


def aps_section(args, aps):
    """The AP start-up times."""
    out = ["", f"## AP start-up, {AP_CPUS} vCPUs", "",
           "From CPU 0's first INIT to the last AP ready (arch/smp.c: "
           "INIT to every AP, 10 ms in which the TSC is measured against "
           "the PIT, then to one AP at a time two start-up "
           "IPIs 200 us apart, its own set-up and its reading of the PMU "
           "MSRs), as the "
           "kernel's header says it (`# cpus: AP start-up N us`, TSC "
           f"calibrated against the PIT); -smp {AP_CPUS} on -M pc, "
           f"median and minimum of {args.runs} boots.", "",
           "| target | route | listed | started | median (ms) | min (ms) |",
           "|---|---|---:|---:|---:|---:|"]
    for label, route, figures, problem in aps:
        if problem:
            out.append(f"| {label} | {route} | - | - | - | not measured: {problem} |")
            continue
        listed, started, median, least = figures
        out.append(f"| {label} | {route} | {listed} | {started} | "
                   f"{median / 1000:.1f} | {least / 1000:.1f} |")
    return out


def vcpus_section(args, vcpus):
    """1 vCPU against AP_CPUS."""
    out = ["", f"## 1 vCPU against {AP_CPUS}", "",
           f"The default suite with -smp 1 and -smp {AP_CPUS} (each AP runs "
           "the per-CPU part, smp.* pairs CPU 0 with each AP), PVH on -M pc, "
           f"median of at least {VCPU_ROUNDS} runs in turn with the floor "
           "kernel at both counts, the suite with cpus=0 (the APs started, "
           "no per-CPU part), and the suite at both counts on -M "
           f"{ONE_CPU_LISTED}, where the firmware lists one CPU and the "
           "kernel runs its one-CPU run. Net of the floor leaves out what "
           "QEMU and SeaBIOS themselves spend on more vCPUs to boot; the "
           "one-CPU run with more vCPUs, what QEMU spends on idle vCPUs "
           "over the whole run. On a shared host the median of a set moves "
           "by a fifth from one set to the next; the median of each "
           "round's ratio (two runs under the same load) much less, and "
           "the verdict uses it.", "",
           f"| target | time | 1 vCPU (s) | {AP_CPUS} vCPUs (s) | longer | "
           f"floor 1 / {AP_CPUS} (s) | longer, net of the floor | "
           f"{AP_CPUS} vCPUs, cpus=0 (s) | one CPU listed, 1 / {AP_CPUS} "
           "vCPUs (s) | longer |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for label, runs in vcpus:
        out += vcpu_rows(label, runs)
    out.append("")
    out += [vcpu_budget(label, runs) for label, runs in vcpus]
    return out


def vcpu_budget(label, runs):
    """One line: the CPU time AP_CPUS vCPUs cost over 1 (the median of the
    rounds' ratios; the ratios of the medians and of the least beside it),
    QEMU's own share of it (the same one-CPU run with AP_CPUS vCPUs, the
    firmware listing one), and the kernel's, each held to VCPU_BUDGET; no
    verdict where a run did not finish (a crash, a hang, status 2)."""
    unfinished = [f"{name} ({status_text(timed.codes)})"
                  for name, timed in runs.items()
                  if not timed.codes <= FINISHED]
    if unfinished:
        return (f"- {label}: not judged: a run did not reach the kernel's "
                f"exit with status 0 or 1: {', '.join(unfinished)}.")
    one, many = runs["suite-1"], runs[f"suite-{AP_CPUS}"]
    whole = paired_ratio(one, many)
    own = paired_ratio(runs["listed-1"], runs[f"listed-{AP_CPUS}"])
    median, least = many.cpu / one.cpu - 1, many.least_cpu / one.least_cpu - 1

    def verdict(share):
        return "within" if share <= VCPU_BUDGET else "over"

    return (f"- {label}: {AP_CPUS} vCPUs take {whole:+.0%} CPU time over 1 "
            f"(median of {len(one.cpu_runs)} rounds' ratios; ratio of the "
            f"medians {median:+.0%}, of the least {least:+.0%}): "
            f"{verdict(whole)} the budget of {VCPU_BUDGET:+.0%}. QEMU's own "
            f"cost of {AP_CPUS - 1} idle vCPUs on the same one-CPU run "
            f"(-M {ONE_CPU_LISTED}, the firmware listing one CPU) is "
            f"{own:+.0%}, the kernel's part {whole - own:+.0%}: "
            f"{verdict(whole - own)} the budget.")


def main(argv):
    args = parse_args(argv)
    out = ["# pmctest bench", "",
           "TSC cycles per instruction (bench.* group, PVH boot): a batch of "
           "16 between LFENCE-serialised RDTSCs, less the fastest empty "
           "batch; median and minimum over n batches. Where the instruction "
           "faults, the figure is the whole fault round trip.", ""]
    found = SimpleNamespace(times=[], rates=[], groups=[], exits=[], kuts=[], aps=[], vcpus=[])
    kut_why_not = kut.why_not(args.kut_pmu)
    names = args.targets.split(",")
    for name in (n for n in names if n != "tcg-pmu"):
        accel, cpu, label, expect, routes = TARGETS[name]
        why_not = target_usable(accel)
        if why_not:
            out += [f"## {label}", "", f"Not run: {why_not}.", ""]
            continue
        out += bench_section(args, accel, cpu, label)
        measure_cpu_times(args, accel, cpu, label, expect, routes, kut_why_not, found)
        measure_more(args, accel, cpu, label, expect, found)
    out += cpu_time_section(args, found.times)
    out += kut_section(found.kuts, kut_why_not)
    out += exits_section(found.exits)
    out += groups_section(args, found.groups)
    out += rates_section(args, found.rates)
    out += aps_section(args, found.aps)
    out += vcpus_section(args, found.vcpus)
    if "tcg-pmu" in names:
        why_not = tcg_pmu_why_not(args)
        if not why_not:
            print(f"bench: the TCG PMU's cost, {args.runs} runs", flush=True)
        out += tcg_pmu_section(args, None if why_not else tcg_pmu_cost(args),
                               why_not)
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(guard(main, sys.argv[1:]))

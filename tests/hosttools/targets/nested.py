"""The kind "nested": pmctest in QEMU -accel kvm on the KVM of a Linux
(L1), which itself runs in an outer emulator (hosttools/images/nested/
builds L1's images; its init.sh loads KVM and runs pmctest).

Parameters:
  kernel  L1: a series of images/nested/kernels.py (Debian's), built into
          build/kvm-KERNEL/ by make images, or "own" (make run-kvm
          KERNEL=..., build/kvm-own/)
  outer   what L1 runs in: "qemu" (Debian's QEMU TCG, -cpu EPYC: AMD SVM
          with nested paging), "qemu-pmu" (the QEMU with the TCG PMU,
          -cpu EPYC,tcg-pmu=on: L1's perf finds counters and KVM loads
          with its vPMU on), "bochs" (Debian's Bochs: VMX, so KVM's Intel
          side; GRUB boots L1's bzImage and initramfs from an ISO) or
          "bochs-pmu" (the counting Bochs 3.0: VMX and Intel's PMU, so
          kvm_intel loads with its vPMU on)
  outer_cpu  the outer QEMU's -cpu (EPYC; with outer "qemu-pmu",
          EPYC,tcg-pmu=on unless said, e.g. with tcg-pmu-perfmon-v2=on)
  inner   the QEMU in L1 that runs pmctest on KVM: "qemu" (this host's,
          in the initramfs) or "qemu-pmu" (the QEMU with the TCG PMU, whose
          series passes KVM's CPUID 8000_0022H, PerfMonV2, to the guest)
  inner_cpu, inner_smp   that QEMU's -cpu (host) and vCPUs (1)
  l1_args     words added to L1's kernel command line (e.g. nmi_watchdog=0)
  kvm_params  KVM's module parameters, MODULE.NAME=VALUE (e.g.
          kvm_amd.enable_mediated_pmu=1), which L1's init gives to the
          insmod of each module and reads back: the header's "# l1
          params:" line says what L1 really has
  cpu, bochs_cpu, megs   the outer Bochs' model, cpu: options and memory

In the outer QEMU, COM1 carries pmctest's TAP as in a direct boot and
QEMU exits with the kernel's status; its stderr is L1's console, where
init reports in "pmctest-l1: " lines and the inner QEMU's messages ("KVM
internal error") land. In Bochs, L1's console is COM2, a file."""
import os
import re
import shutil

from ..boot.process import ProcessLines
from ..boot.qemu import qemu_release, qemu_version
from ..images.counting.wrapper import real_binary
from ..images.nested.build import read_info
from ..images.nested.initramfs import run_archive
from ..images.nested.iso import make_iso
from ..images.nested.outer import OUTER_CPU, TCG_PMU, outer_command
from ..images.nested.params import kvm_params_problem, l1_args_problem, vmm_problem
from .bochs import (bochs_stream, bochs_why_not, counting_bochs_missing,
                    counting_bochs_why_not)
from .kind import Kind, ProcessStream, new_outcome
from .qemu import counting_qemu_why_not, missing_counting_qemu

L1_LINE = re.compile(r"^pmctest-l1: (.*)$", re.M)
# How often L1's KVM intercepted the guest's RDPMC (init.sh's histogram of
# kvm_exit by reason)
RDPMC_EXITS = re.compile(r"^pmctest-l1: rdpmc exits (\d+)\r?$", re.M)
# KVM's log of the guest as init.sh counts it: "  2 kvm: kvm [137]: vcpu0,
# guest rIP: 0x10047d Unhandled WRMSR(0xc0010004) = 0x5a5a"
KVM_LOG = re.compile(r"^\s*(\d+) kvm.*?guest rIP: \S+ (.*)$", re.M)
# What init says of L1 before pmctest starts: KVM's enable_pmu, the
# parameters and command-line words asked for as L1 has them, and perf's
# "Performance Events:" line. Each becomes a header comment of the log
# ("# l1 kvm: enable_pmu=Y", "# l1 params: kvm_amd.enable_mediated_pmu=Y
# nmi_watchdog=0", "# l1 perf: Performance Events: ..."), which an
# expectation file's "# header:" lines can require.
L1_HEADER = (
    (re.compile(r"^pmctest-l1: linux \S+, kvm (enable_pmu=\S*)$"), "l1 kvm"),
    (re.compile(r"^pmctest-l1: params (.*)$"), "l1 params"),
    (re.compile(r"^pmctest-l1: (Performance Events: .*|no Performance "
                r"Events: line .*)$"), "l1 perf"),
)
# init's report lines that are no reason why pmctest did not run
L1_ROUTINE = ("linux ", "exit status", "params ", "rdpmc exits ",
              "Performance Events:", "no Performance Events:")
# init's report on a guest still running after 60 s (its threads, each
# vCPU's state): a hang's in QEMU, where a subset takes 10 to 25 s; routine
# in Bochs, whose runs take longer
L1_AT_60S = ("still running after", "guest CPU ")
# What a hang's reason quotes of L1's console: its last lines, each cut
HANG_LINES, HANG_LINE_CHARS = 5, 400
UNPRINTABLE = re.compile(r"[^\x20-\x7e]")


def l1_at_hang(console):
    """What a hang's reason adds: L1's last console lines past init's routine
    reports (a kernel's lockup report, the inner QEMU's error), printable
    and cut, or that it said nothing more (L1 boots with loglevel=3)."""
    said = []
    for line in console.splitlines():
        line = UNPRINTABLE.sub("?", line.strip())[:HANG_LINE_CHARS]
        if line and not line.startswith(tuple("pmctest-l1: " + r for r in L1_ROUTINE)):
            said.append(line)
    return ("L1's console before the hang: " + " | ".join(said[-HANG_LINES:]) if said
            else "L1's console said nothing past init's reports before the hang")


def l1_header(line):
    """The header comments one line of L1's console gives."""
    out = []
    for pattern, key in L1_HEADER:
        m = pattern.match(line.strip())
        if m:
            out.append(f"# {key}: {m.group(1)}")
    return out


def kernel_name(info):
    """The L1 kernel in a few words: "Linux 6.1.176 (Debian
    linux-image-6.1.0-50-amd64 6.1.176-1)"."""
    if info.get("package"):
        return (f"Linux {info['linux']} (Debian {info['package']} "
                f"{info['version']})")
    return f"Linux {info.get('linux', '?')} (own build)"


def pinned_note(info):
    """Where the archive no longer had the pinned package: what ran."""
    pinned = info.get("pinned")
    if pinned and pinned != f"{info['package']} {info['version']}":
        return (f"the package archive no longer has {pinned}: this run "
                f"boots {info['package']} {info['version']}, the newest of "
                "its series")
    return None


class Nested(Kind):
    NAME = "nested"

    @property
    def images_dir(self):
        return os.path.join(self.programs.build, "kvm-" + self.target.params["kernel"])

    @property
    def outer(self):
        return self.target.params["outer"]

    @property
    def inner(self):
        return self.target.params.get("inner", "qemu")

    @property
    def in_bochs(self):
        return self.outer in ("bochs", "bochs-pmu")

    @property
    def bochs(self):
        return self.programs.bochs_pmu if self.outer == "bochs-pmu" else self.programs.bochs

    def images(self):
        kernel = self.target.params["kernel"]
        own = [] if kernel == "own" else [f"nested-image-{kernel}"]
        counting = "qemu-pmu" in (self.outer, self.inner)
        return own + (["qemu-pmu"] if counting else []) + \
            (["bochs-pmu"] if self.outer == "bochs-pmu" else [])

    def why_not(self):
        if self.in_bochs:
            counting = (counting_bochs_why_not(self.bochs)
                        if self.outer == "bochs-pmu" else None)
            return self.images_why_not() or counting or bochs_why_not(
                self.bochs, self.target.params["cpu"])
        why = None
        if "qemu-pmu" in (self.outer, self.inner):
            why = counting_qemu_why_not(self.programs.qemu_pmu)
        if not why and self.outer == "qemu" and not shutil.which(self.programs.qemu):
            why = f"{self.programs.qemu} not found (Debian: qemu-system-x86)"
        return why or self.images_why_not()

    def images_missing(self):
        if self.target.params["kernel"] == "own":
            return None
        return self.images_why_not() or (
            "qemu-pmu" in (self.outer, self.inner) and
            missing_counting_qemu(self.programs.qemu_pmu)) or (
            self.outer == "bochs-pmu" and counting_bochs_missing(self.bochs)) or None

    def images_why_not(self):
        where = self.images_dir
        how = ("make run-kvm KERNEL=..." if self.target.params["kernel"] == "own"
               else "make images")
        if read_info(where) is None:
            return f"{where} is not built ({how})"
        if self.in_bochs and not os.path.exists(os.path.join(where, "bzImage")):
            return f"{where} has no bzImage for GRUB ({how})"
        return None

    @property
    def l1_args(self):
        return tuple(self.target.params.get("l1_args", ()))

    def run_archive(self, launch):
        p = self.target.params
        try:
            vmm = (real_binary(self.programs.qemu_pmu) if self.inner == "qemu-pmu"
                   else None)
        except ValueError as e:
            raise RuntimeError(f"the inner QEMU: {e}")
        with open(self.programs.elf, "rb") as f:
            return run_archive(f.read(), launch.cmdline, p.get("kvm_params", ()),
                               self.l1_args, p.get("inner_cpu", "host"),
                               p.get("inner_smp", 1), vmm)

    def boot(self, launch):
        p = self.target.params
        problem = (kvm_params_problem(p.get("kvm_params", ())) or
                   l1_args_problem(self.l1_args) or
                   vmm_problem(p.get("inner_cpu", "host"), p.get("inner_smp", 1)))
        if problem:
            raise RuntimeError(problem)
        info = read_info(self.images_dir)
        if self.in_bochs:
            return self.boot_in_bochs(info, launch)
        return self.boot_in_qemu(info, launch)

    def boot_in_qemu(self, info, launch):
        qemu = (self.programs.qemu_pmu if self.outer == "qemu-pmu"
                else self.programs.qemu)
        cpu = self.target.params.get("outer_cpu") or \
            OUTER_CPU + (TCG_PMU if self.outer == "qemu-pmu" else "")
        kernel = kernel_name(info)
        outcome = new_outcome(f"{qemu_version(qemu)} TCG -cpu {cpu}; "
                              f"KVM in {kernel}, nested",
                              f"{qemu_release(qemu)} TCG -cpu {cpu}, KVM in {kernel}")
        launch.note(f"kernel {kernel}: {info['boot']}; modules {info['modules']}")
        pinned = pinned_note(info)
        if pinned:
            outcome.notes.append(pinned)
            launch.note(pinned)
        initrd = os.path.join(launch.workdir, self.target.name + "-initrd.cpio")
        with open(os.path.join(self.images_dir, "initrd.cpio"), "rb") as base, \
                open(initrd, "wb") as out:
            out.write(base.read())
            out.write(self.run_archive(launch))
        source = ProcessLines(outer_command(qemu, os.path.join(self.images_dir, "kernel"),
                                            initrd, cpu, self.l1_args),
                              launch.timeout, stderr_line=l1_header)
        return NestedQemuStream(source, outcome, initrd)

    def boot_in_bochs(self, info, launch):
        kernel = kernel_name(info)
        launch.note(f"kernel {kernel}, its bzImage by GRUB; modules {info['modules']}")
        try:
            iso = make_iso(self.images_dir, self.run_archive(launch),
                           os.path.join(launch.workdir, self.target.name + "-kvm.iso"),
                           self.l1_args)
        except (RuntimeError, OSError) as e:
            raise RuntimeError(f"the nested ISO: {e}")
        stream = bochs_stream(self.target, self.bochs, launch, iso,
                              com2="com2.txt", l1_line=l1_header)
        return NestedBochsStream(stream, kernel, self.target.params["cpu"])


class NestedQemuStream(ProcessStream):
    """L1 in the outer QEMU: KVM's log of the guest as notes, and where
    pmctest never wrote, init's words for why."""

    def __init__(self, source, outcome, initrd):
        super().__init__(source, outcome)
        self.initrd = initrd

    def lines(self):
        try:
            yield from self.source.lines()
        finally:
            os.unlink(self.initrd)

    def finish(self, judge, outcome):
        end = self.source.ending
        exits = RDPMC_EXITS.search(end.stderr)
        if exits:
            outcome.notes.append(f"L1's KVM intercepted the guest's RDPMC "
                                 f"{exits.group(1)} times (kvm_exit)")
        logged = KVM_LOG.findall(end.stderr)
        if logged:
            outcome.notes.append("L1's KVM logged: " + "; ".join(
                f"{text.strip()} ({count}x)" for count, text in logged))
        if end.timed_out:
            # in the verdict's reason, which tests/run --all prints too
            outcome.problem = f"{outcome.problem}; {l1_at_hang(end.stderr)}"
        if end.fatal:
            outcome.problem = f"QEMU stopped the guest: {end.fatal}"
        elif outcome.problem and not end.timed_out and not end.start_error:
            # the verdict quotes all of stderr, here L1's whole console:
            # its first line, or init's words where pmctest never wrote
            why = [l for l in L1_LINE.findall(end.stderr)
                   if not l.startswith(L1_ROUTINE)]
            outcome.problem = ("L1 could not run pmctest: " + "; ".join(why)
                               if why and not judge.tap.started else
                               outcome.problem.split("\n")[0])


class NestedBochsStream:
    """L1 in Bochs: the Bochs run's stream, its outcome naming L1's KVM
    and what init said."""

    def __init__(self, stream, kernel, model):
        self.stream = stream
        self.kernel = kernel
        self.model = model
        stream.l1_notes = self.l1_notes

    def lines(self):
        return self.stream.lines()

    def l1_notes(self):
        console = os.path.join(self.stream.source.workdir, "com2.txt")
        try:
            with open(console, errors="replace") as f:
                text = f.read()
        except OSError:
            text = ""
        why = [l.strip() for l in L1_LINE.findall(text)
               if not l.startswith(("linux ", "exit status", "params ",
                                    "rdpmc exits ") + L1_AT_60S)]
        exits = RDPMC_EXITS.search(text)
        return (["L1: " + "; ".join(why)] if why else []) + (
            [f"L1's KVM intercepted the guest's RDPMC {exits.group(1)} "
             "times (kvm_exit)"] if exits else [])

    def outcome(self, judge):
        o = self.stream.outcome(judge)
        kvm = f"KVM in {self.kernel}"
        o.emulator += f"; {kvm}, nested"
        o.host += f" {self.model}, {kvm}"
        return o

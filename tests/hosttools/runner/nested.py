"""One boot of a nested-KVM target, as an Outcome.

The outer QEMU (TCG, AMD SVM) boots Linux, whose init loads KVM and runs
pmctest in QEMU on it (hosttools.nested). COM1 carries pmctest's TAP as in a
direct boot, and the outer QEMU exits with the kernel's status; its stderr
is L1's console, where init reports in "pmctest-l1: " lines and the inner
QEMU's messages ("KVM internal error") land."""
import os
import re

from ..nested.build import read_info
from ..nested.initramfs import run_archive
from ..nested.outer import OUTER_CPU, TCG_PMU, outer_command

from .boot_outcome import judge_end, start
from .cmdline import kernel_cmdline
from .outcome import Outcome
from .qemu import qemu_for, qemu_release, qemu_version

L1_LINE = re.compile(r"^pmctest-l1: (.*)$", re.M)
# KVM's log of the guest as init.sh counts it: "  2 kvm: kvm [137]: vcpu0,
# guest rIP: 0x10047d Unhandled WRMSR(0xc0010004) = 0x5a5a"
KVM_LOG = re.compile(r"^\s*(\d+) kvm.*?guest rIP: \S+ (.*)$", re.M)
# What init says of L1 before pmctest starts: KVM's enable_pmu and perf's
# "Performance Events:" line. Each becomes a header comment of the log
# ("# l1 kvm: enable_pmu=Y", "# l1 perf: Performance Events: ..."), which
# an expectation file's "# header:" lines can require.
L1_HEADER = (
    (re.compile(r"^pmctest-l1: linux \S+, kvm (enable_pmu=\S*)$"), "l1 kvm"),
    (re.compile(r"^pmctest-l1: (Performance Events: .*|no Performance "
                r"Events: line .*)$"), "l1 perf"),
)


def l1_header(judge):
    """A Boot's stderr_line: L1's report lines fed to judge as the
    header comments of L1_HEADER."""
    def feed(line):
        for pattern, key in L1_HEADER:
            m = pattern.match(line.strip())
            if m:
                judge.feed(f"# {key}: {m.group(1)}")
    return feed


def images_dir(opts, target):
    return os.path.join(opts.build, "kvm-" + target["kernel"])


def kernel_name(info):
    """The L1 kernel in a few words: "Linux 6.1.176 (Debian
    linux-image-6.1.0-50-amd64 6.1.176-1)"."""
    if info.get("package"):
        return (f"Linux {info['linux']} (Debian {info['package']} "
                f"{info['version']})")
    return f"Linux {info.get('linux', '?')} (own build)"


def nested_availability(target, opts):
    where = images_dir(opts, target)
    how = ("make run-kvm KERNEL=..." if target["kernel"] == "own"
           else "make nested-images")
    if read_info(where) is None:
        return False, f"{where} is not built ({how})"
    if target["emulator"] == "bochs" and not os.path.exists(
            os.path.join(where, "bzImage")):
        return False, f"{where} has no bzImage for GRUB ({how})"
    return True, ""


def run_nested(target, opts, ctx, judge, timeout):
    outcome = Outcome()
    where = images_dir(opts, target)
    info = read_info(where)
    kernel = kernel_name(info)
    qemu = qemu_for(target, opts)
    cpu = OUTER_CPU + (TCG_PMU if target.get("qemu_pmu") else "")
    outcome.emulator = (f"{qemu_version(qemu)} TCG -cpu {cpu}; "
                        f"KVM in {kernel}, nested")
    outcome.host = f"{qemu_release(qemu)} TCG -cpu {cpu}, KVM in {kernel}"
    judge.out(f"# run: kernel {kernel}: {info['boot']}; modules "
              f"{info['modules']}")
    pinned = info.get("pinned")
    if pinned and pinned != f"{info['package']} {info['version']}":
        note = (f"the package archive no longer has {pinned}: this run "
                f"boots {info['package']} {info['version']}, the newest of "
                "its series")
        outcome.notes.append(note)
        judge.out(f"# run: {note}")
    initrd = os.path.join(ctx.workdir, target["name"] + "-initrd.cpio")
    with open(opts.elf, "rb") as f:
        elf = f.read()
    with open(os.path.join(where, "initrd.cpio"), "rb") as base, \
            open(initrd, "wb") as out:
        out.write(base.read())
        out.write(run_archive(elf, kernel_cmdline(opts, ctx.excluded, target)))
    try:
        boot = start(outer_command(qemu, os.path.join(where, "kernel"),
                                   initrd, cpu), timeout, judge, outcome,
                     "QEMU", stderr_line=l1_header(judge))
    finally:
        os.unlink(initrd)
    if boot is None:
        return outcome
    logged = KVM_LOG.findall(boot.stderr)
    if logged:
        outcome.notes.append("L1's KVM logged: " + "; ".join(
            f"{text.strip()} ({count}x)" for count, text in logged))
    judge_end(boot, judge, outcome, timeout)
    if boot.fatal:
        outcome.problem = f"QEMU stopped the guest: {boot.fatal}"
    elif outcome.problem and not boot.timed_out:
        # Boot's message quotes all of stderr, here L1's whole console:
        # its first line, or init's words where pmctest never wrote (the
        # header lines of L1_HEADER aside, which the log has).
        why = [l for l in L1_LINE.findall(boot.stderr)
               if not l.startswith(("linux ", "exit status",
                                    "Performance Events:",
                                    "no Performance Events:"))]
        outcome.problem = ("L1 could not run pmctest: " + "; ".join(why)
                           if why and not judge.tap.started else
                           outcome.problem.split("\n")[0])
    return outcome

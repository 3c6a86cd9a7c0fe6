"""The outer machine of a nested boot: QEMU TCG with AMD SVM (-cpu EPYC),
the L1 kernel booted by PVH with the initramfs, COM1 (TAP) on stdout and
COM2 (Linux's console and init's "pmctest-l1:" lines) on stderr, where
tests/hosttools/boot/process.py also watches for QEMU's fatal messages: the inner
QEMU prints them there."""

# L1 has one vCPU and no devices but the two serial ports; mitigations=off
# spares TCG the speculation barriers (a quarter of L1's time in a
# priv.long.* run); loglevel=3 keeps KVM's "Unhandled WRMSR" lines off
# the console (init.sh prints them counted at the end). 1 GiB: the initramfs unpacked plus the 64 MiB guest.
OUTER_CPU = "EPYC"
# added to OUTER_CPU where the outer QEMU has the TCG PMU (tests/qemu-pmu/):
# the AMD core counters, so that L1's perf finds a PMU and KVM its vPMU
TCG_PMU = ",tcg-pmu=on"
OUTER_MEMORY = 1024
L1_CMDLINE = "console=ttyS1 loglevel=3 panic=-1 mitigations=off"


def l1_cmdline(l1_args=()):
    """L1's kernel command line: ours, then the words a user added
    (params.py has checked them)."""
    return " ".join([L1_CMDLINE, *l1_args])


def outer_command(qemu, kernel, initrd, cpu=OUTER_CPU, l1_args=(), extra=()):
    return [qemu, "-accel", "tcg", "-cpu", cpu, "-m", str(OUTER_MEMORY),
            "-nodefaults", "-no-reboot", "-display", "none",
            "-monitor", "none",
            "-serial", "stdio", "-serial", "file:/dev/stderr",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
            "-kernel", kernel, "-initrd", initrd,
            "-append", l1_cmdline(l1_args)] + list(extra)

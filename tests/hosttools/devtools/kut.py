"""kvm-unit-tests' x86/pmu.flat beside pmctest in make bench (KUT_PMU):
the QEMU command that boots it as its own x86/run does, whether it can
run, and how a run of it ended, read from its serial output."""
import os
import re

RESULT = re.compile(r"^(PASS|FAIL|SKIP|XPASS|XFAIL): ")


def qemu_command(qemu, flat, accel, cpu):
    """Booted by -kernel (Multiboot), COM1 on stdout, its test devices,
    isa-debug-exit at 0xF4, the CPU model of the target."""
    return [qemu, "-nodefaults", "-no-reboot", "-display", "none",
            "-serial", "stdio", "-device", "pc-testdev",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x4",
            "-device", "pci-testdev", "-accel", accel, "-cpu", cpu,
            "-smp", "1", "-kernel", flat]


def why_not(flat):
    """Why the kvm-unit-tests row cannot run (its SKIP reason), or None."""
    if not flat:
        return ("KUT_PMU is not set (make bench KUT_PMU=path/to/"
                "kvm-unit-tests/x86/pmu.flat)")
    if not os.path.isfile(flat):
        return f"KUT_PMU={flat}: no such file"
    return None


def how_it_ended(output):
    """Its PASS/FAIL/SKIP counts, then its SUMMARY line, or else the last
    line it wrote (the assertion that stopped it), its source path taken
    off; output is the bytes of its serial console."""
    lines = [l.strip() for l in output.decode("utf-8", "replace").splitlines()
             if l.strip()]
    counts = {}
    for line in lines:
        m = RESULT.match(line)
        if m:
            counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    said = ", ".join(f"{counts[k]} {k}" for k in
                     ("PASS", "FAIL", "SKIP", "XPASS", "XFAIL")
                     if k in counts) or "no result"
    summary = next((l for l in lines if l.startswith("SUMMARY:")), None)
    if summary:
        return f"{said}; {summary}"
    last = [l for l in lines if not l.startswith("STACK:")]
    last = re.sub(r"^\S+:\d+: ", "", last[-1]) if last else "no output"
    return f"{said}, then stopped: {last}"

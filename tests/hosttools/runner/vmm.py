"""One boot of build/pmctest.elf in a VMM on KVM (crosvm, Firecracker,
Cloud Hypervisor), as an Outcome. None of them has isa-debug-exit: the
kernel is given exit=reset, which crosvm and Firecracker turn into the end
of the VM, and the boot ends the VMM at the summary line in any case (Cloud
Hypervisor restarts the guest on a reset); the verdict is read from the
summary line (hosttools/boot.py)."""
import json
import os
import tempfile

from .availability import vmm_binary
from .boot_outcome import judge_end, start
from .cmdline import kernel_cmdline
from .outcome import Outcome
from .probe import cached, command_output

MEMORY_MIB = 64


def vmm_command(target, binary, elf, cmdline, workdir):
    """The VMM's command line: one vCPU, 64 MiB, COM1 on stdout."""
    emulator = target["emulator"]
    if emulator == "crosvm":
        return [binary, "run", "--disable-sandbox", "--cpus", "1",
                "--mem", str(MEMORY_MIB),
                "--serial", "type=stdout,hardware=serial,num=1",
                "-p", cmdline, elf]
    if emulator == "firecracker":
        config = os.path.join(workdir, "firecracker.json")
        with open(config, "w") as f:
            json.dump({"boot-source": {"kernel_image_path": elf,
                                       "boot_args": cmdline},
                       "machine-config": {"vcpu_count": 1,
                                          "mem_size_mib": MEMORY_MIB},
                       "drives": []}, f)
        return [binary, "--no-api", "--config-file", config]
    return [binary, "--kernel", elf, "--cmdline", cmdline,
            "--cpus", "boot=1", "--memory", f"size={MEMORY_MIB}M",
            "--serial", "tty", "--console", "off"]


def run_vmm(target, opts, ctx, judge, timeout):
    outcome = Outcome()
    binary = vmm_binary(opts, target["emulator"])
    version = cached((target["emulator"], binary),
                     lambda: command_output([binary, "--version"]))
    outcome.emulator = (version.splitlines()[0].strip() if version.strip()
                        else target["emulator"]) + f"; KVM in Linux {os.uname().release}"
    cmdline = " ".join(p for p in (kernel_cmdline(opts, ctx.excluded, target),
                                   "exit=reset") if p)
    with tempfile.TemporaryDirectory(prefix="pmctest-vmm-") as workdir:
        cmd = vmm_command(target, binary, opts.elf, cmdline, workdir)
        boot = start(cmd, timeout, judge, outcome, target["emulator"],
                     end_at_summary=True)
    if boot is not None:
        judge_end(boot, judge, outcome, timeout, waited_for="summary")
    return outcome

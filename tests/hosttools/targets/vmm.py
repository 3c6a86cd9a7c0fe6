"""The kind "vmm": a VMM a hypervisor developer ships boots
build/pmctest.elf on KVM (crosvm, Firecracker, Cloud Hypervisor).

Parameter: vmm, the VMM (a key of VMMS). None of them has
isa-debug-exit: the kernel is given exit=reset, which crosvm and
Firecracker turn into the end of the VM, and the boot ends the VMM at the
kernel's last line in any case (Cloud Hypervisor restarts the guest on a
reset); the verdict is read from the summary line."""
import json
import os
import shutil
import tempfile

from ..boot.probe import cached, command_output
from ..boot.process import ProcessLines
from ..boot.qemu import kvm_why_not
from ..judge.patterns import SUMMARY_PREFIX
from .kind import Kind, ProcessStream, new_outcome

MEMORY_MIB = 64

# Each VMM: where to get it where it is missing.
VMMS = {
    "crosvm": "build it from chromium.googlesource.com/crosvm",
    "firecracker": "a release binary of github.com/firecracker-microvm/firecracker",
    "cloud-hypervisor": "a release binary of github.com/cloud-hypervisor/cloud-hypervisor",
}


def crosvm(binary, elf, cmdline, workdir):
    return [binary, "run", "--disable-sandbox", "--cpus", "1",
            "--mem", str(MEMORY_MIB),
            "--serial", "type=stdout,hardware=serial,num=1",
            "-p", cmdline, elf]


def firecracker(binary, elf, cmdline, workdir):
    config = os.path.join(workdir, "firecracker.json")
    with open(config, "w") as f:
        json.dump({"boot-source": {"kernel_image_path": elf,
                                   "boot_args": cmdline},
                   "machine-config": {"vcpu_count": 1,
                                      "mem_size_mib": MEMORY_MIB},
                   "drives": []}, f)
    return [binary, "--no-api", "--config-file", config]


def cloud_hypervisor(binary, elf, cmdline, workdir):
    return [binary, "--kernel", elf, "--cmdline", cmdline,
            "--cpus", "boot=1", "--memory", f"size={MEMORY_MIB}M",
            "--serial", "tty", "--console", "off"]


# The VMM's command line: one vCPU, 64 MiB, COM1 on stdout.
COMMANDS = {"crosvm": crosvm, "firecracker": firecracker,
            "cloud-hypervisor": cloud_hypervisor}


def kernel_last_line(line):
    """The summary line (however it is formed) or a Bail out!: the kernel
    has no more to say."""
    return (line.startswith(SUMMARY_PREFIX) and " passed, " in line) or \
        line.startswith("Bail out!")


class Vmm(Kind):
    NAME = "vmm"

    @property
    def binary(self):
        return self.programs.vmms.get(self.target.params["vmm"],
                                      self.target.params["vmm"])

    def why_not(self):
        if not shutil.which(self.binary):
            return f"{self.binary} not found ({VMMS[self.target.params['vmm']]})"
        return kvm_why_not()

    def boot(self, launch):
        name = self.target.params["vmm"]
        version = cached((name, self.binary),
                         lambda: command_output([self.binary, "--version"]))
        emulator = (version.splitlines()[0].strip() if version.strip()
                    else name) + f"; KVM in Linux {os.uname().release}"
        cmdline = " ".join(p for p in (launch.cmdline, "exit=reset") if p)
        workdir = tempfile.mkdtemp(prefix="pmctest-vmm-", dir=launch.workdir)
        cmd = COMMANDS[name](self.binary, self.programs.elf, cmdline, workdir)
        source = ProcessLines(cmd, launch.timeout, emulator=name,
                              is_last=kernel_last_line)
        return ProcessStream(source, new_outcome(emulator), waited_for="summary")

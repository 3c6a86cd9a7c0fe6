"""What a vPMU author asks of L1 (make run-kvm L1_ARGS= KVM_PARAMS=, a
nested target's parameters): words for L1's kernel command line, and
KVM's module parameters as MODULE.NAME=VALUE. The initramfs has busybox's
insmod, not kmod, so a dotted kvm_amd.x=1 on the command line would be
ignored silently: init.sh gives each parameter to the insmod of its
module, reads each back from /sys/module/MODULE/parameters/NAME, and says
what L1 really has in one line ("pmctest-l1: params ..."). Both are
checked here before anything boots: each lands unquoted on a kernel
command line or an insmod's."""
import re

# MODULE.NAME=VALUE: a module and parameter name as Linux writes them, a
# value without spaces or quotes
KVM_PARAM = re.compile(r"^([a-z][a-z0-9_-]{0,63})\.([a-z][a-z0-9_]{0,63})="
                       r"([A-Za-z0-9_.,:+-]{1,64})$")
# an L1 command-line word: no quote, no backslash, no GRUB metacharacter
L1_WORD = re.compile(r"^[A-Za-z0-9_.,:=+/-]{1,128}$")
MAX_WORDS = 32
# the inner QEMU's -cpu: a model and its +/- features
VMM_CPU = re.compile(r"^[A-Za-z0-9_.,=+-]{1,128}$")
VMM_SMP_MAX = 8


def kvm_params_problem(words):
    """Why these KVM_PARAMS cannot be given, or None."""
    if len(words) > MAX_WORDS:
        return f"KVM_PARAMS: {len(words)} parameters, at most {MAX_WORDS}"
    for word in words:
        if not KVM_PARAM.match(word):
            return (f"KVM_PARAMS: {word[:80]!r} is not MODULE.NAME=VALUE "
                    "(e.g. kvm_amd.enable_mediated_pmu=1; letters, digits "
                    "and _.,:+- in the value)")
    return None


def l1_args_problem(words):
    """Why these L1_ARGS cannot go on L1's command line, or None."""
    if len(words) > MAX_WORDS:
        return f"L1_ARGS: {len(words)} words, at most {MAX_WORDS}"
    for word in words:
        if not L1_WORD.match(word):
            return (f"L1_ARGS: {word[:80]!r}: a word of letters, digits and "
                    "_.,:=+/- (no quotes: it lands unquoted on L1's command "
                    "line)")
    return None


def vmm_problem(cpu, smp):
    """Why the inner QEMU's -cpu or vCPU count cannot be, or None."""
    if not VMM_CPU.match(cpu):
        return f"the inner QEMU's -cpu {cpu[:80]!r}: letters, digits and _.,=+- only"
    if not 1 <= smp <= VMM_SMP_MAX:
        return f"the inner QEMU's vCPUs: {smp}, 1 to {VMM_SMP_MAX}"
    return None


def vmm_lines(cpu, smp):
    """/pmctest/vmm for init.sh: the guest's -cpu and -smp."""
    return f"cpu={cpu}\nsmp={smp}\n"


def insmod_lines(words):
    """/pmctest/kvm-params for init.sh: "MODULE NAME=VALUE" a line, the
    module as its file is named (kvm_amd -> kvm-amd)."""
    lines = []
    for word in words:
        m = KVM_PARAM.match(word)
        lines.append(f"{m.group(1).replace('_', '-')} {m.group(2)}={m.group(3)}\n")
    return "".join(lines)

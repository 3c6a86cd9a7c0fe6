"""The targets tests/run boots pmctest on, as data: one row each, naming
its kind and that kind's parameters (hosttools/targets/target.py says
what every row has; each kind's module, what its parameters mean). The
LAVA jobs (hosttools/lava/) and the lab read this table too.

Adding a target of an existing kind is adding a row; a new kind is a
module of hosttools/targets/ (docs/contributing.md, "Adding a target").
"""
from .target import Target

# QEMU 7.2 under some KVM hosts cannot write IA32_ARCH_CAPABILITIES (MSR
# 10AH) that -cpu host enumerates, and aborts before the guest runs.
ARCH_CAPABILITIES = ("failed to set MSR 0x10a", ",-arch-capabilities",
                     "QEMU could not set IA32_ARCH_CAPABILITIES (MSR 10AH) "
                     "under this KVM")


def qemu(name, accel, cpu, route, about, machine="", expect=None,
         timeout=120, fallbacks=(), firmware="bios", cpus=1, qemu_pmu=False):
    """QEMU boots pmctest (hosttools/targets/qemu.py); qemu_pmu: the QEMU
    with the TCG PMU (tests/qemu-pmu/) instead of Debian's."""
    return Target(name, "qemu-pmu" if qemu_pmu else "qemu", route, about,
                  expect or name, timeout, cpus,
                  params=dict(accel=accel, cpu=cpu, machine=machine,
                              firmware=firmware, fallbacks=tuple(fallbacks)))


def vmm(name, binary, route, about, timeout=120):
    """A VMM on KVM boots the ELF (hosttools/targets/vmm.py)."""
    return Target(name, "vmm", route, about, name, timeout,
                  params=dict(vmm=binary))


def bochs(name, cpu, about, bochs_cpu="", expect=None, timeout=300, cpus=1,
          kernel_args="", bochs_pmu=False):
    """Bochs boots the GRUB ISO (hosttools/targets/bochs.py); bochs_pmu: the
    counting Bochs 3.0 (tests/bochs-pmu/) instead of Debian's."""
    return Target(name, "bochs-pmu" if bochs_pmu else "bochs", "iso", about,
                  expect or name, timeout, cpus, kernel_args=kernel_args,
                  params=dict(cpu=cpu, bochs_cpu=bochs_cpu))


def nested(name, kernel, about, expect=None, timeout=300, explicit=False,
           qemu_pmu=False, subset=None, l1_args=(), kvm_params=(), **more):
    """pmctest in QEMU -accel kvm -cpu host -M microvm (PVH) on the KVM of
    Linux KERNEL, which runs in QEMU TCG -cpu EPYC (AMD SVM, nested
    paging). qemu_pmu: L1 on the QEMU with the TCG PMU, -cpu
    EPYC,tcg-pmu=on, so that L1's perf finds counters and KVM loads with
    its vPMU on; l1_args, kvm_params: L1's command-line words and KVM's
    module parameters; more: the nested kind's other parameters (outer_cpu,
    inner, inner_cpu, inner_smp: hosttools/targets/nested.py)."""
    return Target(name, "nested", "pvh", about, expect or name, timeout,
                  subset=subset or KVM_SUBSET, explicit=explicit,
                  params=dict(kernel=kernel,
                              outer="qemu-pmu" if qemu_pmu else "qemu",
                              l1_args=tuple(l1_args), kvm_params=tuple(kvm_params),
                              **more))


def bochs_nested(name, kernel, cpu, about, timeout=1800, l1_args=(),
                 kvm_params=(), bochs_pmu=False, subset=None, **more):
    """pmctest in QEMU -accel kvm on the KVM of Linux KERNEL (its bzImage
    and initramfs from a GRUB ISO), which runs in Bochs: VMX, so KVM's
    Intel side. 1 GiB; unknown MSRs read 0 (Linux's early boot reads
    IA32_MISC_ENABLE, which Bochs' models lack). bochs_pmu: in the
    counting Bochs 3.0, whose PMU L1's perf finds, so kvm_intel loads with
    its vPMU on; more: the nested kind's other parameters."""
    return Target(name, "nested", "iso", about, name, timeout,
                  subset=subset or VMX_SUBSET, explicit=True,
                  params=dict(kernel=kernel,
                              outer="bochs-pmu" if bochs_pmu else "bochs", cpu=cpu,
                              bochs_cpu="ignore_bad_msrs=1", megs=1024,
                              l1_args=tuple(l1_args), kvm_params=tuple(kvm_params),
                              **more))


def xen(name, version, xen_args, about, cpu="EPYC", bare="qemu-tcg-amd-microvm",
        expect=None, timeout=60, qemu_pmu=False):
    """Xen VERSION (a version of hosttools/images/xen.py: Debian's
    package, which make images fetches) under QEMU TCG with pmctest as its
    PVH dom0 (hosttools/targets/xen.py); bare: the target of bare QEMU TCG
    with the same -cpu, which make test compares it with (tests/run
    --diff)."""
    return Target(name, "xen", "pvh", about, expect or name, timeout,
                  params=dict(version=version, xen_args=xen_args, cpu=cpu,
                              bare=bare, outer="qemu-pmu" if qemu_pmu else "qemu"))


def xen_bochs(name, version, xen_args, about, cpu="corei7_skylake_x",
              bare="bochs-pmu-skylake", expect=None, timeout=300):
    """Xen VERSION in the counting Bochs 3.0 (its cpu: model=), pmctest its
    PVH dom0, Xen and the ELF its module from a GRUB ISO
    (hosttools/targets/xen_bochs.py): Xen's Intel side, VMX with EPT, and
    with vpmu=on its vpmu_intel.c over counters that count; bare: the
    target of the counting Bochs alone on the same model, which
    tests/check.py xen_diff holds it against."""
    return Target(name, "xen-bochs", "pvh", about, expect or name, timeout,
                  params=dict(version=version, xen_args=xen_args, cpu=cpu,
                              bare=bare))


# A nested target runs about 8 tests a second, so make test runs each group
# of the default suite with fewer cases (154 of 233 tests): CPL 0 and 3 of
# the privilege matrix in 64-bit mode and one context of each other mode,
# the sampled ECX sweeps, everything else whole. tests/run without --subset
# runs them all (the full 65,536-value sweeps take most of that time).
KVM_SUBSET = ",".join([
    "priv.long.cpl0.*", "priv.long.cpl3.*", "priv.compat.cpl3.*", "priv.prot16.cpl0.*",
    "priv.prot32.cpl3.*", "priv.real.*", "priv.v86.*", "enc.*",
    "ecx.types.cpl*", "ecx.index.gp.*", "ecx.index.fixed.*", "ecx.vmware.*",
    "ecx.fast.*", "data.*", "metrics.*", "amd.*", "prog.*", "ovf.*",
    "pmi.*", "msr.*", "exit.*"])

# With the vPMU on, KVM's PMU code decides what the counting half sees, and
# L1 runs every test through it: make test runs the groups that reach that
# code whole (the counter MSRs and their reset values, the event selects,
# counting and its filters, overflow, the PMI, exits, RDPMC against RDMSR)
# and, of RDPMC's decision in kvm_pmu_rdpmc(), the 64-bit privilege cases
# at CPL 0 and 3 and the sampled ECX sweeps. The other modes and CPLs of
# the privilege matrix leave out: the CPU checks CPL and CR4.PCE before
# the RDPMC intercept, and KVM sees the same ECX from every mode
# (kvm-6.1 and kvm-6.12 run them with the vPMU off).
VPMU_SUBSET = ",".join([
    "priv.long.cpl0.*", "priv.long.cpl3.*", "enc.*", "ecx.index.gp.*",
    "ecx.vmware.*", "ecx.fast.*", "data.*", "amd.*", "prog.*", "ovf.*",
    "pmi.*", "msr.*", "exit.*"])

# Under Bochs a nested target boots for minutes: one case of each kind of
# read (valid, invalid, any ECX, RCX[63:32]) in 64-bit mode, the flags, the
# sampled sweeps of both types, the pseudo-PMCs and the counter writes.
VMX_SUBSET = ",".join([
    "priv.long.cpl0.*", "priv.long.cpl3.*", "enc.*", "ecx.types.cpl0",
    "ecx.index.gp.cpl0", "ecx.vmware.*", "prog.write.*", "data.rdmsr.*"])

# KVM's Intel vPMU with counters (the counting Bochs): VMX_SUBSET and the
# counting groups, fewer of prog's: the counter MSRs, counting by event
# and ring on GP and fixed counters, CMASK/INV/EDGE, the gates, widths and
# full-width writes, overflow, status and the PMI with its freeze, the
# instructions KVM completes, RDPMC against RDMSR.
VMX_VPMU_SUBSET = ",".join([
    VMX_SUBSET, "msr.*", "prog.event.*", "prog.filter.*",
    "prog.fixed.instructions.*", "prog.cmask.*", "prog.gate.*", "prog.width.*",
    "prog.running.*", "prog.all", "prog.evtsel.bits", "ovf.*", "pmi.*",
    "exit.*", "data.*"])


# What KVM's mediated vPMU needs of the nested route (docs/run-kvm.md),
# and two vCPUs in the guest: the mediated vPMU saves and loads the
# counters at every exit and switch between them (smp.switch.*, SMP-9).
MEDIATED = dict(kvm_params=("kvm_amd.enable_mediated_pmu=1",),
                l1_args=("nmi_watchdog=0",),
                outer_cpu="EPYC,tcg-pmu=on,tcg-pmu-perfmon-v2=on",
                inner="qemu-pmu", inner_cpu="host", inner_smp=2)
# The vPMU subset, and the per-vCPU part with it.
MEDIATED_SUBSET = VPMU_SUBSET + ",smp.*"


TARGETS = [
    qemu("qemu-tcg-max", "tcg", "max", "iso",
         "QEMU TCG, -cpu max, GRUB ISO on pc (SeaBIOS)"),
    qemu("qemu-tcg-uefi", "tcg", "max", "iso",
         "QEMU TCG, -cpu max, the same GRUB ISO on UEFI (OVMF)",
         expect="qemu-tcg-max", firmware="uefi"),
    qemu("qemu-tcg-max-pvh", "tcg", "max", "pvh",
         "QEMU TCG, -cpu max, PVH -kernel on pc", expect="qemu-tcg-max"),
    qemu("qemu-tcg-max-microvm", "tcg", "max", "pvh",
         "QEMU TCG, -cpu max, PVH -kernel on -M microvm (qboot)",
         machine="microvm", expect="qemu-tcg-max"),
    # Four vCPUs: the APs the MADT lists started and given the per-CPU
    # part of the suite, by PVH and from GRUB.
    qemu("qemu-tcg-max-smp4", "tcg", "max", "pvh",
         "QEMU TCG, -cpu max -smp 4, PVH -kernel on pc", cpus=4),
    qemu("qemu-tcg-max-smp4-iso", "tcg", "max", "iso",
         "QEMU TCG, -cpu max -smp 4, GRUB ISO on pc (SeaBIOS)",
         expect="qemu-tcg-max-smp4", cpus=4),
    qemu("qemu-tcg-intel", "tcg", "Skylake-Client", "pvh",
         "QEMU TCG, -cpu Skylake-Client, PVH -kernel on pc"),
    qemu("qemu-tcg-intel-iso", "tcg", "Skylake-Client", "iso",
         "QEMU TCG, -cpu Skylake-Client, GRUB ISO on pc",
         expect="qemu-tcg-intel"),
    qemu("qemu-tcg-amd", "tcg", "EPYC", "iso",
         "QEMU TCG, -cpu EPYC, GRUB ISO on pc"),
    qemu("qemu-tcg-amd-microvm", "tcg", "EPYC", "pvh",
         "QEMU TCG, -cpu EPYC, PVH -kernel on -M microvm",
         machine="microvm", expect="qemu-tcg-amd"),
    # The AMD core counters emulated by Debian's QEMU with tests/qemu-pmu/
    # applied: the MSRs and RDPMC, exact counts of instructions, cycles (one
    # per instruction) and branches, the PMI through LVTPC
    # (docs/counting-tcg.md).
    qemu("qemu-tcg-pmu-amd", "tcg", "EPYC,tcg-pmu=on", "pvh",
         "QEMU TCG with the TCG PMU (tests/qemu-pmu/), -cpu EPYC,tcg-pmu=on, "
         "PVH -kernel on pc", qemu_pmu=True),
    # The same with four vCPUs: the per-CPU part over counters that count.
    qemu("qemu-tcg-pmu-amd-smp4", "tcg", "EPYC,tcg-pmu=on", "pvh",
         "QEMU TCG with the TCG PMU (tests/qemu-pmu/), -cpu EPYC,tcg-pmu=on "
         "-smp 4, PVH -kernel on pc", cpus=4, qemu_pmu=True),
    # The same with PerfMonV2 (tcg-pmu-perfmon-v2): CPUID 8000_0022H and the
    # global registers C000_0300H-0303H, PerfCntrGlobalCtl gating each
    # counter with its select's En (docs/counting-tcg.md).
    qemu("qemu-tcg-pmu-amd-v2", "tcg", "EPYC,tcg-pmu=on,tcg-pmu-perfmon-v2=on",
         "pvh", "QEMU TCG with the TCG PMU (tests/qemu-pmu/), -cpu EPYC,"
         "tcg-pmu=on,tcg-pmu-perfmon-v2=on, PVH -kernel on pc",
         qemu_pmu=True),
    # Intel's architectural PMU, version 2, emulated by the same QEMU:
    # general-purpose and fixed counters, the global registers, full-width
    # writes, freeze on PMI (docs/counting-tcg.md).
    qemu("qemu-tcg-pmu-intel", "tcg", "Skylake-Client,tcg-pmu=on", "pvh",
         "QEMU TCG with the TCG PMU (tests/qemu-pmu/), "
         "-cpu Skylake-Client,tcg-pmu=on, PVH -kernel on pc", qemu_pmu=True),
    # Versions 4 and 5 (tcg-pmu-version) with four vCPUs: INUSE, STATUS_SET
    # and the freeze through CTR_Frz; AnyThread with one thread per core
    # (4) and deprecated (5), against the other vCPUs' work.
    qemu("qemu-tcg-pmu-intel-v4-smp4", "tcg",
         "Skylake-Client,tcg-pmu=on,tcg-pmu-version=4", "pvh",
         "QEMU TCG with the TCG PMU (tests/qemu-pmu/), -cpu Skylake-Client,"
         "tcg-pmu=on,tcg-pmu-version=4 -smp 4, PVH -kernel on pc", cpus=4,
         qemu_pmu=True),
    qemu("qemu-tcg-pmu-intel-v5-smp4", "tcg",
         "Skylake-Client,tcg-pmu=on,tcg-pmu-version=5", "pvh",
         "QEMU TCG with the TCG PMU (tests/qemu-pmu/), -cpu Skylake-Client,"
         "tcg-pmu=on,tcg-pmu-version=5 -smp 4, PVH -kernel on pc", cpus=4,
         qemu_pmu=True),
    # Version 5 with fixed counter 3 (TOPDOWN.SLOTS) and IA32_PERF_METRICS,
    # cleared by RDPMC with METRICS_CLEAR_EN (tcg-pmu-metrics): the
    # metrics.* tests on an implementation of their own.
    qemu("qemu-tcg-pmu-intel-v5-metrics", "tcg",
         "Skylake-Client,tcg-pmu=on,tcg-pmu-version=5,tcg-pmu-metrics=on",
         "pvh",
         "QEMU TCG with the TCG PMU (tests/qemu-pmu/), -cpu Skylake-Client,"
         "tcg-pmu=on,tcg-pmu-version=5,tcg-pmu-metrics=on, PVH -kernel on pc",
         qemu_pmu=True),
    qemu("qemu-kvm-host", "kvm", "host", "pvh",
         "QEMU KVM, -cpu host, PVH -kernel on -M microvm",
         machine="microvm", fallbacks=[ARCH_CAPABILITIES]),
    # SeaBIOS and GRUB alone took 47-100 s under the PVM KVM measured here.
    qemu("qemu-kvm-host-iso", "kvm", "host", "iso",
         "QEMU KVM, -cpu host, GRUB ISO on pc (SeaBIOS)",
         expect="qemu-kvm-host", timeout=300, fallbacks=[ARCH_CAPABILITIES]),
    qemu("qemu-kvm-intel-model", "kvm", "Skylake-Client", "pvh",
         "QEMU KVM, -cpu Skylake-Client, PVH -kernel on pc"),
    vmm("crosvm", "crosvm", "elf",
        "crosvm on KVM: the ELF at e_entry in long mode, boot_params in RSI; "
        "ends by exit=reset"),
    vmm("firecracker", "firecracker", "elf",
        "Firecracker on KVM: e_entry in long mode before 1.12, PVH from "
        "1.12; ends by exit=reset"),
    vmm("cloud-hypervisor", "cloud-hypervisor", "pvh",
        "Cloud Hypervisor on KVM: PVH; it restarts the guest on a reset, so "
        "the runner ends it at the summary line"),
    bochs("bochs-skylake", "corei7_skylake_x",
          "Bochs, cpu model corei7_skylake_x, GRUB ISO, unknown MSRs #GP"),
    bochs("bochs-skylake-lax-msrs", "corei7_skylake_x",
          "Bochs, corei7_skylake_x with ignore_bad_msrs=1 (unknown MSRs "
          "read 0, writes dropped)", bochs_cpu="ignore_bad_msrs=1"),
    # corei7_skylake_x enumerates x2APIC (CPUID.01H:ECX[21]) and Bochs'
    # BIOS leaves xAPIC on: apic=x2apic runs the kernel's x2APIC route
    # (ICR, LVT PC and APIC ID through MSRs, each AP switching itself),
    # which QEMU 7.2 TCG lacks; its expectation file requires the header
    # to say x2APIC.
    bochs("bochs-skylake-smp2", "corei7_skylake_x",
          "Bochs, corei7_skylake_x with 2 CPUs (cpu: count=2) in x2APIC mode "
          "(apic=x2apic), GRUB ISO, unknown MSRs #GP", cpus=2,
          kernel_args="apic=x2apic"),
    bochs("bochs-icelake", "corei7_icelake_u",
          "Bochs, cpu model corei7_icelake_u, GRUB ISO, unknown MSRs #GP"),
    bochs("bochs-tigerlake", "tigerlake",
          "Bochs, cpu model tigerlake, GRUB ISO, unknown MSRs #GP"),
    bochs("bochs-ryzen", "ryzen",
          "Bochs, cpu model ryzen, GRUB ISO, unknown MSRs #GP"),
    # Intel's architectural PMU counting in Bochs 3.0 with
    # tests/bochs-pmu/ applied, at the version the model's CPUID leaf 0AH
    # gives: 4 on Skylake-X, 5 on Tiger Lake (docs/counting-bochs.md).
    bochs("bochs-pmu-skylake", "corei7_skylake_x",
          "the counting Bochs 3.0 (tests/bochs-pmu/), cpu model "
          "corei7_skylake_x (PMU version 4), GRUB ISO, unknown MSRs #GP",
          bochs_pmu=True),
    # Two CPUs in x2APIC mode, as bochs-skylake-smp2: the per-CPU part
    # over counters that count, the PMI through MSR 834H.
    bochs("bochs-pmu-skylake-smp2", "corei7_skylake_x",
          "the counting Bochs 3.0 (tests/bochs-pmu/), corei7_skylake_x with "
          "2 CPUs (cpu: count=2) in x2APIC mode (apic=x2apic), GRUB ISO",
          cpus=2, kernel_args="apic=x2apic", bochs_pmu=True),
    bochs("bochs-pmu-tigerlake", "tigerlake",
          "the counting Bochs 3.0 (tests/bochs-pmu/), cpu model tigerlake "
          "(PMU version 5), GRUB ISO, unknown MSRs #GP", bochs_pmu=True),
    nested("kvm-6.1", "6.1",
           "Linux KVM 6.1 (Debian), nested in QEMU TCG -cpu EPYC"),
    nested("kvm-6.12", "6.12",
           "Linux KVM 6.12 (Debian), nested in QEMU TCG -cpu EPYC"),
    # KVM with its vPMU on: L1 on the QEMU with the TCG PMU, whose
    # perf finds the AMD core counters; the expectation files require
    # L1's header lines saying so (docs/counting-tcg.md).
    nested("kvm-6.1-vpmu", "6.1",
           "Linux KVM 6.1 (Debian) with the vPMU on (enable_pmu=Y), nested "
           "in QEMU TCG with the TCG PMU, -cpu EPYC,tcg-pmu=on",
           qemu_pmu=True, subset=VPMU_SUBSET),
    nested("kvm-6.12-vpmu", "6.12",
           "Linux KVM 6.12 (Debian) with the vPMU on (enable_pmu=Y), nested "
           "in QEMU TCG with the TCG PMU, -cpu EPYC,tcg-pmu=on",
           qemu_pmu=True, subset=VPMU_SUBSET),
    # KVM's emulated vPMU as Linux 7.x has it (trixie-backports' 7.3): the
    # baseline of its mediated vPMU (enable_mediated_pmu), off here.
    nested("kvm-7.3-vpmu", "7.3",
           "Linux KVM 7.3 (Debian trixie-backports) with its emulated vPMU "
           "(enable_pmu=Y), nested in QEMU TCG with the TCG PMU, -cpu "
           "EPYC,tcg-pmu=on", qemu_pmu=True, subset=VPMU_SUBSET),
    # KVM 7.3's mediated vPMU: the guest's counters in the (emulated)
    # hardware, RDPMC and the counter MSRs passed through where the guest's
    # PMU matches the host's. It needs AMD PerfMonV2 on the host (the TCG
    # PMU's tcg-pmu-perfmon-v2), nmi_watchdog=0 in L1, and an inner QEMU
    # that gives the guest CPUID 8000_0022H (the TCG PMU's series passes
    # KVM's). The guest has the host's six counters: RDPMC passed through.
    nested("kvm-7.3-mediated", "7.3",
           "Linux KVM 7.3 (Debian) with its mediated vPMU "
           "(kvm_amd.enable_mediated_pmu=1, L1 nmi_watchdog=0), nested in "
           "QEMU TCG with the TCG PMU and PerfMonV2; the guest has 2 vCPUs "
           "and the host's 6 counters and PerfMonV2: RDPMC passed through",
           qemu_pmu=True, subset=MEDIATED_SUBSET, **MEDIATED),
    # The same with fewer counters in the guest than on the host (4, no
    # PerfCtrExtCore, so no PerfMonV2 either): RDPMC and the global MSRs
    # stay intercepted, KVM's kvm_pmu_rdpmc() decides.
    nested("kvm-7.3-mediated-fewer", "7.3",
           "Linux KVM 7.3 (Debian) with its mediated vPMU, nested as "
           "kvm-7.3-mediated; the guest has 4 of the host's 6 counters "
           "(-cpu host,-perfctr-core): RDPMC intercepted",
           qemu_pmu=True, subset=MEDIATED_SUBSET,
           **dict(MEDIATED, inner_cpu="host,-perfctr-core")),
    # KVM's Intel side: Bochs emulates VMX, GRUB boots 6.12 with kvm-intel.
    # Slow (every instruction of L1 and of its KVM in Bochs): by name only,
    # with a subset of its own.
    bochs_nested("kvm-6.12-vmx", "6.12", "corei7_skylake_x",
                 "Linux KVM 6.12 (Debian, kvm-intel), nested in Bochs "
                 "corei7_skylake_x with VMX"),
    # KVM's Intel vPMU with counters: L1 in the counting Bochs 3.0, whose
    # architectural PMU (version 4 on corei7_skylake_x) L1's perf drives,
    # with the VMX controls of IA32_PERF_GLOBAL_CTRL carried out
    # (docs/counting-bochs.md). make test-intel runs them.
    bochs_nested("kvm-6.12-vmx-vpmu", "6.12", "corei7_skylake_x",
                 "Linux KVM 6.12 (Debian, kvm-intel) with its vPMU on "
                 "(enable_pmu=Y), nested in the counting Bochs 3.0, "
                 "corei7_skylake_x with VMX", bochs_pmu=True,
                 subset=VMX_VPMU_SUBSET),
    # KVM 7.3's mediated vPMU on Intel: the host PMU version 4 with full
    # writes (FW_WRITES) and the VM-entry control that loads
    # IA32_PERF_GLOBAL_CTRL, which the counting Bochs has.
    bochs_nested("kvm-7.3-vmx-mediated", "7.3", "corei7_skylake_x",
                 "Linux KVM 7.3 (Debian, kvm-intel) with its mediated vPMU "
                 "(kvm_intel.enable_mediated_pmu=1, L1 nmi_watchdog=0), "
                 "nested in the counting Bochs 3.0, corei7_skylake_x",
                 bochs_pmu=True, subset=VMX_VPMU_SUBSET,
                 kvm_params=("kvm_intel.enable_mediated_pmu=1",),
                 l1_args=("nmi_watchdog=0",)),
    # Your own kernel (make run-kvm KERNEL=...), held against 6.12's file:
    # what it does differently is reported as a different host.
    nested("kvm-own", "own",
           "Linux KVM of your own kernel (build/kvm-own), nested in QEMU "
           "TCG -cpu EPYC", expect="kvm-6.12", explicit=True),
]


# TCG emulates AMD SVM (with nested paging) and no VMX: Xen runs its AMD
# side here. Its own vPMU is off unless its command line says vpmu=on.
# Two versions: Debian 12's 4.17 (the first targets, named without their
# version) and Debian 13's 4.20 (docs/run-xen.md).
TARGETS += [
    xen("xen-pvh-dom0", "4.17", "",
        "Xen 4.17 (its default: vPMU off), pmctest its PVH dom0, under QEMU "
        "TCG -cpu EPYC on q35 with an AMD IOMMU"),
    xen("xen-pvh-dom0-vpmu", "4.17", "vpmu=on",
        "Xen 4.17 with vpmu=on, pmctest its PVH dom0, under QEMU TCG "
        "-cpu EPYC on q35 with an AMD IOMMU"),
    # Xen's vPMU over counters that count: the QEMU with the TCG PMU
    # (docs/counting-tcg.md), whose AMD core counters Xen's vpmu_amd.c
    # drives for dom0; compared with the bare TCG PMU on the same CPU.
    xen("xen-pvh-dom0-vpmu-counting", "4.17", "vpmu=on",
        "Xen 4.17 with vpmu=on, pmctest its PVH dom0, under QEMU TCG with "
        "the TCG PMU, -cpu EPYC,tcg-pmu=on, on q35 with an AMD IOMMU",
        cpu="EPYC,tcg-pmu=on", bare="qemu-tcg-pmu-amd", qemu_pmu=True),
    # The current Xen: vPMU off, and vPMU on over counters that count
    # (over TCG's dead counters vpmu=on changed nothing on 4.17).
    xen("xen-4.20-pvh-dom0", "4.20", "",
        "Xen 4.20 (its default: vPMU off), pmctest its PVH dom0, under QEMU "
        "TCG -cpu EPYC on q35 with an AMD IOMMU"),
    xen("xen-4.20-pvh-dom0-vpmu-counting", "4.20", "vpmu=on",
        "Xen 4.20 with vpmu=on, pmctest its PVH dom0, under QEMU TCG with "
        "the TCG PMU, -cpu EPYC,tcg-pmu=on, on q35 with an AMD IOMMU",
        cpu="EPYC,tcg-pmu=on", bare="qemu-tcg-pmu-amd", qemu_pmu=True),
]

# Xen's Intel side: Xen in the counting Bochs 3.0 (corei7_skylake_x, PMU
# version 4; Xen emulates version 3 for dom0), pmctest its PVH dom0 with
# dom0-iommu=none, Bochs having no IOMMU (docs/run-xen.md).
TARGETS += [
    xen_bochs("xen-pvh-dom0-vmx-vpmu", "4.17", "vpmu=on",
              "Xen 4.17 with vpmu=on, pmctest its PVH dom0, in the counting "
              "Bochs 3.0, cpu model corei7_skylake_x, GRUB ISO"),
    xen_bochs("xen-4.20-pvh-dom0-vmx-vpmu", "4.20", "vpmu=on",
              "Xen 4.20 with vpmu=on, pmctest its PVH dom0, in the counting "
              "Bochs 3.0, cpu model corei7_skylake_x, GRUB ISO"),
]

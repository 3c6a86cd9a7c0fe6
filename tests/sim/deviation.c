/* The deviation table: see deviation.h. */
#include "deviation.h"

#include <string.h>

#include "sim_cpu.h"

static const struct deviation_info table[DEV_COUNT] = {
	[DEV_NONE] = { "none", "", "the faithful simulator" },
	[DEV_CPL3_ONLY] = { "cpl3-only", "PRIV-2",
		"only CPL 3 is restricted: CPL 1 and 2 read with CR4.PCE = 0" },
	[DEV_PCE_IGNORED] = { "pce-ignored", "PRIV-1",
		"CR4.PCE is ignored: every CPL above 0 gets #GP(0)" },
	[DEV_GP_ERROR_CODE] = { "gp-error-code", "PRIV-1",
		"the #GP of RDPMC carries error code 1 instead of 0" },
	[DEV_UD_INSTEAD_OF_READ] = { "ud-instead-of-read", "PRIV-1",
		"the emulator lacks RDPMC: a permitted RDPMC raises #UD" },
	[DEV_FAST_FLAG_ACCEPTED] = { "fast-flag-accepted", "ARCH-6",
		"ECX[31] is dropped on an architectural PMU instead of #GP(0)" },
	[DEV_TYPE_IGNORED] = { "type-ignored", "ARCH-1 ARCH-5",
		"ECX[31:16] is not checked: an undefined type reads a GP counter" },
	[DEV_INDEX_OFF_BY_ONE] = { "index-off-by-one", "ARCH-2 ARCH-3",
		"index x is valid up to and including the enumerated count" },
	[DEV_BITMAP_IGNORED] = { "bitmap-ignored", "ARCH-2 ARCH-3",
		"CPUID.0AH:ECX and CPUID.23H bitmaps ignored: only counts decide" },
	[DEV_V1_FIXED_ACCEPTED] = { "v1-fixed-accepted", "ARCH-3",
		"version 1 takes CPUID.0AH:EDX[4:0] as the fixed count" },
	[DEV_NO_HIGH_CLEAR] = { "no-high-clear", "MODE-1",
		"a 64-bit read keeps RAX[63:32] and RDX[63:32]" },
	[DEV_RCX_HIGH_USED] = { "rcx-high-used", "MODE-1",
		"64-bit mode decodes all of RCX: RCX[63:32] set is #GP(0)" },
	[DEV_WIDTH_UNMASKED] = { "width-unmasked", "ARCH-7 NARCH-3 AMD-3",
		"RDPMC returns the stored count without masking it to the width" },
	[DEV_EDX_NOT_ZEROED_FAST] = { "edx-not-zeroed-fast", "NARCH-2",
		"a fast read returns PMC[39:32] in EDX instead of 0" },
	[DEV_METRICS_NOT_CLEARED] = { "metrics-not-cleared", "MET-1",
		"RDPMC of PERF_METRICS with METRICS_CLEAR_EN = 1 does not clear" },
	[DEV_METRICS_ALWAYS_CLEARED] = { "metrics-always-cleared", "MET-2",
		"RDPMC of PERF_METRICS clears even with METRICS_CLEAR_EN = 0" },
	[DEV_AMD_BITS_31_30_IGNORED] = { "amd-bits-31-30-ignored", "AMD-2",
		"AMD ECX[31:30] dropped: ECX 8000_0000H reads PerfCtr0" },
	[DEV_REGS_CLOBBERED_ON_FAULT] = { "regs-clobbered-on-fault", "PRIV-6",
		"a faulting RDPMC zeroes RAX and RDX" },
	[DEV_RIP_ADVANCED_ON_FAULT] = { "rip-advanced-on-fault", "PRIV-6",
		"the #GP is reported after the RDPMC: saved RIP + 2" },
	[DEV_PMC_WRITE_ZERO_EXTENDED] = { "pmc-write-zero-extended", "PROG-5",
		"a plain WRMSR to IA32_PMCx keeps bits 31:0 and clears the rest" },
	[DEV_FIXED_WRITE_SIGN_EXTENDED] = { "fixed-write-sign-extended", "WR-1",
		"a WRMSR to IA32_FIXED_CTRx sign-extends bit 31 (KVM before 2019)" },
	[DEV_USR_OS_SWAPPED] = { "usr-os-swapped", "PROG-2",
		"USR enables counting at CPL 0 and OS at CPL 1-3" },
	[DEV_EN_IGNORED] = { "en-ignored", "PROG-6",
		"an event select with EN clear counts when USR or OS is set" },
	[DEV_GLOBAL_CTRL_IGNORED] = { "global-ctrl-ignored", "PROG-6",
		"IA32_PERF_GLOBAL_CTRL / PerfCntrGlobalCtl bits do not gate counting" },
	[DEV_BRANCHES_AS_INSTRUCTIONS] = { "branches-as-instructions", "PROG-4",
		"the branch-instructions-retired event counts every instruction" },
	[DEV_CMASK_IGNORED] = { "cmask-ignored", "PROG-8",
		"CMASK is ignored: the counter counts events, not cycles" },
	[DEV_INV_IGNORED] = { "inv-ignored", "PROG-8",
		"INV is ignored: the CMASK comparison is never inverted" },
	[DEV_EDGE_IGNORED] = { "edge-ignored", "PROG-8",
		"EDGE is ignored: every cycle meeting CMASK counts, not its edge" },
	[DEV_COUNTER_SATURATES] = { "counter-saturates", "OVF-1",
		"a counter stops at all ones instead of wrapping to 0" },
	[DEV_OVERFLOW_STATUS_LOST] = { "overflow-status-lost", "OVF-1",
		"an overflow does not set the counter's global status bit" },
	[DEV_STATUS_RESET_IGNORED] = { "status-reset-ignored", "OVF-2",
		"writes to IA32_PERF_GLOBAL_OVF_CTRL / PerfCntrGlobalStatusClr do nothing" },
	[DEV_STATUS_SET_IGNORED] = { "status-set-ignored", "OVF-3",
		"writes to IA32_PERF_GLOBAL_STATUS_SET / PerfCntrGlobalStatusSet do nothing" },
	[DEV_PMI_LOST] = { "pmi-lost", "PMI-1",
		"an overflow with the interrupt enabled raises no PMI" },
	[DEV_PMI_WITHOUT_INT] = { "pmi-without-int", "PMI-1",
		"every overflow raises a PMI, whatever INT says" },
	[DEV_PMI_WHILE_MASKED] = { "pmi-while-masked", "PMI-2",
		"the PMI is delivered although the LVT entry is masked" },
	[DEV_LVT_NOT_MASKED_ON_PMI] = { "lvt-not-masked-on-pmi", "PMI-3",
		"delivering a PMI leaves the LVT entry unmasked (KVM before 2023)" },
	[DEV_FIXED_PMI_IGNORED] = { "fixed-pmi-ignored", "PMI-1",
		"the PMI bits of IA32_FIXED_CTR_CTRL are ignored" },
	[DEV_ABSENT_MSRS_ACCEPTED] = { "absent-msrs-accepted", "MSR-1",
		"PMU MSRs CPUID does not enumerate read 0 and drop writes" },
	[DEV_RESERVED_BITS_ACCEPTED] = { "reserved-bits-accepted", "MSR-2",
		"WRMSR of reserved bits of the global and fixed controls is taken" },
	[DEV_HOST_COUNTER_SHORTAGE] = { "host-counter-shortage", "PROG-7",
		"with every GP counter enabled the last one never counts (a host NMI watchdog holds one)" },
	[DEV_GLOBAL_CTRL_RESET_ZERO] = { "global-ctrl-reset-zero", "RESET-1",
		"IA32_PERF_GLOBAL_CTRL is 0 after reset (KVM before 2024)" },
	[DEV_RUNNING_WRITE_LOST] = { "running-write-lost", "WR-2",
		"a WRMSR to a general-purpose counter with EN set is dropped" },
	[DEV_VMWARE_BACKDOOR] = { "vmware-backdoor", "ARCH-5 AMD-2 PRIV-1",
		"ECX 1_0000H-1_0002H read a clock at any CPL (KVM's enable_vmware_backdoor)" },
	[DEV_FIXED_CAPPED_AT_THREE] = { "fixed-capped-at-three", "ARCH-3",
		"fixed counters past the third are dropped, whatever EDX[4:0] says" },
	[DEV_RUNNING_WRITE_KEEPS_PERIOD] = { "running-write-keeps-period", "OVF-5",
		"a write to a running counter leaves the overflow where the old value would wrap (KVM before 2019)" },
	[DEV_EXITS_NOT_COUNTED] = { "exits-not-counted", "EXIT-1",
		"instructions the hypervisor completes itself are not counted as retired (KVM before 2021)" },
	[DEV_EXITS_COUNTED_DESPITE_CMASK] = { "exits-counted-despite-cmask", "EXIT-2",
		"the hypervisor counts the instructions it completes without CMASK, INV or EDGE (KVM's kvm_pmu_trigger_event)" },
	[DEV_EXIT_OVERFLOW_EARLY] = { "exit-overflow-early", "OVF-6",
		"an instruction the hypervisor counts on a sign-extended IA32_PMCx signals an overflow at once (KVM before 2023)" },
	[DEV_FIXED_CTRL_TRUNCATED] = { "fixed-ctrl-truncated", "PROG-9",
		"clearing the IA32_FIXED_CTR_CTRL field of fixed counter 2 or up does not stop it (KVM's u8 old_fixed_ctr_ctrl)" },
	[DEV_AMD_LVT_MASKED_ON_PMI] = { "amd-lvt-masked-on-pmi", "PMI-4",
		"an AMD local APIC masks the LVT performance-counter entry on delivery (KVM before 2024)" },
	[DEV_PMI_TWICE] = { "pmi-twice", "PMI-5",
		"one overflow delivers a second PMI (KVM before 2023)" },
	[DEV_AMD_GLOBAL_CTL_RESET_ZERO] = { "amd-global-ctl-reset-zero", "RESET-4",
		"PerfCntrGlobalCtl is 0 after reset (KVM before 2024)" },
	[DEV_PMU_NOT_RESET] = { "pmu-not-reset", "RESET-2 RESET-3",
		"event selects and counters keep the previous boot's values (QEMU before 2025, AMD)" },
	[DEV_AMD_EVENTSEL_HIGH_DROPPED] = { "amd-eventsel-high-dropped", "AMD-4 AMD-5",
		"PerfEvtSel EventSelect[11:8] (bits 35:32) is dropped as reserved (KVM in 2022)" },
	[DEV_HG_ONLY_IGNORED] = { "hg-only-ignored", "AMD-4 AMD-6",
		"PerfEvtSel Host-only and Guest-only (bits 41:40) are dropped, so with EFER.SVME = 0 they count (KVM 2022-2026)" },
	[DEV_ANYTHREAD_REFUSED] = { "anythread-refused", "PROG-11",
		"IA32_PERFEVTSELx.ANY raises #GP although version 3+ defines it and CPUID.0AH:EDX[15] = 0 (KVM's reserved bit 21)" },
	[DEV_EVTSEL_RESERVED_DROPPED] = { "evtsel-reserved-dropped", "PROG-10",
		"reserved IA32_PERFEVTSELx bits are dropped instead of #GP (AMD's rule on an Intel vCPU)" },
	[DEV_PERF_CAPS_WITHOUT_PDCM] = { "perf-caps-without-pdcm", "MSR-3",
		"IA32_PERF_CAPABILITIES reads 0 although CPUID.01H:ECX.PDCM = 0" },
	[DEV_PERF_CAPS_WRITES_DROPPED] = { "perf-caps-writes-dropped", "MSR-3",
		"a WRMSR of IA32_PERF_CAPABILITIES completes and does nothing (QEMU TCG's unhandled-MSR default)" },
	[DEV_FREEZE_REFUSED] = { "freeze-refused", "PMI-6",
		"IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI raises #GP where PDCM and version 2+ define it (KVM's vmx_set_msr)" },
	[DEV_FREEZE_IGNORED] = { "freeze-ignored", "PMI-6",
		"IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI is kept but a PMI freezes nothing" },
	[DEV_BEYOND_WIDTH_TRUNCATED] = { "beyond-width-truncated", "WR-3",
		"IA32_FIXED_CTRx and IA32_A_PMCx writes beyond the width are truncated instead of #GP (KVM's fixed-counter path)" },
	[DEV_COUNTER_WRITES_DROPPED] = { "counter-writes-dropped", "PROG-3 WR-1",
		"WRMSR to a counter or its control is taken and dropped: they read 0 (KVM with enable_pmu=0)" },
	[DEV_LVT_SAMPLED_AT_WRMSR] = { "lvt-sampled-at-wrmsr", "PMI-1 PMI-2",
		"a WRMSR that programs a counter decides from the LVT entry then whether its overflow interrupts; the entry is not read again" },
	[DEV_IN_TX_REFUSED] = { "in-tx-refused", "PROG-12",
		"IA32_PERFEVTSELx.IN_TX raises #GP although CPUID enumerates HLE or RTM (KVM before 2013)" },
	[DEV_IN_TXCP_ANY_COUNTER] = { "in-txcp-any-counter", "PROG-12",
		"IN_TXCP is taken in every event select, not IA32_PERFEVTSEL2 alone" },
	[DEV_TSX_BITS_WITHOUT_TSX] = { "tsx-bits-without-tsx", "PROG-12",
		"IN_TX and IN_TXCP are taken although the guest's CPUID has no HLE or RTM (the host's TSX decides)" },
	[DEV_EVTSEL_EXT_REFUSED] = { "evtsel-ext-refused", "PROG-13",
		"UMASK2 and EQ raise #GP although CPUID.23H.00H:EBX enumerates them (a reserved mask from before leaf 23H)" },
	[DEV_EVTSEL_EXT_WITHOUT_LEAF23] = { "evtsel-ext-without-leaf23", "PROG-13",
		"UMASK2 and EQ are taken although CPUID.23H.00H:EBX does not enumerate them (the host's mask decides)" },
	[DEV_INUSE_ABSENT] = { "inuse-absent", "MSR-4",
		"IA32_PERF_GLOBAL_INUSE raises #GP although version 4 defines it" },
	[DEV_INUSE_WRITABLE] = { "inuse-writable", "MSR-4",
		"a WRMSR of IA32_PERF_GLOBAL_INUSE completes and does nothing" },
	[DEV_INUSE_FOLLOWS_EN] = { "inuse-follows-en", "MSR-4",
		"IA32_PERF_GLOBAL_INUSE bit x follows IA32_PERFEVTSELx.EN instead of bits 7:0" },
	[DEV_PORT_IO_NOT_COUNTED] = { "port-io-not-counted", "EXIT-1",
		"a port I/O instruction the hypervisor completes is not counted as retired (its I/O completion path skips the account)" },
	[DEV_COUNTERS_SHARED] = { "counters-shared", "SMP-3",
		"one counter bank for all vCPUs: a count written on one is read on the others" },
	[DEV_PCE_SHARED] = { "pce-shared", "SMP-2",
		"the CR4.PCE last written on any vCPU decides RDPMC on every vCPU" },
	[DEV_AP_RDPMC_INTERCEPTED] = { "ap-rdpmc-intercepted", "SMP-2 PRIV-1",
		"RDPMC stays intercepted on secondary vCPUs: #GP(0) above CPL 0 whatever CR4.PCE" },
	[DEV_PMI_WRONG_CPU] = { "pmi-wrong-cpu", "SMP-4 PMI-1",
		"a counter's PMI goes to the next vCPU's local APIC, not its own" },
	[DEV_STATE_LOST_ON_SWITCH] = { "state-lost-on-switch", "SMP-3",
		"a vCPU's counters are not restored when it runs again: they read 0" },
	[DEV_COUNTS_WHILE_DESCHEDULED] = { "counts-while-descheduled", "SMP-7",
		"a halted vCPU's enabled counters stay loaded and count the other vCPUs' work (a lazy PMU context switch that skips a vCPU with nothing enabled)" },
	[DEV_PMI_TO_NEXT_VCPU] = { "pmi-to-next-vcpu", "SMP-4 PMI-1",
		"an overflow's PMI, which the host handles at the vCPU's next exit, goes to the vCPU running then: one raised as the vCPU halts reaches the next (the running vCPU taken for the counter's)" },
	[DEV_PMI_BROADCAST] = { "pmi-broadcast", "SMP-4",
		"a counter's PMI reaches every vCPU whose LVT entry is unmasked, its own among them (sent as a broadcast, not through the local LVT entry)" },
	[DEV_RDPMC_STALE_UNTIL_MSR_EXIT] = { "rdpmc-stale-until-msr-exit", "SMP-3 PRIV-7",
		"a vCPU's counters are loaded into the hardware only as the hypervisor takes one of its MSR exits: until then its RDPMC, not intercepted, reads the counters the last vCPU left there, while RDMSR reads its own" },
	[DEV_AP_RDPMC_HOST_COUNTS] = { "ap-rdpmc-host-counts", "SMP-3 PRIV-7",
		"RDPMC passed through on secondary vCPUs whose counters the hypervisor never loads into the hardware (it loads vCPU 0's alone): there RDPMC reads the host's counts, RDMSR the vCPU's" },
	[DEV_ANYTHREAD_ACROSS_VCPUS] = { "anythread-across-vcpus", "PROG-11",
		"AnyThread of a fixed counter passed through although CPUID.0AH:EDX[15] deprecates it: the counter counts the work of the vCPU on its hardware sibling thread (here every other vCPU)" },
	[DEV_ENUMERATION_DIFFERS] = { "enumeration-differs", "SMP-1",
		"secondary vCPUs enumerate one general-purpose counter fewer than vCPU 0" },
	[DEV_AP_NOT_AS_INIT_LEFT] = { "ap-not-as-init-left", "SMP-5 RESET-2",
		"secondary vCPUs start with a counter counting, not as reset and INIT leave it" },
	[DEV_AP_HANGS] = { "ap-hangs", "SMP-6",
		"a secondary vCPU stops in its first counting workload and never returns" },
	[DEV_AP_HANGS_WRITING] = { "ap-hangs-writing", "SMP-6",
		"the first secondary vCPU stops as it writes its third line to the log, before any of it is out (inside a YAML block where its first test has diagnostics, as with verbose)" },
};

const struct deviation_info *deviation_info(enum deviation d)
{
	return &table[d];
}

enum deviation deviation_by_name(const char *name)
{
	for (unsigned d = 0; d < DEV_COUNT; d++)
		if (strcmp(table[d].name, name) == 0)
			return (enum deviation)d;
	return DEV_COUNT;
}

static uint32_t below(unsigned n)
{
	return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

bool deviation_applies(enum deviation d, const struct sim_cpu *cpu)
{
	enum vendor vendor = cpu->enumeration.vendor;
	bool intel = vendor == VENDOR_INTEL;
	bool arch = intel && cpu->version > 0;
	/* pmctest programs counters on an architectural Intel PMU or AMD;
	 * global control and status need version 2 or PerfMonV2. */
	bool counting = arch || vendor == VENDOR_AMD;
	bool global = (arch && cpu->version >= 2) || cpu->amd_perfmon_v2;

	switch (d) {
	case DEV_NONE:
		return true;
	case DEV_FAST_FLAG_ACCEPTED:
	case DEV_TYPE_IGNORED:
	case DEV_INDEX_OFF_BY_ONE:
		return arch;
	case DEV_BITMAP_IGNORED:	/* a bitmap adds a counter */
		return arch && ((cpu->gp_bitmap & ~below(cpu->gp_count)) ||
				(cpu->fixed_bitmap & ~below(cpu->fixed_count)));
	case DEV_V1_FIXED_ACCEPTED:
		return arch && cpu->version == 1 && cpu->edx_fixed_count > 0;
	case DEV_EDX_NOT_ZEROED_FAST:
		return intel && cpu->version == 0;
	case DEV_METRICS_NOT_CLEARED:
		return cpu->perf_metrics && cpu->metrics_clear;
	case DEV_METRICS_ALWAYS_CLEARED:
		return cpu->perf_metrics;
	case DEV_AMD_BITS_31_30_IGNORED:
		return vendor == VENDOR_AMD;
	case DEV_PMC_WRITE_ZERO_EXTENDED:	/* IA32_PMCx is Intel's */
		return arch && cpu->gp_count > 0;
	case DEV_FIXED_WRITE_SIGN_EXTENDED:
	case DEV_FIXED_PMI_IGNORED:
		return arch && cpu->fixed_count > 0;
	case DEV_LVT_NOT_MASKED_ON_PMI:
		return arch;
	case DEV_FIXED_CAPPED_AT_THREE:
		return arch && cpu->edx_fixed_count > 3 && cpu->version > 1;
	case DEV_GLOBAL_CTRL_RESET_ZERO:
		return arch && cpu->version >= 2;
	case DEV_GLOBAL_CTRL_IGNORED:
	case DEV_OVERFLOW_STATUS_LOST:
	case DEV_STATUS_RESET_IGNORED:
	case DEV_RESERVED_BITS_ACCEPTED:
		return global;
	case DEV_STATUS_SET_IGNORED:
		return (arch && cpu->version >= 4) || cpu->amd_perfmon_v2;
	case DEV_CMASK_IGNORED:
	case DEV_INV_IGNORED:
	case DEV_EDGE_IGNORED:
	case DEV_USR_OS_SWAPPED:
	case DEV_EN_IGNORED:
	case DEV_BRANCHES_AS_INSTRUCTIONS:
	case DEV_COUNTER_SATURATES:
	case DEV_PMI_LOST:
	case DEV_PMI_WITHOUT_INT:
	case DEV_PMI_WHILE_MASKED:
	case DEV_ABSENT_MSRS_ACCEPTED:
	case DEV_HOST_COUNTER_SHORTAGE:
	case DEV_RUNNING_WRITE_LOST:
	case DEV_RUNNING_WRITE_KEEPS_PERIOD:
	case DEV_EXITS_NOT_COUNTED:
	case DEV_EXITS_COUNTED_DESPITE_CMASK:
	case DEV_PMI_TWICE:
	case DEV_COUNTER_WRITES_DROPPED:
	case DEV_LVT_SAMPLED_AT_WRMSR:
		return counting;
	case DEV_EXIT_OVERFLOW_EARLY:		/* IA32_PMCx sign extension */
		return arch && cpu->gp_count > 0;
	case DEV_FIXED_CTRL_TRUNCATED:		/* a fixed counter 2 or up */
		return arch && cpu->version >= 2 &&
		       ((cpu->fixed_bitmap & ~3u) || cpu->fixed_count > 2);
	case DEV_AMD_LVT_MASKED_ON_PMI:
	case DEV_PMU_NOT_RESET:
	case DEV_AMD_EVENTSEL_HIGH_DROPPED:
	case DEV_HG_ONLY_IGNORED:
		return vendor == VENDOR_AMD;
	case DEV_AMD_GLOBAL_CTL_RESET_ZERO:
		return cpu->amd_perfmon_v2;
	case DEV_ANYTHREAD_REFUSED:
		return arch && cpu->version >= 3 && !cpu->anythread_deprecated;
	case DEV_EVTSEL_RESERVED_DROPPED:
		return arch && cpu->gp_count > 0;
	case DEV_PERF_CAPS_WITHOUT_PDCM:
		return intel && !cpu->perf_capabilities;
	case DEV_PERF_CAPS_WRITES_DROPPED:
		return intel && cpu->perf_capabilities;
	case DEV_FREEZE_REFUSED:
	case DEV_FREEZE_IGNORED:
		return arch && cpu->version >= 2 && cpu->perf_capabilities;
	case DEV_BEYOND_WIDTH_TRUNCATED:
		return arch && (cpu->fixed_count > 0 || cpu->fw_write);
	case DEV_IN_TX_REFUSED:
	case DEV_IN_TXCP_ANY_COUNTER:	/* select 0 is not IA32_PERFEVTSEL2 */
		return arch && cpu->gp_count > 0 && cpu->tsx;
	case DEV_TSX_BITS_WITHOUT_TSX:
		return arch && cpu->gp_count > 0 && !cpu->tsx;
	case DEV_EVTSEL_EXT_REFUSED:
		return arch && cpu->gp_count > 0 &&
		       (cpu->evtsel_umask2 || cpu->evtsel_eq);
	case DEV_EVTSEL_EXT_WITHOUT_LEAF23:
		return arch && cpu->gp_count > 0 &&
		       !(cpu->evtsel_umask2 && cpu->evtsel_eq);
	case DEV_INUSE_ABSENT:
	case DEV_INUSE_WRITABLE:
	case DEV_INUSE_FOLLOWS_EN:
		return arch && cpu->version >= 4;
	case DEV_PORT_IO_NOT_COUNTED:
		return counting;
	case DEV_PCE_SHARED:
	case DEV_AP_RDPMC_INTERCEPTED:
	case DEV_RDPMC_STALE_UNTIL_MSR_EXIT:
	case DEV_AP_RDPMC_HOST_COUNTS:
		return sim_cpu_total > 1 && vendor != VENDOR_OTHER;
	case DEV_ENUMERATION_DIFFERS:
		return sim_cpu_total > 1 &&
		       ((arch && cpu->gp_count > 0) || vendor == VENDOR_AMD);
	case DEV_COUNTERS_SHARED:
	case DEV_PMI_WRONG_CPU:
	case DEV_STATE_LOST_ON_SWITCH:
	case DEV_COUNTS_WHILE_DESCHEDULED:
	case DEV_PMI_TO_NEXT_VCPU:
	case DEV_PMI_BROADCAST:
	case DEV_AP_NOT_AS_INIT_LEFT:
	case DEV_AP_HANGS:
		return sim_cpu_total > 1 && counting;
	case DEV_AP_HANGS_WRITING:
		return sim_cpu_total > 1;
	case DEV_ANYTHREAD_ACROSS_VCPUS:	/* where smp.anythread judges it */
		return sim_cpu_total > 1 && arch && cpu->version >= 3 &&
		       cpu->anythread_deprecated && cpu->fixed[0].present;
	default:
		return vendor != VENDOR_OTHER;
	}
}

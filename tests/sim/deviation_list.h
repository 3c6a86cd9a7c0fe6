/*
 * Every deviation pmctest-sim can inject, once: its enumerator DEV_ID,
 * the name --deviate takes, the statements it breaks and the bug in one
 * line (--list-deviations and the TAP header print them). Each is a real
 * class of hypervisor or emulator bug (docs/simulator.md). deviation.h
 * makes the enum of it and deviation.c the table; no include guard, on
 * purpose: each includes it with its own DEVIATION().
 */
/* the RDPMC side */
DEVIATION(CPL3_ONLY, "cpl3-only", "PRIV-2",
	"only CPL 3 is restricted: CPL 1 and 2 read with CR4.PCE = 0")
DEVIATION(PCE_IGNORED, "pce-ignored", "PRIV-1",
	"CR4.PCE is ignored: every CPL above 0 gets #GP(0)")
DEVIATION(GP_ERROR_CODE, "gp-error-code", "PRIV-1",
	"the #GP of RDPMC carries error code 1 instead of 0")
DEVIATION(UD_INSTEAD_OF_READ, "ud-instead-of-read", "PRIV-1",
	"the emulator lacks RDPMC: a permitted RDPMC raises #UD")
DEVIATION(FAST_FLAG_ACCEPTED, "fast-flag-accepted", "ARCH-6",
	"ECX[31] is dropped on an architectural PMU instead of #GP(0)")
DEVIATION(TYPE_IGNORED, "type-ignored", "ARCH-1 ARCH-5",
	"ECX[31:16] is not checked: an undefined type reads a GP counter")
DEVIATION(INDEX_OFF_BY_ONE, "index-off-by-one", "ARCH-2 ARCH-3",
	"index x is valid up to and including the enumerated count")
DEVIATION(BITMAP_IGNORED, "bitmap-ignored", "ARCH-2 ARCH-3",
	"CPUID.0AH:ECX and CPUID.23H bitmaps ignored: only counts decide")
DEVIATION(V1_FIXED_ACCEPTED, "v1-fixed-accepted", "ARCH-3",
	"version 1 takes CPUID.0AH:EDX[4:0] as the fixed count")
DEVIATION(NO_HIGH_CLEAR, "no-high-clear", "MODE-1",
	"a 64-bit read keeps RAX[63:32] and RDX[63:32]")
DEVIATION(RCX_HIGH_USED, "rcx-high-used", "MODE-1",
	"64-bit mode decodes all of RCX: RCX[63:32] set is #GP(0)")
DEVIATION(WIDTH_UNMASKED, "width-unmasked", "ARCH-7 NARCH-3 AMD-3",
	"RDPMC returns the stored count without masking it to the width")
DEVIATION(EDX_NOT_ZEROED_FAST, "edx-not-zeroed-fast", "NARCH-2",
	"a fast read returns PMC[39:32] in EDX instead of 0")
DEVIATION(METRICS_NOT_CLEARED, "metrics-not-cleared", "MET-1",
	"RDPMC of PERF_METRICS with METRICS_CLEAR_EN = 1 does not clear")
DEVIATION(METRICS_ALWAYS_CLEARED, "metrics-always-cleared", "MET-2",
	"RDPMC of PERF_METRICS clears even with METRICS_CLEAR_EN = 0")
DEVIATION(METRICS_NOT_COUNTED, "metrics-not-counted", "MET-4",
	"PERF_METRICS stays 0 while fixed counter 3 counts slots (PERF_METRICS_AVAILABLE enumerated, the metrics not emulated)")
DEVIATION(AMD_BITS_31_30_IGNORED, "amd-bits-31-30-ignored", "AMD-2",
	"AMD ECX[31:30] dropped: ECX 8000_0000H reads PerfCtr0")
DEVIATION(REGS_CLOBBERED_ON_FAULT, "regs-clobbered-on-fault", "PRIV-6",
	"a faulting RDPMC zeroes RAX and RDX")
DEVIATION(RIP_ADVANCED_ON_FAULT, "rip-advanced-on-fault", "PRIV-6",
	"the #GP is reported after the RDPMC: saved RIP + 2")

/* the counting side */
DEVIATION(PMC_WRITE_ZERO_EXTENDED, "pmc-write-zero-extended", "PROG-5",
	"a plain WRMSR to IA32_PMCx keeps bits 31:0 and clears the rest")
DEVIATION(FIXED_WRITE_SIGN_EXTENDED, "fixed-write-sign-extended", "WR-1",
	"a WRMSR to IA32_FIXED_CTRx sign-extends bit 31 (KVM before 2019)")
DEVIATION(USR_OS_SWAPPED, "usr-os-swapped", "PROG-2",
	"USR enables counting at CPL 0 and OS at CPL 1-3")
DEVIATION(EN_IGNORED, "en-ignored", "PROG-6",
	"an event select with EN clear counts when USR or OS is set")
DEVIATION(GLOBAL_CTRL_IGNORED, "global-ctrl-ignored", "PROG-6",
	"IA32_PERF_GLOBAL_CTRL / PerfCntrGlobalCtl bits do not gate counting")
DEVIATION(BRANCHES_AS_INSTRUCTIONS, "branches-as-instructions", "PROG-4",
	"the branch-instructions-retired event counts every instruction")
DEVIATION(REF_CYCLES_PER_INSTRUCTION, "ref-cycles-per-instruction", "REF-1 REF-2",
	"fixed counter 2 and UnHalted Reference Cycles (3CH/01H) count one per retired instruction, not at a reference clock's rate (the TCG PMU through its patch 14)")
DEVIATION(CMASK_IGNORED, "cmask-ignored", "PROG-8",
	"CMASK is ignored: the counter counts events, not cycles")
DEVIATION(INV_IGNORED, "inv-ignored", "PROG-8",
	"INV is ignored: the CMASK comparison is never inverted")
DEVIATION(EDGE_IGNORED, "edge-ignored", "PROG-8",
	"EDGE is ignored: every cycle meeting CMASK counts, not its edge")
DEVIATION(COUNTER_SATURATES, "counter-saturates", "OVF-1",
	"a counter stops at all ones instead of wrapping to 0")
DEVIATION(OVERFLOW_STATUS_LOST, "overflow-status-lost", "OVF-1",
	"an overflow does not set the counter's global status bit")
DEVIATION(STATUS_RESET_IGNORED, "status-reset-ignored", "OVF-2",
	"writes to IA32_PERF_GLOBAL_OVF_CTRL / PerfCntrGlobalStatusClr do nothing")
DEVIATION(STATUS_SET_IGNORED, "status-set-ignored", "OVF-3",
	"writes to IA32_PERF_GLOBAL_STATUS_SET / PerfCntrGlobalStatusSet do nothing")
DEVIATION(PMI_LOST, "pmi-lost", "PMI-1",
	"an overflow with the interrupt enabled raises no PMI")
DEVIATION(PMI_WITHOUT_INT, "pmi-without-int", "PMI-1",
	"every overflow raises a PMI, whatever INT says")
DEVIATION(PMI_WHILE_MASKED, "pmi-while-masked", "PMI-2",
	"the PMI is delivered although the LVT entry is masked")
DEVIATION(LVT_NOT_MASKED_ON_PMI, "lvt-not-masked-on-pmi", "PMI-3",
	"delivering a PMI leaves the LVT entry unmasked (KVM before 2023)")
DEVIATION(FIXED_PMI_IGNORED, "fixed-pmi-ignored", "PMI-1",
	"the PMI bits of IA32_FIXED_CTR_CTRL are ignored")
DEVIATION(ABSENT_MSRS_ACCEPTED, "absent-msrs-accepted", "MSR-1",
	"PMU MSRs CPUID does not enumerate read 0 and drop writes")
DEVIATION(RESERVED_BITS_ACCEPTED, "reserved-bits-accepted", "MSR-2",
	"WRMSR of reserved bits of the global and fixed controls is taken")
DEVIATION(HOST_COUNTER_SHORTAGE, "host-counter-shortage", "PROG-7",
	"with every GP counter enabled the last one never counts (a host NMI watchdog holds one)")
DEVIATION(GLOBAL_CTRL_RESET_ZERO, "global-ctrl-reset-zero", "RESET-1",
	"IA32_PERF_GLOBAL_CTRL is 0 after reset (KVM before 2024)")
DEVIATION(RUNNING_WRITE_LOST, "running-write-lost", "WR-2",
	"a WRMSR to a general-purpose counter with EN set is dropped")
DEVIATION(VMWARE_BACKDOOR, "vmware-backdoor", "ARCH-5 AMD-2 PRIV-1",
	"ECX 1_0000H-1_0002H read a clock at any CPL (KVM's enable_vmware_backdoor)")
DEVIATION(FIXED_CAPPED_AT_THREE, "fixed-capped-at-three", "ARCH-3",
	"fixed counters past the third are dropped, whatever EDX[4:0] says")

/* the counting side, complete */
DEVIATION(RUNNING_WRITE_KEEPS_PERIOD, "running-write-keeps-period", "OVF-5",
	"a write to a running counter leaves the overflow where the old value would wrap (KVM before 2019)")
DEVIATION(RUNNING_WRITE_ADDS_CONSTANT, "running-write-adds-constant", "WR-2",
	"a WRMSR to a running counter leaves it at the value plus 100: the hypervisor's own work of the exit counted after the write")
DEVIATION(EXITS_NOT_COUNTED, "exits-not-counted", "EXIT-1",
	"instructions the hypervisor completes itself are not counted as retired (KVM before 2021)")
DEVIATION(EXITS_COUNTED_DESPITE_CMASK, "exits-counted-despite-cmask", "EXIT-2",
	"the hypervisor counts the instructions it completes without CMASK, INV or EDGE (KVM's kvm_pmu_trigger_event)")
DEVIATION(EXIT_OVERFLOW_EARLY, "exit-overflow-early", "OVF-6",
	"an instruction the hypervisor counts on a sign-extended IA32_PMCx signals an overflow at once (KVM before 2023)")
DEVIATION(FIXED_CTRL_TRUNCATED, "fixed-ctrl-truncated", "PROG-9",
	"clearing the IA32_FIXED_CTR_CTRL field of fixed counter 2 or up does not stop it (KVM's u8 old_fixed_ctr_ctrl)")
DEVIATION(AMD_LVT_MASKED_ON_PMI, "amd-lvt-masked-on-pmi", "PMI-4",
	"an AMD local APIC masks the LVT performance-counter entry on delivery (KVM before 2024)")
DEVIATION(PMI_TWICE, "pmi-twice", "PMI-5",
	"one overflow delivers a second PMI (KVM before 2023)")
DEVIATION(AMD_GLOBAL_CTL_RESET_ZERO, "amd-global-ctl-reset-zero", "RESET-4",
	"PerfCntrGlobalCtl is 0 after reset (KVM before 2024)")
DEVIATION(AMD_GLOBAL_CTL_RESERVED_GP, "amd-global-ctl-reserved-gp", "MSR-2",
	"a WRMSR that sets a PerfCntrGlobalCtl bit past the core counters raises #GP(0) instead of completing with the bit read as zero (Intel's reserved-bit rule on AMD's RAZ bits, as KVM had it for AMD's event selects in 2022)")
DEVIATION(PMU_NOT_RESET, "pmu-not-reset", "RESET-2 RESET-3",
	"event selects and counters keep the previous boot's values (QEMU before 2025, AMD)")
DEVIATION(AMD_EVENTSEL_HIGH_DROPPED, "amd-eventsel-high-dropped", "AMD-4 AMD-5",
	"PerfEvtSel EventSelect[11:8] (bits 35:32) is dropped as reserved (KVM in 2022)")
DEVIATION(HG_ONLY_IGNORED, "hg-only-ignored", "AMD-4 AMD-6",
	"PerfEvtSel Host-only and Guest-only (bits 41:40) are dropped, so with EFER.SVME = 0 they count (KVM 2022-2026)")
DEVIATION(ANYTHREAD_REFUSED, "anythread-refused", "PROG-11",
	"IA32_PERFEVTSELx.ANY raises #GP although version 3+ defines it and CPUID.0AH:EDX[15] = 0 (KVM's reserved bit 21)")
DEVIATION(EVTSEL_RESERVED_DROPPED, "evtsel-reserved-dropped", "PROG-10",
	"reserved IA32_PERFEVTSELx bits are dropped instead of #GP (AMD's rule on an Intel vCPU)")
DEVIATION(PERF_CAPS_WITHOUT_PDCM, "perf-caps-without-pdcm", "MSR-3",
	"IA32_PERF_CAPABILITIES reads 0 although CPUID.01H:ECX.PDCM = 0")
DEVIATION(PERF_CAPS_WRITES_DROPPED, "perf-caps-writes-dropped", "MSR-3",
	"a WRMSR of IA32_PERF_CAPABILITIES completes and does nothing (QEMU TCG's unhandled-MSR default)")
DEVIATION(FREEZE_REFUSED, "freeze-refused", "PMI-6",
	"IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI raises #GP where PDCM and version 2+ define it (KVM's vmx_set_msr)")
DEVIATION(FREEZE_IGNORED, "freeze-ignored", "PMI-6",
	"IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI is kept but a PMI freezes nothing")
DEVIATION(BEYOND_WIDTH_TRUNCATED, "beyond-width-truncated", "WR-3",
	"IA32_FIXED_CTRx and IA32_A_PMCx writes beyond the width are truncated instead of #GP (KVM's fixed-counter path)")
DEVIATION(COUNTER_WRITES_DROPPED, "counter-writes-dropped", "PROG-3 WR-1",
	"WRMSR to a counter or its control is taken and dropped: they read 0 (KVM with enable_pmu=0)")
DEVIATION(LVT_SAMPLED_AT_WRMSR, "lvt-sampled-at-wrmsr", "PMI-1 PMI-2",
	"a WRMSR that programs a counter decides from the LVT entry then whether its overflow interrupts; the entry is not read again")

/* event-select extensions, GLOBAL_INUSE, port I/O */
DEVIATION(IN_TX_REFUSED, "in-tx-refused", "PROG-12",
	"IA32_PERFEVTSELx.IN_TX raises #GP although CPUID enumerates HLE or RTM (KVM before 2013)")
DEVIATION(IN_TXCP_ANY_COUNTER, "in-txcp-any-counter", "PROG-12",
	"IN_TXCP is taken in every event select, not IA32_PERFEVTSEL2 alone")
DEVIATION(TSX_BITS_WITHOUT_TSX, "tsx-bits-without-tsx", "PROG-12",
	"IN_TX and IN_TXCP are taken although the guest's CPUID has no HLE or RTM (the host's TSX decides)")
DEVIATION(EVTSEL_EXT_REFUSED, "evtsel-ext-refused", "PROG-13",
	"UMASK2 and EQ raise #GP although CPUID.23H.00H:EBX enumerates them (a reserved mask from before leaf 23H)")
DEVIATION(EVTSEL_EXT_WITHOUT_LEAF23, "evtsel-ext-without-leaf23", "PROG-13",
	"UMASK2 and EQ are taken although CPUID.23H.00H:EBX does not enumerate them (the host's mask decides)")
DEVIATION(INUSE_ABSENT, "inuse-absent", "MSR-4",
	"IA32_PERF_GLOBAL_INUSE raises #GP although version 4 defines it")
DEVIATION(INUSE_WRITABLE, "inuse-writable", "MSR-4",
	"a WRMSR of IA32_PERF_GLOBAL_INUSE completes and does nothing")
DEVIATION(INUSE_FOLLOWS_EN, "inuse-follows-en", "MSR-4",
	"IA32_PERF_GLOBAL_INUSE bit x follows IA32_PERFEVTSELx.EN instead of bits 7:0")
DEVIATION(PORT_IO_NOT_COUNTED, "port-io-not-counted", "EXIT-1",
	"a port I/O instruction the hypervisor completes is not counted as retired (its I/O completion path skips the account)")

/* the per-vCPU side: they need a machine of two CPUs or more */
DEVIATION(COUNTERS_SHARED, "counters-shared", "SMP-3",
	"one counter bank for all vCPUs: a count written on one is read on the others")
DEVIATION(PCE_SHARED, "pce-shared", "SMP-2",
	"the CR4.PCE last written on any vCPU decides RDPMC on every vCPU")
DEVIATION(AP_RDPMC_INTERCEPTED, "ap-rdpmc-intercepted", "SMP-2 PRIV-1",
	"RDPMC stays intercepted on secondary vCPUs: #GP(0) above CPL 0 whatever CR4.PCE")
DEVIATION(PMI_WRONG_CPU, "pmi-wrong-cpu", "SMP-4 PMI-1",
	"a counter's PMI goes to the next vCPU's local APIC, not its own")
DEVIATION(STATE_LOST_ON_SWITCH, "state-lost-on-switch", "SMP-3",
	"a vCPU's counters are not restored when it runs again: they read 0")
DEVIATION(COUNTS_WHILE_DESCHEDULED, "counts-while-descheduled", "SMP-7",
	"a halted vCPU's enabled counters stay loaded and count the other vCPUs' work (a lazy PMU context switch that skips a vCPU with nothing enabled)")
DEVIATION(PMI_TO_NEXT_VCPU, "pmi-to-next-vcpu", "SMP-4 PMI-1",
	"an overflow's PMI, which the host handles at the vCPU's next exit, goes to the vCPU running then: one raised as the vCPU halts reaches the next (the running vCPU taken for the counter's)")
DEVIATION(PMI_BROADCAST, "pmi-broadcast", "SMP-4",
	"a counter's PMI reaches every vCPU whose LVT entry is unmasked, its own among them (sent as a broadcast, not through the local LVT entry)")
DEVIATION(RDPMC_STALE_UNTIL_MSR_EXIT, "rdpmc-stale-until-msr-exit", "SMP-3 PRIV-7",
	"a vCPU's counters are loaded into the hardware only as the hypervisor takes one of its MSR exits: until then its RDPMC, not intercepted, reads the counters the last vCPU left there, while RDMSR reads its own")
DEVIATION(AP_RDPMC_HOST_COUNTS, "ap-rdpmc-host-counts", "SMP-3 PRIV-7",
	"RDPMC passed through on secondary vCPUs whose counters the hypervisor never loads into the hardware (it loads vCPU 0's alone): there RDPMC reads the host's counts, RDMSR the vCPU's")
DEVIATION(ANYTHREAD_ACROSS_VCPUS, "anythread-across-vcpus", "PROG-11",
	"AnyThread of a fixed counter passed through although CPUID.0AH:EDX[15] deprecates it: the counter counts the work of the vCPU on its hardware sibling thread (here every other vCPU)")
DEVIATION(ANYTHREAD_ALL_VCPUS, "anythread-all-vcpus", "PROG-11",
	"AnyThread of a fixed counter, not deprecated, counts the work of every vCPU of the VM although the topology (CPUID.0BH) puts each vCPU in a core of its own (a vPMU that maps AnyThread to all vCPUs)")
DEVIATION(ENUMERATION_DIFFERS, "enumeration-differs", "SMP-1",
	"secondary vCPUs enumerate one general-purpose counter fewer than vCPU 0")
DEVIATION(AP_NOT_AS_INIT_LEFT, "ap-not-as-init-left", "SMP-5 RESET-2",
	"secondary vCPUs start with a counter counting, not as reset and INIT leave it")
DEVIATION(AP_HANGS, "ap-hangs", "SMP-6",
	"a secondary vCPU stops in its first counting workload and never returns")
DEVIATION(AP_HANGS_WRITING, "ap-hangs-writing", "SMP-6",
	"the first secondary vCPU stops as it writes its third line to the log, before any of it is out (inside a YAML block where its first test has diagnostics, as with verbose)")

/* the world switch: a hypervisor that loads a vCPU's counters as it
 * enters guest mode and saves them as it leaves (an exit, a halt);
 * tests/sim/sim_switch.c. Caught with an AP (smp.switch.*). */
DEVIATION(PMI_DROPPED_AT_EXIT, "pmi-dropped-at-exit", "SMP-9 PMI-1",
	"a PMI still on its way when the vCPU leaves guest mode (the overflow on the instruction before a VM exit, the PMI's skid past it) is dropped: the host takes the late interrupt for its own")
DEVIATION(EXIT_OVERFLOW_NO_PMI, "exit-overflow-no-pmi", "SMP-9 PMI-1 EXIT-1",
	"an overflow caused by the hypervisor's own count of an instruction it completes, out of guest mode, sets the status bit and requests no PMI")
DEVIATION(PMI_AGAIN_AT_REENTRY, "pmi-again-at-reentry", "SMP-9 PMI-5",
	"a vCPU that runs again after halting takes a second PMI for an overflow already signalled: the load of its saved state raises one for every status bit whose counter has its interrupt enabled")
DEVIATION(COUNTERS_LOADED_LATE, "counters-loaded-late", "SMP-9 SMP-7",
	"a vCPU that runs again after halting counts nothing until its first MSR exit: the hypervisor loads its counters (their enables) lazily, at the first PMU MSR access, not at the entry that resumes it")

/*
 * The MSRs of the kernel side (kernel/, arch/, the suites, tests/kernel/)
 * and their fields, Intel and AMD, as numbers only: the PMU's (PROG-1,
 * PROG-5, MET-1, OVF-1..3, AMD-2; SDM Vol. 4, APM Vol. 2 "Performance
 * Counters") and the control MSRs around them. The one list: no file
 * defines an MSR number of its own. The simulator keeps its own list
 * (tests/sim/sim_msr.h) on purpose; tests/check.py msr_lists holds the
 * two to the same numbers.
 */
#ifndef PMCTEST_MSR_H
#define PMCTEST_MSR_H

/* Intel, architectural PMU */
#define MSR_IA32_PMC0			0x0C1u	/* + x */
#define MSR_IA32_PERFEVTSEL0		0x186u	/* + x */
#define MSR_IA32_FIXED_CTR0		0x309u	/* + x */
#define MSR_IA32_FIXED_CTR3		0x30Cu	/* MET-1: topdown slots */
#define MSR_IA32_PERF_METRICS		0x329u	/* ARCH-4, MET-1 */
#define MSR_IA32_DEBUGCTL		0x1D9u	/* FREEZE_PERFMON_ON_PMI (PMI-6) */
#define MSR_IA32_PERF_CAPABILITIES	0x345u	/* where CPUID.01H:ECX.PDCM = 1 (MET-3, MSR-3) */
#define MSR_IA32_FIXED_CTR_CTRL		0x38Du
#define MSR_IA32_PERF_GLOBAL_STATUS	0x38Eu	/* OVF-1, read-only */
#define MSR_IA32_PERF_GLOBAL_CTRL	0x38Fu
#define MSR_IA32_PERF_GLOBAL_OVF_CTRL	0x390u	/* OVF-2; STATUS_RESET from v4 */
#define MSR_IA32_PERF_GLOBAL_STATUS_SET	0x391u	/* OVF-3, version 4 */
#define MSR_IA32_PERF_GLOBAL_INUSE	0x392u	/* MSR-4, version 4, read-only */
#define MSR_IA32_A_PMC0			0x4C1u	/* + x, full width (FW_WRITE) */

/* IA32_PERFEVTSELx and AMD PerfEvtSeln share these fields (PROG-1). */
#define EVTSEL_EVENT(e)			((uint64_t)(e) & 0xFFu)
#define EVTSEL_UMASK(u)			(((uint64_t)(u) & 0xFFu) << 8)
#define EVTSEL_USR			(1ull << 16)
#define EVTSEL_OS			(1ull << 17)
#define EVTSEL_EDGE			(1ull << 18)
#define EVTSEL_PC			(1ull << 19)	/* model-specific (PROG-10) */
#define EVTSEL_INT			(1ull << 20)
#define EVTSEL_ANY			(1ull << 21)	/* version 3 (PROG-11) */
#define EVTSEL_EN			(1ull << 22)
#define EVTSEL_INV			(1ull << 23)
#define EVTSEL_CMASK(c)			(((uint64_t)(c) & 0xFFu) << 24)

/* IA32_PERFEVTSELx bits 63:32 the enumeration defines (PROG-12, PROG-13). */
#define EVTSEL_IN_TX			(1ull << 32)	/* with HLE or RTM */
#define EVTSEL_IN_TXCP			(1ull << 33)	/* and IA32_PERFEVTSEL2 only */
#define EVTSEL_EQ			(1ull << 36)	/* CPUID.23H.00H:EBX[1] */
#define EVTSEL_UMASK2			(0xFFull << 40)	/* CPUID.23H.00H:EBX[0] */

/* IA32_PERF_GLOBAL_INUSE (MSR-4) */
#define INUSE_GP(x)			(1ull << (x))
#define INUSE_FIXED(i)			(1ull << (32 + (i)))
#define INUSE_PMI			(1ull << 63)

/* AMD PerfEvtSeln only (AMD-4..6). */
#define AMD_EVTSEL_EVENT_HIGH(e)	((((uint64_t)(e) >> 8) & 0xFu) << 32)
#define AMD_EVTSEL_GUEST_ONLY		(1ull << 40)
#define AMD_EVTSEL_HOST_ONLY		(1ull << 41)

/* EFER (SDM Vol. 3A 2.2.1, APM Vol. 2 3.1.7): SYSCALL enable, NX enable,
 * and the SVM enable AMD-6 reads. */
#define MSR_EFER			0xC0000080u
#define EFER_SCE			(1ull << 0)
#define EFER_NXE			(1ull << 11)
#define EFER_SVME			(1ull << 12)

/* SYSCALL's target and flags mask (SDM Vol. 3A 5.8.8). */
#define MSR_STAR			0xC0000081u
#define MSR_LSTAR			0xC0000082u
#define MSR_FMASK			0xC0000084u

/* The local APIC's base and mode (SDM Vol. 3A 11.4.4, 11.12.1). */
#define MSR_IA32_APIC_BASE		0x01Bu

/* Enumerates what the CPU is not vulnerable to; where CPUID.07H.0:EDX[29]
 * = 1 (SDM Vol. 4 2.1). */
#define MSR_IA32_ARCH_CAPABILITIES	0x10Au

/* PMI-6 */
#define DEBUGCTL_FREEZE_PERFMON_ON_PMI	(1ull << 12)
#define GLOBAL_STATUS_CTR_FRZ		(1ull << 59)	/* version 4 */

/* IA32_FIXED_CTR_CTRL: four bits per fixed counter i (PROG-5). */
#define FIXED_CTRL_OS(i)		(1ull << (4 * (i)))
#define FIXED_CTRL_USR(i)		(1ull << (4 * (i) + 1))
#define FIXED_CTRL_ANY(i)		(1ull << (4 * (i) + 2))	/* version 3 (PROG-11) */
#define FIXED_CTRL_PMI(i)		(1ull << (4 * (i) + 3))
#define FIXED_CTRL_FIELDS		16
#define FIXED_CTRL_FIELD(i)		(0xFull << (4 * (i)))
#define FIXED_CTRL_METRICS_CLEAR_EN	(1ull << 14)	/* MET-1 */

/* IA32_PERF_GLOBAL_CTRL: bit x gates PMCx, bit 32 + i fixed counter i. */
#define GLOBAL_CTRL_GP(x)		(1ull << (x))
#define GLOBAL_CTRL_FIXED(i)		(1ull << (32 + (i)))
#define GLOBAL_CTRL_PERF_METRICS	(1ull << 48)	/* EN_PERF_METRICS */

/* AMD core counters (AMD-2): legacy PerfEvtSel0-3 / PerfCtr0-3, and with
 * PerfCtrExtCore the six interleaved extended pairs. The other ranges:
 * CTL at 2n, CTR at 2n + 1. */
#define MSR_AMD_PERF_EVTSEL0		0xC0010000u	/* + n, n < 4 */
#define MSR_AMD_PERF_CTR0		0xC0010004u	/* + n, n < 4 */
#define MSR_AMD_PERF_CTL_EXT0		0xC0010200u	/* + 2n */
#define MSR_AMD_PERF_CTR_EXT0		0xC0010201u	/* + 2n */
#define MSR_AMD_L2_CTL0			0xC0010230u	/* PerfCtrExtLLC, AMD-2 */
#define MSR_AMD_NB_CTL0			0xC0010240u	/* PerfCtrExtNB, AMD-2 */
#define MSR_AMD_PERF_GLOBAL_STATUS	0xC0000300u	/* PerfMonV2, read-only */
#define MSR_AMD_PERF_GLOBAL_CTL		0xC0000301u	/* PerfMonV2: bit n */
#define MSR_AMD_PERF_GLOBAL_STATUS_CLR	0xC0000302u
#define MSR_AMD_PERF_GLOBAL_STATUS_SET	0xC0000303u

#endif

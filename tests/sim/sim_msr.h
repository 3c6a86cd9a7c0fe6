/* The simulated CPU's PMU MSRs: RDMSR and WRMSR at CPL 0. */
#ifndef PMCTEST_SIM_MSR_H
#define PMCTEST_SIM_MSR_H

#include <stdbool.h>
#include <stdint.h>

#include "sim_cpu.h"

/*
 * The addresses (and, in sim_msr.c and sim_count.c, the fields), read
 * from the SDM (Vol. 4) and the APM (Vol. 2) for the simulator alone. The
 * kernel's checks have their own list (kernel/msr.h); this one stays
 * separate on purpose, so that a wrong number there makes the checks and
 * the simulator disagree instead of agreeing on the same mistake.
 */
#define MSR_IA32_PMC0			0x0C1u	/* + x */
#define MSR_IA32_PERFEVTSEL0		0x186u	/* + x */
#define MSR_IA32_FIXED_CTR0		0x309u	/* + x */
#define MSR_IA32_PERF_METRICS		0x329u
#define MSR_IA32_PERF_CAPABILITIES	0x345u
#define MSR_IA32_FIXED_CTR_CTRL		0x38Du
#define MSR_IA32_PERF_GLOBAL_STATUS	0x38Eu
#define MSR_IA32_PERF_GLOBAL_CTRL	0x38Fu
#define MSR_IA32_PERF_GLOBAL_OVF_CTRL	0x390u	/* STATUS_RESET from v4 */
#define MSR_IA32_PERF_GLOBAL_STATUS_SET	0x391u	/* v4 */
#define MSR_IA32_PERF_GLOBAL_INUSE	0x392u	/* v4, read-only (MSR-4) */
#define MSR_IA32_A_PMC0			0x4C1u	/* + x, FW_WRITE */
#define MSR_IA32_DEBUGCTL		0x1D9u	/* PMI-6 */
#define MSR_EFER			0xC0000080u	/* AMD-6 */
#define MSR_AMD_PERF_EVTSEL0		0xC0010000u	/* + n, n < 4 */
#define MSR_AMD_PERF_CTR0		0xC0010004u	/* + n, n < 4 */
#define MSR_AMD_PERF_CTL_EXT0		0xC0010200u	/* + 2n, CTR + 2n + 1 */
#define MSR_AMD_L2_CTL0			0xC0010230u	/* + 2n, PerfCtrExtLLC */
#define MSR_AMD_NB_CTL0			0xC0010240u	/* + 2n, PerfCtrExtNB */
#define MSR_AMD_PERF_GLOBAL_STATUS	0xC0000300u	/* PerfMonV2 */
#define MSR_AMD_PERF_GLOBAL_CTL		0xC0000301u
#define MSR_AMD_PERF_GLOBAL_STATUS_CLR	0xC0000302u
#define MSR_AMD_PERF_GLOBAL_STATUS_SET	0xC0000303u

/* False where the CPU raises #GP(0): an MSR the profile does not
 * enumerate, or a write to a read-only one. */
bool sim_rdmsr(struct sim_cpu *cpu, uint32_t msr, uint64_t *value);
bool sim_wrmsr(struct sim_cpu *cpu, uint32_t msr, uint64_t value);

#endif

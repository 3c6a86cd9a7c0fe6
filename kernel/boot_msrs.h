/*
 * The PMU MSRs as pmctest found them at boot, read once before any test
 * writes one: what RESET-1..4 compare with the reset values; and the same
 * MSRs of each AP read on it right after INIT-SIPI-SIPI started it (the
 * arch's cpu_started hook calls boot_msrs_record_cpu()): its INIT state.
 * Pure: it reads through exec_rdmsr() (kernel/exec.h), on the CPU and in
 * the simulator.
 */
#ifndef PMCTEST_BOOT_MSRS_H
#define PMCTEST_BOOT_MSRS_H

#include <stdbool.h>
#include <stdint.h>

#include "cpus.h"

/* IA32_PMCx, IA32_PERFEVTSELx (32 each), IA32_FIXED_CTRx (16), the three
 * global MSRs, AMD's 8 legacy, 12 PerfCtrExtCore and 2 global MSRs. */
#define BOOT_MSRS	(32 + 32 + 16 + 3 + 8 + 12 + 2)

/* One CPU's reading. */
struct boot_msrs {
	struct {
		bool read;	/* RDMSR completed */
		uint64_t value;
	} found[BOOT_MSRS];
};

/* Reads every counter, event select and global MSR of either vendor on the
 * calling CPU; one a CPU lacks costs a contained #GP. */
void boot_msrs_read(struct boot_msrs *into);

/* msr as `from` holds it; false if it is not among them or RDMSR
 * faulted. */
bool boot_msrs_value(const struct boot_msrs *from, uint32_t msr,
		     uint64_t *value);

/* CPU 0's reading at boot: call once, before the tests. */
void boot_msrs_record(void);

/* msr as read then; false if it is not among them or RDMSR faulted. */
bool boot_msr(uint32_t msr, uint64_t *value);

/* On AP cpu (1 .. CPUS_MAX - 1), as it starts: its reading. */
void boot_msrs_record_cpu(unsigned cpu);

/* AP cpu's reading as it started; NULL for CPU 0 (its values at boot are
 * boot_msr()'s, after the firmware ran) and for a CPU that never
 * recorded one. */
const struct boot_msrs *boot_msrs_at_init(unsigned cpu);

#endif

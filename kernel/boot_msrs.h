/*
 * The PMU MSRs as pmctest found them on each CPU as it started, read once
 * before any test writes one: what RESET-1..4 compare with the reset
 * values, and on an application processor, which firmware and pmctest
 * started by INIT-SIPI-SIPI, with the values INIT leaves (SMP-5). Pure: it
 * reads through exec_rdmsr() (kernel/exec.h), on the CPU and in the
 * simulator, and files them under platform_this_cpu().
 */
#ifndef PMCTEST_BOOT_MSRS_H
#define PMCTEST_BOOT_MSRS_H

#include <stdbool.h>
#include <stdint.h>

/* Reads every counter, event select and global MSR of either vendor on
 * the executing CPU; one a CPU lacks costs a contained #GP. Call once on
 * each CPU, first thing after it starts, before any test. */
void boot_msrs_record(void);

/* Whether the executing CPU has recorded them. */
bool boot_msrs_recorded(void);

/* msr as the executing CPU read it then; false if it is not among them,
 * RDMSR faulted, or the CPU recorded none. */
bool boot_msr(uint32_t msr, uint64_t *value);

#endif

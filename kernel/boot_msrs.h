/*
 * The PMU MSRs as pmctest found them at boot, read once before any test
 * writes one: what RESET-1..4 compare with the reset values. Pure: it reads
 * through exec_rdmsr() (kernel/exec.h), on the CPU and in the simulator.
 */
#ifndef PMCTEST_BOOT_MSRS_H
#define PMCTEST_BOOT_MSRS_H

#include <stdbool.h>
#include <stdint.h>

/* Reads every counter, event select and global MSR of either vendor;
 * one a CPU lacks costs a contained #GP. Call once, before the tests. */
void boot_msrs_record(void);

/* msr as read then; false if it is not among them or RDMSR faulted. */
bool boot_msr(uint32_t msr, uint64_t *value);

#endif

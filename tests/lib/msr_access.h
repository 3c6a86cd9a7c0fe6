/*
 * RDMSR and WRMSR for the checks, through exec_rdmsr() / exec_wrmsr()
 * (kernel/exec.h), so the host simulator runs the same checks. A fault is
 * text for the caller's report: each appends "WRMSR(C0010004H, 0x0)
 * raised vector 13 (error code 0x0)"-style text to `why` and returns false.
 */
#ifndef PMCTEST_MSR_ACCESS_H
#define PMCTEST_MSR_ACCESS_H

#include <stdbool.h>
#include <stdint.h>

#include "strbuf.h"

bool msr_read(uint32_t msr, uint64_t *value, struct strbuf *why);
bool msr_write(uint32_t msr, uint64_t value, struct strbuf *why);

#endif

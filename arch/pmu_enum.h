#ifndef PMCTEST_PMU_ENUM_H
#define PMCTEST_PMU_ENUM_H

#include "model.h"

/* Reads the model's inputs from this CPU: CPUID leaves 01H, 07H, 0AH, 23H,
 * 8000_0001H, 8000_0022H and, where CPUID says they exist,
 * PERF_CAPABILITIES and ARCH_CAPABILITIES. */
void pmu_enumerate(struct pmu_cpuid *raw);

/* CPUID.0:EBX EDX ECX, NUL-terminated. */
void cpu_vendor_string(char out[13]);

#endif

/*
 * The enumerations the model's host tests ask about, in query.h syntax:
 * real CPUs (their CPUID values and sources: decode_test.c) and made-up
 * ones for the edges of each rule.
 */
#ifndef PMCTEST_MODEL_CPUS_H
#define PMCTEST_MODEL_CPUS_H

/* Ice Lake client, i7-1065G7 (values: see decode_test.c): version 5, 8 GP
 * and 4 fixed counters of 48 bits, CPUID.0AH:ECX = 0FH. */
#define ICL "cpuid.0a.eax=0x08300805 cpuid.0a.ecx=0xf cpuid.0a.edx=0x8604 "
/* ICL with PDCM and IA32_PERF_CAPABILITIES.PERF_METRICS_AVAILABLE. */
#define METRICS ICL "cpuid.01.ecx=0x8000 perf_capabilities=0x8000 "
/* Arrow Lake P-core, Core Ultra 5 245K (decode_test.c): 8 GP and 3 fixed
 * counters in CPUID.0AH, 10 GP and 4 fixed in CPUID.23H.01H. */
#define ARL "cpuid.0a.eax=0x0d300806 cpuid.0a.ebx=0x280 cpuid.0a.ecx=0x7 " \
	    "cpuid.0a.edx=0x8603 cpuid.23.1.eax=0x3ff cpuid.23.1.ebx=0xf "
/* Version 6, 4 GP and 3 fixed counters, sparse CPUID.23H.01H bitmaps:
 * GP 4, 5, 8-11, 31 and fixed 9, 31. */
#define SPARSE "cpuid.0a.eax=0x07300406 cpuid.0a.edx=0x603 " \
	       "cpuid.23.1.eax=0x80000f30 cpuid.23.1.ebx=0x80000200 "
/* Version 5, no fixed count in EDX[4:0], CPUID.0AH:ECX = fixed 0, 2, 31. */
#define HOLEY "cpuid.0a.eax=0x07300405 cpuid.0a.ecx=0x80000005 " \
	      "cpuid.0a.edx=0x8600 "
/* Version 1, 4 GP counters of 40 bits, EDX garbage (meaningless at v1). */
#define V1 "cpuid.0a.eax=0x07280401 cpuid.0a.edx=0x603 "
/* No architectural PMU: version 0 (P6, Pentium M, Pentium 4). */
#define V0 "cpuid.01.eax=0x000006d8 cpuid.0a.eax=0 "	/* Pentium M */
#define V0_HIDDEN "cpuid.01.eax=0x000506e3 cpuid.0a.eax=0 "	/* Skylake, no PMU */
#define AMD_K8 "vendor=amd "
#define AMD_CORE "vendor=amd cpuid.80000001.ecx=0x00800000 "
#define AMD_NB "vendor=amd cpuid.80000001.ecx=0x01000000 "
#define AMD_LLC "vendor=amd cpuid.80000001.ecx=0x10000000 "
/* Zen 3, Ryzen 5 5600G (decode_test.c): PerfCtrExtCore, NB and LLC. */
#define ZEN3 "vendor=amd cpuid.80000001.ecx=0x75c237ff "

#endif

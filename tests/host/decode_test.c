/*
 * decode_test: pmu_decode() against the CPUID values of real processors,
 * then against the edge cases of each field. One row per enumeration; every
 * field of struct pmu_info is compared, so a row lists the expected nonzero
 * fields and means zero for the rest.
 */
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "suites.h"
#include "tap.h"

#define PDCM 0x00008000u

struct decode_case {
	const char *name;
	struct pmu_cpuid raw;
	struct pmu_info want;
};

static const struct decode_case cases[] = {
	/*
	 * Skylake client, Core i7-6700K: VirtualBox's CPU database,
	 * src/VBox/VMM/VMMR3/cpus/Intel_Core_i7_6700K.h (VBoxCpuReport of
	 * 2015-11-04): CPUID.01H EAX 000506E3 ECX 7FFAFBBF; CPUID.0AH
	 * 07300404 00000000 00000000 00000603; MSR 345H = 33C5H.
	 */
	{ "Skylake i7-6700K",
	  { .vendor = VENDOR_INTEL, .leaf01_eax = 0x000506e3,
	    .leaf01_ecx = 0x7ffafbbf, .leaf0a_eax = 0x07300404,
	    .leaf0a_edx = 0x00000603, .has_perf_capabilities = true,
	    .perf_capabilities = 0x33c5 },
	  { .vendor = VENDOR_INTEL, .family = 6, .model = 0x5e, .stepping = 3,
	    .version = 4, .gp_count = 4, .gp_width = 48, .events_length = 7,
	    .fixed_count = 3, .fixed_width = 48, .gp_valid = 0xf,
	    .fixed_valid = 0x7, .pdcm = true, .has_perf_capabilities = true,
	    .fw_write = true } },
	/*
	 * Kaby Lake, Pentium G4600: google/EXEgesis,
	 * exegesis/base/cpuid_x86_test.cc (kDumpString): CPUID.01H EAX
	 * 000906E9 ECX 4FFAEBBF; CPUID.0AH 07300404 0 0 00000603.
	 */
	{ "Kaby Lake Pentium G4600",
	  { .vendor = VENDOR_INTEL, .leaf01_eax = 0x000906e9,
	    .leaf01_ecx = 0x4ffaebbf, .leaf0a_eax = 0x07300404,
	    .leaf0a_edx = 0x00000603 },
	  { .vendor = VENDOR_INTEL, .family = 6, .model = 0x9e, .stepping = 9,
	    .version = 4, .gp_count = 4, .gp_width = 48, .events_length = 7,
	    .fixed_count = 3, .fixed_width = 48, .gp_valid = 0xf,
	    .fixed_valid = 0x7, .pdcm = true } },
	/*
	 * Ice Lake client, Core i7-1065G7: Bochs' CPU database,
	 * bochs/cpu/cpudb/intel/corei7_icelake-u.cc: CPUID.01H EAX 000706E5
	 * (ECX is built from feature flags there; only its PDCM bit is kept
	 * here); CPUID.0AH 08300805 00000000 0000000F 00008604.
	 */
	{ "Ice Lake i7-1065G7",
	  { .vendor = VENDOR_INTEL, .leaf01_eax = 0x000706e5,
	    .leaf01_ecx = PDCM, .leaf0a_eax = 0x08300805,
	    .leaf0a_ecx = 0x0000000f, .leaf0a_edx = 0x00008604 },
	  { .vendor = VENDOR_INTEL, .family = 6, .model = 0x7e, .stepping = 5,
	    .version = 5, .gp_count = 8, .gp_width = 48, .events_length = 8,
	    .fixed_count = 4, .fixed_width = 48, .fixed_bitmap = 0xf,
	    .gp_valid = 0xff, .fixed_valid = 0xf, .pdcm = true } },
	/*
	 * Tiger Lake, Core i5-1135G7: AIDA64 dump in Bochs,
	 * bochs/cpu/cpudb/intel/tigerlake.txt: CPUID.01H EAX 000806C1 ECX
	 * 7FFAFBBF; CPUID.0AH 08300805 00000000 0000000F 00008604.
	 */
	{ "Tiger Lake i5-1135G7",
	  { .vendor = VENDOR_INTEL, .leaf01_eax = 0x000806c1,
	    .leaf01_ecx = 0x7ffafbbf, .leaf0a_eax = 0x08300805,
	    .leaf0a_ecx = 0x0000000f, .leaf0a_edx = 0x00008604 },
	  { .vendor = VENDOR_INTEL, .family = 6, .model = 0x8c, .stepping = 1,
	    .version = 5, .gp_count = 8, .gp_width = 48, .events_length = 8,
	    .fixed_count = 4, .fixed_width = 48, .fixed_bitmap = 0xf,
	    .gp_valid = 0xff, .fixed_valid = 0xf, .pdcm = true } },
	/*
	 * Sapphire Rapids: Bochs' CPU database,
	 * bochs/cpu/cpudb/intel/sapphire_rapids.cc: CPUID.01H EAX 000806F8
	 * (ECX reduced to PDCM as for Ice Lake); CPUID.0AH 08300805 00000000
	 * 0000000F 00008604.
	 */
	{ "Sapphire Rapids",
	  { .vendor = VENDOR_INTEL, .leaf01_eax = 0x000806f8,
	    .leaf01_ecx = PDCM, .leaf0a_eax = 0x08300805,
	    .leaf0a_ecx = 0x0000000f, .leaf0a_edx = 0x00008604 },
	  { .vendor = VENDOR_INTEL, .family = 6, .model = 0x8f, .stepping = 8,
	    .version = 5, .gp_count = 8, .gp_width = 48, .events_length = 8,
	    .fixed_count = 4, .fixed_width = 48, .fixed_bitmap = 0xf,
	    .gp_valid = 0xff, .fixed_valid = 0xf, .pdcm = true } },
	/*
	 * Hybrid: Arrow Lake-S, Core Ultra 5 245K, logical CPU 0 (a Lion
	 * Cove P-core): AIDA64 dump in Bochs,
	 * bochs/cpu/cpudb/intel/arrow_lake.txt: CPUID.01H EAX 000C0662 ECX
	 * 7FFAFBFF; CPUID.0AH 0D300806 00000280 00000007 00008603;
	 * CPUID.23H.01H 000003FF 0000000F. Leaf 23H enumerates two GP
	 * counters and one fixed counter that leaf 0AH does not.
	 */
	{ "Arrow Lake P-core Core Ultra 5 245K",
	  { .vendor = VENDOR_INTEL, .leaf01_eax = 0x000c0662,
	    .leaf01_ecx = 0x7ffafbff, .leaf0a_eax = 0x0d300806,
	    .leaf0a_ebx = 0x00000280, .leaf0a_ecx = 0x00000007,
	    .leaf0a_edx = 0x00008603, .has_leaf23 = true,
	    .leaf23_1_eax = 0x000003ff, .leaf23_1_ebx = 0x0000000f },
	  { .vendor = VENDOR_INTEL, .family = 6, .model = 0xc6, .stepping = 2,
	    .version = 6, .gp_count = 8, .gp_width = 48, .events_length = 13,
	    .events_unavailable = 0x280, .fixed_count = 3, .fixed_width = 48,
	    .fixed_bitmap = 0x7, .has_leaf23 = true, .gp_bitmap23 = 0x3ff,
	    .fixed_bitmap23 = 0xf, .gp_valid = 0x3ff, .fixed_valid = 0xf,
	    .pdcm = true } },
	/*
	 * Zen 3, Ryzen 5 5600G (Cezanne): Umio-Yasuno/cpuid_dump_rs,
	 * dump_result/AMD_Ryzen_5_5600G_with_Radeon_Graphics_00A50F00.txt:
	 * CPUID.01H EAX 00A50F00 ECX 7EF8320B; 8000_0001H ECX 75C237FF
	 * (PerfCtrExtCore, PerfCtrExtNB, PerfCtrExtLLC); 8000_0022H reads
	 * zero (not in the dump, which omits zero leaves; Zen 3 has no
	 * PerfMonV2).
	 */
	{ "Zen 3 Ryzen 5 5600G",
	  { .vendor = VENDOR_AMD, .leaf01_eax = 0x00a50f00,
	    .leaf01_ecx = 0x7ef8320b, .ext01_ecx = 0x75c237ff },
	  { .vendor = VENDOR_AMD, .family = 0x19, .model = 0x50,
	    .amd_ext_core = true, .amd_ext_nb = true, .amd_ext_llc = true,
	    .amd_core_count = 6 } },

	/* Edge cases of single fields (not real processors). */
	{ "PROG-4 EBX masked to EAX[31:24] = 7 bits",
	  { .vendor = VENDOR_INTEL, .leaf0a_eax = 0x07300404,
	    .leaf0a_ebx = 0xffffffff },
	  { .vendor = VENDOR_INTEL, .version = 4, .gp_count = 4,
	    .gp_width = 48, .events_length = 7, .events_unavailable = 0x7f,
	    .gp_valid = 0xf } },
	{ "PROG-4 events length 0 masks all of EBX",
	  { .vendor = VENDOR_INTEL, .leaf0a_eax = 0x00300401,
	    .leaf0a_ebx = 0xff },
	  { .vendor = VENDOR_INTEL, .version = 1, .gp_count = 4,
	    .gp_width = 48, .gp_valid = 0xf } },
	{ "PROG-4 events length 32 keeps all of EBX",
	  { .vendor = VENDOR_INTEL, .leaf0a_eax = 0x20300401,
	    .leaf0a_ebx = 0xffffffff },
	  { .vendor = VENDOR_INTEL, .version = 1, .gp_count = 4,
	    .gp_width = 48, .events_length = 32,
	    .events_unavailable = 0xffffffff, .gp_valid = 0xf } },
	{ "ARCH-3 version 1: EDX enumerates nothing",
	  { .vendor = VENDOR_INTEL, .leaf0a_eax = 0x07280401,
	    .leaf0a_edx = 0x00000603 },
	  { .vendor = VENDOR_INTEL, .version = 1, .gp_count = 4,
	    .gp_width = 40, .events_length = 7, .gp_valid = 0xf } },
	{ "ARCH-3 version 1: CPUID.0AH:ECX still counts",
	  { .vendor = VENDOR_INTEL, .leaf0a_eax = 0x07280401,
	    .leaf0a_ecx = 0x5 },
	  { .vendor = VENDOR_INTEL, .version = 1, .gp_count = 4,
	    .gp_width = 40, .events_length = 7, .fixed_bitmap = 0x5,
	    .gp_valid = 0xf, .fixed_valid = 0x5 } },
	{ "ARCH-2 GP count 40 fills gp_valid",
	  { .vendor = VENDOR_INTEL, .leaf0a_eax = 0x07302802 },
	  { .vendor = VENDOR_INTEL, .version = 2, .gp_count = 40,
	    .gp_width = 48, .events_length = 7, .gp_valid = 0xffffffff } },
	{ "ARCH-2 leaf 23H absent: its values are ignored",
	  { .vendor = VENDOR_INTEL, .leaf0a_eax = 0x07300205,
	    .leaf23_1_eax = 0xff00, .leaf23_1_ebx = 0xff00 },
	  { .vendor = VENDOR_INTEL, .version = 5, .gp_count = 2,
	    .gp_width = 48, .events_length = 7, .gp_valid = 0x3 } },
	{ "MET-3 PERF_CAPABILITIES without PDCM is ignored",
	  { .vendor = VENDOR_INTEL, .leaf0a_eax = 0x08300805,
	    .has_perf_capabilities = true,
	    .perf_capabilities = 0xffffffffffffffffull },
	  { .vendor = VENDOR_INTEL, .version = 5, .gp_count = 8,
	    .gp_width = 48, .events_length = 8, .gp_valid = 0xff } },
	{ "MET-3 PERF_CAPABILITIES bits 13, 15, 19",
	  { .vendor = VENDOR_INTEL, .leaf01_ecx = PDCM,
	    .has_perf_capabilities = true, .perf_capabilities = 0x8a000 },
	  { .vendor = VENDOR_INTEL, .pdcm = true,
	    .has_perf_capabilities = true, .fw_write = true,
	    .perf_metrics = true, .rdpmc_metrics_clear = true } },
	{ "PROG-12 HLE alone enumerates TSX",
	  { .vendor = VENDOR_INTEL, .leaf07_ebx = 1u << 4 },
	  { .vendor = VENDOR_INTEL, .tsx = true } },
	{ "PROG-12 RTM alone enumerates TSX",
	  { .vendor = VENDOR_INTEL, .leaf07_ebx = 1u << 11 },
	  { .vendor = VENDOR_INTEL, .tsx = true } },
	{ "PROG-12 TSX_FORCE_ABORT without HLE, RTM: TSX may be hidden",
	  { .vendor = VENDOR_INTEL, .leaf07_edx = 1u << 13 },
	  { .vendor = VENDOR_INTEL, .tsx_may_be_hidden = true } },
	{ "PROG-12 ARCH_CAPABILITIES.TSX_CTRL: TSX may be hidden",
	  { .vendor = VENDOR_INTEL, .has_arch_capabilities = true,
	    .arch_capabilities = 1ull << 7 },
	  { .vendor = VENDOR_INTEL, .tsx_may_be_hidden = true } },
	{ "PROG-12 TSX enumerated is not hidden",
	  { .vendor = VENDOR_INTEL, .leaf07_ebx = 1u << 11,
	    .leaf07_edx = 1u << 13 },
	  { .vendor = VENDOR_INTEL, .tsx = true } },
	{ "PROG-13 CPUID.23H.00H:EBX bits 0 and 1",
	  { .vendor = VENDOR_INTEL, .leaf23_0_ebx = 0x3 },
	  { .vendor = VENDOR_INTEL, .evtsel_umask2 = true,
	    .evtsel_eq = true } },
	{ "PROG-12 PROG-13: AMD reads neither",
	  { .vendor = VENDOR_AMD, .leaf07_ebx = 0x810, .leaf23_0_ebx = 3 },
	  { .vendor = VENDOR_AMD, .amd_core_count = 4 } },
	{ "AMD-2 without PerfCtrExtCore: 4 core counters",
	  { .vendor = VENDOR_AMD, .ext01_ecx = 0x11000000 },
	  { .vendor = VENDOR_AMD, .amd_ext_nb = true, .amd_ext_llc = true,
	    .amd_core_count = 4 } },
	{ "AMD PerfMonV2: core count from 8000_0022H:EBX[3:0]",
	  { .vendor = VENDOR_AMD, .ext01_ecx = 0x00800000, .ext22_eax = 0x7,
	    .ext22_ebx = 0x00011056 },
	  { .vendor = VENDOR_AMD, .amd_ext_core = true, .amd_core_count = 6,
	    .amd_perfmon_v2 = true, .amd_v2_core_count = 6 } },
	{ "AMD without PerfMonV2: 8000_0022H:EBX ignored",
	  { .vendor = VENDOR_AMD, .ext22_ebx = 0x6 },
	  { .vendor = VENDOR_AMD, .amd_core_count = 4 } },
	{ "AMD: Intel leaves are reserved",
	  { .vendor = VENDOR_AMD, .leaf01_ecx = PDCM,
	    .leaf0a_eax = 0x08300805, .has_perf_capabilities = true,
	    .perf_capabilities = 0x8000 },
	  { .vendor = VENDOR_AMD, .amd_core_count = 4 } },
	{ "Intel: AMD leaves are reserved",
	  { .vendor = VENDOR_INTEL, .ext01_ecx = 0xffffffff,
	    .ext22_eax = 1, .ext22_ebx = 6 },
	  { .vendor = VENDOR_INTEL } },
	{ "other vendor: only the signature",
	  { .vendor = VENDOR_OTHER, .leaf01_eax = 0x000006f2,
	    .leaf0a_eax = 0x08300805, .ext01_ecx = 0xffffffff },
	  { .vendor = VENDOR_OTHER, .family = 6, .model = 0xf,
	    .stepping = 2 } },
	{ "signature: family 0FH with extended family 0 (Pentium 4)",
	  { .vendor = VENDOR_INTEL, .leaf01_eax = 0x00000f29 },
	  { .vendor = VENDOR_INTEL, .family = 0xf, .model = 2,
	    .stepping = 9 } },
	{ "signature: family 5 ignores the extended model",
	  { .vendor = VENDOR_INTEL, .leaf01_eax = 0x0ff30543 },
	  { .vendor = VENDOR_INTEL, .family = 5, .model = 4,
	    .stepping = 3 } },
};

#define INFO_FIELDS(X) X(vendor) X(family) X(model) X(stepping)		\
	X(version) X(gp_count) X(gp_width) X(events_length)		\
	X(events_unavailable) X(fixed_count) X(fixed_width)		\
	X(fixed_bitmap) X(has_leaf23) X(gp_bitmap23) X(fixed_bitmap23)	\
	X(gp_valid) X(fixed_valid) X(tsx) X(tsx_may_be_hidden)		\
	X(evtsel_umask2) X(evtsel_eq) X(pdcm) X(has_perf_capabilities)	\
	X(fw_write) X(perf_metrics) X(rdpmc_metrics_clear)		\
	X(amd_ext_core) X(amd_ext_nb) X(amd_ext_llc) X(amd_core_count)	\
	X(amd_perfmon_v2) X(amd_v2_core_count)

/* Writes the first differing field into want / got; false if none. */
static bool first_difference(const struct pmu_info *a,
			     const struct pmu_info *b, char *want,
			     char *got, size_t size)
{
#define COMPARE(f)							\
	if ((unsigned long long)a->f != (unsigned long long)b->f) {	\
		snprintf(want, size, #f " = 0x%llx",			\
			 (unsigned long long)a->f);			\
		snprintf(got, size, #f " = 0x%llx",			\
			 (unsigned long long)b->f);			\
		return true;						\
	}
	INFO_FIELDS(COMPARE)
#undef COMPARE
	return false;
}

void test_decode(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char want[64], got[64];
		struct pmu_info info;

		/* Garbage first: a field pmu_decode() forgets shows up. */
		memset(&info, 0xa5, sizeof(info));
		pmu_decode(&cases[i].raw, &info);
		if (first_difference(&cases[i].want, &info, want, got,
				     sizeof(want)))
			tap_result(false, cases[i].name, want, got);
		else
			tap_result(true, cases[i].name, "", "");
	}
}

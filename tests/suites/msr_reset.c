/*
 * msr.reset.globalctrl: IA32_PERF_GLOBAL_CTRL as pmctest found it at boot
 * holds the enable bit of every general-purpose counter and nothing else
 * (RESET-1), so that software written for version 1 counts. Firmware may
 * change it before pmctest starts; a hypervisor that loads pmctest directly
 * (PVH) hands over its vCPU's reset state.
 */
#include "harness.h"
#include "platform.h"
#include "pmu_msr.h"
#include "rdpmc_check.h"

SINGLE_TEST(msr_reset, 0, "msr.reset.globalctrl", "RESET-1 MSR-1 ARCH-2",
	    "IA32_PERF_GLOBAL_CTRL at boot enables every GP counter and nothing else")
{
	const struct pmu_info *pmu = check_pmu();
	uint64_t found, expected = 0;

	(void)i;
	if (pmu->vendor != VENDOR_INTEL || pmu->version < 2) {
		test_skip("for Intel version 2 and up only: vendor %s, CPUID.0AH:EAX[7:0] = %u",
			  pmu->vendor == VENDOR_INTEL ? "Intel" : "not Intel",
			  pmu->version);
		return;
	}
	for (unsigned x = 0; x < 32; x++)
		if (pmu->gp_valid & (1u << x))
			expected |= GLOBAL_CTRL_GP(x);
	if (!platform_boot_global_ctrl(&found))
		test_fail("MSR-1: IA32_PERF_GLOBAL_CTRL (38FH) exists by the enumeration (version %u), but RDMSR of it at boot raised #GP",
			  pmu->version);
	else if (found != expected)
		test_fail("RESET-1: IA32_PERF_GLOBAL_CTRL read 0x%llx at boot; expected 0x%llx (bits of GP counters set, all else clear) unless firmware wrote it",
			  (unsigned long long)found, (unsigned long long)expected);
	else
		test_note("IA32_PERF_GLOBAL_CTRL at boot: 0x%llx", (unsigned long long)found);
}

/*
 * msr.reset.*: the PMU MSRs as pmctest found them at boot, before any test
 * wrote one, hold their reset values: IA32_PERF_GLOBAL_CTRL the enable of
 * every GP counter (RESET-1); every event select and counter, and
 * IA32_FIXED_CTR_CTRL, 0 (RESET-2); the overflow status 0 (RESET-3); AMD's
 * PerfCntrGlobalCtl the enable of every core counter (RESET-4). Firmware
 * may write them before pmctest starts; a hypervisor that loads pmctest
 * directly (PVH) hands over its vCPU's reset state. On an application
 * processor "at boot" is as it started: INIT leaves the PMU MSRs as reset
 * made them (SMP-5), so the same values hold there.
 */
#include "boot_msrs.h"
#include "cpus.h"
#include "harness.h"
#include "msr.h"
#include "prog_counter.h"
#include "rdpmc_check.h"

enum which { GLOBAL_CTRL, EVTSEL, COUNTERS, FIXED_CTRL, STATUS, AMD_GLOBAL_CTL };

static const struct {
	const char *id;
	enum which which;
	const char *statements;
	const char *description;
} cases[] = {
	{ "msr.reset.globalctrl", GLOBAL_CTRL, "RESET-1 MSR-1 ARCH-2",
	  "IA32_PERF_GLOBAL_CTRL at boot enables every GP counter and nothing else" },
	{ "msr.reset.evtsel", EVTSEL, "RESET-2 MSR-1 ARCH-2 AMD-2",
	  "every event select at boot reads 0" },
	{ "msr.reset.counters", COUNTERS, "RESET-2 MSR-1 ARCH-2 ARCH-3 AMD-2",
	  "every GP, fixed and AMD core counter at boot reads 0" },
	{ "msr.reset.fixedctrl", FIXED_CTRL, "RESET-2 MSR-1",
	  "IA32_FIXED_CTR_CTRL at boot reads 0" },
	{ "msr.reset.status", STATUS, "RESET-3 MSR-1",
	  "IA32_PERF_GLOBAL_STATUS / PerfCntrGlobalStatus at boot reads 0" },
	{ "msr.reset.amd-globalctl", AMD_GLOBAL_CTL, "RESET-4 MSR-1",
	  "PerfCntrGlobalCtl at boot enables every core counter and nothing else" },
};

#define CASES (sizeof(cases) / sizeof(cases[0]))

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, cases[i].id);
	strbuf_puts(&t->statements, cases[i].statements);
	strbuf_puts(&t->description, cases[i].description);
}

/* msr as the executing CPU found it as it started: CPU 0 at boot, an AP
 * right after INIT-SIPI-SIPI (SMP-5). */
static bool as_started(uint32_t msr, uint64_t *value)
{
	unsigned cpu = platform_this_cpu();
	const struct boot_msrs *init = boot_msrs_at_init(cpu);

	if (cpu == 0)
		return boot_msr(msr, value);
	return init && boot_msrs_value(init, msr, value);
}

/* The boot value of one MSR against the reset value; false if it failed. */
static bool expect_boot(uint32_t msr, const char *name, unsigned index,
			uint64_t reset, const char *statement)
{
	uint64_t found;
	char label[40];
	struct strbuf n;

	strbuf_init(&n, label, sizeof(label));
	strbuf_printf(&n, name, index);
	if (!as_started(msr, &found)) {
		test_fail("MSR-1: %s (%XH) exists by the enumeration, but RDMSR of it at boot raised #GP",
			  label, msr);
		return false;
	}
	if (found != reset) {
		test_fail("%s: %s (%XH) read 0x%llx at boot; the reset value is 0x%llx (unless firmware wrote it)",
			  statement, label, msr, (unsigned long long)found,
			  (unsigned long long)reset);
		return false;
	}
	return true;
}

static uint64_t gp_enables(const struct pmu_info *pmu)
{
	uint64_t bits = 0;

	for (unsigned x = 0; x < 32; x++)
		if (pmu->gp_valid & (1u << x))
			bits |= GLOBAL_CTRL_GP(x);
	return bits;
}

/* AMD core counter n: the PerfCtrExtCore pair, else the legacy MSRs. */
static uint32_t amd_msr(const struct pmu_info *pmu, unsigned n, bool select)
{
	if (pmu->amd_ext_core)
		return (select ? MSR_AMD_PERF_CTL_EXT0 : MSR_AMD_PERF_CTR_EXT0) + 2 * n;
	return (select ? MSR_AMD_PERF_EVTSEL0 : MSR_AMD_PERF_CTR0) + n;
}

/* RESET-2 for the selects (or the counters) of every counter. */
static void check_all(const struct pmu_info *pmu, bool select)
{
	unsigned n = 0;

	if (pmu->vendor == VENDOR_AMD) {
		for (unsigned c = 0; c < pmu->amd_core_count; c++, n++)
			expect_boot(amd_msr(pmu, c, select),
				    select ? "PerfEvtSel%u" : "PerfCtr%u", c, 0,
				    "RESET-2");
	} else {
		for (unsigned x = 0; x < 32; x++) {
			if (!(pmu->gp_valid & (1u << x)))
				continue;
			n++;
			expect_boot((select ? MSR_IA32_PERFEVTSEL0 : MSR_IA32_PMC0) + x,
				    select ? "IA32_PERFEVTSEL%u" : "IA32_PMC%u", x,
				    0, "RESET-2");
		}
		for (unsigned i = 0; i < FIXED_CTRL_FIELDS && !select; i++) {
			if (!(pmu->fixed_valid & (1u << i)))
				continue;
			n++;
			expect_boot(MSR_IA32_FIXED_CTR0 + i, "IA32_FIXED_CTR%u", i,
				    0, "RESET-2");
		}
	}
	if (!test_has_failed())
		test_note("%u %s read 0 at boot", n, select ? "event selects" : "counters");
}

/* Where the enumeration lacks the MSR, why (for SKIP); else NULL. */
static const char *absent(const struct pmu_info *pmu, enum which w)
{
	bool intel2 = pmu->vendor == VENDOR_INTEL && pmu->version >= 2;

	switch (w) {
	case GLOBAL_CTRL:
	case FIXED_CTRL:
		return intel2 ? 0 : "for Intel version 2 and up only";
	case STATUS:
		return intel2 || pmu->amd_perfmon_v2 ? 0
		       : "no global status: Intel version 1, AMD without PerfMonV2";
	case AMD_GLOBAL_CTL:
		return pmu->amd_perfmon_v2 ? 0
		       : "for AMD with PerfMonV2 (CPUID 8000_0022H:EAX[0] = 1) only";
	case EVTSEL:
	case COUNTERS:
		break;
	}
	return 0;
}

static void run(unsigned i)
{
	const struct pmu_info *pmu = check_pmu();
	const char *why_not = absent(pmu, cases[i].which);
	unsigned amd_cores = pmu->amd_v2_core_count ? pmu->amd_v2_core_count
						    : pmu->amd_core_count;
	struct prog_counter c;

	if (platform_this_cpu() != 0) {
		test_judged("SMP-5");
		if (!boot_msrs_at_init(platform_this_cpu())) {
			test_skip("CPU %u recorded no PMU MSRs as it started",
				  platform_this_cpu());
			return;
		}
	}
	if (why_not) {
		test_skip("%s: vendor %s, CPUID.0AH:EAX[7:0] = %u", why_not,
			  pmu->vendor == VENDOR_INTEL ? "Intel"
			  : pmu->vendor == VENDOR_AMD ? "AMD" : "other",
			  pmu->version);
		return;
	}
	/* A PMU whose counters hold no value has no state to reset: the
	 * reset values would be met by a PMU that is not there. */
	if (cases[i].which != GLOBAL_CTRL && !prog_take_counter(&c, false))
		return;
	switch (cases[i].which) {
	case GLOBAL_CTRL:
		if (expect_boot(MSR_IA32_PERF_GLOBAL_CTRL, "IA32_PERF_GLOBAL_CTRL", 0,
				gp_enables(pmu), "RESET-1"))
			test_note("IA32_PERF_GLOBAL_CTRL at boot: 0x%llx",
				  (unsigned long long)gp_enables(pmu));
		break;
	case EVTSEL:
	case COUNTERS:
		check_all(pmu, cases[i].which == EVTSEL);
		break;
	case FIXED_CTRL:
		expect_boot(MSR_IA32_FIXED_CTR_CTRL, "IA32_FIXED_CTR_CTRL", 0, 0,
			    "RESET-2");
		break;
	case STATUS:
		if (pmu->vendor == VENDOR_AMD)
			expect_boot(MSR_AMD_PERF_GLOBAL_STATUS, "PerfCntrGlobalStatus",
				    0, 0, "RESET-3");
		else
			expect_boot(MSR_IA32_PERF_GLOBAL_STATUS,
				    "IA32_PERF_GLOBAL_STATUS", 0, 0, "RESET-3");
		break;
	case AMD_GLOBAL_CTL:
		expect_boot(MSR_AMD_PERF_GLOBAL_CTL, "PerfCntrGlobalCtl", 0,
			    (1ull << amd_cores) - 1, "RESET-4");
		break;
	}
}

static const struct suite msr_reset = {
	SUITE_PER_CPU, CASES, describe, run,
};
REGISTER_SUITE(msr_reset);

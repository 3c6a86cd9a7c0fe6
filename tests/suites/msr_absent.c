/*
 * msr.absent.*: the PMU MSRs CPUID does not enumerate raise #GP(0) on
 * RDMSR and on WRMSR (MSR-1): the first counter past the enumeration of
 * each kind, IA32_A_PMCx without FW_WRITE, the global MSRs a version does
 * not have, AMD's extended ranges without their CPUID bits.
 */
#include "exec.h"
#include "harness.h"
#include "msr.h"
#include "rdpmc_check.h"

#define MAX_ABSENT 5

struct absent {
	unsigned n;
	uint32_t msr[MAX_ABSENT];
	const char *name[MAX_ABSENT];
};

static void add(struct absent *a, uint32_t msr, const char *name)
{
	a->msr[a->n] = msr;
	a->name[a->n++] = name;
}

/* The first index below `limit` whose bit in valid is clear. */
static bool first_absent(uint32_t valid, unsigned limit, unsigned *index)
{
	for (unsigned x = 0; x < limit; x++) {
		if (!(valid & (1u << x))) {
			*index = x;
			return true;
		}
	}
	return false;
}

static bool intel_gp(const struct pmu_info *p, struct absent *a, struct strbuf *why)
{
	unsigned x;

	if (!first_absent(p->gp_valid, 32, &x)) {
		strbuf_puts(why, "all 32 general-purpose indices are enumerated");
		return false;
	}
	add(a, MSR_IA32_PMC0 + x, "IA32_PMCx");
	add(a, MSR_IA32_PERFEVTSEL0 + x, "IA32_PERFEVTSELx");
	if (p->fw_write)
		add(a, MSR_IA32_A_PMC0 + x, "IA32_A_PMCx");
	return true;
}

static bool intel_fixed(const struct pmu_info *p, struct absent *a, struct strbuf *why)
{
	unsigned i;

	if (!first_absent(p->fixed_valid, FIXED_CTRL_FIELDS, &i)) {
		strbuf_puts(why, "fixed counters 0-15 are all enumerated");
		return false;
	}
	add(a, MSR_IA32_FIXED_CTR0 + i, "IA32_FIXED_CTRx");
	return true;
}

static bool intel_full_width(const struct pmu_info *p, struct absent *a, struct strbuf *why)
{
	if (p->fw_write) {
		strbuf_puts(why, "IA32_PERF_CAPABILITIES.FW_WRITE = 1: IA32_A_PMCx exist (msr.absent.gp covers the index past them)");
		return false;
	}
	add(a, MSR_IA32_A_PMC0, "IA32_A_PMC0");
	return true;
}

static bool intel_global(const struct pmu_info *p, struct absent *a, struct strbuf *why)
{
	if (p->version >= 4) {
		strbuf_printf(why, "version %u has every global MSR", p->version);
		return false;
	}
	if (p->version < 2) {
		add(a, MSR_IA32_PERF_GLOBAL_CTRL, "IA32_PERF_GLOBAL_CTRL");
		add(a, MSR_IA32_PERF_GLOBAL_STATUS, "IA32_PERF_GLOBAL_STATUS");
		add(a, MSR_IA32_PERF_GLOBAL_OVF_CTRL, "IA32_PERF_GLOBAL_OVF_CTRL");
		add(a, MSR_IA32_FIXED_CTR_CTRL, "IA32_FIXED_CTR_CTRL");
	} else {
		add(a, MSR_IA32_PERF_GLOBAL_STATUS_SET, "IA32_PERF_GLOBAL_STATUS_SET");
	}
	add(a, MSR_IA32_PERF_GLOBAL_INUSE, "IA32_PERF_GLOBAL_INUSE");
	return true;
}

/* AMD-2: each range exists with its CPUID bit; past its last pair, none. */
static bool amd_ranges(const struct pmu_info *p, struct absent *a, struct strbuf *why)
{
	(void)why;
	add(a, MSR_AMD_PERF_CTL_EXT0 + (p->amd_ext_core ? 12 : 0), "PERF_CTLn (PerfCtrExtCore)");
	add(a, MSR_AMD_NB_CTL0 + (p->amd_ext_nb ? 8 : 0), "NB PERF_CTLn (PerfCtrExtNB)");
	add(a, MSR_AMD_L2_CTL0 + (p->amd_ext_llc ? 12 : 0), "L2I PERF_CTLn (PerfCtrExtLLC)");
	return true;
}

static bool amd_global(const struct pmu_info *p, struct absent *a, struct strbuf *why)
{
	if (p->amd_perfmon_v2) {
		strbuf_puts(why, "PerfMonV2 (CPUID 8000_0022H:EAX[0] = 1): the global MSRs exist");
		return false;
	}
	add(a, MSR_AMD_PERF_GLOBAL_STATUS, "PerfCntrGlobalStatus");
	add(a, MSR_AMD_PERF_GLOBAL_CTL, "PerfCntrGlobalCtl");
	add(a, MSR_AMD_PERF_GLOBAL_STATUS_CLR, "PerfCntrGlobalStatusClr");
	add(a, MSR_AMD_PERF_GLOBAL_STATUS_SET, "PerfCntrGlobalStatusSet");
	return true;
}

static const struct {
	const char *id;
	enum vendor vendor;
	unsigned min_version;	/* Intel */
	bool (*pick)(const struct pmu_info *, struct absent *, struct strbuf *);
	const char *description;
} cases[] = {
	{ "msr.absent.gp", VENDOR_INTEL, 1, intel_gp,
	  "IA32_PMCx, IA32_PERFEVTSELx (IA32_A_PMCx) of the first GP index not enumerated" },
	{ "msr.absent.fixed", VENDOR_INTEL, 1, intel_fixed,
	  "IA32_FIXED_CTRx of the first fixed index not enumerated" },
	{ "msr.absent.fullwidth", VENDOR_INTEL, 1, intel_full_width,
	  "IA32_A_PMC0 without PERF_CAPABILITIES.FW_WRITE" },
	{ "msr.absent.global", VENDOR_INTEL, 1, intel_global,
	  "the global MSRs of a later version: all of them on v1, STATUS_SET and INUSE on v2 and v3" },
	{ "msr.absent.amd-ranges", VENDOR_AMD, 0, amd_ranges,
	  "the first pair past each AMD counter range, or the range without its CPUID bit" },
	{ "msr.absent.amd-global", VENDOR_AMD, 0, amd_global,
	  "the PerfMonV2 global MSRs without CPUID 8000_0022H:EAX[0]" },
};

#define CASES (sizeof(cases) / sizeof(cases[0]))

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, cases[i].id);
	strbuf_puts(&t->statements, cases[i].vendor == VENDOR_AMD ? "MSR-1 AMD-2" : "MSR-1 ARCH-2 ARCH-3");
	strbuf_puts(&t->description, cases[i].description);
}

/* RDMSR and WRMSR(0) of msr must both raise #GP(0). */
static void expect_gp(uint32_t msr, const char *name)
{
	struct exec_outcome o;

	exec_rdmsr(msr, &o);
	if (!o.faulted || o.vector != 13 || o.error_code != 0)
		test_fail("MSR-1: RDMSR(%XH) (%s, not enumerated) %s; expected #GP(0)",
			  msr, name, o.faulted ? "raised another fault" : "read a value");
	if (!o.faulted)
		test_fail("  read EDX:EAX = 0x%llx", (unsigned long long)edx_eax(&o));
	exec_wrmsr(msr, 0, &o);
	if (!o.faulted || o.vector != 13 || o.error_code != 0)
		test_fail("MSR-1: WRMSR(%XH, 0) (%s, not enumerated) %s; expected #GP(0)",
			  msr, name, o.faulted ? "raised another fault" : "completed");
}

static void run(unsigned i)
{
	const struct pmu_info *pmu = check_pmu();
	char text[160];
	struct strbuf why;
	struct absent a = { 0 };

	strbuf_init(&why, text, sizeof(text));
	if (pmu->vendor != cases[i].vendor)
		strbuf_printf(&why, "for %s only", cases[i].vendor == VENDOR_AMD ? "AMD" : "Intel");
	else if (pmu->vendor == VENDOR_INTEL && pmu->version < cases[i].min_version)
		strbuf_puts(&why, "no architectural PMU: which MSRs exist is model-specific (NARCH-1)");
	else if (cases[i].pick(pmu, &a, &why)) {
		for (unsigned m = 0; m < a.n; m++)
			expect_gp(a.msr[m], a.name[m]);
		return;
	}
	test_skip("%s", text);
}

static const struct suite msr_absent = { 0, CASES, describe, run };
REGISTER_SUITE(msr_absent);

/*
 * msr.caps.*: IA32_PERF_CAPABILITIES (345H) exists where CPUID.01H:ECX.PDCM
 * (bit 15) = 1 and is read-only there: a WRMSR of it, even of the value it
 * reads, raises #GP(0) and changes nothing; where PDCM = 0 RDMSR of it
 * raises #GP(0) (MSR-3, MET-3).
 */
#include "exec.h"
#include "harness.h"
#include "msr_access.h"
#include "msr.h"
#include "rdpmc_check.h"

enum { CASE_READ_ONLY, CASE_ABSENT, CASES };

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, i == CASE_READ_ONLY ? "msr.caps.readonly"
						: "msr.caps.absent");
	strbuf_puts(&t->statements, "MSR-3 MET-3");
	strbuf_puts(&t->description, i == CASE_READ_ONLY
		    ? "with PDCM, WRMSR of IA32_PERF_CAPABILITIES raises #GP(0) and changes nothing"
		    : "without PDCM, RDMSR of IA32_PERF_CAPABILITIES raises #GP(0)");
}

static bool is_gp0(const struct exec_outcome *o)
{
	return o->faulted && o->vector == 13 && o->error_code == 0;
}

static void check_read_only(void)
{
	struct exec_outcome o;
	uint64_t before, after;

	exec_rdmsr(MSR_IA32_PERF_CAPABILITIES, &o);
	if (o.faulted) {
		test_fail("MSR-3: CPUID.01H:ECX.PDCM = 1, but RDMSR(345H) raised vector %u",
			  o.vector);
		return;
	}
	before = edx_eax(&o);
	exec_wrmsr(MSR_IA32_PERF_CAPABILITIES, before, &o);
	if (!is_gp0(&o))
		test_fail("MSR-3: WRMSR(345H, 0x%llx), the value it reads, %s; IA32_PERF_CAPABILITIES is read-only: expected #GP(0)",
			  (unsigned long long)before,
			  o.faulted ? "raised another fault" : "completed");
	exec_rdmsr(MSR_IA32_PERF_CAPABILITIES, &o);
	after = edx_eax(&o);
	if (!o.faulted && after != before)
		test_fail("MSR-3: IA32_PERF_CAPABILITIES reads 0x%llx after the write, 0x%llx before",
			  (unsigned long long)after, (unsigned long long)before);
	else if (!test_has_failed())
		test_note("IA32_PERF_CAPABILITIES = 0x%llx, read-only",
			  (unsigned long long)before);
}

static void check_absent(void)
{
	struct exec_outcome o;

	exec_rdmsr(MSR_IA32_PERF_CAPABILITIES, &o);
	if (!is_gp0(&o))
		test_fail("MSR-3: CPUID.01H:ECX.PDCM = 0, but RDMSR(345H) %s (EDX:EAX = 0x%llx); expected #GP(0)",
			  o.faulted ? "raised another fault" : "read a value",
			  (unsigned long long)edx_eax(&o));
}

static void run(unsigned i)
{
	const struct pmu_info *pmu = check_pmu();

	if (pmu->vendor != VENDOR_INTEL)
		test_skip("IA32_PERF_CAPABILITIES is Intel's");
	else if (i == CASE_READ_ONLY && !pmu->pdcm)
		test_skip("CPUID.01H:ECX.PDCM (bit 15) = 0: no IA32_PERF_CAPABILITIES to write");
	else if (i == CASE_ABSENT && pmu->pdcm)
		test_skip("CPUID.01H:ECX.PDCM (bit 15) = 1: IA32_PERF_CAPABILITIES exists");
	else if (i == CASE_READ_ONLY)
		check_read_only();
	else
		check_absent();
}

static const struct suite msr_caps = { 0, CASES, describe, run };
REGISTER_SUITE(msr_caps);

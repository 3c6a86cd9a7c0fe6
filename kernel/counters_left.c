#include "counters_left.h"

#include "exec.h"
#include "msr.h"

/* One counter: its count MSR, the control MSR and bits that start it,
 * and the global gate over it (global_msr 0: none). */
struct left_counter {
	const char *name;	/* printf format taking the index */
	unsigned index;
	uint32_t count_msr, control_msr;
	uint64_t enable;
	uint32_t global_msr;
	uint64_t global_bit;
};

/* 32 general-purpose and 16 fixed counters at most (kernel/boot_msrs.h). */
#define LEFT_COUNTERS 48

/* Named on the line, which stays within the log's 198 characters
 * (docs/reading-a-failure.md); the rest are counted. */
#define LEFT_NAMED 2

/* The MSRs whose RDMSR faulted once: never read again in the run. */
#define UNREADABLE_MAX 8
static uint32_t unreadable[UNREADABLE_MAX];
static unsigned unreadable_count;

static bool read_msr(uint32_t msr, uint64_t *value)
{
	struct exec_outcome o;

	for (unsigned i = 0; i < unreadable_count; i++)
		if (unreadable[i] == msr)
			return false;
	exec_rdmsr(msr, &o);
	if (o.faulted && unreadable_count < UNREADABLE_MAX)
		unreadable[unreadable_count++] = msr;
	*value = edx_eax(&o);
	return !o.faulted;
}

static unsigned intel_counters(const struct pmu_info *pmu,
			       struct left_counter *out)
{
	uint32_t global = pmu->version >= 2 ? MSR_IA32_PERF_GLOBAL_CTRL : 0;
	unsigned n = 0;

	for (unsigned x = 0; x < 32; x++)	/* ARCH-2 */
		if (pmu->gp_valid & (1u << x))
			out[n++] = (struct left_counter){
				"IA32_PMC%u", x, MSR_IA32_PMC0 + x,
				MSR_IA32_PERFEVTSEL0 + x, EVTSEL_EN,
				global, GLOBAL_CTRL_GP(x) };
	for (unsigned i = 0; i < FIXED_CTRL_FIELDS; i++)	/* ARCH-3 */
		if (pmu->version >= 2 && (pmu->fixed_valid & (1u << i)))
			out[n++] = (struct left_counter){
				"IA32_FIXED_CTR%u", i, MSR_IA32_FIXED_CTR0 + i,
				MSR_IA32_FIXED_CTR_CTRL,
				FIXED_CTRL_OS(i) | FIXED_CTRL_USR(i),
				global, GLOBAL_CTRL_FIXED(i) };
	return n;
}

/* AMD-2: the extended pairs with PerfCtrExtCore, else the legacy four. */
static unsigned amd_counters(const struct pmu_info *pmu,
			     struct left_counter *out)
{
	uint32_t global = pmu->amd_perfmon_v2 ? MSR_AMD_PERF_GLOBAL_CTL : 0;
	unsigned n = 0;

	for (; n < pmu->amd_core_count && n < LEFT_COUNTERS; n++)
		out[n] = pmu->amd_ext_core
			? (struct left_counter){ "PERF_CTR%u", n,
				MSR_AMD_PERF_CTR_EXT0 + 2 * n,
				MSR_AMD_PERF_CTL_EXT0 + 2 * n, EVTSEL_EN,
				global, 1ull << n }
			: (struct left_counter){ "PerfCtr%u", n,
				MSR_AMD_PERF_CTR0 + n,
				MSR_AMD_PERF_EVTSEL0 + n, EVTSEL_EN,
				global, 1ull << n };
	return n;
}

/* Whether c counts now: its enable set and, where there is one, its
 * global gate open (PROG-5, PROG-6). An unreadable gate counts as open. */
static bool running(const struct left_counter *c, uint64_t control)
{
	uint64_t gate;

	if (!(control & c->enable))
		return false;
	return !c->global_msr || !read_msr(c->global_msr, &gate) ||
	       (gate & c->global_bit);
}

static void take_one(const struct left_counter *c, struct counters_left *left)
{
	struct exec_outcome o;
	uint64_t control = 0, count = 0;
	bool counting = read_msr(c->control_msr, &control) && running(c, control);
	bool counted = read_msr(c->count_msr, &count) && count != 0;

	if (!counting && !counted)
		return;
	if (++left->found <= LEFT_NAMED) {
		strbuf_printf(&left->sb, "%s", left->found > 1 ? ", " : "");
		strbuf_printf(&left->sb, c->name, c->index);
		strbuf_printf(&left->sb, " (%XH) 0x%llx%s", c->count_msr,
			      (unsigned long long)count,
			      counting ? " running" : "");
	}
	if (counting)	/* PROG-3: stopped before it is written */
		exec_wrmsr(c->control_msr, control & ~c->enable, &o);
	exec_wrmsr(c->count_msr, 0, &o);
}

void counters_left_take(const struct pmu_info *pmu, struct counters_left *left)
{
	struct left_counter counters[LEFT_COUNTERS];
	unsigned n = 0;

	left->found = 0;
	strbuf_init(&left->sb, left->text, sizeof(left->text));
	if (pmu->vendor == VENDOR_INTEL && pmu->version >= 1)
		n = intel_counters(pmu, counters);
	else if (pmu->vendor == VENDOR_AMD)
		n = amd_counters(pmu, counters);
	for (unsigned k = 0; k < n; k++)
		take_one(&counters[k], left);
	if (left->found > LEFT_NAMED)
		strbuf_printf(&left->sb, " and %u more", left->found - LEFT_NAMED);
}

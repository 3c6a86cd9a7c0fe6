/*
 * bench.*: what RDPMC costs, next to reference points measured the same
 * way (arch/bench_batch.asm). Only an explicit tests=bench.* runs these;
 * `make bench` (tests/bench.mk) runs them on each target and tabulates the
 * lines "bench NAME cycles_median=N cycles_min=N n=N outcome=WHAT" (WHAT:
 * "-" for a reference point, "reads", or "faults:#GP(0)" and the like).
 *
 * Cycles are TSC cycles per instruction: a batch of BENCH_BATCH between
 * LFENCE-serialised RDTSCs, less the fastest empty batch, divided by
 * BENCH_BATCH; median and minimum over BENCH_BATCHES batches. Where the
 * instruction faults on the target the figure is the fault round trip
 * (fault, handler, resume), and the case says so.
 */
#include "bench_batch.h"
#include "counters.h"
#include "cpu.h"
#include "extable.h"
#include "harness.h"
#include "msr.h"
#include "rdpmc_check.h"
#include "ring.h"
#include "trap.h"

#define BENCH_BATCHES 64

enum bench_insn { INSN_NOP, INSN_LFENCE, INSN_RDTSC, INSN_CPUID, INSN_RDPMC, INSN_RDMSR };

enum target { TARGET_NONE, TARGET_GP, TARGET_FIXED };

static const struct bench_case {
	const char *name;
	enum bench_insn insn;
	enum target target;	/* RDPMC / RDMSR: which counter */
	unsigned cpl;
	bool pce;		/* CR4.PCE while it runs */
	const char *description;
} cases[] = {
	{ "nop", INSN_NOP, TARGET_NONE, 0, false, "reference: NOP" },
	{ "lfence", INSN_LFENCE, TARGET_NONE, 0, false, "reference: LFENCE" },
	{ "rdtsc", INSN_RDTSC, TARGET_NONE, 0, false, "reference: RDTSC" },
	{ "cpuid", INSN_CPUID, TARGET_NONE, 0, false, "reference: CPUID leaf 0 (a VM exit under every hypervisor)" },
	{ "rdpmc.gp.cpl0", INSN_RDPMC, TARGET_GP, 0, false, "RDPMC of general-purpose counter 0 at CPL 0" },
	{ "rdpmc.gp.cpl3", INSN_RDPMC, TARGET_GP, 3, true, "RDPMC of general-purpose counter 0 at CPL 3, CR4.PCE = 1" },
	{ "rdpmc.fixed.cpl0", INSN_RDPMC, TARGET_FIXED, 0, false, "RDPMC of fixed counter 0 at CPL 0" },
	{ "rdpmc.fixed.cpl3", INSN_RDPMC, TARGET_FIXED, 3, true, "RDPMC of fixed counter 0 at CPL 3, CR4.PCE = 1" },
	{ "rdmsr.gp", INSN_RDMSR, TARGET_GP, 0, false, "RDMSR of general-purpose counter 0" },
	{ "rdmsr.fixed", INSN_RDMSR, TARGET_FIXED, 0, false, "RDMSR of fixed counter 0" },
	{ "rdpmc.gpfault.cpl3", INSN_RDPMC, TARGET_GP, 3, false, "RDPMC at CPL 3, CR4.PCE = 0: the #GP(0) round trip" },
};

#define CASES (sizeof(cases) / sizeof(cases[0]))

/* What each case measured, for the table at the end. */
static struct {
	bool measured;
	uint64_t median, min;
	char outcome[40];
} results[CASES];

/* RDPMC ECX and RDMSR MSR of the counter (PRIV-7); AMD has no fixed one,
 * so its encodings fault and the case measures that. */
static uint32_t selector(const struct bench_case *b)
{
	bool amd = check_pmu()->vendor == VENDOR_AMD;

	if (b->insn == INSN_RDPMC)
		return b->target == TARGET_FIXED ? ECX_TYPE_FIXED : ECX_TYPE_GP;
	if (b->target == TARGET_FIXED)
		return MSR_IA32_FIXED_CTR0;
	return amd ? MSR_AMD_PERF_CTR0 : MSR_IA32_PMC0;
}

struct batch {
	const struct bench_case *b;
	uint32_t selector;
	uint64_t cycles;
};

static void run_batch(void *arg)
{
	struct batch *t = arg;

	switch (t->b->insn) {
	case INSN_NOP: t->cycles = bench_nop(); break;
	case INSN_LFENCE: t->cycles = bench_lfence(); break;
	case INSN_RDTSC: t->cycles = bench_rdtsc(); break;
	case INSN_CPUID: t->cycles = bench_cpuid(); break;
	case INSN_RDPMC: t->cycles = bench_rdpmc(t->selector); break;
	case INSN_RDMSR: t->cycles = bench_rdmsr(t->selector); break;
	}
}

static void sort(uint64_t *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint64_t x = v[j];

			v[j] = v[j - 1];
			v[j - 1] = x;
		}
}

static uint64_t fastest_empty(void)
{
	uint64_t best = ~0ull;

	for (unsigned i = 0; i < BENCH_BATCHES; i++) {
		uint64_t t = bench_empty();

		best = t < best ? t : best;
	}
	return best;
}

static void describe(unsigned i, struct test_text *t)
{
	strbuf_printf(&t->id, "bench.%s", i < CASES ? cases[i].name : "table");
	strbuf_puts(&t->statements, i < CASES && cases[i].insn == INSN_RDPMC
			    ? "ENC-1 PRIV-1" : i < CASES && cases[i].insn == INSN_RDMSR
			    ? "PRIV-7" : "BENCH");
	strbuf_puts(&t->description, i < CASES ? cases[i].description
					       : "the bench results above as a table");
}

static void format_fault(struct strbuf *sb)
{
	strbuf_printf(sb, "faults:%s", vector_name(captured_fault.vector));
	if (captured_fault.error_code != NO_ERROR_CODE)
		strbuf_printf(sb, "(%u)", captured_fault.error_code);
}

static void measure(unsigned i)
{
	const struct bench_case *b = &cases[i];
	struct batch t = { b, selector(b), 0 };
	uint64_t samples[BENCH_BATCHES], empty = fastest_empty();
	struct strbuf outcome;
	uint64_t cr4 = read_cr4();

	write_cr4(b->pce ? cr4 | CR4_PCE : cr4 & ~(uint64_t)CR4_PCE);
	captured_fault.happened = false;
	for (unsigned k = 0; k < BENCH_BATCHES; k++) {
		if (b->cpl == 0)
			run_batch(&t);
		else
			ring_run64(b->cpl, run_batch, &t);
		samples[k] = t.cycles > empty ? (t.cycles - empty) / BENCH_BATCH : 0;
	}
	write_cr4(cr4);
	sort(samples, BENCH_BATCHES);

	results[i].measured = true;
	results[i].median = samples[BENCH_BATCHES / 2];
	results[i].min = samples[0];
	strbuf_init(&outcome, results[i].outcome, sizeof(results[i].outcome));
	if (captured_fault.happened)
		format_fault(&outcome);
	else
		strbuf_puts(&outcome, b->insn == INSN_RDPMC || b->insn == INSN_RDMSR
				      ? "reads" : "-");
	if (b->target != TARGET_NONE)
		test_note("%s 0x%x: %s%s", b->insn == INSN_RDPMC ? "ECX" : "MSR",
			  t.selector, results[i].outcome,
			  captured_fault.happened
				  ? ", so the cycles are the fault round trip (fault, handler, resume)"
				  : "");
	test_note("bench %s cycles_median=%llu cycles_min=%llu n=%u outcome=%s",
		  b->name, (unsigned long long)results[i].median,
		  (unsigned long long)results[i].min, BENCH_BATCHES,
		  results[i].outcome);
}

static void table(void)
{
	bool any = false;

	test_note("TSC cycles per instruction, %u batches of %u:", BENCH_BATCHES,
		  BENCH_BATCH);
	test_note("%-20s %10s %10s  %s", "bench", "median", "min", "outcome");
	for (unsigned i = 0; i < CASES; i++) {
		if (!results[i].measured)
			continue;
		any = true;
		test_note("%-20s %10llu %10llu  %s", cases[i].name,
			  (unsigned long long)results[i].median,
			  (unsigned long long)results[i].min, results[i].outcome);
	}
	if (!any)
		test_skip("no bench case ran before bench.table");
}

static void run(unsigned i)
{
	if (i < CASES)
		measure(i);
	else
		table();
}

static const struct suite bench = { SUITE_EXPLICIT, CASES + 1, describe, run };
REGISTER_SUITE(bench);

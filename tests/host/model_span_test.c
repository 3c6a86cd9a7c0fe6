/*
 * model_span_test: model_rdpmc_span_end() and model_rdpmc_cached(), which
 * the sweeps use instead of asking the model about every ECX. The cached
 * answer must be model_rdpmc()'s for every step of every sweep the kernel
 * runs (whole index fields and whole type fields, tests/suites/ecx_*.c),
 * and every span must hold its answer up to its end, in every enumeration
 * of model_cpus.h and in each kind of execution state.
 */
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "model_cpus.h"
#include "query.h"
#include "suites.h"
#include "tap.h"

static const char *const cpus[] = {
	ICL, METRICS, ARL, SPARSE, HOLEY, V1, V0, V0_HIDDEN,
	AMD_K8, AMD_CORE, AMD_NB, AMD_LLC, ZEN3,
};

/* A state and the RCX[63:32] its sweeps run with. */
struct sweep_state {
	struct exec_state state;
	uint64_t high;
};

static const struct sweep_state states[] = {
	{ { MODE_LONG, 0, false }, 0 },
	{ { MODE_LONG, 3, true }, 0xffffffff00000000ull },	/* MODE-1 */
	{ { MODE_LONG, 3, false }, 0 },				/* PRIV-1 #GP */
	{ { MODE_PROT32, 1, true }, 0 },
	{ { MODE_REAL, 0, false }, 0 },
	{ { MODE_V86, 3, true }, 0 },
};

/* The sweeps: ECX = type << 16 | index over a whole field. */
struct pattern {
	const char *name;
	bool over_types;	/* else over indices */
	uint32_t fixed;		/* the other field */
};

static const struct pattern patterns[] = {
	{ "indices of type 0000H", false, 0x0000 },
	{ "indices of type 2000H", false, 0x2000 },
	{ "indices of type 4000H", false, 0x4000 },
	{ "indices of type 8000H", false, 0x8000 },
	{ "types with index 0", true, 0 },
	{ "types with index 1", true, 1 },
};

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static bool same_answer(const struct rdpmc_expect *a,
			const struct rdpmc_expect *b)
{
	return a->verdict == b->verdict && a->kind == b->kind &&
	       a->index == b->index && a->width == b->width &&
	       a->fast == b->fast && a->gp_also_conforms == b->gp_also_conforms &&
	       same_text(a->statements, b->statements) &&
	       same_text(a->reason, b->reason);
}

static void describe(const struct rdpmc_expect *e, char *text, size_t size)
{
	struct strbuf sb;

	strbuf_init(&sb, text, size);
	expect_format(e, &sb);
	strbuf_printf(&sb, " [%s]", e->statements);
}

static bool decode(const char *cpu, struct pmu_info *pmu)
{
	char err[128];
	struct strbuf sb;
	struct query q;

	strbuf_init(&sb, err, sizeof(err));
	if (!query_parse(cpu, false, &q, &sb)) {
		tap_result(false, cpu, "a query that parses", err);
		return false;
	}
	pmu_decode(&q.cpuid, pmu);
	return true;
}

/* Every step of one sweep: the cached answer against the model's. */
static bool check_sweep(const char *cpu, const struct pmu_info *pmu,
			const struct sweep_state *s, const struct pattern *p)
{
	struct model_cache cache = { 0 };
	char name[256], want[160], got[160];

	for (uint32_t i = 0; i <= 0xffff; i++) {
		uint32_t ecx = p->over_types ? i << 16 | p->fixed
					     : p->fixed << 16 | i;
		uint64_t rcx = s->high | ecx;
		const struct rdpmc_expect *cached;
		struct rdpmc_expect direct;

		cached = model_rdpmc_cached(&cache, pmu, &s->state, rcx);
		model_rdpmc(pmu, &s->state, rcx, &direct, NULL);
		if (!same_answer(cached, &direct)) {
			snprintf(name, sizeof(name), "%s%s CPL %u PCE %u, %s: "
				 "RCX=0x%llx", cpu, cpu_mode_name(s->state.mode),
				 s->state.cpl, s->state.pce, p->name,
				 (unsigned long long)rcx);
			describe(&direct, want, sizeof(want));
			describe(cached, got, sizeof(got));
			tap_result(false, name, want, got);
			return false;
		}
	}
	return true;
}

/* An ECX for check_spans(): a third anywhere, a third with a small index
 * under any type, a third with any index under a type the model knows. */
static uint32_t some_ecx(uint32_t *seed)
{
	static const uint32_t types[] = { 0x0000, 0x2000, 0x4000, 0x8000 };
	uint32_t r;

	*seed = *seed * 1103515245u + 12345u;
	r = *seed;
	switch (r % 3) {
	case 0:
		return r;
	case 1:
		return (r & 0xffff0000) | (r >> 4 & 0x3f);
	}
	return types[r >> 30] << 16 | (r >> 8 & 0xffff);
}

/* Random ECX values: the answer at points across each span and at its
 * end must be the answer at its start. */
static bool check_spans(const char *cpu, const struct pmu_info *pmu,
			const struct sweep_state *s, uint32_t *seed)
{
	char name[256], want[160], got[160];

	for (unsigned n = 0; n < 512; n++) {
		uint32_t ecx, last;
		struct rdpmc_expect first;

		ecx = some_ecx(seed);
		last = model_rdpmc_span_end(pmu, &s->state, s->high | ecx);
		model_rdpmc(pmu, &s->state, s->high | ecx, &first, NULL);
		for (unsigned k = 0; k <= 64; k++) {
			uint32_t at = ecx + (uint32_t)(((uint64_t)(last - ecx) * k) / 64);
			struct rdpmc_expect e;

			if (k == 1 && last > ecx)
				at = ecx + 1;
			model_rdpmc(pmu, &s->state, s->high | at, &e, NULL);
			if (at < ecx || at > last || !same_answer(&first, &e)) {
				snprintf(name, sizeof(name), "%s%s CPL %u PCE %u: "
					 "span 0x%x-0x%x at 0x%x", cpu,
					 cpu_mode_name(s->state.mode),
					 s->state.cpl, s->state.pce, ecx, last, at);
				describe(&first, want, sizeof(want));
				describe(&e, got, sizeof(got));
				tap_result(false, name, want, got);
				return false;
			}
		}
	}
	return true;
}

/* All sweeps and spans in one enumeration; one result for it. */
static void check_cpu(const char *name, const struct pmu_info *pmu,
		      uint32_t *seed)
{
	bool ok = true;

	for (size_t s = 0; s < sizeof(states) / sizeof(states[0]); s++) {
		for (size_t p = 0; p < sizeof(patterns) / sizeof(patterns[0]); p++)
			ok = check_sweep(name, pmu, &states[s], &patterns[p]) && ok;
		ok = check_spans(name, pmu, &states[s], seed) && ok;
	}
	if (ok)
		tap_result(true, name, "", "");
}

void test_model_span(void)
{
	/* Neither Intel nor AMD: the query syntax has no such vendor. */
	const struct pmu_info other = { .vendor = VENDOR_OTHER, .version = 5 };
	uint32_t seed = 1;

	for (size_t c = 0; c < sizeof(cpus) / sizeof(cpus[0]); c++) {
		struct pmu_info pmu;

		if (decode(cpus[c], &pmu))
			check_cpu(cpus[c], &pmu, &seed);
	}
	check_cpu("vendor neither Intel nor AMD ", &other, &seed);
}

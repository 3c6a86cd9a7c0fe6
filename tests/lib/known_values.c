#include "known_values.h"

#include "cpus.h"
#include "harness.h"
#include "msr_access.h"
#include "prog_counter.h"

uint64_t known_value(unsigned cpu, unsigned k)
{
	return 0x1000000ull * (cpu + 1) + 0x101ull * (k + 1);
}

bool known_values_write(struct known_values *k, struct strbuf *why)
{
	struct counter all[MAX_COUNTERS];
	unsigned n = model_counters(all, MAX_COUNTERS);
	struct prog_counter probe;

	k->cpu = platform_this_cpu();
	k->n = 0;
	if (prog_probe_counter(&probe, false, why) == PROG_BROKEN ||
	    !prog_stop_all(why))
		return false;
	for (unsigned i = 0; i < n; i++) {
		uint64_t value = known_value(k->cpu, k->n);

		if (all[i].width < 32)	/* 0: not enumerated */
			continue;
		if (!msr_write(counter_msr(&all[i], false), value, why)) {
			k->n = 0;
			return false;
		}
		k->counters[k->n] = all[i];
		k->value[k->n++] = value;
	}
	return true;
}

bool known_value_of(const struct known_values *k, enum counter_kind kind,
		    unsigned index, uint64_t *value)
{
	for (unsigned i = 0; i < k->n; i++)
		if (k->counters[i].kind == kind && k->counters[i].index == index) {
			*value = k->value[i];
			return true;
		}
	return false;
}

enum known_read known_value_judge(const struct known_values *k,
				  const struct rdpmc_expect *e,
				  const struct exec_outcome *o, bool report)
{
	uint64_t written, value = edx_eax(o);

	if (o->faulted || e->verdict != VERDICT_READ ||
	    !known_value_of(k, e->kind, e->index, &written))
		return KNOWN_UNJUDGED;
	test_judged(KNOWN_VALUES_STATEMENTS);
	if (e->fast)	/* NARCH-2: EAX alone */
		written &= 0xFFFFFFFF;
	if (value == written)
		return KNOWN_MATCHES;
	if (report)
		test_fail("deviation: SMP-3: RDPMC(ECX=%08XH) on CPU %u: expected 0x%llx, what it wrote to %s counter %u before, observed 0x%llx (CPU n writes 0x1000000 * (n + 1) + 0x101 * (k + 1) to its k-th counter)",
			  (uint32_t)o->rcx, k->cpu,
			  (unsigned long long)written,
			  counter_kind_name(e->kind), e->index,
			  (unsigned long long)value);
	return KNOWN_DIFFERS;
}

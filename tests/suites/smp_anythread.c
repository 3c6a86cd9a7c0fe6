/*
 * smp.anythread: AnyThread on the fixed counters (IA32_FIXED_CTR_CTRL bit
 * 4i + 2, PROG-11) where it must not count another vCPU's work: where
 * CPUID.0AH:EDX[15] deprecates it, the SDM takes its effect away; where
 * it does not, AnyThread counts the logical processors of the core, and
 * where the topology (CPUID.1FH or 0BH, SMP-8) puts no AP in CPU 0's core,
 * that is CPU 0 alone. CPU 0 counts the known loop at CPL 3 with fixed
 * counter i (USR only) while every AP cpus= chooses runs the long loop at
 * CPL 3, once without AnyThread and once with it: the count with it must
 * not hold an AP's loop. How much of it would show is model-specific
 * (cycles), so the bound is half of what the same counter counts of that
 * loop on CPU 0. A hypervisor that passes AnyThread through to a vCPU
 * whose hardware sibling runs another vCPU fails here, as does one that
 * counts every vCPU's events for it. Where an AP shares CPU 0's core,
 * or the topology is unknown, which vCPUs' work it counts is
 * model-specific, and the test SKIPs.
 */
#include "cpu_work.h"
#include "cpus.h"
#include "exec.h"
#include "harness.h"
#include "msr.h"
#include "msr_access.h"
#include "prog_counter.h"
#include "prog_measure.h"
#include "rdpmc_check.h"
#include "topology.h"

#define ANYTHREAD_DEPRECATED	(1u << 15)	/* CPUID.0AH:EDX */
#define CPL 3
#define FIXED_CHECKED 3		/* instructions, core and reference cycles */

static void ap_loop(void *unused)
{
	(void)unused;
	exec_known_loop(CPL, PROG_LONG_LOOP);
}

/* Fixed counter c counts with `field` in its control from 0 over CPU 0's
 * `iterations` at CPL 3, the chosen APs' long loops first where `others`;
 * then stopped, read and left 0. The WRMSR of the control goes to *o. */
static bool count(struct prog_counter *c, uint64_t field, uint64_t iterations,
		  bool others, uint64_t *value, struct exec_outcome *o,
		  struct strbuf *why)
{
	bool ok = prog_stop_all(why) && msr_write(c->count_msr, 0, why);

	if (!ok)
		return false;
	exec_wrmsr(c->control_msr, field, o);
	if (o->faulted)
		return true;	/* the caller judges the fault */
	ok = msr_write(c->global_msr, c->global_bit, why);	/* PROG-5 */
	for (unsigned ap = 1; ok && others && ap < platform_cpu_count(); ap++)
		if (harness_cpu_chosen(ap))
			ok = cpu_work(ap, ap_loop, 0);
	if (ok)
		exec_known_loop(CPL, iterations);
	return ok && prog_stop_all(why) && msr_read(c->count_msr, value, why) &&
	       msr_write(c->count_msr, 0, why);
}

/* Why AnyThread must count CPU 0's events alone here, for the messages;
 * where it is not deprecated, a #GP(0) of its write is a deviation. */
struct anythread_case {
	bool deprecated;		/* CPUID.0AH:EDX[15] = 1 */
	const char *where;
};

/* Fixed counter i: without AnyThread, with it, and CPU 0's own long loop. */
static void check_fixed(unsigned i, const struct anythread_case *a)
{
	struct prog_counter c;
	struct exec_outcome o;
	uint64_t without, with, own_long;
	char text[160];
	struct strbuf why;

	strbuf_init(&why, text, sizeof(text));
	if (!prog_fixed_counter(check_pmu(), i, &c, &why) ||
	    !prog_counter_usable(&c, &why)) {
		test_note("fixed counter %u not checked: %s", i, text);
		return;
	}
	if (!count(&c, FIXED_CTRL_USR(i), PROG_SHORT_LOOP, true, &without, &o, &why) ||
	    !count(&c, FIXED_CTRL_USR(i), PROG_LONG_LOOP, false, &own_long, &o, &why) ||
	    !count(&c, FIXED_CTRL_USR(i) | FIXED_CTRL_ANY(i), PROG_SHORT_LOOP,
		   true, &with, &o, &why)) {
		test_fail("%s", text);
		return;
	}
	if (o.faulted && (o.vector != 13 || o.error_code != 0 || !a->deprecated))
		test_fail("deviation: PROG-11: WRMSR(%XH, 0x%llx), AnyThread of fixed counter %u %s: expected completion%s, observed vector %u error code 0x%x",
			  c.control_msr, (unsigned long long)(FIXED_CTRL_USR(i) | FIXED_CTRL_ANY(i)),
			  i, a->where, a->deprecated ? " or #GP(0)" : "",
			  o.vector, (unsigned)o.error_code);
	else if (o.faulted)
		test_note("%s: AnyThread refused with #GP(0), as PROG-11 allows where it is deprecated",
			  c.name);
	else if (with >= without + own_long / 2)
		test_fail("deviation: PROG-11: %s with AnyThread %s counted the other CPUs' work: expected about %llu (without AnyThread), below %llu, observed %llu; the APs ran %llu iterations each at CPL 3, of which CPU 0's own counted %llu",
			  c.name, a->where, (unsigned long long)without,
			  (unsigned long long)(without + own_long / 2),
			  (unsigned long long)with, PROG_LONG_LOOP,
			  (unsigned long long)own_long);
	else
		test_note("%s: %llu with AnyThread, %llu without", c.name,
			  (unsigned long long)with, (unsigned long long)without);
}

/* SMP-8: whether the topology is known and no AP cpus= chooses shares
 * CPU 0's core; *why says what it found either way. */
static bool core_of_its_own(struct strbuf *why)
{
	struct topology t;
	uint32_t bsp = platform_cpu_apic_id(0);

	topology_decode(platform_enumeration(), &t, why);
	for (unsigned ap = 1; t.known && ap < platform_cpu_count(); ap++)
		if (harness_cpu_chosen(ap) &&
		    topology_share_core(&t, bsp, platform_cpu_apic_id(ap))) {
			strbuf_printf(why, ": CPU %u (APIC ID %u) shares CPU 0's core",
				      ap, (unsigned)platform_cpu_apic_id(ap));
			return false;
		}
	return t.known;
}

SINGLE_TEST(smp_anythread, 0, "smp.anythread",
	    "PROG-11 SMP-8 PROG-2 PROG-5 SMP-3 SMP-6",
	    "AnyThread on fixed counters 0-2, deprecated or with no AP in CPU 0's core, counts no other vCPU's work")
{
	const struct pmu_info *pmu = check_pmu();
	struct anythread_case a = { true, "deprecated (CPUID.0AH:EDX[15] = 1)" };
	unsigned others = 0;
	char text[128], where[168];
	struct strbuf why;

	(void)i;
	strbuf_init(&why, text, sizeof(text));
	for (unsigned ap = 1; ap < platform_cpu_count(); ap++)
		others += harness_cpu_chosen(ap);
	if (pmu->vendor != VENDOR_INTEL || pmu->version < 3) {
		test_skip("AnyThread needs an Intel PMU of version 3 or later (PROG-11)");
		return;
	}
	if (!(platform_enumeration()->leaf0a_edx & ANYTHREAD_DEPRECATED)) {
		if (!core_of_its_own(&why)) {
			test_skip("AnyThread not deprecated, %s: model-specific",
				  text);
			return;
		}
		a.deprecated = false;
		a.where = where;
		strbuf_init(&why, where, sizeof(where));
		strbuf_printf(&why, "not deprecated (CPUID.0AH:EDX[15] = 0), no AP in CPU 0's core (%s)",
			      text);
	}
	if (others == 0)
		test_skip("no application processor to run other work (%u CPU(s); cpus= chooses)",
			  platform_cpu_count());
	else
		for (unsigned k = 0; k < FIXED_CHECKED; k++)
			check_fixed(k, &a);
}

/*
 * smp.anythread: AnyThread on the fixed counters (IA32_FIXED_CTR_CTRL bit
 * 4i + 2, PROG-11) where it must not count another vCPU's work: where
 * CPUID.0AH:EDX[15] deprecates it, the SDM takes its effect away. CPU 0
 * counts the known loop at CPL 3 with fixed counter i (USR only) while
 * every AP cpus= chooses runs the long loop at CPL 3, once without
 * AnyThread and once with it: the count with it must not hold an AP's
 * loop. How much of it would show is model-specific (cycles), so the
 * bound is half of what the same counter counts of that loop on CPU 0.
 * A hypervisor that passes AnyThread through to a vCPU whose hardware
 * sibling runs another vCPU fails here. Where AnyThread is not
 * deprecated, it counts the threads of a core; which vCPUs share one is
 * not the SDM's to say, and the test SKIPs.
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

/* Fixed counter i: without AnyThread, with it, and CPU 0's own long loop. */
static void check_fixed(unsigned i)
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
	if (o.faulted && (o.vector != 13 || o.error_code != 0))
		test_fail("deviation: PROG-11: WRMSR(%XH, 0x%llx), AnyThread of fixed counter %u deprecated: expected completion or #GP(0), observed vector %u",
			  c.control_msr, (unsigned long long)(FIXED_CTRL_USR(i) | FIXED_CTRL_ANY(i)),
			  i, o.vector);
	else if (o.faulted)
		test_note("%s: AnyThread refused with #GP(0), as PROG-11 allows where it is deprecated",
			  c.name);
	else if (with >= without + own_long / 2)
		test_fail("deviation: PROG-11: %s with AnyThread deprecated (CPUID.0AH:EDX[15] = 1) counted the other CPUs' work: expected about %llu (without AnyThread), below %llu, observed %llu; the APs ran %llu iterations each at CPL 3, of which CPU 0's own counted %llu",
			  c.name, (unsigned long long)without,
			  (unsigned long long)(without + own_long / 2),
			  (unsigned long long)with, PROG_LONG_LOOP,
			  (unsigned long long)own_long);
	else
		test_note("%s: %llu with AnyThread, %llu without", c.name,
			  (unsigned long long)with, (unsigned long long)without);
}

SINGLE_TEST(smp_anythread, 0, "smp.anythread", "PROG-11 PROG-2 PROG-5 SMP-3 SMP-6",
	    "deprecated AnyThread on fixed counters 0-2 counts no other vCPU's work")
{
	const struct pmu_info *pmu = check_pmu();
	unsigned others = 0;

	(void)i;
	for (unsigned ap = 1; ap < platform_cpu_count(); ap++)
		others += harness_cpu_chosen(ap);
	if (pmu->vendor != VENDOR_INTEL || pmu->version < 3)
		test_skip("AnyThread needs an Intel PMU of version 3 or later (PROG-11)");
	else if (!(platform_enumeration()->leaf0a_edx & ANYTHREAD_DEPRECATED))
		test_skip("AnyThread is not deprecated (CPUID.0AH:EDX[15] = 0): it counts the threads of a core, and which vCPUs share one is model-specific");
	else if (others == 0)
		test_skip("no application processor to run other work (%u CPU(s); cpus= chooses)",
			  platform_cpu_count());
	else
		for (unsigned k = 0; k < FIXED_CHECKED; k++)
			check_fixed(k);
}

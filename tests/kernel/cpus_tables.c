/*
 * cpus.tables: the firmware tables that list the CPUs (ACPI MADT, else the
 * MP table; arch/firmware_cpus.h) were consistent. Tables that are not
 * leave the run on CPU 0 alone, and that is a failure of the machine under
 * test (a VMM builds them), never a silent one-CPU pass; the header's
 * "# cpus:" lines say the same. No tables at all is a SKIP with where the
 * kernel looked.
 */
#include "cpus.h"
#include "harness.h"
#include "smp.h"

SINGLE_TEST(cpus_tables, 0, "cpus.tables", "HARNESS",
	    "the firmware tables that list the CPUs are consistent")
{
	const char *refused = smp_tables_refused();
	const char *none = smp_tables_missing();

	(void)i;
	if (refused)
		test_fail("the firmware tables are refused: %s; the run uses CPU 0 alone",
			  refused);
	else if (none)
		test_skip("no CPU list: %s; the run uses CPU 0 alone", none);
	else
		test_note("%u CPUs started", platform_cpu_count());
}

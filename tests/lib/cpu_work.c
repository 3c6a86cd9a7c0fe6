#include "cpu_work.h"

#include "cpus.h"
#include "harness.h"

bool cpu_work(unsigned cpu, void (*fn)(void *), void *arg)
{
	char text[160];
	struct strbuf why;

	if (cpu == platform_this_cpu()) {
		fn(arg);
		return true;
	}
	strbuf_init(&why, text, sizeof(text));
	harness_cpu_worked(cpu);
	if (platform_start_on_cpu(cpu, fn, arg, &why) &&
	    platform_wait_cpu(cpu, HARNESS_AP_TIMEOUT_MS, &why))
		return true;
	test_judged("SMP-6");
	test_fail("deviation: SMP-6: CPU %u: %s", cpu, text);
	return false;
}

/* kernel/platform.h on the host, for the simulated CPU `sim`. */
#define _POSIX_C_SOURCE 200809L	/* clock_gettime() */
#include "platform.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "console.h"
#include "deviation.h"
#include "sim_cpu.h"
#include "sim_msr.h"
#include "sim_platform.h"

static struct {
	const char *profile;
	jmp_buf contained;
} host;

void sim_platform_init(const char *profile_name)
{
	host.profile = profile_name;
}

void platform_console_write(const char *s, size_t n)
{
	fwrite(s, 1, n, stdout);
}

uint64_t platform_timestamp(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

void platform_exit(int status)
{
	fflush(stdout);
	exit(status);
}

void platform_print_header(void)
{
	const struct deviation_info *d = deviation_info(sim.deviation);

	console_printf("# simulator: pmctest-sim, profile %s\n", host.profile);
	if (sim.deviation == DEV_NONE)
		console_printf("# deviation: none (faithful)\n");
	else
		console_printf("# deviation: %s [%s] %s\n", d->name,
			       d->statements, d->description);
}

const struct pmu_cpuid *platform_enumeration(void)
{
	return &sim.enumeration;
}

/* The simulated CPU keeps no CR4 of its own: each execution names its
 * CR4.PCE, so there is nothing to restore. */
bool platform_run_contained(void (*run)(unsigned), unsigned i)
{
	if (setjmp(host.contained))
		return false;
	run(i);
	return true;
}

void platform_abandon_contained(void)
{
	longjmp(host.contained, 1);
}

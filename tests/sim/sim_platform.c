/* kernel/platform.h on the host, for the simulated CPUs (sim_this()). */
#define _POSIX_C_SOURCE 200809L	/* clock_gettime() */
#include "platform.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "console.h"
#include "deviation.h"
#include "exec.h"
#include "sim_cpu.h"
#include "sim_cpus.h"
#include "sim_msr.h"
#include "sim_platform.h"

static struct {
	const char *profile;
	jmp_buf contained[SIM_CPUS_MAX];	/* each CPU's contained run */
} host;

void sim_platform_init(const char *profile_name)
{
	host.profile = profile_name;
}

static uint64_t written;
static unsigned ap_stop_line = SIM_AP_STOP_LINE;
static bool ap_stop_after;

void sim_platform_ap_stop(unsigned line, bool after)
{
	ap_stop_line = line;
	ap_stop_after = after;
}

/* A line at a time (kernel/console.c), as the kernel's APs put them in
 * the ring CPU 0 empties: all of a line or none of it. */
void platform_console_write(const char *s, size_t n)
{
	static unsigned lines_on_cpu1;
	const struct sim_cpu *cpu = sim_this();

	bool stop = cpu->deviation == DEV_AP_HANGS_WRITING && cpu->index == 1 &&
		    ++lines_on_cpu1 == ap_stop_line;

	if (stop && !ap_stop_after)
		sim_cpu_hang();
	fwrite(s, 1, n, stdout);
	written += n;
	if (stop)
		sim_cpu_hang();
}

uint64_t platform_console_bytes(void)
{
	return written;
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
	const struct deviation_info *d = deviation_info(sim_this()->deviation);

	console_printf("# simulator: pmctest-sim, profile %s, %u CPU(s)\n",
		       host.profile, sim_cpu_total);
	if (sim_this()->deviation == DEV_NONE)
		console_printf("# deviation: none (faithful)\n");
	else
		console_printf("# deviation: %s [%s] %s\n", d->name,
			       d->statements, d->description);
}

const struct pmu_cpuid *platform_enumeration(void)
{
	return &sim_cpus[0].enumeration;
}

void platform_read_enumeration(struct pmu_cpuid *out)
{
	*out = sim_this()->enumeration;
}

/* CR4.PCE is restored as the kernel restores CR4 after a test. */
bool platform_run_contained(void (*run)(unsigned), unsigned i)
{
	struct sim_cpu *cpu = sim_this();
	bool pce = cpu->cr4_pce;

	if (setjmp(host.contained[cpu->index])) {
		exec_cr4_pce_set(pce);
		return false;
	}
	run(i);
	exec_cr4_pce_set(pce);
	return true;
}

void platform_abandon_contained(void)
{
	longjmp(host.contained[sim_this()->index], 1);
}

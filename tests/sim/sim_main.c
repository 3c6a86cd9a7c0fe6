/*
 * pmctest-sim: the kernel's own checks, compiled for the host, run against
 * a simulated CPU described by a profile, faithful or with one deviation
 * injected. Prints the kernel's TAP and exits with its status (0 passed,
 * 1 failed, 2 could not run).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot_msrs.h"
#include "cmdline.h"
#include "cmdline_limits.h"
#include "deviation.h"
#include "exit_status.h"
#include "harness.h"
#include "profile.h"
#include "sim_cpu.h"
#include "sim_cpus.h"
#include "sim_platform.h"

static const char usage[] =
"usage: pmctest-sim --profile FILE [--cpus N] [--deviate NAME]\n"
"                   [--ap-stop-line N | --ap-stop-after-line N] [WORD...]\n"
"       pmctest-sim [--profile FILE] [--cpus N] --list-deviations\n"
"\n"
"Runs pmctest's checks against a simulated machine of N CPUs (1 to 16;\n"
"1 without --cpus), each enumerated by FILE (the key=value syntax of\n"
"pmctest-model; see tests/profiles/) and each with its own PMU, CR4 and\n"
"local APIC. WORDs are the kernel's command line: tests=GLOB[,GLOB]\n"
"cpus=LIST list verbose. --deviate injects one deviation; --list-deviations\n"
"prints NAME, whether it applies to the profile and CPU count (yes / no,\n"
"- without a profile), the statements it breaks and the bug. With\n"
"--deviate ap-hangs-writing, --ap-stop-line N (1 to 9999, else 3) is the\n"
"line of its own CPU 1 stops at as it writes it, before any of it is out;\n"
"--ap-stop-after-line N stops it once all of line N is out.\n"
"Exit status: 0 no test failed, 1 a test failed, 2 the run could not be\n"
"carried out.\n";

static int refuse(const char *why, const char *what)
{
	fprintf(stderr, "pmctest-sim: %s%s\n%s", why, what, usage);
	printf("Bail out! %s%s\n", why, what);
	return EXIT_HARNESS_ERROR;
}

static void list_deviations(bool have_profile)
{
	for (unsigned d = DEV_NONE + 1; d < DEV_COUNT; d++) {
		const struct deviation_info *info = deviation_info(d);
		const char *applies = !have_profile ? "-"
				      : deviation_applies(d, &sim_cpus[0]) ? "yes" : "no";

		printf("%s\t%s\t%s\t%s\n", info->name, applies,
		       info->statements, info->description);
	}
}

int main(int argc, char **argv)
{
	static char words[CMDLINE_MAX + 1];
	char error_text[256], name[64];
	struct strbuf error, line;
	struct harness_options options;
	struct pmu_cpuid enumeration;
	const char *profile = NULL;
	enum deviation deviation = DEV_NONE;
	bool list = false;
	unsigned total = 1, stop_line = 0;
	bool stop_after = false;

	strbuf_init(&line, words, sizeof(words));
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--profile") == 0 && i + 1 < argc) {
			profile = argv[++i];
		} else if (strcmp(argv[i], "--deviate") == 0 && i + 1 < argc) {
			deviation = deviation_by_name(argv[++i]);
			if (deviation == DEV_COUNT || deviation == DEV_NONE)
				return refuse("unknown deviation ", argv[i]);
		} else if (strcmp(argv[i], "--cpus") == 0 && i + 1 < argc) {
			char *end;
			unsigned long n = strtoul(argv[++i], &end, 10);

			if (*end || end == argv[i] || n < 1 || n > SIM_CPUS_MAX)
				return refuse("--cpus takes 1 to 16, not ", argv[i]);
			total = (unsigned)n;
		} else if ((strcmp(argv[i], "--ap-stop-line") == 0 ||
			    strcmp(argv[i], "--ap-stop-after-line") == 0) && i + 1 < argc) {
			char *end;
			unsigned long n = strtoul(argv[i + 1], &end, 10);

			if (*end || end == argv[i + 1] || n < 1 || n > 9999 || stop_line)
				return refuse("one --ap-stop-line or --ap-stop-after-line, of 1 to 9999, not ",
					      argv[i + 1]);
			stop_after = strcmp(argv[i], "--ap-stop-after-line") == 0;
			stop_line = (unsigned)n;
			i++;
		} else if (strcmp(argv[i], "--list-deviations") == 0) {
			list = true;
		} else if (strcmp(argv[i], "--help") == 0) {
			fputs(usage, stdout);
			return EXIT_PASSED;
		} else if (argv[i][0] == '-') {
			return refuse("unknown option ", argv[i]);
		} else {
			strbuf_printf(&line, "%s ", argv[i]);
		}
	}
	if (line.len >= line.size)
		return refuse("command line too long", "");

	strbuf_init(&error, error_text, sizeof(error_text));
	if (profile && !profile_load(profile, &enumeration, &error))
		return refuse(error_text, "");
	sim_cpus_init(total);
	for (unsigned cpu = 0; profile && cpu < total; cpu++)
		sim_cpu_init(&sim_cpus[cpu], &enumeration, deviation, cpu);
	if (list) {
		list_deviations(profile != NULL);
		return EXIT_PASSED;
	}
	if (!profile)
		return refuse("no --profile given", "");
	if (!deviation_applies(deviation, &sim_cpus[0]))
		return refuse("deviation does not apply to this profile: ",
			      deviation_info(deviation)->name);
	if (stop_line && deviation != DEV_AP_HANGS_WRITING)
		return refuse("--ap-stop-line needs --deviate ", "ap-hangs-writing");
	if (stop_line)
		sim_platform_ap_stop(stop_line, stop_after);
	if (!cmdline_parse(words, &options, &error))
		return refuse("bad command line: ", error_text);
	profile_name(profile, name, sizeof(name));
	sim_platform_init(name);
	sim_cpus_start();	/* RESET-1..4, SMP-5: as the kernel boots */
	return harness_run(&options);
}

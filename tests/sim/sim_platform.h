/* kernel/platform.h for pmctest-sim: what the header says it runs on. */
#ifndef PMCTEST_SIM_PLATFORM_H
#define PMCTEST_SIM_PLATFORM_H

#include <stdbool.h>

/* The profile's name for the TAP header (the CPU is `sim`). */
void sim_platform_init(const char *profile_name);

/* DEV_AP_HANGS_WRITING: the line of its own (from 1) CPU 1 stops at as it
 * writes it, before any of it is out or, with after, once all of it is;
 * line 3, before, unless --ap-stop-line or --ap-stop-after-line says
 * otherwise. */
#define SIM_AP_STOP_LINE 3
void sim_platform_ap_stop(unsigned line, bool after);

#endif

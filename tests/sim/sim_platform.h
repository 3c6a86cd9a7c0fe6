/* kernel/platform.h for pmctest-sim: what the header says it runs on. */
#ifndef PMCTEST_SIM_PLATFORM_H
#define PMCTEST_SIM_PLATFORM_H

/* The profile's name for the TAP header (the CPU is `sim`). */
void sim_platform_init(const char *profile_name);

#endif

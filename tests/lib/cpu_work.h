/*
 * Work a check hands to another CPU (kernel/cpus.h) while it keeps the
 * state of its own: the checks that need two CPUs at the same time.
 */
#ifndef PMCTEST_CPU_WORK_H
#define PMCTEST_CPU_WORK_H

#include <stdbool.h>

/*
 * fn(arg) on CPU cpu, waited for (at once where cpu is the caller's). fn
 * must not write the console. False, with the running test failed naming
 * the CPU and why (SMP-6), if the CPU could not be started or was lost.
 */
bool cpu_work(unsigned cpu, void (*fn)(void *), void *arg);

#endif

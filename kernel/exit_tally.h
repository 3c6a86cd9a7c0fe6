/*
 * The exit tally: how many instructions that exit to a typical hypervisor
 * (kernel/exit_kind.h) each test group issued, its reports on the console
 * included, for `timing` (make bench). The platform reports them
 * (exit_tally_count() is the hook kernel/main.c installs); the simulator
 * reports none, and then nothing is printed.
 */
#ifndef PMCTEST_EXIT_TALLY_H
#define PMCTEST_EXIT_TALLY_H

#include <stdint.h>

#include "exit_kind.h"

/* n instructions of kind were issued; port: the I/O port of port I/O. */
void exit_tally_count(enum exit_kind kind, unsigned port, uint32_t n);

/* From now on the counts go to the group whose name is the first n
 * characters of name; name 0: to no group (lines of `timing` itself).
 * Until the first call they go to "start": boot, enumeration, header. */
void exit_tally_group(const char *name, unsigned n);

/*
 * One comment line per group, in the order the groups first ran, then
 * the total:
 *   # exits: priv io=16734 rdmsr=1250 wrmsr=1304 cpuid=14 rdpmc=466 hlt=0 io.0x3f8=15756 io.0x3fd=978
 * Nothing when no instruction was reported.
 */
void exit_tally_print(void);

#endif

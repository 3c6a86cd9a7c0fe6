/*
 * Guard pages under the stacks (arch/stacks.asm): unmapped, so that a
 * stack that overflows faults on its guard (#PF, or #DF for a CPL 0 stack,
 * whose #PF cannot be delivered on it) instead of overwriting memory.
 */
#ifndef PMCTEST_GUARD_H
#define PMCTEST_GUARD_H

#include <stdint.h>

/* Unmaps every guard page; once, before anything runs on the stacks but
 * the boot stack's top. */
void guard_pages_init(void);

/* Unmaps the guard pages of CPUs 1 .. count - 1 too; before any of them
 * starts (no other CPU holds the 2 MiB mappings it splits). */
void guard_pages_init_cpus(unsigned count);

/* The stack whose guard page holds addr ("CPL 0 kernel"), or 0. */
const char *guard_page_owner(uint64_t addr);

#endif

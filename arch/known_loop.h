/* The loop of arch/known_loop.asm: a workload with a known count. */
#ifndef PMCTEST_KNOWN_LOOP_H
#define PMCTEST_KNOWN_LOOP_H

#include <stdint.h>

/* Instructions and branches each iteration retires (dec + jnz; the jnz). */
#define KNOWN_LOOP_INSTRUCTIONS	2
#define KNOWN_LOOP_BRANCHES	1

void known_loop(uint64_t iterations);	/* iterations >= 1, any CPL */

#endif

/*
 * Bringing up the application processors (kernel/cpus.h on the local
 * APIC): the CPUs the firmware tables list (arch/firmware_cpus.h),
 * started one at a time by INIT-SIPI-SIPI through the real-mode
 * trampoline (arch/ap_trampoline.asm), each with its own GDT, TSS and
 * stacks, waiting halted for work.
 */
#ifndef PMCTEST_SMP_H
#define PMCTEST_SMP_H

#include <stdbool.h>

#include "boot_info.h"
#include "platform.h"
#include "strbuf.h"
#include "trap.h"

/*
 * Finds the CPUs, puts the local APIC in the mode apic_mode asks for
 * (where it can: the header says where not), and starts them. False, with
 * why, only where the loader named an RSDP that is not one (bad boot
 * information); every other trouble (no tables, inconsistent tables, no
 * memory map, an AP that does not answer) leaves fewer CPUs, and
 * smp_print_header() says why.
 */
bool smp_start(const struct boot_info *boot, const struct boot_memory *memory,
	       enum platform_apic_mode apic_mode, struct strbuf *why);

/* The "# cpus:" header lines: listed, started, from which table, APIC
 * mode, ignored; how the mode differs from apic= or the firmware's; the
 * start-up time; and why not more. */
void smp_print_header(void);

/* Why the tables were refused, or NULL; why there were none, or NULL:
 * for cpus.tables (tests/kernel/cpus_tables.c). */
const char *smp_tables_refused(void);
const char *smp_tables_missing(void);

#endif

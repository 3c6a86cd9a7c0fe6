/*
 * Which logical processors the firmware tables list: the ACPI MADT (ACPI
 * 6.5, 5.2.12: Processor Local APIC and Processor Local x2APIC entries),
 * found through the RSDP (5.2.5) and the XSDT or RSDT (5.2.7, 5.2.8), else
 * the MP table (Intel MultiProcessor Specification 1.4, chapter 4:
 * processor entries). The tables are hostile input: every length,
 * checksum, revision and pointer is checked before use, and an
 * inconsistent table is refused with its structure, field and value.
 * Pure, like the boot information's reader (arch/boot_info.h): it reads
 * through struct boot_memory, in the kernel and fuzzed on the host
 * (tests/fuzz/tables_fuzz.c).
 */
#ifndef PMCTEST_FIRMWARE_CPUS_H
#define PMCTEST_FIRMWARE_CPUS_H

#include <stdbool.h>
#include <stdint.h>

#include "cpus.h"
#include "firmware_memory.h"
#include "strbuf.h"

struct firmware_cpus {
	const char *source;	/* "ACPI MADT via the XSDT", "MP table", ... */
	bool x2apic_entries;	/* the MADT has Processor Local x2APIC entries */
	bool bsp_listed;	/* the running CPU is among them */
	unsigned listed;	/* usable entries: enabled or online-capable */
	unsigned count;		/* kept: the running CPU first, then table order */
	uint32_t apic_id[CPUS_MAX];
};

enum firmware_cpus_result {
	FIRMWARE_CPUS_FOUND,	/* out filled; count >= 1 */
	FIRMWARE_CPUS_NONE,	/* no RSDP and no MP floating pointer: why says where it looked */
	FIRMWARE_CPUS_REFUSED,	/* a table is inconsistent: why names it */
};

/*
 * The CPUs the tables list, the running one (APIC ID bsp_apic_id) first:
 * tables that do not list it describe another machine and are refused.
 * rsdp is the RSDP's physical address where the loader said (0: search
 * the EBDA's first KiB and E0000H-FFFFFH, ACPI 5.2.5.1); an RSDP the loader
 * gave must be valid (firmware_rsdp_check() first). Entries beyond
 * CPUS_MAX are counted in listed and not kept; duplicate APIC IDs among
 * those kept are refused.
 */
enum firmware_cpus_result firmware_cpus_find(const struct boot_memory *m,
					     uint64_t rsdp,
					     uint32_t bsp_apic_id,
					     struct firmware_cpus *out,
					     struct strbuf *why);

/* The RSDP at phys, as a loader gave it: signature, checksum, revision,
 * and with revision 2 or later its length and extended checksum. */
bool firmware_rsdp_check(const struct boot_memory *m, uint64_t phys,
			 const char *what, struct strbuf *why);

#endif

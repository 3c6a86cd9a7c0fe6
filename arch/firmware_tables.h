/*
 * The table readers under firmware_cpus.h: each finds its table, checks
 * it, and then hands back its processor entries one at a time, as data.
 * What the entries add up to (the running CPU first, duplicates refused)
 * is firmware_cpus.c's alone; the readers never call it.
 *
 *   open:  FIRMWARE_CPUS_FOUND with the cursor at the first entry,
 *          FIRMWARE_CPUS_NONE (no such table), or FIRMWARE_CPUS_REFUSED;
 *   next:  TABLE_CPU with one usable processor entry, TABLE_END, or
 *          TABLE_REFUSED (why names the entry).
 */
#ifndef PMCTEST_FIRMWARE_TABLES_H
#define PMCTEST_FIRMWARE_TABLES_H

#include <stdbool.h>
#include <stdint.h>

#include "firmware_cpus.h"
#include "firmware_memory.h"
#include "strbuf.h"

/* Where a reader is in its table. */
struct table_cursor {
	const struct boot_memory *m;
	const char *source;	/* "ACPI MADT via the XSDT", "MP table", ... */
	uint64_t table;		/* the MADT or the MP configuration table */
	uint32_t length;	/* its bytes */
	uint32_t offset;	/* of the next entry */
	unsigned index;		/* MP: entries read ... */
	unsigned count;		/* ... of its entry count */
	uint8_t revision;	/* MADT: online-capable from revision 5 */
	bool x2apic_entries;	/* MADT: a Processor Local x2APIC entry was read */
	char what[96];		/* names the table, for refusals */
};

/* One usable processor entry: enabled, or online-capable. */
struct table_cpu {
	uint32_t apic_id;
	char entry[128];	/* names the entry, for refusals */
};

enum table_step {
	TABLE_CPU,
	TABLE_END,
	TABLE_REFUSED,
};

/* ACPI 6.5, 5.2.7 - 5.2.12: the MADT through the XSDT or RSDT of a valid
 * RSDP (acpi_tables.c). */
enum firmware_cpus_result acpi_madt_open(const struct boot_memory *m,
					 uint64_t rsdp, struct table_cursor *c,
					 struct strbuf *why);
enum table_step acpi_madt_next(struct table_cursor *c, struct table_cpu *cpu,
			       struct strbuf *why);

/* Intel MultiProcessor Specification 1.4, chapter 4 (mp_table.c). */
enum firmware_cpus_result mp_table_open(const struct boot_memory *m,
					struct table_cursor *c,
					struct strbuf *why);
enum table_step mp_table_next(struct table_cursor *c, struct table_cpu *cpu,
			      struct strbuf *why);

#endif

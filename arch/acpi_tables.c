/*
 * The ACPI reader of firmware_tables.h: from a valid RSDP through the XSDT
 * (revision 2 and later, where its address is not 0) or the RSDT to the
 * MADT, and its Processor Local APIC (type 0) and Processor Local x2APIC
 * (type 9) entries (ACPI 6.5, 5.2.5 - 5.2.12).
 */
#include "firmware_tables.h"

#define RSDP_REVISION		15
#define RSDP_RSDT		16	/* u32 */
#define RSDP_XSDT		24	/* u64, revision 2 and later */
#define SDT_HEADER		36	/* signature, length, revision, checksum, ... */
#define SDT_LENGTH		4
#define SDT_REVISION		8
#define MADT_ENTRIES		44	/* after the local APIC address and flags */
#define MADT_LOCAL_APIC		0	/* 8 bytes: UID, APIC ID, flags */
#define MADT_LOCAL_X2APIC	9	/* 16 bytes: reserved, x2APIC ID, flags, UID */
#define MADT_ENABLED		1u	/* flags bit 0 */
#define MADT_ONLINE_CAPABLE	2u	/* flags bit 1, MADT revision 5 (ACPI 6.3) on */
#define MADT_ONLINE_CAPABLE_REVISION 5
#define XAPIC_ID_NONE		0xFF	/* a type 0 entry of ID FFH describes no CPU */
/* Larger tables are refused rather than summed: 4096 x2APIC entries fit. */
#define ROOT_TABLE_MAX		0x10000u
#define MADT_MAX		0x100000u

/* The table at addr has signature sig, a length of at least its header and
 * at most max bytes, all readable, and a checksum that holds; its length,
 * or false with the refusal. */
static bool table_check(const struct boot_memory *m, uint64_t addr,
			const char *sig, uint32_t max, const char *what,
			uint32_t *length, struct strbuf *why)
{
	if (!firmware_check_readable(m, addr, SDT_HEADER, what, why))
		return false;
	if (!firmware_signature(m, addr, sig, 4)) {
		strbuf_printf(why, "%s: signature %08x, not \"%s\"", what,
			      firmware_read32(m, addr), sig);
		return false;
	}
	*length = firmware_read32(m, addr + SDT_LENGTH);
	if (*length < SDT_HEADER || *length > max) {
		strbuf_printf(why, "%s: %s length %u: not %u to %u", what, sig,
			      *length, SDT_HEADER, max);
		return false;
	}
	if (!firmware_check_readable(m, addr, *length, what, why))
		return false;
	if (!firmware_sum_zero(m, addr, *length)) {
		strbuf_printf(why, "%s: %s checksum: its %u bytes do not sum to 0",
			      what, sig, *length);
		return false;
	}
	return true;
}

/* A Processor Local APIC or x2APIC entry of these flags is a CPU if it is
 * enabled or, from MADT revision 5, online-capable (it may be started). */
static bool processor_usable(const struct table_cursor *c, uint32_t flags)
{
	uint32_t usable = MADT_ENABLED;

	if (c->revision >= MADT_ONLINE_CAPABLE_REVISION)
		usable |= MADT_ONLINE_CAPABLE;
	return flags & usable;
}

static enum firmware_cpus_result madt_open(const struct boot_memory *m,
					   uint64_t madt, const char *via,
					   struct table_cursor *c,
					   struct strbuf *why)
{
	struct strbuf what;

	strbuf_init(&what, c->what, sizeof(c->what));
	strbuf_printf(&what, "ACPI MADT at 0x%llx", (unsigned long long)madt);
	if (!table_check(m, madt, "APIC", MADT_MAX, c->what, &c->length, why))
		return FIRMWARE_CPUS_REFUSED;
	if (c->length < MADT_ENTRIES) {
		strbuf_printf(why, "%s: length %u: less than its %u bytes of fields",
			      c->what, c->length, MADT_ENTRIES);
		return FIRMWARE_CPUS_REFUSED;
	}
	c->m = m;
	c->table = madt;
	c->offset = MADT_ENTRIES;
	c->revision = firmware_read8(m, madt + SDT_REVISION);
	c->source = via;
	return FIRMWARE_CPUS_FOUND;
}

enum table_step acpi_madt_next(struct table_cursor *c, struct table_cpu *cpu,
			       struct strbuf *why)
{
	const struct boot_memory *m = c->m;
	struct strbuf entry;

	while (c->offset < c->length) {
		uint64_t e = c->table + c->offset;
		uint32_t left = c->length - c->offset;
		uint8_t type, size;

		strbuf_init(&entry, cpu->entry, sizeof(cpu->entry));
		strbuf_printf(&entry, "%s: entry at offset %u", c->what,
			      c->offset);
		if (left < 2) {
			strbuf_printf(why, "%s: 1 byte left of the table, less than an entry's type and length",
				      cpu->entry);
			return TABLE_REFUSED;
		}
		type = firmware_read8(m, e);
		size = firmware_read8(m, e + 1);
		if (size < 2 || size > left) {
			strbuf_printf(why, "%s, type %u: length %u: not 2 to the %u bytes left of the table",
				      cpu->entry, type, size, left);
			return TABLE_REFUSED;
		}
		if ((type == MADT_LOCAL_APIC && size < 8) ||
		    (type == MADT_LOCAL_X2APIC && size < 16)) {
			strbuf_printf(why, "%s, type %u: length %u: less than its %u bytes",
				      cpu->entry, type, size,
				      type == MADT_LOCAL_APIC ? 8 : 16);
			return TABLE_REFUSED;
		}
		c->offset += size;
		if (type == MADT_LOCAL_APIC &&
		    firmware_read8(m, e + 3) != XAPIC_ID_NONE &&
		    processor_usable(c, firmware_read32(m, e + 4))) {
			cpu->apic_id = firmware_read8(m, e + 3);
			return TABLE_CPU;
		}
		if (type == MADT_LOCAL_X2APIC) {
			c->x2apic_entries = true;
			if (processor_usable(c, firmware_read32(m, e + 8))) {
				cpu->apic_id = firmware_read32(m, e + 4);
				return TABLE_CPU;
			}
		}
	}
	return TABLE_END;
}

enum firmware_cpus_result acpi_madt_open(const struct boot_memory *m,
					 uint64_t rsdp, struct table_cursor *c,
					 struct strbuf *why)
{
	char what_text[96];
	struct strbuf what;
	uint64_t root = 0;
	uint32_t length, entry_size = 8;
	const char *sig = "XSDT";

	if (firmware_read8(m, rsdp + RSDP_REVISION) >= 2)
		root = firmware_read64(m, rsdp + RSDP_XSDT);
	if (root == 0) {
		root = firmware_read32(m, rsdp + RSDP_RSDT);
		entry_size = 4;
		sig = "RSDT";
	}
	strbuf_init(&what, what_text, sizeof(what_text));
	strbuf_printf(&what, "ACPI %s at 0x%llx (from the RSDP at 0x%llx)", sig,
		      (unsigned long long)root, (unsigned long long)rsdp);
	if (!table_check(m, root, sig, ROOT_TABLE_MAX, what_text, &length, why))
		return FIRMWARE_CPUS_REFUSED;
	if ((length - SDT_HEADER) % entry_size) {
		strbuf_printf(why, "%s: length %u: not a header and whole %u-byte entries",
			      what_text, length, entry_size);
		return FIRMWARE_CPUS_REFUSED;
	}
	for (uint32_t o = SDT_HEADER; o < length; o += entry_size) {
		uint64_t table = entry_size == 8 ? firmware_read64(m, root + o)
						 : firmware_read32(m, root + o);
		char entry_text[128];
		struct strbuf entry;

		strbuf_init(&entry, entry_text, sizeof(entry_text));
		strbuf_printf(&entry, "%s: entry %u, 0x%llx", what_text,
			      (o - SDT_HEADER) / entry_size,
			      (unsigned long long)table);
		if (!firmware_check_readable(m, table, SDT_HEADER, entry_text, why))
			return FIRMWARE_CPUS_REFUSED;
		if (firmware_signature(m, table, "APIC", 4))
			return madt_open(m, table,
					 entry_size == 8 ? "ACPI MADT via the XSDT"
							 : "ACPI MADT via the RSDT",
					 c, why);
	}
	return FIRMWARE_CPUS_NONE;
}

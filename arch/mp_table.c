/*
 * The MP table reader of firmware_tables.h (Intel MultiProcessor Specification
 * 1.4, chapter 4): the MP floating pointer structure ("_MP_", 16 bytes) in
 * the EBDA's first KiB, the last KiB of base memory or F0000H-FFFFFH, and
 * the processor entries of the configuration table ("PCMP") it points to.
 */
#include "firmware_tables.h"

#define MPF_SIZE		16
#define MPF_TABLE		4	/* u32: the configuration table */
#define MPF_LENGTH		8	/* u8: in 16-byte units, 1 */
#define MPF_FEATURE1		11	/* u8: a default configuration if not 0 */
#define MPC_HEADER		44
#define MPC_LENGTH		4	/* u16: the base table */
#define MPC_ENTRY_COUNT		34	/* u16 */
#define MPC_PROCESSOR		0	/* 20 bytes */
#define MPC_PROCESSOR_SIZE	20
#define MPC_OTHER_SIZE		8	/* bus, I/O APIC, I/O and local interrupt */
#define MPC_LAST_TYPE		4
#define MPC_CPU_ENABLED		1u	/* CPU flags bit 0 */
#define BDA_EBDA_SEGMENT	0x40E
#define BDA_BASE_KIB		0x413

/* The first 16-byte aligned floating pointer in [start, end) whose length
 * and checksum hold, or 0. */
static uint64_t floating_search(const struct boot_memory *m,
				uint64_t start, uint64_t end)
{
	for (uint64_t p = start; p + MPF_SIZE <= end; p += 16)
		if (firmware_readable(m, p, MPF_SIZE) &&
		    firmware_signature(m, p, "_MP_", 4) &&
		    firmware_read8(m, p + MPF_LENGTH) == 1 &&
		    firmware_sum_zero(m, p, MPF_SIZE))
			return p;
	return 0;
}

static uint64_t floating_find(const struct boot_memory *m)
{
	uint64_t found = 0;

	if (firmware_readable(m, BDA_EBDA_SEGMENT, 2)) {
		uint64_t ebda = (uint64_t)firmware_read16(m, BDA_EBDA_SEGMENT) << 4;

		if (ebda >= 0x80000 && ebda + 1024 <= 0xA0000)
			found = floating_search(m, ebda, ebda + 1024);
	}
	if (!found && firmware_readable(m, BDA_BASE_KIB, 2)) {
		uint64_t top = (uint64_t)firmware_read16(m, BDA_BASE_KIB) * 1024;

		if (top >= 0x80000 && top <= 0xA0000)
			found = floating_search(m, top - 1024, top);
	}
	if (!found)
		found = floating_search(m, 0xF0000, 0x100000);
	return found;
}

enum firmware_cpus_result mp_table_open(const struct boot_memory *m,
					struct table_cursor *c,
					struct strbuf *why)
{
	struct strbuf what;
	uint64_t floating = floating_find(m), table;
	uint32_t length;

	if (!floating)
		return FIRMWARE_CPUS_NONE;
	table = firmware_read32(m, floating + MPF_TABLE);
	strbuf_init(&what, c->what, sizeof(c->what));
	if (table == 0) {
		strbuf_printf(why, "MP floating pointer at 0x%llx: no configuration table (default configuration %u), which pmctest does not read",
			      (unsigned long long)floating,
			      firmware_read8(m, floating + MPF_FEATURE1));
		return FIRMWARE_CPUS_REFUSED;
	}
	strbuf_printf(&what, "MP configuration table at 0x%llx (from the floating pointer at 0x%llx)",
		      (unsigned long long)table, (unsigned long long)floating);
	if (!firmware_check_readable(m, table, MPC_HEADER, c->what, why))
		return FIRMWARE_CPUS_REFUSED;
	if (!firmware_signature(m, table, "PCMP", 4)) {
		strbuf_printf(why, "%s: signature not \"PCMP\"", c->what);
		return FIRMWARE_CPUS_REFUSED;
	}
	length = firmware_read16(m, table + MPC_LENGTH);
	if (length < MPC_HEADER) {
		strbuf_printf(why, "%s: base table length %u: less than its %u-byte header",
			      c->what, length, MPC_HEADER);
		return FIRMWARE_CPUS_REFUSED;
	}
	if (!firmware_check_readable(m, table, length, c->what, why))
		return FIRMWARE_CPUS_REFUSED;
	if (!firmware_sum_zero(m, table, length)) {
		strbuf_printf(why, "%s: checksum: its %u bytes do not sum to 0",
			      c->what, length);
		return FIRMWARE_CPUS_REFUSED;
	}
	c->m = m;
	c->table = table;
	c->length = length;
	c->offset = MPC_HEADER;
	c->index = 0;
	c->count = firmware_read16(m, table + MPC_ENTRY_COUNT);
	c->source = "MP table";
	return FIRMWARE_CPUS_FOUND;
}

enum table_step mp_table_next(struct table_cursor *c, struct table_cpu *cpu,
			      struct strbuf *why)
{
	const struct boot_memory *m = c->m;
	struct strbuf entry;

	while (c->index < c->count) {
		uint64_t e = c->table + c->offset;
		uint8_t type;
		uint32_t size;

		strbuf_init(&entry, cpu->entry, sizeof(cpu->entry));
		strbuf_printf(&entry, "%s: entry %u at offset %u", c->what,
			      c->index, c->offset);
		if (c->offset >= c->length) {
			strbuf_printf(why, "%s: past the base table's %u bytes (entry count %u)",
				      cpu->entry, c->length, c->count);
			return TABLE_REFUSED;
		}
		type = firmware_read8(m, e);
		if (type > MPC_LAST_TYPE) {
			strbuf_printf(why, "%s: type %u: not a base table entry (0 to 4)",
				      cpu->entry, type);
			return TABLE_REFUSED;
		}
		size = type == MPC_PROCESSOR ? MPC_PROCESSOR_SIZE : MPC_OTHER_SIZE;
		if (size > c->length - c->offset) {
			strbuf_printf(why, "%s: type %u: its %u bytes run past the base table's %u",
				      cpu->entry, type, size, c->length);
			return TABLE_REFUSED;
		}
		c->offset += size;
		c->index++;
		if (type == MPC_PROCESSOR &&
		    (firmware_read8(m, e + 3) & MPC_CPU_ENABLED)) {
			cpu->apic_id = firmware_read8(m, e + 1);
			return TABLE_CPU;
		}
	}
	return TABLE_END;
}

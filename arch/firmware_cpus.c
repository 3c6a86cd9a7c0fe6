/* Finding the CPUs in the firmware tables (firmware_cpus.h). */
#include "firmware_tables.h"

/* ACPI 6.5, 5.2.5.3: the RSDP's fields. */
#define RSDP_V1_SIZE		20	/* what the checksum covers */
#define RSDP_V2_SIZE		36
#define RSDP_REVISION		15
#define RSDP_LENGTH		20
/* ACPI 5.2.5.1: where a BIOS puts the RSDP, on a 16-byte boundary. */
#define BDA_EBDA_SEGMENT	0x40E
#define EBDA_SEARCH		1024
#define BIOS_AREA_START		0xE0000
#define BIOS_AREA_END		0x100000

bool firmware_rsdp_check(const struct boot_memory *m, uint64_t phys,
			 const char *what, struct strbuf *why)
{
	uint8_t revision;
	uint32_t length;

	if (!firmware_check_readable(m, phys, RSDP_V1_SIZE, what, why))
		return false;
	if (!firmware_signature(m, phys, "RSD PTR ", 8)) {
		strbuf_printf(why, "%s: no \"RSD PTR \" signature there", what);
		return false;
	}
	if (!firmware_sum_zero(m, phys, RSDP_V1_SIZE)) {
		strbuf_printf(why, "%s: the RSDP's checksum over its first 20 bytes is not 0",
			      what);
		return false;
	}
	revision = firmware_read8(m, phys + RSDP_REVISION);
	if (revision < 2)	/* ACPI 1.0: 20 bytes, no length */
		return true;
	if (!firmware_check_readable(m, phys, RSDP_V2_SIZE, what, why))
		return false;
	length = firmware_read32(m, phys + RSDP_LENGTH);
	if (length < RSDP_V2_SIZE || length > 4096) {
		strbuf_printf(why, "%s: RSDP revision %u, length %u: not 36 to 4096",
			      what, revision, length);
		return false;
	}
	if (!firmware_check_readable(m, phys, length, what, why))
		return false;
	if (!firmware_sum_zero(m, phys, length)) {
		strbuf_printf(why, "%s: RSDP revision %u: the extended checksum over its %u bytes is not 0",
			      what, revision, length);
		return false;
	}
	return true;
}

/* Add one APIC ID a table listed: false with the refusal where it repeats
 * one kept. */
static bool cpus_add(struct firmware_cpus *out, uint32_t apic_id,
		     uint32_t bsp_apic_id, const char *entry,
		     struct strbuf *why)
{
	bool repeated = apic_id == bsp_apic_id && out->bsp_listed;

	/* Slot 0 is the running CPU's, listed or not (yet). */
	for (unsigned i = 1; i < out->count && !repeated; i++)
		repeated = out->apic_id[i] == apic_id;
	if (repeated) {
		strbuf_printf(why, "%s: APIC ID 0x%x listed twice", entry,
			      apic_id);
		return false;
	}
	out->listed++;
	if (apic_id == bsp_apic_id)
		out->bsp_listed = true;
	else if (out->count < CPUS_MAX)
		out->apic_id[out->count++] = apic_id;
	return true;
}

/* The first 16-byte aligned RSDP in [start, end) whose checksums hold, or
 * 0; where nothing may be read, none. */
static uint64_t rsdp_search(const struct boot_memory *m, uint64_t start,
			    uint64_t end)
{
	char text[8];
	struct strbuf ignored;

	for (uint64_t p = start; p + RSDP_V1_SIZE <= end; p += 16) {
		if (!firmware_readable(m, p, 8) ||
		    !firmware_signature(m, p, "RSD PTR ", 8))
			continue;
		strbuf_init(&ignored, text, sizeof(text));
		if (firmware_rsdp_check(m, p, "", &ignored))
			return p;
	}
	return 0;
}

static uint64_t rsdp_find(const struct boot_memory *m)
{
	uint64_t ebda = 0, found = 0;

	if (firmware_readable(m, BDA_EBDA_SEGMENT, 2))
		ebda = (uint64_t)firmware_read16(m, BDA_EBDA_SEGMENT) << 4;
	/* An EBDA lies in the top of conventional memory, below A0000H. */
	if (ebda >= 0x80000 && ebda + EBDA_SEARCH <= 0xA0000)
		found = rsdp_search(m, ebda, ebda + EBDA_SEARCH);
	if (!found)
		found = rsdp_search(m, BIOS_AREA_START, BIOS_AREA_END);
	return found;
}

/* The usable processor entries of the table c was opened on, added in
 * table order. */
static enum firmware_cpus_result cpus_read(struct table_cursor *c,
					   enum table_step (*next)(struct table_cursor *,
								   struct table_cpu *,
								   struct strbuf *),
					   uint32_t bsp_apic_id,
					   struct firmware_cpus *out,
					   struct strbuf *why)
{
	struct table_cpu cpu;
	enum table_step step;

	out->source = c->source;
	while ((step = next(c, &cpu, why)) == TABLE_CPU)
		if (!cpus_add(out, cpu.apic_id, bsp_apic_id, cpu.entry, why))
			return FIRMWARE_CPUS_REFUSED;
	out->x2apic_entries = c->x2apic_entries;
	if (step == TABLE_REFUSED)
		return FIRMWARE_CPUS_REFUSED;
	if (out->listed == 0) {
		strbuf_printf(why, "%s: no enabled processor entry", c->what);
		return FIRMWARE_CPUS_REFUSED;
	}
	return FIRMWARE_CPUS_FOUND;
}

enum firmware_cpus_result firmware_cpus_find(const struct boot_memory *m,
					     uint64_t rsdp,
					     uint32_t bsp_apic_id,
					     struct firmware_cpus *out,
					     struct strbuf *why)
{
	const struct firmware_cpus none = {
		.count = 1, .apic_id = { bsp_apic_id },
	};
	struct table_cursor acpi = { 0 }, mp = { 0 };
	enum firmware_cpus_result r;

	*out = none;
	if (!rsdp)
		rsdp = rsdp_find(m);
	r = rsdp ? acpi_madt_open(m, rsdp, &acpi, why) : FIRMWARE_CPUS_NONE;
	if (r == FIRMWARE_CPUS_FOUND)
		r = cpus_read(&acpi, acpi_madt_next, bsp_apic_id, out, why);
	if (r == FIRMWARE_CPUS_NONE) {
		r = mp_table_open(m, &mp, why);
		if (r == FIRMWARE_CPUS_FOUND)
			r = cpus_read(&mp, mp_table_next, bsp_apic_id, out, why);
	}
	if (r == FIRMWARE_CPUS_NONE) {
		strbuf_puts(why, rsdp ? "the ACPI tables have no MADT, and there is no MP table"
				      : "no ACPI RSDP (from the loader, in the EBDA or at E0000H-FFFFFH) and no MP table");
		return r;
	}
	if (r == FIRMWARE_CPUS_FOUND && !out->bsp_listed) {
		strbuf_printf(why, "the %s lists %u CPUs, not the running one (APIC ID 0x%x)",
			      out->source, out->listed, bsp_apic_id);
		return FIRMWARE_CPUS_REFUSED;
	}
	return r;
}

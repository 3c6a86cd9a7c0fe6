/*
 * The firmware-table reader (arch/firmware_cpus.h) on each input of the
 * tables fuzzer given (tests/fuzz/tables_fuzz.c describes the format), one
 * line each: "NAME: found SOURCE, listed N, kept M: ID ID ...",
 * "NAME: refused: WHY", "NAME: none: WHY", or for an RSDP the loader named
 * that is not one "NAME: bad boot information: WHY". tests/check.py
 * firmware_tables holds the lines against what each seed is for.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "firmware_cpus.h"

#define HEADER		9
#define BASE		0xE0000u
#define MEMORY_MAX	(512u * 1024)
#define IMAGE_START	0xE4000u	/* as tables_fuzz.c */
#define IMAGE_END	0xE6000u

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void one(const char *path)
{
	static uint8_t data[HEADER + MEMORY_MAX];
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct boot_memory m = {
		.mapped_start = BASE,
		.image = { { IMAGE_START, IMAGE_END, "the kernel image" } },
		.image_count = 1,
	};
	struct firmware_cpus cpus;
	char why_text[200];
	struct strbuf why;
	uint64_t rsdp = 0;
	size_t size;
	FILE *f = fopen(path, "rb");

	if (!f) {
		printf("%s: cannot open\n", name);
		return;
	}
	size = fread(data, 1, sizeof(data), f);
	fclose(f);
	if (size < HEADER) {
		printf("%s: shorter than the %d-byte header\n", name, HEADER);
		return;
	}
	m.offset = (uintptr_t)(data + HEADER) - BASE;
	m.mapped_end = BASE + (size - HEADER);
	strbuf_init(&why, why_text, sizeof(why_text));
	if (data[0] & 1) {
		rsdp = BASE + (uint64_t)le32(data + 1);
		if (!firmware_rsdp_check(&m, rsdp, "the RSDP the loader named", &why)) {
			printf("%s: bad boot information: %s\n", name, why_text);
			return;
		}
	}
	switch (firmware_cpus_find(&m, rsdp, le32(data + 5), &cpus, &why)) {
	case FIRMWARE_CPUS_FOUND:
		printf("%s: found %s, listed %u, kept %u:", name, cpus.source,
		       cpus.listed, cpus.count);
		for (unsigned i = 0; i < cpus.count; i++)
			printf(" %x", cpus.apic_id[i]);
		printf("\n");
		break;
	case FIRMWARE_CPUS_REFUSED:
		printf("%s: refused: %s\n", name, why_text);
		break;
	case FIRMWARE_CPUS_NONE:
		printf("%s: none: %s\n", name, why_text);
		break;
	}
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		one(argv[i]);
	return 0;
}

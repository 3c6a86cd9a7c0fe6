/*
 * libFuzzer target: the firmware-table reader (arch/firmware_cpus.h),
 * built for the host. The input is a header and physical memory: byte 0
 * bit 0 says whether the loader named an RSDP, bytes 1-4 its offset from
 * BASE, bytes 5-8 the running CPU's APIC ID; the rest is the memory at
 * BASE (E0000H, where a BIOS keeps the RSDP and the MP floating pointer),
 * which ends at a guard page. IMAGE stands for the kernel image, where no
 * table may lie: inside the window, so that a pointer into it is reached. The reader must find, refuse or find
 * nothing without reading outside that memory, and what it keeps must
 * hold: the running CPU first, no APIC ID twice, at most CPUS_MAX.
 * tests/fuzz/table_seeds/ holds QEMU-like tables and hostile ones
 * (tests/hosttools/table_seeds.py).
 */
#define _GNU_SOURCE
#include <sanitizer/asan_interface.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "firmware_cpus.h"

#define PAGE		4096u
#define HEADER		9
#define BASE		0xE0000u
#define MEMORY_MAX	(512u * 1024)	/* E0000H .. 160000H */
#define IMAGE_START	0xE4000u
#define IMAGE_END	0xE6000u

static uint8_t *memory_tail(size_t n)
{
	static uint8_t *base;
	static size_t size;
	uint8_t *p;

	if (!base) {
		size = (MEMORY_MAX + PAGE - 1) / PAGE * PAGE;
		base = mmap(NULL, size + PAGE, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (base == MAP_FAILED || mprotect(base + size, PAGE, PROT_NONE))
			abort();
	}
	p = base + size - n;
	ASAN_UNPOISON_MEMORY_REGION(p, n);
	ASAN_POISON_MEMORY_REGION(base, size - n);
	return p;
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct boot_memory m = {
		.mapped_start = BASE,
		.image = { { IMAGE_START, IMAGE_END, "the kernel image" } },
		.image_count = 1,
	};
	struct firmware_cpus cpus;
	char why_text[200];
	struct strbuf why;
	uint64_t rsdp = 0;
	uint32_t bsp;
	uint8_t *copy;

	if (size < HEADER)
		return 0;
	if (size - HEADER > MEMORY_MAX)
		size = MEMORY_MAX + HEADER;
	bsp = le32(data + 5);
	copy = memory_tail(size - HEADER);
	memcpy(copy, data + HEADER, size - HEADER);
	m.offset = (uintptr_t)copy - BASE;
	m.mapped_end = BASE + (size - HEADER);
	strbuf_init(&why, why_text, sizeof(why_text));
	if (data[0] & 1) {
		rsdp = BASE + (uint64_t)le32(data + 1);
		if (!firmware_rsdp_check(&m, rsdp, "the RSDP the loader named", &why))
			return 0;
	}
	if (firmware_cpus_find(&m, rsdp, bsp, &cpus, &why) != FIRMWARE_CPUS_FOUND)
		return 0;
	if (cpus.count < 1 || cpus.count > CPUS_MAX || cpus.apic_id[0] != bsp ||
	    !cpus.bsp_listed || cpus.listed < cpus.count)
		abort();
	for (unsigned i = 1; i < cpus.count; i++)
		for (unsigned j = 0; j < i; j++)
			if (cpus.apic_id[i] == cpus.apic_id[j])
				abort();
	return 0;
}

/*
 * Physical memory as the boot-time readers see it, the boot information
 * (arch/boot_info.h) and the firmware tables (arch/firmware_cpus.h):
 * struct boot_memory (arch/boot_info.h), the window that may be read and
 * the kernel's own image, inside which nothing read may lie; and
 * bounds-checked readers. Pure: the caller says where physical memory
 * is (the kernel: identity-mapped; the fuzzer: a buffer).
 */
#ifndef PMCTEST_FIRMWARE_MEMORY_H
#define PMCTEST_FIRMWARE_MEMORY_H

#include <stdbool.h>
#include <stdint.h>

#include "boot_info.h"
#include "strbuf.h"

/* The range of ranges[] that [start, start + size) overlaps, or NULL;
 * start + size may pass 2^64. */
const struct boot_range *firmware_overlap(const struct boot_range *ranges,
					  unsigned count, uint64_t start,
					  uint64_t size);

/* [start, start + size) may be read: inside the window, clear of the
 * image. */
static inline bool firmware_readable(const struct boot_memory *m,
				     uint64_t start, uint64_t size)
{
	return start >= m->mapped_start && start <= m->mapped_end &&
	       size <= m->mapped_end - start &&
	       !firmware_overlap(m->image, m->image_count, start, size);
}

/* As firmware_readable(), with the refusal in why after `what` (which
 * names the structure, the field and its value). */
bool firmware_check_readable(const struct boot_memory *m, uint64_t start,
			     uint64_t size, const char *what,
			     struct strbuf *why);

/* Readers of little-endian fields; the range was checked before. */
static inline const uint8_t *firmware_at(const struct boot_memory *m,
					 uint64_t phys)
{
	return (const uint8_t *)(uintptr_t)(phys + m->offset);
}

static inline uint8_t firmware_read8(const struct boot_memory *m,
				     uint64_t phys)
{
	return *firmware_at(m, phys);
}

static inline uint16_t firmware_read16(const struct boot_memory *m,
				       uint64_t phys)
{
	const uint8_t *p = firmware_at(m, phys);

	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t firmware_read32(const struct boot_memory *m,
				       uint64_t phys)
{
	const uint8_t *p = firmware_at(m, phys);

	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t firmware_read64(const struct boot_memory *m,
				       uint64_t phys)
{
	return firmware_read32(m, phys) |
	       (uint64_t)firmware_read32(m, phys + 4) << 32;
}

/* The bytes of [start, start + size) sum to 0 modulo 256 (ACPI and MP
 * checksums). */
bool firmware_sum_zero(const struct boot_memory *m, uint64_t start,
		       uint64_t size);

/* The 4 or 8 bytes at phys are sig. */
bool firmware_signature(const struct boot_memory *m, uint64_t phys,
			const char *sig, unsigned length);

#endif

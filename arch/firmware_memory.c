/* The checked readers of boot-time physical memory (firmware_memory.h). */
#include "firmware_memory.h"

const struct boot_range *firmware_overlap(const struct boot_range *ranges,
					  unsigned count, uint64_t start,
					  uint64_t size)
{
	for (unsigned i = 0; i < count; i++)
		if (start < ranges[i].end && (ranges[i].start <= start ||
					      ranges[i].start - start < size))
			return &ranges[i];
	return NULL;
}

bool firmware_check_readable(const struct boot_memory *m, uint64_t start,
			     uint64_t size, const char *what,
			     struct strbuf *why)
{
	const struct boot_range *r;

	if (start < m->mapped_start || start > m->mapped_end ||
	    size > m->mapped_end - start) {
		strbuf_printf(why, "%s: %llu bytes there do not lie in 0x%llx..0x%llx, the memory pmctest maps",
			      what, (unsigned long long)size,
			      (unsigned long long)m->mapped_start,
			      (unsigned long long)m->mapped_end);
		return false;
	}
	r = firmware_overlap(m->image, m->image_count, start, size);
	if (r) {
		strbuf_printf(why, "%s: 0x%llx..0x%llx overlaps %s 0x%llx..0x%llx",
			      what, (unsigned long long)start,
			      (unsigned long long)(start + size),
			      r->what, (unsigned long long)r->start,
			      (unsigned long long)r->end);
		return false;
	}
	return true;
}

bool firmware_sum_zero(const struct boot_memory *m, uint64_t start,
		       uint64_t size)
{
	const uint8_t *p = firmware_at(m, start);
	uint8_t sum = 0;

	for (uint64_t i = 0; i < size; i++)
		sum = (uint8_t)(sum + p[i]);
	return sum == 0;
}

bool firmware_signature(const struct boot_memory *m, uint64_t phys,
			const char *sig, unsigned length)
{
	const uint8_t *p = firmware_at(m, phys);

	for (unsigned i = 0; i < length; i++)
		if (p[i] != (uint8_t)sig[i])
			return false;
	return true;
}

/* Reading the boot information of Multiboot2 and of PVH (boot_info.h). */
#include "boot_info.h"

#define MB2_TAG_END		0
#define MB2_TAG_CMDLINE		1
#define MB2_TAG_FRAMEBUFFER	8
#define MB2_HEADER	8	/* total_size, reserved */
#define MB2_TAG_HEADER	8	/* type, size */
#define MB2_ALIGN	8	/* the information and each tag (3.4) */
/* Multiboot2 3.6.12: the fields up to framebuffer_type. */
#define MB2_FB_SIZE	30

/* xen/include/public/arch-x86/hvm/start_info.h: the fields up to the one
 * read, cmdline_paddr (version 0 has them all). */
#define HVM_START_MAGIC	0x336EC578
struct hvm_start_info {
	uint32_t magic;
	uint32_t version;
	uint32_t flags;
	uint32_t nr_modules;
	uint64_t modlist_paddr;
	uint64_t cmdline_paddr;
};

static const void *at(const struct boot_memory *m, uint64_t phys)
{
	return (const void *)(uintptr_t)(phys + m->offset);
}

static uint32_t read32(const struct boot_memory *m, uint64_t phys)
{
	const uint8_t *p = at(m, phys);

	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t read64(const struct boot_memory *m, uint64_t phys)
{
	return read32(m, phys) | (uint64_t)read32(m, phys + 4) << 32;
}

/* The range of ranges[] that [start, start + size) overlaps, or NULL. */
static const struct boot_range *overlap(const struct boot_range *ranges,
					unsigned count, uint64_t start,
					uint64_t size)
{
	for (unsigned i = 0; i < count; i++)
		if (start < ranges[i].end && (ranges[i].start <= start ||
					      ranges[i].start - start < size))
			return &ranges[i];
	return NULL;
}

/* [start, start + size) lies in mapped memory, clear of the image; if not,
 * says so after `what` (which names the field and its value). */
static bool readable(const struct boot_memory *m, uint64_t start,
		     uint64_t size, const char *what, struct strbuf *why)
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
	r = overlap(m->image, m->image_count, start, size);
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

/* The framebuffer is what it says it is: each line holds width pixels
 * (EGA text: width character-attribute pairs), height lines fit in the
 * range without wrapping, and the range is clear of the kernel's RAM.
 * Whether the screen console can draw in it is fbcon's question. */
static bool framebuffer_consistent(const struct boot_memory *m,
				   const struct boot_framebuffer *fb,
				   struct strbuf *why)
{
	uint64_t line, size;
	const struct boot_range *r;

	if (fb->width == 0 || fb->height == 0) {
		strbuf_printf(why, "framebuffer width %u, height %u: an empty screen",
			      fb->width, fb->height);
		return false;
	}
	if (fb->type == BOOT_FB_EGA && fb->bpp != 16) {
		strbuf_printf(why, "framebuffer bpp %u: EGA text has 16 bits a character",
			      fb->bpp);
		return false;
	}
	if (fb->bpp == 0 || fb->bpp > 32) {
		strbuf_printf(why, "framebuffer bpp %u: not 1 to 32", fb->bpp);
		return false;
	}
	line = ((uint64_t)fb->width * fb->bpp + 7) / 8;
	if (fb->pitch < line) {
		strbuf_printf(why, "framebuffer pitch %u: less than width %u x %u bits (%llu bytes)",
			      fb->pitch, fb->width, fb->bpp,
			      (unsigned long long)line);
		return false;
	}
	size = (uint64_t)fb->pitch * fb->height;	/* < 2^64 */
	if (fb->address > UINT64_MAX - size) {
		strbuf_printf(why, "framebuffer address 0x%llx: its %llu bytes wrap past 2^64",
			      (unsigned long long)fb->address,
			      (unsigned long long)size);
		return false;
	}
	r = overlap(m->image, m->image_count, fb->address, size);
	if (!r)
		r = overlap(m->scratch, m->scratch_count, fb->address, size);
	if (r) {
		strbuf_printf(why, "framebuffer address 0x%llx: its %llu bytes overlap %s 0x%llx..0x%llx",
			      (unsigned long long)fb->address,
			      (unsigned long long)size, r->what,
			      (unsigned long long)r->start,
			      (unsigned long long)r->end);
		return false;
	}
	return true;
}

/* A NUL-terminated string of at most BOOT_COMMAND_LINE_MAX characters in
 * [start, start + room), room already checked; its length, or false. */
static bool bounded_string(const struct boot_memory *m, uint64_t start,
			   uint64_t room, size_t *length, const char *what,
			   struct strbuf *why)
{
	const char *s = at(m, start);
	uint64_t n = 0;

	while (n < room && n <= BOOT_COMMAND_LINE_MAX && s[n])
		n++;
	if (n > BOOT_COMMAND_LINE_MAX) {
		strbuf_printf(why, "%s: longer than %d characters", what,
			      BOOT_COMMAND_LINE_MAX);
		return false;
	}
	if (n == room) {
		strbuf_printf(why, "%s: not NUL-terminated within %llu bytes",
			      what, (unsigned long long)room);
		return false;
	}
	*length = (size_t)n;
	return true;
}

static bool multiboot2_framebuffer(const struct boot_memory *m, uint64_t tag,
				   uint32_t size, struct boot_info *out,
				   struct strbuf *why)
{
	struct boot_framebuffer *fb = &out->framebuffer;
	const uint8_t *bytes = at(m, tag + 28);

	if (size < MB2_FB_SIZE) {
		strbuf_printf(why, "Multiboot2 framebuffer tag size %u: less than its %d bytes of fields",
			      size, MB2_FB_SIZE);
		return false;
	}
	fb->address = read64(m, tag + 8);
	fb->pitch = read32(m, tag + 16);
	fb->width = read32(m, tag + 20);
	fb->height = read32(m, tag + 24);
	fb->bpp = bytes[0];
	fb->type = bytes[1];
	out->has_framebuffer = true;
	return framebuffer_consistent(m, fb, why);
}

/* Multiboot2 3.4: total_size and a reserved word, then 8-byte aligned tags
 * up to an end tag (type 0, size 8) that ends the information exactly. */
static bool multiboot2_read(const struct boot_memory *m, uint32_t info,
			    struct boot_info *out, struct strbuf *why)
{
	char what[48];
	struct strbuf field;
	uint32_t total, offset = MB2_HEADER;
	bool seen_cmdline = false;

	if (info % MB2_ALIGN) {
		strbuf_printf(why, "Multiboot2 information address 0x%x: not 8-byte aligned",
			      info);
		return false;
	}
	if (!readable(m, info, MB2_HEADER, "Multiboot2 information address", why))
		return false;
	total = read32(m, info);
	strbuf_init(&field, what, sizeof(what));
	strbuf_printf(&field, "Multiboot2 total_size %u", total);
	if (total < MB2_HEADER + MB2_TAG_HEADER || total % MB2_ALIGN) {
		strbuf_printf(why, "%s: not a multiple of 8 of at least 16 (a header and an end tag)",
			      what);
		return false;
	}
	if (!readable(m, info, total, what, why))
		return false;
	for (;;) {
		uint64_t tag = (uint64_t)info + offset;
		uint32_t type, size;

		if (total - offset < MB2_TAG_HEADER) {
			strbuf_printf(why, "%s: the tags end without an end tag",
				      what);
			return false;
		}
		type = read32(m, tag);
		size = read32(m, tag + 4);
		if (size < MB2_TAG_HEADER) {
			strbuf_printf(why, "Multiboot2 tag type %u at offset %u: size %u, less than its 8-byte header",
				      type, offset, size);
			return false;
		}
		if (size > total - offset) {
			strbuf_printf(why, "Multiboot2 tag type %u at offset %u: size %u runs past total_size %u",
				      type, offset, size, total);
			return false;
		}
		if (type == MB2_TAG_END) {
			if (size != MB2_TAG_HEADER || offset + size != total) {
				strbuf_printf(why, "Multiboot2 end tag at offset %u, size %u: the information ends at total_size %u",
					      offset, size, total);
				return false;
			}
			return true;
		}
		if (type == MB2_TAG_CMDLINE) {
			if (seen_cmdline) {
				strbuf_printf(why, "Multiboot2 tag type 1 at offset %u: a second command line",
					      offset);
				return false;
			}
			seen_cmdline = true;
			out->command_line = at(m, tag + MB2_TAG_HEADER);
			if (!bounded_string(m, tag + MB2_TAG_HEADER,
					    size - MB2_TAG_HEADER,
					    &out->command_line_length,
					    "Multiboot2 command line tag", why))
				return false;
		}
		if (type == MB2_TAG_FRAMEBUFFER) {
			if (out->has_framebuffer) {
				strbuf_printf(why, "Multiboot2 tag type 8 at offset %u: a second framebuffer",
					      offset);
				return false;
			}
			if (!multiboot2_framebuffer(m, tag, size, out, why))
				return false;
		}
		/* total - offset is a multiple of 8 and at least size, so
		 * the rounded size fits too: offset stays within total. */
		offset += (size + (MB2_ALIGN - 1)) & ~(uint32_t)(MB2_ALIGN - 1);
	}
}

/* PVH: struct hvm_start_info at EBX; the command line, if any, at
 * cmdline_paddr. */
static bool pvh_read(const struct boot_memory *m, uint32_t info,
		     struct boot_info *out, struct strbuf *why)
{
	char what[64];
	struct strbuf field;
	uint32_t magic;
	uint64_t cmdline, room;

	if (!readable(m, info, sizeof(struct hvm_start_info),
		      "PVH start_info address", why))
		return false;
	magic = read32(m, info);
	if (magic != HVM_START_MAGIC) {
		strbuf_printf(why, "PVH start_info magic 0x%x: not 0x%x", magic,
			      HVM_START_MAGIC);
		return false;
	}
	cmdline = read64(m, info + offsetof(struct hvm_start_info, cmdline_paddr));
	if (cmdline == 0)
		return true;
	strbuf_init(&field, what, sizeof(what));
	strbuf_printf(&field, "PVH cmdline_paddr 0x%llx",
		      (unsigned long long)cmdline);
	/* The string may end anywhere below the end of the map: scan no
	 * further, then check the string found. */
	if (!readable(m, cmdline, 1, what, why))
		return false;
	room = m->mapped_end - cmdline;
	if (room > BOOT_COMMAND_LINE_MAX + 1)
		room = BOOT_COMMAND_LINE_MAX + 1;
	out->command_line = at(m, cmdline);
	return bounded_string(m, cmdline, room, &out->command_line_length,
			      what, why) &&
	       readable(m, cmdline, out->command_line_length + 1, what, why);
}

bool boot_info_read(uint32_t protocol, uint32_t info,
		    const struct boot_memory *memory, struct boot_info *out,
		    struct strbuf *why)
{
	*out = (struct boot_info){ .command_line = "" };
	if (protocol == BOOT_PROTOCOL_MULTIBOOT2)
		return multiboot2_read(memory, info, out, why);
	if (protocol == BOOT_PROTOCOL_PVH)
		return pvh_read(memory, info, out, why);
	strbuf_printf(why, "boot protocol %u: neither Multiboot2 nor PVH",
		      protocol);
	return false;
}

const char *boot_protocol_name(uint32_t protocol)
{
	return protocol == BOOT_PROTOCOL_MULTIBOOT2 ? "multiboot2" : "pvh";
}

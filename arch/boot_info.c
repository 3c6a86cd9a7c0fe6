/* Reading the boot information of Multiboot2, PVH and the Linux 64-bit
 * boot protocol (boot_info.h). */
#include "boot_info.h"

#include "firmware_memory.h"

#define MB2_TAG_END		0
#define MB2_TAG_CMDLINE		1
#define MB2_TAG_MMAP		6
#define MB2_TAG_FRAMEBUFFER	8
#define MB2_TAG_ACPI_OLD	14	/* a copy of the ACPI 1.0 RSDP */
#define MB2_TAG_ACPI_NEW	15	/* a copy of the ACPI 2.0+ RSDP */
#define MB2_MMAP_HEADER	16	/* type, size, entry_size, entry_version */
#define MB2_MMAP_ENTRY	24	/* base_addr, length, type, reserved */
#define MB2_RSDP_OLD	20	/* the ACPI 1.0 RSDP's size */
#define MB2_RSDP_NEW	36
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
	uint64_t rsdp_paddr;
	uint64_t memmap_paddr;		/* version 1 and later */
	uint32_t memmap_entries;
	uint32_t reserved;
};
#define HVM_MEMMAP_ENTRY	24	/* addr, size, type, reserved */
#define HVM_MEMMAP_MAX		128
#define HVM_VERSION_MEMMAP	1

/* boot_params, the "zero page" (Linux's Documentation/arch/x86/
 * zero-page.rst and boot.rst): the offsets of the fields read. */
#define BP_SIZE			4096
#define BP_ACPI_RSDP_ADDR	0x070	/* u64, boot protocol 2.14 */
#define BP_EXT_CMD_LINE_PTR	0x0C8	/* the command line's bits 63..32 */
#define BP_E820_ENTRIES		0x1E8	/* u8 */
#define BP_BOOT_FLAG		0x1FE	/* u16, AA55H */
#define BP_HEADER		0x202	/* u32, "HdrS" */
#define BP_CMD_LINE_PTR		0x228	/* the command line's bits 31..0 */
#define BP_E820_TABLE		0x2D0	/* struct boot_e820_entry[128] */
#define BP_E820_MAX		128
#define BP_E820_ENTRY_SIZE	20	/* addr u64, size u64, type u32 */
#define BP_BOOT_FLAG_MAGIC	0xAA55
#define BP_HEADER_MAGIC		0x53726448
#define E820_RAM		1
#define LOW_MEMORY_END		0x100000ull

/* A memory-map entry: RAM below 1 MiB is kept, clipped to 1 MiB, for the
 * AP trampoline; the rest of the map is not needed. */
static void memory_map_entry(struct boot_info *out, uint64_t addr,
			     uint64_t size, uint32_t type)
{
	uint64_t end = size > UINT64_MAX - addr ? UINT64_MAX : addr + size;

	out->has_memory_map = true;
	if (type != E820_RAM || addr >= LOW_MEMORY_END || size == 0 ||
	    out->low_ram_count == BOOT_LOW_RAM_MAX)
		return;
	out->low_ram[out->low_ram_count++] = (struct boot_range){
		addr, end < LOW_MEMORY_END ? end : LOW_MEMORY_END, "RAM",
	};
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
	r = firmware_overlap(m->image, m->image_count, fb->address, size);
	if (!r)
		r = firmware_overlap(m->scratch, m->scratch_count, fb->address, size);
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

/* A NUL-terminated string of at most CMDLINE_MAX characters in
 * [start, start + room), room already checked; its length, or false. */
static bool bounded_string(const struct boot_memory *m, uint64_t start,
			   uint64_t room, size_t *length, const char *what,
			   struct strbuf *why)
{
	const char *s = (const char *)firmware_at(m, start);
	uint64_t n = 0;

	while (n < room && n <= CMDLINE_MAX && s[n])
		n++;
	if (n > CMDLINE_MAX) {
		strbuf_printf(why, "%s: longer than %d characters", what,
			      CMDLINE_MAX);
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
	const uint8_t *bytes = firmware_at(m, tag + 28);

	if (size < MB2_FB_SIZE) {
		strbuf_printf(why, "Multiboot2 framebuffer tag size %u: less than its %d bytes of fields",
			      size, MB2_FB_SIZE);
		return false;
	}
	fb->address = firmware_read64(m, tag + 8);
	fb->pitch = firmware_read32(m, tag + 16);
	fb->width = firmware_read32(m, tag + 20);
	fb->height = firmware_read32(m, tag + 24);
	fb->bpp = bytes[0];
	fb->type = bytes[1];
	out->has_framebuffer = true;
	return framebuffer_consistent(m, fb, why);
}

/* Multiboot2 3.6.8: the memory map, entry_size bytes an entry (at least
 * 24, a multiple of 8). */
static bool multiboot2_mmap(const struct boot_memory *m, uint64_t tag,
			    uint32_t size, uint32_t offset,
			    struct boot_info *out, struct strbuf *why)
{
	uint32_t entry_size;

	if (size < MB2_MMAP_HEADER) {
		strbuf_printf(why, "Multiboot2 memory map tag at offset %u: size %u, less than its %d-byte header",
			      offset, size, MB2_MMAP_HEADER);
		return false;
	}
	entry_size = firmware_read32(m, tag + 8);
	if (entry_size < MB2_MMAP_ENTRY || entry_size % 8) {
		strbuf_printf(why, "Multiboot2 memory map tag at offset %u: entry_size %u, not a multiple of 8 of at least %d",
			      offset, entry_size, MB2_MMAP_ENTRY);
		return false;
	}
	for (uint32_t e = MB2_MMAP_HEADER; size - e >= entry_size; e += entry_size)
		memory_map_entry(out, firmware_read64(m, tag + e), firmware_read64(m, tag + e + 8),
				 firmware_read32(m, tag + e + 16));
	out->has_memory_map = true;
	return true;
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
	if (!firmware_check_readable(m, info, MB2_HEADER, "Multiboot2 information address", why))
		return false;
	total = firmware_read32(m, info);
	strbuf_init(&field, what, sizeof(what));
	strbuf_printf(&field, "Multiboot2 total_size %u", total);
	if (total < MB2_HEADER + MB2_TAG_HEADER || total % MB2_ALIGN) {
		strbuf_printf(why, "%s: not a multiple of 8 of at least 16 (a header and an end tag)",
			      what);
		return false;
	}
	if (!firmware_check_readable(m, info, total, what, why))
		return false;
	for (;;) {
		uint64_t tag = (uint64_t)info + offset;
		uint32_t type, size;

		if (total - offset < MB2_TAG_HEADER) {
			strbuf_printf(why, "%s: the tags end without an end tag",
				      what);
			return false;
		}
		type = firmware_read32(m, tag);
		size = firmware_read32(m, tag + 4);
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
			out->command_line = (const char *)firmware_at(m, tag + MB2_TAG_HEADER);
			if (!bounded_string(m, tag + MB2_TAG_HEADER,
					    size - MB2_TAG_HEADER,
					    &out->command_line_length,
					    "Multiboot2 command line tag", why))
				return false;
		}
		if (type == MB2_TAG_MMAP &&
		    !multiboot2_mmap(m, tag, size, offset, out, why))
			return false;
		if (type == MB2_TAG_ACPI_OLD || type == MB2_TAG_ACPI_NEW) {
			uint32_t need = type == MB2_TAG_ACPI_OLD ? MB2_RSDP_OLD
								 : MB2_RSDP_NEW;

			if (size - MB2_TAG_HEADER < need) {
				strbuf_printf(why, "Multiboot2 ACPI tag type %u at offset %u: size %u, less than its header and a %u-byte RSDP",
					      type, offset, size, need);
				return false;
			}
			/* The newer RSDP, where the loader gives both. */
			if (!out->rsdp || type == MB2_TAG_ACPI_NEW) {
				out->rsdp = tag + MB2_TAG_HEADER;
				out->rsdp_field = type == MB2_TAG_ACPI_OLD
					? "Multiboot2 ACPI old RSDP tag (type 14)"
					: "Multiboot2 ACPI new RSDP tag (type 15)";
			}
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

/* A NUL-terminated command line at cmdline, which may end anywhere below
 * the end of the map: scan no further, then check the string found. */
static bool command_line_at(const struct boot_memory *m, uint64_t cmdline,
			    const char *what, struct boot_info *out,
			    struct strbuf *why)
{
	uint64_t room;

	if (!firmware_check_readable(m, cmdline, 1, what, why))
		return false;
	room = m->mapped_end - cmdline;
	if (room > CMDLINE_MAX + 1)
		room = CMDLINE_MAX + 1;
	out->command_line = (const char *)firmware_at(m, cmdline);
	return bounded_string(m, cmdline, room, &out->command_line_length,
			      what, why) &&
	       firmware_check_readable(m, cmdline, out->command_line_length + 1, what, why);
}

/* PVH: rsdp_paddr, and from version 1 the memory map, whose entries are
 * read. */
static bool pvh_tables(const struct boot_memory *m, uint64_t info,
		       struct boot_info *out, struct strbuf *why)
{
	char what[80];
	struct strbuf field;
	uint32_t version = firmware_read32(m, info + offsetof(struct hvm_start_info, version));
	uint64_t map;
	uint32_t entries;

	out->rsdp = firmware_read64(m, info + offsetof(struct hvm_start_info, rsdp_paddr));
	out->rsdp_field = "PVH rsdp_paddr";
	if (version < HVM_VERSION_MEMMAP)
		return true;
	if (!firmware_check_readable(m, info, sizeof(struct hvm_start_info),
		      "PVH start_info (version 1) address", why))
		return false;
	map = firmware_read64(m, info + offsetof(struct hvm_start_info, memmap_paddr));
	entries = firmware_read32(m, info + offsetof(struct hvm_start_info, memmap_entries));
	if (entries == 0)
		return true;
	strbuf_init(&field, what, sizeof(what));
	strbuf_printf(&field, "PVH memmap_paddr 0x%llx, memmap_entries %u",
		      (unsigned long long)map, entries);
	if (entries > HVM_MEMMAP_MAX) {
		strbuf_printf(why, "%s: more than %d entries", what,
			      HVM_MEMMAP_MAX);
		return false;
	}
	if (!firmware_check_readable(m, map, (uint64_t)entries * HVM_MEMMAP_ENTRY, what, why))
		return false;
	for (uint32_t i = 0; i < entries; i++) {
		uint64_t e = map + (uint64_t)i * HVM_MEMMAP_ENTRY;

		memory_map_entry(out, firmware_read64(m, e), firmware_read64(m, e + 8),
				 firmware_read32(m, e + 16));
	}
	return true;
}

/* PVH: struct hvm_start_info at EBX; the command line, if any, at
 * cmdline_paddr. */
static bool pvh_read(const struct boot_memory *m, uint64_t info,
		     struct boot_info *out, struct strbuf *why)
{
	char what[64];
	struct strbuf field;
	uint32_t magic;
	uint64_t cmdline;

	if (!firmware_check_readable(m, info, offsetof(struct hvm_start_info, memmap_paddr),
		      "PVH start_info address", why))
		return false;
	magic = firmware_read32(m, info);
	if (magic != HVM_START_MAGIC) {
		strbuf_printf(why, "PVH start_info magic 0x%x: not 0x%x", magic,
			      HVM_START_MAGIC);
		return false;
	}
	if (!pvh_tables(m, info, out, why))
		return false;
	cmdline = firmware_read64(m, info + offsetof(struct hvm_start_info, cmdline_paddr));
	if (cmdline == 0)
		return true;
	strbuf_init(&field, what, sizeof(what));
	strbuf_printf(&field, "PVH cmdline_paddr 0x%llx",
		      (unsigned long long)cmdline);
	return command_line_at(m, cmdline, what, out, why);
}

/* The e820 table: at most 128 entries, none wrapping past 2^64, and each
 * range of the kernel's image inside one RAM entry (type 1): a loader that
 * put the kernel where it says there is no RAM describes another machine. */
static bool e820_consistent(const struct boot_memory *m, uint64_t params,
			    struct boot_info *out, struct strbuf *why)
{
	const uint8_t *count = firmware_at(m, params + BP_E820_ENTRIES);

	if (*count == 0 || *count > BP_E820_MAX) {
		strbuf_printf(why, "boot_params e820_entries %u: not 1 to %d",
			      *count, BP_E820_MAX);
		return false;
	}
	for (unsigned i = 0; i < *count; i++) {
		uint64_t entry = params + BP_E820_TABLE + i * BP_E820_ENTRY_SIZE;
		uint64_t addr = firmware_read64(m, entry), size = firmware_read64(m, entry + 8);

		if (addr > UINT64_MAX - size) {
			strbuf_printf(why, "boot_params e820_table[%u] addr 0x%llx, size 0x%llx: wraps past 2^64",
				      i, (unsigned long long)addr,
				      (unsigned long long)size);
			return false;
		}
		memory_map_entry(out, addr, size, firmware_read32(m, entry + 16));
	}
	for (unsigned r = 0; r < m->image_count; r++) {
		const struct boot_range *image = &m->image[r];
		bool in_ram = false;

		for (unsigned i = 0; i < *count && !in_ram; i++) {
			uint64_t entry = params + BP_E820_TABLE + i * BP_E820_ENTRY_SIZE;
			uint64_t addr = firmware_read64(m, entry), size = firmware_read64(m, entry + 8);

			in_ram = firmware_read32(m, entry + 16) == E820_RAM &&
				 addr <= image->start && image->end - addr <= size;
		}
		if (!in_ram) {
			strbuf_printf(why, "boot_params e820_table (%u entries): no RAM entry holds %s 0x%llx..0x%llx",
				      *count, image->what,
				      (unsigned long long)image->start,
				      (unsigned long long)image->end);
			return false;
		}
	}
	return true;
}

/* The Linux 64-bit boot protocol: boot_params at RSI, its setup header's
 * two magic numbers, the e820 table, and the command line, if any, at
 * cmd_line_ptr | ext_cmd_line_ptr << 32. */
static bool linux64_read(const struct boot_memory *m, uint64_t params,
			 struct boot_info *out, struct strbuf *why)
{
	char what[80];
	struct strbuf field;
	uint32_t header;
	uint16_t flag;
	uint64_t cmdline;

	if (!firmware_check_readable(m, params, BP_SIZE, "boot_params address (RSI)", why))
		return false;
	flag = (uint16_t)(firmware_read32(m, params + BP_BOOT_FLAG) & 0xFFFF);
	if (flag != BP_BOOT_FLAG_MAGIC) {
		strbuf_printf(why, "boot_params hdr.boot_flag 0x%x: not 0x%x",
			      flag, BP_BOOT_FLAG_MAGIC);
		return false;
	}
	header = firmware_read32(m, params + BP_HEADER);
	if (header != BP_HEADER_MAGIC) {
		strbuf_printf(why, "boot_params hdr.header 0x%x: not 0x%x (\"HdrS\")",
			      header, BP_HEADER_MAGIC);
		return false;
	}
	if (!e820_consistent(m, params, out, why))
		return false;
	out->rsdp = firmware_read64(m, params + BP_ACPI_RSDP_ADDR);
	out->rsdp_field = "boot_params acpi_rsdp_addr";
	cmdline = firmware_read32(m, params + BP_CMD_LINE_PTR) |
		  (uint64_t)firmware_read32(m, params + BP_EXT_CMD_LINE_PTR) << 32;
	if (cmdline == 0)
		return true;
	strbuf_init(&field, what, sizeof(what));
	strbuf_printf(&field, "boot_params hdr.cmd_line_ptr (with ext_cmd_line_ptr) 0x%llx",
		      (unsigned long long)cmdline);
	return command_line_at(m, cmdline, what, out, why);
}

bool boot_info_read(uint32_t protocol, uint64_t info,
		    const struct boot_memory *memory, struct boot_info *out,
		    struct strbuf *why)
{
	*out = (struct boot_info){ .command_line = "" };
	if (protocol == BOOT_PROTOCOL_LINUX64)
		return linux64_read(memory, info, out, why);
	/* The 32-bit entries hand over EBX: the upper half is 0. */
	if (protocol == BOOT_PROTOCOL_MULTIBOOT2)
		return multiboot2_read(memory, (uint32_t)info, out, why);
	if (protocol == BOOT_PROTOCOL_PVH)
		return pvh_read(memory, info, out, why);
	strbuf_printf(why, "boot protocol %u: not Multiboot2, PVH or Linux 64-bit",
		      protocol);
	return false;
}

const char *boot_protocol_name(uint32_t protocol)
{
	switch (protocol) {
	case BOOT_PROTOCOL_MULTIBOOT2:
		return "multiboot2";
	case BOOT_PROTOCOL_PVH:
		return "pvh";
	case BOOT_PROTOCOL_LINUX64:
		return "linux64";
	default:
		return "unknown";
	}
}

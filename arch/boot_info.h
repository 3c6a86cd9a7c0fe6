/*
 * Reading the boot information of Multiboot2, of PVH and of the Linux 64-bit
 * boot protocol (boot_params), trusting none of it: every field is checked before it is used, and anything inconsistent
 * is refused with the field and its value. Pure: the physical memory it
 * reads is described by the caller, so that the same code runs in the
 * kernel and, fuzzed, on the host.
 */
#ifndef PMCTEST_BOOT_INFO_H
#define PMCTEST_BOOT_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmdline_limits.h"
#include "strbuf.h"

/* Set by boot/entry32.asm and boot/linux64.asm; keep in step. */
#define BOOT_PROTOCOL_MULTIBOOT2	1
#define BOOT_PROTOCOL_PVH		2
#define BOOT_PROTOCOL_LINUX64		3

/* [start, end) of physical memory, named for refusals. */
struct boot_range {
	uint64_t start, end;
	const char *what;	/* "the kernel image" */
};

#define BOOT_MAX_RANGES	4

/* Physical memory as the reader sees it. */
struct boot_memory {
	/* [mapped_start, mapped_end) may be read: in the kernel 0 .. 4 GiB */
	uint64_t mapped_start, mapped_end;
	uintptr_t offset;	/* a pointer is the physical address + offset */
	/* Where the kernel was loaded and zeroed before reading the boot
	 * information: nothing the loader hands over may lie there. */
	struct boot_range image[BOOT_MAX_RANGES];
	unsigned image_count;
	/* RAM the kernel writes later (trampolines): a framebuffer may not
	 * lie there either. */
	struct boot_range scratch[BOOT_MAX_RANGES];
	unsigned scratch_count;
};

/* Multiboot2 3.6.12's framebuffer_type. */
#define BOOT_FB_INDEXED	0
#define BOOT_FB_RGB	1
#define BOOT_FB_EGA	2

/* A framebuffer the loader set up (Multiboot2 tag 8), its geometry checked:
 * pitch x height bytes from address hold width pixels (characters) on each
 * of height lines, below mapped_end and clear of the kernel's RAM. */
struct boot_framebuffer {
	uint64_t address;
	uint32_t pitch, width, height;
	uint8_t bpp;
	uint8_t type;
};

/* The most RAM ranges below 1 MiB kept from the memory map. */
#define BOOT_LOW_RAM_MAX	8

struct boot_info {
	const char *command_line;	/* "" if none was given */
	size_t command_line_length;	/* at most CMDLINE_MAX */
	bool has_framebuffer;
	struct boot_framebuffer framebuffer;
	/* Where the loader says the ACPI RSDP is (a Multiboot2 ACPI tag's
	 * copy, PVH rsdp_paddr, boot_params acpi_rsdp_addr), 0 if it does
	 * not; rsdp_field names the field, for a refusal. */
	uint64_t rsdp;
	const char *rsdp_field;
	/* RAM (type 1) below 1 MiB in the loader's memory map, clipped to
	 * 1 MiB, the first BOOT_LOW_RAM_MAX ranges: where the AP trampoline
	 * may go. has_memory_map: the loader gave one. */
	bool has_memory_map;
	unsigned low_ram_count;
	struct boot_range low_ram[BOOT_LOW_RAM_MAX];
};

/*
 * Reads the boot information at physical address info (EBX at entry; RSI,
 * boot_params, at the Linux 64-bit entry).
 * False where it is inconsistent, with the refusal in why: the structure,
 * the field and its value, e.g. "Multiboot2 tag type 4 at offset 16: size
 * 0, less than its 8-byte header".
 */
bool boot_info_read(uint32_t protocol, uint64_t info,
		    const struct boot_memory *memory, struct boot_info *out,
		    struct strbuf *why);

const char *boot_protocol_name(uint32_t protocol);

#endif

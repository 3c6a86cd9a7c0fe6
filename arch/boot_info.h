#ifndef PMCTEST_BOOT_INFO_H
#define PMCTEST_BOOT_INFO_H

#include <stdbool.h>
#include <stdint.h>

/* Set by boot/entry32.asm; keep in step. */
#define BOOT_PROTOCOL_MULTIBOOT2	1
#define BOOT_PROTOCOL_PVH		2

/*
 * The command line the loader handed over (Multiboot2 tag 1 or PVH
 * start_info.cmdline_paddr), "" if none; NULL, with *problem set, when the
 * boot information itself is not what the protocol promises.
 */
const char *boot_command_line(uint32_t protocol, uint32_t info,
			      const char **problem);
const char *boot_protocol_name(uint32_t protocol);

/* A framebuffer the loader set up (Multiboot2 tag 8). */
struct boot_framebuffer {
	uint64_t address;
	uint32_t pitch, width, height;
	uint8_t bpp;
	uint8_t type;		/* 1: direct RGB; 2: EGA text */
};

/* False where the loader gave none (PVH, or a Multiboot2 loader that did
 * not set one up). */
bool boot_framebuffer(uint32_t protocol, uint32_t info,
		      struct boot_framebuffer *fb);

#endif

/* Reading the boot information of Multiboot2 and of PVH. */
#include "boot_info.h"

#include <stddef.h>

#define MB2_TAG_END	0
#define MB2_TAG_CMDLINE	1
#define MB2_TAG_FRAMEBUFFER	8

struct mb2_tag {
	uint32_t type;
	uint32_t size;
};

/* xen/include/public/arch-x86/hvm/start_info.h */
#define HVM_START_MAGIC	0x336EC578

struct hvm_start_info {
	uint32_t magic;
	uint32_t version;
	uint32_t flags;
	uint32_t nr_modules;
	uint64_t modlist_paddr;
	uint64_t cmdline_paddr;
};

/* The first tag of this type, or NULL. */
static const struct mb2_tag *multiboot2_tag(uint32_t info, uint32_t type)
{
	uint32_t total = *(const uint32_t *)(uintptr_t)info;
	uintptr_t p = info + 8;	/* total_size, reserved */

	while (p + sizeof(struct mb2_tag) <= info + total) {
		const struct mb2_tag *tag = (const void *)p;

		if (tag->type == MB2_TAG_END)
			break;
		if (tag->type == type)
			return tag;
		p += (tag->size + 7) & ~7u;	/* tags are 8-byte aligned */
	}
	return NULL;
}

static const char *multiboot2_command_line(uint32_t info)
{
	const struct mb2_tag *tag = multiboot2_tag(info, MB2_TAG_CMDLINE);

	return tag ? (const char *)(tag + 1) : "";
}

/* Multiboot2 3.6.12: address, pitch, width, height, bpp, type. */
struct mb2_framebuffer {
	struct mb2_tag tag;
	uint64_t address;
	uint32_t pitch, width, height;
	uint8_t bpp, type;
} __attribute__((packed));

bool boot_framebuffer(uint32_t protocol, uint32_t info,
		      struct boot_framebuffer *fb)
{
	const struct mb2_framebuffer *t;

	if (protocol != BOOT_PROTOCOL_MULTIBOOT2)
		return false;
	t = (const void *)multiboot2_tag(info, MB2_TAG_FRAMEBUFFER);
	if (!t)
		return false;
	*fb = (struct boot_framebuffer){ t->address, t->pitch, t->width,
					 t->height, t->bpp, t->type };
	return true;
}

const char *boot_command_line(uint32_t protocol, uint32_t info,
			      const char **problem)
{
	if (protocol == BOOT_PROTOCOL_MULTIBOOT2)
		return multiboot2_command_line(info);

	const struct hvm_start_info *si = (const void *)(uintptr_t)info;

	if (si->magic != HVM_START_MAGIC) {
		*problem = "PVH start_info has a bad magic number";
		return NULL;
	}
	return si->cmdline_paddr ? (const char *)(uintptr_t)si->cmdline_paddr
				 : "";
}

const char *boot_protocol_name(uint32_t protocol)
{
	return protocol == BOOT_PROTOCOL_MULTIBOOT2 ? "multiboot2" : "pvh";
}

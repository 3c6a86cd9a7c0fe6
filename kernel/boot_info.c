/* Reading the boot information of Multiboot2 and of PVH. */
#include "boot_info.h"

#include <stddef.h>

#define MB2_TAG_END	0
#define MB2_TAG_CMDLINE	1

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

static const char *multiboot2_command_line(uint32_t info)
{
	uint32_t total = *(const uint32_t *)(uintptr_t)info;
	uintptr_t p = info + 8;	/* total_size, reserved */

	while (p + sizeof(struct mb2_tag) <= info + total) {
		const struct mb2_tag *tag = (const void *)p;

		if (tag->type == MB2_TAG_END)
			break;
		if (tag->type == MB2_TAG_CMDLINE)
			return (const char *)(tag + 1);
		p += (tag->size + 7) & ~7u;	/* tags are 8-byte aligned */
	}
	return "";
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

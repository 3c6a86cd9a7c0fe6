/* Where the kernel lives in physical memory, for boot_info_read(). */
#include "kernel_memory.h"

#include "legacy.h"

#define MAPPED_END	0x100000000ull	/* boot/entry32.asm maps 4 GiB */
/* The trampoline's stacks end this far above its image (legacy_trampoline.asm). */
#define LEGACY_STACKS	0x800

extern const char __image_start[], __image_end[];
extern const char legacy_image[], legacy_image_end[];

void kernel_memory(struct boot_memory *m)
{
	*m = (struct boot_memory){
		.mapped_end = MAPPED_END,
		.image = { { (uintptr_t)__image_start, (uintptr_t)__image_end,
			     "the kernel image" } },
		.image_count = 1,
		.scratch = { { LEGACY_BASE, LEGACY_BASE +
			       (uint64_t)(legacy_image_end - legacy_image) +
			       LEGACY_STACKS, "the legacy-mode trampoline" } },
		.scratch_count = 1,
	};
}

/*
 * libFuzzer target: the boot-information reader, the command-line parser
 * and the screen console, built for the host. The input is a loader's
 * hand-over: its first byte picks the protocol (modulo 3: 0 PVH,
 * 1 Multiboot2, 2 the Linux 64-bit protocol's boot_params), the rest is the
 * memory at the address in EBX or RSI (INFO, as the loader
 * shim places it: tests/fuzz/seeds/ are its cases), which ends at a guard
 * page. The reader must refuse or accept without reading outside that
 * memory; the command line it accepts is parsed; a framebuffer it accepts
 * is given real memory of its size between guard pages, and the console
 * writes more lines into it than any screen has rows: a write outside
 * faults.
 */
#define _GNU_SOURCE
#include <sanitizer/asan_interface.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "boot_info.h"
#include "cmdline.h"
#include "fbcon.h"

#define PAGE		4096u
#define INFO		0x600000u	/* the physical address EBX names */
#define INFO_MAX	(64u * 1024)	/* longer inputs are cut */
#define FB_MAX		(8u << 20)	/* larger framebuffers are not drawn */

/* Memory that ends at an unmapped page, mapped once, below 2 GiB (the
 * console draws only below 4 GiB, as the kernel maps). */
struct arena {
	uint8_t *base;
	size_t size;
};

static void arena_map(struct arena *a, size_t size)
{
	a->size = (size + PAGE - 1) / PAGE * PAGE;
	a->base = mmap(NULL, a->size + PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (a->base == MAP_FAILED || mprotect(a->base + a->size, PAGE, PROT_NONE))
		abort();
}

/* The last n bytes of the arena: a write past them faults on the page
 * after, and ASan reports any access to the bytes before them. */
static uint8_t *arena_tail(struct arena *a, size_t n)
{
	uint8_t *p = a->base + a->size - n;

	ASAN_UNPOISON_MEMORY_REGION(p, n);
	ASAN_POISON_MEMORY_REGION(a->base, a->size - n);
	return p;
}

static void draw(const struct boot_framebuffer *given, const char *text,
		 size_t length)
{
	static struct arena screen;
	struct boot_framebuffer fb = *given;
	uint64_t size = (uint64_t)fb.pitch * fb.height;
	char why_text[160];
	struct strbuf why;

	if (size > FB_MAX)
		return;
	if (!screen.base)
		arena_map(&screen, FB_MAX);
	fb.address = (uintptr_t)arena_tail(&screen, (size_t)size);
	strbuf_init(&why, why_text, sizeof(why_text));
	if (fbcon_init(&fb, &why)) {
		fbcon_write(text, length);
		/* more lines than any screen has rows: wrap to the top */
		for (unsigned i = 0; i < 300; i++)
			fbcon_write("x\n", 2);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t protocols[3] = {
		BOOT_PROTOCOL_PVH, BOOT_PROTOCOL_MULTIBOOT2, BOOT_PROTOCOL_LINUX64,
	};
	/* The kernel's RAM as arch/kernel_memory.c describes it, roughly. */
	static const struct boot_memory layout = {
		.mapped_end = 0x100000000ull,
		.image = { { 0x100000, 0x151000, "the kernel image" } },
		.image_count = 1,
		.scratch = { { 0x8000, 0x9800, "the legacy-mode trampoline" } },
		.scratch_count = 1,
	};
	struct boot_memory memory = layout;
	char why_text[200], line[CMDLINE_MAX + 1];
	struct strbuf why;
	struct boot_info info;
	struct harness_options options;
	static struct arena input;
	uint8_t *copy;

	if (size < 1)
		return 0;
	if (size - 1 > INFO_MAX)
		size = INFO_MAX + 1;
	if (!input.base)
		arena_map(&input, INFO_MAX);
	copy = arena_tail(&input, size - 1);
	memcpy(copy, data + 1, size - 1);
	/* Physical memory is the input alone: [INFO, INFO + size - 1). */
	memory.offset = (uintptr_t)copy - INFO;
	memory.mapped_start = INFO;
	memory.mapped_end = INFO + (size - 1);
	strbuf_init(&why, why_text, sizeof(why_text));
	if (boot_info_read(protocols[data[0] % 3], INFO, &memory, &info, &why)) {
		memcpy(line, info.command_line, info.command_line_length + 1);
		strbuf_init(&why, why_text, sizeof(why_text));
		cmdline_parse(line, &options, &why);
		if (info.has_framebuffer)
			draw(&info.framebuffer, info.command_line,
			     info.command_line_length);
	}
	return 0;
}

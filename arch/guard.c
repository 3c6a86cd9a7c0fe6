#include "guard.h"

#define PAGE		4096ull
#define LARGE_PAGE	(2ull << 20)
#define PDE_LARGE	(1ull << 7)
#define PTE_PRESENT	1ull
#define ENTRY_FLAGS	0x7ull		/* present, writable, user (boot/entry32.asm) */

extern uint64_t boot_pd[];	/* 2048 PDEs: 0 .. 4 GiB in 2 MiB pages */
extern char boot_stack_guard[], ring0_stack_guard[], df_stack_guard[],
	    nmi_stack_guard[], ring_stack_guard[];

static const struct {
	const char *page;
	const char *owner;
} guards[] = {
	{ boot_stack_guard, "CPL 0 kernel" },
	{ ring0_stack_guard, "TSS.RSP0" },
	{ df_stack_guard, "#DF (IST1)" },
	{ nmi_stack_guard, "NMI (IST2)" },
	{ ring_stack_guard, "ring_run" },
};

#define GUARDS (sizeof(guards) / sizeof(guards[0]))

/* Page tables for the 2 MiB pages the guards split: the stacks, 132 KiB
 * in all, lie across at most two of them. */
#define SPLITS 2
static uint64_t tables[SPLITS][512] __attribute__((aligned(4096)));
static unsigned tables_used;

/* The page table that maps the 2 MiB page around addr, made from the
 * large page it replaces (same frames, same rights) the first time. */
static uint64_t *table_for(uint64_t addr)
{
	uint64_t *pde = &boot_pd[addr / LARGE_PAGE];
	uint64_t base = addr & ~(LARGE_PAGE - 1);
	uint64_t *pt;

	if (!(*pde & PDE_LARGE))
		return (uint64_t *)(uintptr_t)(*pde & ~(PAGE - 1));
	pt = tables[tables_used++];
	for (unsigned i = 0; i < 512; i++)
		pt[i] = (base + i * PAGE) | ENTRY_FLAGS;
	*pde = (uint64_t)(uintptr_t)pt | ENTRY_FLAGS;
	return pt;
}

void guard_pages_init(void)
{
	uint64_t cr3;

	for (unsigned g = 0; g < GUARDS; g++) {
		uint64_t addr = (uint64_t)(uintptr_t)guards[g].page;

		table_for(addr)[(addr / PAGE) % 512] &= ~PTE_PRESENT;
	}
	__asm__ volatile("mov %%cr3, %0; mov %0, %%cr3" : "=r"(cr3) : : "memory");
}

const char *guard_page_owner(uint64_t addr)
{
	for (unsigned g = 0; g < GUARDS; g++) {
		uint64_t page = (uint64_t)(uintptr_t)guards[g].page;

		if (addr >= page && addr < page + PAGE)
			return guards[g].owner;
	}
	return 0;
}

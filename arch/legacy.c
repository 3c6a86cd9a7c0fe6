/*
 * The C side of the legacy-mode trampoline (arch/legacy.h): install it in
 * low memory, run a body, and sort the trap that ended it into "reached the
 * exit", "the allowed fault" and "unexpected".
 */
#include "legacy.h"

#include "cpu.h"
#include "hooks.h"
#include "trap.h"

/* The trampoline's mailbox, legacy_io in arch/legacy_trampoline.asm. */
struct legacy_io {
	uint32_t mode, cpl, body;	/* in: body is its low address */
	uint32_t eax, ecx, edx;		/* in: the body's registers */
	uint32_t out_eax, out_ecx, out_edx;
	uint32_t vector, error_code;
	uint32_t trap_ip, trap_cs, trap_flags;
	uint32_t trapped_in;		/* LEGACY_TRAPPED_IVT or _IDT */
	uint32_t rdmsr_count, wrmsr_count;	/* the trip's own */
};

#define EFLAGS_VM	(1u << 17)

extern const char legacy_image[], legacy_image_end[], legacy_enter[];
extern const char legacy_io[], legacy_rdpmc[], legacy_exit[], legacy_fault[];

/* Where a symbol of the image is once it is copied to LEGACY_BASE. */
static uint32_t low(const char *symbol)
{
	return LEGACY_BASE + (uint32_t)(symbol - legacy_image);
}

/*
 * Puts the image in place as it was built: every run starts from the same
 * GDT, TSS and saved state. Only bytes that differ are written: a write to
 * the trampoline's code makes an instruction emulator (QEMU's TCG) discard
 * what it translated from that page, which cost about 1 ms per legacy run.
 */
static void install(void)
{
	volatile char *to = (volatile char *)(uintptr_t)LEGACY_BASE;

	for (const char *from = legacy_image; from < legacy_image_end;
	     from++, to++)
		if (*to != *from)
			*to = *from;
}

uint32_t legacy_rdpmc_linear(void)
{
	return low(legacy_rdpmc);
}

bool legacy_available(enum cpu_mode mode, unsigned cpl, struct strbuf *why_not)
{
	if (mode == MODE_REAL && cpl != 0) {
		strbuf_printf(why_not, "real-address mode has no CPL %u (CR0.PE = 0 is CPL 0)", cpl);
		return false;
	}
	if (mode == MODE_V86 && cpl != 3) {
		strbuf_printf(why_not, "virtual-8086 mode runs at CPL 3, not %u (PRIV-3)", cpl);
		return false;
	}
	/* Protected-mode CPL 3 is entered by SYSEXIT (arch/legacy_trampoline.asm). */
	if ((mode == MODE_PROT16 || mode == MODE_PROT32) && cpl == 3 &&
	    !(cpuid(1, 0).edx & (1u << 11))) {
		strbuf_puts(why_not, "no SYSEXIT to enter CPL 3 with (CPUID.01H:EDX.SEP = 0)");
		return false;
	}
	return true;
}

static unsigned legacy_mode(enum cpu_mode mode)
{
	switch (mode) {
	case MODE_REAL: return LEGACY_REAL;
	case MODE_V86: return LEGACY_V86;
	case MODE_PROT16: return LEGACY_PROT16;
	default: return LEGACY_PROT32;
	}
}

/* Real-address and virtual-8086 addresses are CS * 16 + IP; the protected-
 * mode code segments of the trampoline have base 0. */
static bool segmented(const struct legacy_io *io)
{
	return io->trapped_in == LEGACY_TRAPPED_IVT ||
	       (io->trap_flags & EFLAGS_VM);
}

static uint32_t trap_linear(const struct legacy_io *io)
{
	if (segmented(io))
		return (io->trap_cs & 0xFFFF) * 16 + (io->trap_ip & 0xFFFF);
	return io->trap_ip;
}

static const char *trap_mode(const struct legacy_io *io, enum cpu_mode mode)
{
	if (io->trapped_in == LEGACY_TRAPPED_IVT)
		return "real-address";
	if (io->trap_flags & EFLAGS_VM)
		return "virtual-8086";
	return mode == MODE_PROT16 ? "16-bit protected" : "32-bit protected";
}

static void __attribute__((noreturn))
report_unexpected(const struct legacy_io *io, enum cpu_mode mode)
{
	if (io->error_code == LEGACY_NO_ERROR_CODE)
		arch_hooks->fail("unexpected %s (vector %u) in %s mode",
			  vector_name(io->vector), io->vector,
			  trap_mode(io, mode));
	else
		arch_hooks->fail("unexpected %s (vector %u) error code 0x%x in %s mode",
			  vector_name(io->vector), io->vector, io->error_code,
			  trap_mode(io, mode));
	arch_hooks->fail("  CPL %u, CS:IP %04x:%08x (linear 0x%x), EFLAGS %08x",
		  segmented(io) ? (io->trap_flags & EFLAGS_VM ? 3u : 0u)
				: io->trap_cs & 3,
		  io->trap_cs & 0xFFFF, io->trap_ip, trap_linear(io),
		  io->trap_flags);
	arch_hooks->fail("  EAX %08x ECX %08x EDX %08x", io->out_eax, io->out_ecx,
		  io->out_edx);
	arch_abort_test();
}

void legacy_run(enum cpu_mode mode, unsigned cpl, enum legacy_body body,
		uint32_t eax, uint32_t ecx, uint32_t edx,
		struct legacy_outcome *out)
{
	struct legacy_io *io = (struct legacy_io *)(uintptr_t)low(legacy_io);
	uint32_t at;

	install();
	io->mode = legacy_mode(mode);
	io->cpl = cpl;
	io->body = low(body == LEGACY_BODY_RDPMC ? legacy_rdpmc : legacy_fault);
	io->eax = eax;
	io->ecx = ecx;
	io->edx = edx;
	__asm__ volatile("call *%0"
			 : : "r"((uintptr_t)low(legacy_enter))
			 : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9",
			   "r10", "r11", "memory", "cc");

	arch_exits(EXIT_RDMSR, 0, io->rdmsr_count);
	arch_exits(EXIT_WRMSR, 0, io->wrmsr_count);
	if (body == LEGACY_BODY_RDPMC)
		arch_exits(EXIT_RDPMC, 0, 1);

	at = trap_linear(io);
	out->faulted = !(io->vector == VECTOR_UD && at == low(legacy_exit));
	if (out->faulted &&
	    !(body == LEGACY_BODY_RDPMC && at == low(legacy_rdpmc)))
		report_unexpected(io, mode);
	out->vector = out->faulted ? (uint8_t)io->vector : 0;
	out->error_code = out->faulted ? io->error_code : 0;
	out->fault_linear = out->faulted ? at : 0;
	out->eax = io->out_eax;
	out->ecx = io->out_ecx;
	out->edx = io->out_edx;
}

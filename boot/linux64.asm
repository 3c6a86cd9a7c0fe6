; The 64-bit entry of the Linux x86 boot protocol (Linux's
; Documentation/arch/x86/boot.rst, "64-bit Boot Protocol"): the ELF's entry
; point, where crosvm and Firecracker before 1.12 enter an ELF kernel. The
; CPU is in long mode with paging on; the loader's page tables identity-map
; the kernel, boot_params (the "zero page") and the command line; its GDT
; has flat 64-bit code and data; interrupts are off; RSI holds the physical
; address of boot_params. Nothing else about the loader's state is relied
; on: this entry builds the same 4 GiB identity map and boot GDT as the
; 32-bit entry, then joins it. boot_params is checked in C before use.

%include "arch/segments.inc"

BOOT_PROTOCOL_LINUX64	equ 3	; keep in step with arch/boot_info.h
PAGE_PRESENT_RW_USER	equ 0x07
PAGE_LARGE		equ 0x80

extern __bss_start, __bss_end, boot_stack_top
extern boot_pml4, boot_pdpt, boot_pd, boot_gdt_pointer64
extern boot_protocol, boot_info, boot_entry64

global boot_entry_linux64

section .boot.text progbits alloc exec nowrite align=16
BITS 64
boot_entry_linux64:
	cli
	cld
	mov rbp, rsi		; boot_params, kept across the zeroing
	mov esp, boot_stack_top	; the image lies below 4 GiB

	mov edi, __bss_start
	mov ecx, __bss_end
	sub ecx, edi
	xor eax, eax
	rep stosb
	mov dword [boot_protocol], BOOT_PROTOCOL_LINUX64
	mov [boot_info], rbp	; all 64 bits: an address above 4 GiB is refused in C

	; The same map as boot/entry32.asm: PML4[0] -> PDPT, PDPT[0..3] ->
	; four page directories of 512 2 MiB pages each, 0 .. 4 GiB.
	mov edi, boot_pml4
	mov ecx, 2 * 4096 / 8
	xor eax, eax
	rep stosq
	mov dword [boot_pml4], boot_pdpt + PAGE_PRESENT_RW_USER
	mov edi, boot_pdpt
	mov eax, boot_pd + PAGE_PRESENT_RW_USER
	mov ecx, 4
.pdpt:
	mov [rdi], rax
	add eax, 4096
	add edi, 8
	loop .pdpt
	mov edi, boot_pd
	mov eax, PAGE_PRESENT_RW_USER | PAGE_LARGE
	mov ecx, 2048
.pd:
	mov [rdi], rax
	add rax, 1 << 21
	add edi, 8
	loop .pd
	mov eax, boot_pml4
	mov cr3, rax		; this code is mapped in both maps

	lgdt [boot_gdt_pointer64]
	push SEL_KERNEL_CODE64
	mov eax, boot_entry64
	push rax
	retfq			; CS from pmctest's GDT, then as from 32 bits

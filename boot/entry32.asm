; The 32-bit entry shared by Multiboot2 and PVH: check for long mode, build
; an identity map of the first 4 GiB (2 MiB pages, user-accessible so that
; test code can run at any CPL), enable PAE + EFER.LME + paging, load the
; boot GDT and jump to kmain() in 64-bit mode. The Linux 64-bit entry
; (boot/linux64.asm) builds the same map and joins at boot_entry64.

%include "arch/segments.inc"

MB2_BOOTLOADER_MAGIC	equ 0x36D76289
BOOT_PROTOCOL_MULTIBOOT2 equ 1	; keep in step with arch/boot_info.h
BOOT_PROTOCOL_PVH	equ 2
COM1			equ 0x3F8
DEBUG_EXIT_PORT		equ 0xF4
EXIT_HARNESS_ERROR	equ 2	; kernel/exit_status.h
PAGE_PRESENT_RW_USER	equ 0x07
PAGE_LARGE		equ 0x80
MSR_EFER		equ 0xC0000080
EFER_LME		equ 1 << 8
CR4_PAE			equ 1 << 5
CR0_PE_PG		equ (1 << 31) | 1

extern kmain
extern __bss_start, __bss_end, boot_stack_top
extern boot_pml4, boot_pdpt, boot_pd

global boot_entry_multiboot2, boot_entry_pvh, boot_entry64
global boot_gdt_pointer64
global boot_protocol, boot_info

section .boot.text progbits alloc exec nowrite align=16
BITS 32
boot_entry_multiboot2:
	cmp eax, MB2_BOOTLOADER_MAGIC
	jne .not_multiboot2
	mov esi, BOOT_PROTOCOL_MULTIBOOT2
	jmp boot_common
.not_multiboot2:
	mov esi, msg_not_multiboot2
	jmp boot_fatal

boot_entry_pvh:			; hvm_start_info's magic is checked in C
	mov esi, BOOT_PROTOCOL_PVH

boot_common:
	cli
	cld
	mov esp, boot_stack_top
	mov ebp, ebx		; boot information, kept across CPUID

	mov edi, __bss_start	; the loaders zero .bss too; be sure
	mov ecx, __bss_end
	sub ecx, edi
	xor eax, eax
	rep stosb
	mov [boot_protocol], esi
	mov [boot_info], ebp	; the upper half stays 0

	; CPUID exists iff EFLAGS.ID can be toggled.
	pushfd
	pop eax
	mov ecx, eax
	xor eax, 1 << 21
	push eax
	popfd
	pushfd
	pop eax
	push ecx
	popfd
	xor eax, ecx
	jz .no_long_mode

	mov eax, 0x80000000
	cpuid
	cmp eax, 0x80000001
	jb .no_long_mode
	mov eax, 0x80000001
	cpuid
	test edx, 1 << 29	; CPUID.80000001H:EDX.LM
	jz .no_long_mode

	; PML4 and PDPT: zero, then one entry each level points down.
	mov edi, boot_pml4
	mov ecx, 2 * 4096 / 4
	xor eax, eax
	rep stosd
	mov dword [boot_pml4], boot_pdpt + PAGE_PRESENT_RW_USER
	mov edi, boot_pdpt
	mov eax, boot_pd + PAGE_PRESENT_RW_USER
	mov ecx, 4
.pdpt:
	mov [edi], eax
	add eax, 4096
	add edi, 8
	loop .pdpt
	; Four page directories: 2048 entries of 2 MiB cover 0 .. 4 GiB.
	mov edi, boot_pd
	mov eax, PAGE_PRESENT_RW_USER | PAGE_LARGE
	mov ecx, 2048
.pd:
	mov [edi], eax
	mov dword [edi + 4], 0
	add eax, 1 << 21
	add edi, 8
	loop .pd

	mov eax, boot_pml4
	mov cr3, eax
	mov eax, cr4
	or eax, CR4_PAE
	mov cr4, eax
	mov ecx, MSR_EFER
	rdmsr
	or eax, EFER_LME
	wrmsr
	mov eax, cr0
	or eax, CR0_PE_PG
	mov cr0, eax
	lgdt [boot_gdt_pointer]
	jmp SEL_KERNEL_CODE64:boot_entry64

.no_long_mode:
	mov esi, msg_no_long_mode
	; fall through

; Print the NUL-terminated string at ESI on COM1, report a harness error
; through isa-debug-exit (ignored where absent) and stop.
boot_fatal:
	mov dx, COM1
.next:
	lodsb
	test al, al
	jz .stop
	mov bl, al
	mov dx, COM1 + 5	; line status: wait for THRE
.wait:
	in al, dx
	test al, 0x20
	jz .wait
	mov dx, COM1
	mov al, bl
	out dx, al
	jmp .next
.stop:
	mov dx, DEBUG_EXIT_PORT
	mov eax, EXIT_HARNESS_ERROR
	out dx, eax
.halt:
	hlt
	jmp .halt

BITS 64
boot_entry64:
	mov ax, SEL_KERNEL_DATA
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor eax, eax
	mov fs, ax
	mov gs, ax
	mov edi, [boot_protocol]
	mov rsi, [boot_info]
	call kmain		; does not return
.halt:
	hlt
	jmp .halt

section .rodata
msg_no_long_mode:
	db "pmctest: this CPU has no long mode (CPUID.80000001H:EDX.LM = 0); pmctest needs x86-64", 13, 10
	db "Bail out! no long mode", 13, 10, 0
msg_not_multiboot2:
	db "pmctest: entered without the Multiboot2 magic in EAX; boot through GRUB (multiboot2) or PVH", 13, 10
	db "Bail out! unknown boot protocol", 13, 10, 0

; Accessed bits preset (type 9BH, 93H): the CPU would otherwise set them on
; loading a selector, writing into .rodata (SDM Vol. 3A, 3.4.5.1).
align 8
boot_gdt:			; the first entries of arch/gdt.c's GDT
	dq 0
	dq 0x00AF9B000000FFFF	; SEL_KERNEL_CODE64: 64-bit code, DPL 0
	dq 0x00CF93000000FFFF	; SEL_KERNEL_DATA: flat data, DPL 0
boot_gdt_end:
boot_gdt_pointer:
	dw boot_gdt_end - boot_gdt - 1
	dd boot_gdt
boot_gdt_pointer64:		; LGDT in 64-bit mode reads an 8-byte base
	dw boot_gdt_end - boot_gdt - 1
	dq boot_gdt

section .bss
boot_protocol:	resd 1
alignb 8
boot_info:	resq 1		; EBX, or RSI at the Linux 64-bit entry

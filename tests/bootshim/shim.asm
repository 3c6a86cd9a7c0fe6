; The test-only loader shim: QEMU boots it by PVH (-kernel), and it enters
; pmctest's own 32-bit entry with boot information the host crafted
; (tests/hosttools/bootshim.py). QEMU's generic loader (-device loader) has
; already put pmctest's ELF segments, the crafted boot information and the
; shim's parameters in memory; the shim fills the canary window and loads
; the entry registers, so that everything the kernel sees is what the host
; wrote. For the Linux 64-bit entry it first does what crosvm and
; Firecracker do before entering an ELF's e_entry (Linux's
; Documentation/arch/x86/boot.rst, 64-bit boot protocol): page tables that
; identity-map the first GiB, a GDT with 64-bit code at __BOOT_CS (10H)
; and data at __BOOT_DS (18H), long mode, and RSI = the boot_params.

SHIM_PARAMS	equ 0x500000		; keep in step with bootshim.py
SHIM_MAGIC	equ 0x4D494853		; "SHIM"
CANARY		equ 0xA5A5A5A5
COM1		equ 0x3F8
XEN_ELFNOTE_PHYS32_ENTRY equ 18

; The parameters, as bootshim.py packs them (little endian).
struc params
	.magic:		resd 1
	.entry:		resd 1	; pmctest's Multiboot2 or PVH entry
	.eax:		resd 1
	.ebx:		resd 1
	.canary_start:	resd 1	; [start, end) is filled with CANARY ...
	.canary_end:	resd 1
	.hole_start:	resd 1	; ... but for [start, end), zeroed: a framebuffer
	.hole_end:	resd 1
	.long_mode:	resd 1	; 1: enter in long mode, RSI = EBX
endstruc

; Where the loader's page tables go: Firecracker's addresses (PML4 at
; 9000H, PDPT at A000H, PD at B000H), below pmctest's image, and its stack
; pointer, 8FF0H.
LOADER_PML4	equ 0x9000
LOADER_PDPT	equ 0xA000
LOADER_PD	equ 0xB000
LOADER_STACK	equ 0x8FF0
PAGE_PRESENT_RW	equ 0x03
PAGE_LARGE	equ 0x80
BOOT_CS		equ 0x10
BOOT_DS		equ 0x18
MSR_EFER	equ 0xC0000080
EFER_LME	equ 1 << 8
CR4_PAE		equ 1 << 5
CR0_PE_PG	equ (1 << 31) | 1

section .note.pvh note alloc noexec nowrite align=4
	dd 4, 4, XEN_ELFNOTE_PHYS32_ENTRY
	db "Xen", 0
	dd shim_entry

section .text progbits alloc exec nowrite align=16
BITS 32
global shim_entry
; QEMU's PVH entry: 32-bit protected mode, paging off, flat segments: the
; state both of pmctest's 32-bit entries expect.
shim_entry:
	cli
	cld
	mov esi, SHIM_PARAMS
	cmp dword [esi + params.magic], SHIM_MAGIC
	jne no_params

	mov edi, [esi + params.canary_start]
	mov ecx, [esi + params.canary_end]
	sub ecx, edi
	shr ecx, 2
	mov eax, CANARY
	rep stosd
	mov edi, [esi + params.hole_start]
	mov ecx, [esi + params.hole_end]
	sub ecx, edi
	xor eax, eax
	rep stosb

	cmp dword [esi + params.long_mode], 0
	jne long_mode
	mov eax, [esi + params.eax]
	mov ebx, [esi + params.ebx]
	jmp [esi + params.entry]

; One PML4 entry, one PDPT entry, 512 2 MiB pages: 0 .. 1 GiB.
long_mode:
	mov edi, LOADER_PML4
	mov ecx, 3 * 4096 / 4
	xor eax, eax
	rep stosd
	mov dword [LOADER_PML4], LOADER_PDPT + PAGE_PRESENT_RW
	mov dword [LOADER_PDPT], LOADER_PD + PAGE_PRESENT_RW
	mov edi, LOADER_PD
	mov eax, PAGE_PRESENT_RW | PAGE_LARGE
	mov ecx, 512
.pd:
	mov [edi], eax
	add eax, 1 << 21
	add edi, 8
	loop .pd
	mov eax, LOADER_PML4
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
	lgdt [loader_gdt_pointer]
	jmp BOOT_CS:in_long_mode

BITS 64
in_long_mode:
	mov eax, BOOT_DS
	mov ds, eax
	mov es, eax
	mov ss, eax
	mov esp, LOADER_STACK
	mov esi, SHIM_PARAMS
	mov eax, [rsi + params.entry]
	mov esi, [rsi + params.ebx]	; zero-extended into RSI
	xor ebp, ebp
	xor edi, edi
	jmp rax
BITS 32

no_params:
	mov esi, msg_no_params
	mov dx, COM1
.next:
	lodsb
	test al, al
	jz .halt
	out dx, al
	jmp .next
.halt:
	hlt
	jmp .halt

section .rodata
align 8
loader_gdt:
	dq 0, 0
	dq 0x00AF9B000000FFFF	; __BOOT_CS: 64-bit code
	dq 0x00CF93000000FFFF	; __BOOT_DS: flat data
loader_gdt_end:
loader_gdt_pointer:
	dw loader_gdt_end - loader_gdt - 1
	dd loader_gdt

msg_no_params:
	db "Bail out! bootshim: no parameters at 0x500000 (-device loader)", 13, 10, 0

; The test-only loader shim: QEMU boots it by PVH (-kernel), and it enters
; pmctest's own 32-bit entry with boot information the host crafted
; (tests/hosttools/bootshim.py). QEMU's generic loader (-device loader) has
; already put pmctest's ELF segments, the crafted boot information and the
; shim's parameters in memory; the shim fills the canary window and loads
; the entry registers, so that everything the kernel sees is what the host
; wrote.

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
endstruc

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

	mov eax, [esi + params.eax]
	mov ebx, [esi + params.ebx]
	jmp [esi + params.entry]

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
msg_no_params:
	db "Bail out! bootshim: no parameters at 0x500000 (-device loader)", 13, 10, 0

; The application processors' start: ap_trampoline .. ap_trampoline_end is
; copied to a page below 1 MiB (arch/smp.c picks it from the memory map),
; whose number is the start-up IPI's vector. An AP starts there in
; real-address mode with CS = page << 8, IP = 0 (SDM Vol. 3A, 9.4.4), goes
; to protected mode with its own GDT, then to IA-32e mode with the kernel's
; page tables (9.8.5), and calls the kernel's entry with the CPU index on
; the stack smp.c gave it. Nothing here depends on where the page is: the
; code finds its base in CS and writes the linear addresses it needs.

MSR_EFER	equ 0xC0000080
EFER_LME	equ 1 << 8
CR0_PE		equ 1
CR0_PG		equ 1 << 31
CR4_PAE		equ 1 << 5
T_CODE32	equ 0x08	; the trampoline's GDT
T_DATA		equ 0x10
T_CODE64	equ 0x18

%define OFF(x)	((x) - ap_trampoline)

global ap_trampoline, ap_trampoline_end, ap_trampoline_params

section .rodata
align 16
BITS 16
ap_trampoline:
	jmp short real_mode
align 8, db 0
; What arch/smp.c writes before each start (struct ap_params): the
; kernel's CR3, the AP's stack top, the entry, its argument (the CPU).
ap_trampoline_params:
.cr3:	dq 0
.stack:	dq 0
.entry:	dq 0
.cpu:	dq 0

real_mode:
	cli
	cld
	mov ax, cs
	mov ds, ax
	movzx ebx, ax
	shl ebx, 4			; EBX: the page's linear address
	lea eax, [ebx + OFF(gdt)]
	mov [OFF(gdtr) + 2], eax
	lea eax, [ebx + OFF(protected_mode)]
	mov [OFF(far32)], eax
	lea eax, [ebx + OFF(long_mode)]
	mov [OFF(far64)], eax
	o32 lgdt [OFF(gdtr)]
	mov eax, cr0
	or eax, CR0_PE
	mov cr0, eax
	jmp far dword [OFF(far32)]

BITS 32
protected_mode:
	mov ax, T_DATA
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov eax, cr4
	or eax, CR4_PAE
	mov cr4, eax
	mov eax, [ebx + OFF(ap_trampoline_params.cr3)]
	mov cr3, eax
	mov ecx, MSR_EFER
	rdmsr
	or eax, EFER_LME
	wrmsr
	mov eax, cr0
	or eax, CR0_PG
	mov cr0, eax
	jmp far [ebx + OFF(far64)]

BITS 64
long_mode:
	mov ebx, ebx			; the upper half is undefined after the switch
	mov rsp, [rbx + OFF(ap_trampoline_params.stack)]
	mov rdi, [rbx + OFF(ap_trampoline_params.cpu)]
	call [rbx + OFF(ap_trampoline_params.entry)]
.halt:					; the entry does not return
	cli
	hlt
	jmp .halt

align 8
gdt:
	dq 0
	dq 0x00CF9A000000FFFF		; T_CODE32: flat 32-bit code
	dq 0x00CF92000000FFFF		; T_DATA: flat data
	dq 0x00AF9A000000FFFF		; T_CODE64: 64-bit code
gdt_end:
gdtr:
	dw gdt_end - gdt - 1
	dd 0				; the linear address of gdt
far32:
	dd 0				; protected_mode's linear address
	dw T_CODE32
far64:
	dd 0				; long_mode's linear address
	dw T_CODE64
ap_trampoline_end:

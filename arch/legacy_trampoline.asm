; The legacy-mode trampoline (arch/legacy.h): leave long mode, run a body in
; real-address mode, 16-bit or 32-bit protected mode at any CPL, or
; virtual-8086 mode, and come back to long mode with the kernel's GDT, IDT,
; TR, CR0/CR3/CR4, EFER and segment registers as they were.
;
; legacy_image .. legacy_image_end is copied to LEGACY_BASE (below 1 MiB,
; where real-address and virtual-8086 code can run) and runs only there:
; every absolute address in it is written LOW(label).
;
; A body ends with a trap, never with IRET: the UD2 at legacy_exit when it
; completes, or the fault of an instruction. Real-address mode has its own
; IVT, protected mode its own 32-bit IDT; every vector records the trap in
; legacy_io and goes straight back to long mode at CPL 0, discarding the
; frame. So no IRET to the body and no IRET out of a handler is needed.
;
; Switching out of and back into IA-32e mode: SDM Vol. 3A 10.8.5 and
; 10.8.5.4; into and out of real-address mode: 10.9.1, 10.9.2; entering
; virtual-8086 mode through IRET: 20.2.5.

%include "arch/legacy.inc"

%define LOW(x)		((x) - legacy_image + LEGACY_BASE)

MSR_EFER	equ 0xC0000080
MSR_SYSENTER_CS	equ 0x174
MSR_FS_BASE	equ 0xC0000100
MSR_GS_BASE	equ 0xC0000101
EFER_LME	equ 1 << 8
CR0_PE		equ 1
CR0_PG		equ 1 << 31
EFLAGS_VM	equ 1 << 17
EFLAGS_FIXED	equ 1 << 1		; IF = 0, IOPL = 0

; The trampoline's own GDT (legacy_gdt below).
T_CODE64	equ 0x08
T_DATA32	equ 0x10
T_CODE32	equ 0x18
T_CODE16	equ 0x20
T_DATA16	equ 0x28		; 64 KiB, byte granular: for real mode
%define T_CODE16_CPL(n)	(0x18 + 0x19 * (n))	; 0x30 + 0x18 (n - 1) + RPL n
%define T_CODE32_CPL(n)	(0x20 + 0x19 * (n))
%define T_DATA32_CPL(n)	(0x28 + 0x19 * (n))
T_TSS		equ 0x78
; SYSEXIT loads CS = IA32_SYSENTER_CS + 16 and SS = + 24, RPL 3.
T_SYSEXIT_BASE	equ T_CODE32_CPL(3) - 3 - 16

; Below the image, whose size nothing else depends on.
%define STACK0_TOP	(LOW(legacy_image_end) + 0x400)	; CPL 0, TSS.ESP0
%define STACK_BODY_TOP	(LOW(legacy_image_end) + 0x600)	; CPL 1-3, v8086
%define STACK_REAL_TOP	(LOW(legacy_image_end) + 0x800)	; real mode

global legacy_image, legacy_image_end, legacy_enter, legacy_io

; Each RDMSR and WRMSR of a trip is counted in legacy_io for the exit tally
; (arch/hooks.h): to a hypervisor they are exits like the tests' own.
; install() puts the counts back to 0 before each trip.
%macro COUNTED 1
	inc dword [LOW(legacy_io.%1_count)]
	%1
%endmacro
global legacy_rdpmc, legacy_exit, legacy_fault

section .rodata
align 16
legacy_image:

BITS 64
; void legacy_enter(void), called at LOW(legacy_enter) with legacy_io
; filled in; returns with the outcome in legacy_io.
legacy_enter:
	push rbx
	push rbp
	push r12
	push r13
	push r14
	push r15
	pushfq
	cli
	mov [LOW(saved.rsp)], rsp
	sgdt [LOW(saved.gdtr)]
	sidt [LOW(saved.idtr)]
	str word [LOW(saved.tr)]
	mov [LOW(saved.cs)], cs
	mov [LOW(saved.ds)], ds
	mov [LOW(saved.es)], es
	mov [LOW(saved.ss)], ss
	mov [LOW(saved.fs)], fs
	mov [LOW(saved.gs)], gs
	mov ecx, MSR_FS_BASE
	COUNTED rdmsr
	mov [LOW(saved.fs_base)], eax
	mov [LOW(saved.fs_base) + 4], edx
	mov ecx, MSR_GS_BASE
	COUNTED rdmsr
	mov [LOW(saved.gs_base)], eax
	mov [LOW(saved.gs_base) + 4], edx
	mov ecx, MSR_SYSENTER_CS
	COUNTED rdmsr
	mov [LOW(saved.sysenter_cs)], eax
	mov [LOW(saved.sysenter_cs) + 4], edx
	mov ecx, MSR_EFER
	COUNTED rdmsr
	mov [LOW(saved.efer)], eax
	mov [LOW(saved.efer) + 4], edx
	mov rax, cr0
	mov [LOW(saved.cr0)], rax
	mov rax, cr3
	mov [LOW(saved.cr3)], rax
	mov rax, cr4
	mov [LOW(saved.cr4)], rax

	; Our GDT's TSS descriptor is busy after the previous run's LTR.
	and byte [LOW(legacy_gdt) + T_TSS + 5], ~0x02
	lgdt [LOW(legacy_gdtr)]
	push qword T_CODE32
	push qword LOW(compat_entry)
	retfq

BITS 32
; 10.8.5.4: in compatibility mode, clear CR0.PG (IA32_EFER.LMA clears),
; then EFER.LME. This code is identity mapped, as the step requires.
compat_entry:
	mov ax, T_DATA32
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov fs, ax
	mov gs, ax
	mov esp, STACK0_TOP
	mov eax, cr0
	and eax, ~CR0_PG
	mov cr0, eax
	mov ecx, MSR_EFER
	COUNTED rdmsr
	and eax, ~EFER_LME
	COUNTED wrmsr
	; Legacy protected mode, paging off, CPL 0.
	lidt [LOW(idt32_pointer)]
	mov ax, T_TSS
	ltr ax

	mov eax, [LOW(legacy_io.mode)]
	cmp eax, LEGACY_REAL
	je to_real
	mov ebx, [LOW(legacy_io.body)]
	cmp eax, LEGACY_V86
	je to_v86
	mov esi, [LOW(legacy_io.cpl)]
	cmp eax, LEGACY_PROT16
	je to_prot16
	; LEGACY_PROT32
	mov edi, T_CODE32_CPL(3)
	cmp esi, 3
	je sysexit_to_cpl3
	test esi, esi
	jz .cpl0
	imul edi, esi, 0x19
	add edi, 0x20			; T_CODE32_CPL(n)
	jmp iret_to_cpl
.cpl0:
	call load_body_registers
	jmp ebx

to_prot16:
	mov edi, T_CODE16_CPL(3)
	cmp esi, 3
	je sysexit_to_cpl3
	test esi, esi
	jz .cpl0
	imul edi, esi, 0x19
	add edi, 0x18			; T_CODE16_CPL(n)
	jmp iret_to_cpl
.cpl0:
	push dword T_CODE16
	push ebx
	call load_body_registers
	retf

; CPL 3 through SYSEXIT (SDM Vol. 2B): flat 32-bit code at CPL 3, EIP =
; EDX, ESP = ECX; there a far jump to EDI:EBX, the body's segment (same
; privilege, 32-bit or 16-bit). No IRET: instruction emulators that cannot
; IRET to an outer privilege level (KVM's) do perform SYSEXIT.
sysexit_to_cpl3:
	mov [LOW(body_far)], ebx
	mov [LOW(body_far) + 4], di
	mov ecx, MSR_SYSENTER_CS
	mov eax, T_SYSEXIT_BASE
	xor edx, edx
	COUNTED wrmsr
	mov ax, T_DATA32_CPL(3)
	mov ds, ax
	mov es, ax
	mov fs, ax
	mov gs, ax
	mov ecx, STACK_BODY_TOP
	mov edx, LOW(.cpl3)
	sysexit
.cpl3:
	call load_body_registers
	jmp far [LOW(body_far)]

; IRET to EBX at CPL ESI with code selector EDI; DS, ES, FS, GS and SS get
; the flat data segment of that CPL, T_DATA32_CPL(n) = 0x28 + 0x19 n.
iret_to_cpl:
	imul eax, esi, 0x19
	add eax, 0x28
	mov ds, ax
	mov es, ax
	mov fs, ax
	mov gs, ax
	push eax			; SS
	push dword STACK_BODY_TOP	; ESP
	push dword EFLAGS_FIXED
	push edi			; CS
	push ebx			; EIP
	call load_body_registers
	iretd

; 20.2.5: IRET with EFLAGS.VM = 1 in the image enters virtual-8086 mode and
; pops ES, DS, FS, GS after SS. Segments 0, as in real mode; CPL 3.
to_v86:
	push dword 0			; GS
	push dword 0			; FS
	push dword 0			; DS
	push dword 0			; ES
	push dword 0			; SS
	push dword STACK_BODY_TOP	; SP
	push dword EFLAGS_FIXED | EFLAGS_VM
	push dword 0			; CS
	push ebx			; IP
	call load_body_registers
	iretd

; 10.9.2: from a 64 KiB code segment with 64 KiB data segments loaded,
; an IVT loaded and paging off, clear CR0.PE and far jump.
to_real:
	jmp T_CODE16:LOW(.code16)
BITS 16
.code16:
	mov ax, T_DATA16
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov fs, ax
	mov gs, ax
	o32 lidt [LOW(ivt_pointer)]
	mov eax, cr0
	and eax, ~CR0_PE
	mov cr0, eax
	jmp 0:LOW(.real)
.real:
	xor ax, ax
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov fs, ax
	mov gs, ax
	mov sp, STACK_REAL_TOP
	mov bx, [LOW(legacy_io.body)]
	mov eax, [LOW(legacy_io.eax)]
	mov ecx, [LOW(legacy_io.ecx)]
	mov edx, [LOW(legacy_io.edx)]
	jmp bx

; Real-mode vector n: push n, record, and go back to protected mode. The
; CPU pushed FLAGS, CS, IP, and no error code (SDM Vol. 3A 21.1.4).
%macro REAL_STUB 1
real_stub_%1:
	push word %1
	jmp real_trap
%endmacro
%assign v 0
%rep 32
REAL_STUB v
%assign v v + 1
%endrep

real_trap:
	mov [cs:LOW(legacy_io.out_eax)], eax
	mov [cs:LOW(legacy_io.out_ecx)], ecx
	mov [cs:LOW(legacy_io.out_edx)], edx
	xor eax, eax
	mov ds, ax
	mov bp, sp
	mov ax, [bp]
	mov [LOW(legacy_io.vector)], eax
	mov dword [LOW(legacy_io.error_code)], LEGACY_NO_ERROR_CODE
	mov ax, [bp + 2]
	mov [LOW(legacy_io.trap_ip)], eax
	mov ax, [bp + 4]
	mov [LOW(legacy_io.trap_cs)], eax
	mov ax, [bp + 6]
	mov [LOW(legacy_io.trap_flags)], eax
	mov dword [LOW(legacy_io.trapped_in)], LEGACY_TRAPPED_IVT
	; 10.9.1: set CR0.PE, far jump to protected-mode code.
	o32 lgdt [LOW(legacy_gdtr)]
	mov eax, cr0
	or eax, CR0_PE
	mov cr0, eax
	jmp dword T_CODE32:LOW(back_to_long)

BITS 32
load_body_registers:
	mov eax, [LOW(legacy_io.eax)]
	mov ecx, [LOW(legacy_io.ecx)]
	mov edx, [LOW(legacy_io.edx)]
	ret

; Protected-mode vector n (interrupt gate, CPL 0): the frame is the
; vector, the error code (-1 where the CPU pushes none), EIP, CS, EFLAGS
; and, from CPL 1-3 or v8086, more that is not needed.
%macro PROT_STUB 1
prot_stub_%1:
%if !((%1 = 8) || (%1 >= 10 && %1 <= 14) || (%1 = 17) || (%1 = 21) || (%1 = 29) || (%1 = 30))
	push dword LEGACY_NO_ERROR_CODE
%endif
	push dword %1
	jmp prot_trap
%endmacro
%assign v 0
%rep 32
PROT_STUB v
%assign v v + 1
%endrep

; SS is T_DATA32 here (the same stack, or TSS.SS0); DS may be anything,
; null after virtual-8086 mode (20.3.1.1).
prot_trap:
	mov [ss:LOW(legacy_io.out_eax)], eax
	mov [ss:LOW(legacy_io.out_ecx)], ecx
	mov [ss:LOW(legacy_io.out_edx)], edx
	mov ax, T_DATA32
	mov ds, ax
	pop dword [LOW(legacy_io.vector)]
	pop dword [LOW(legacy_io.error_code)]
	pop dword [LOW(legacy_io.trap_ip)]
	pop dword [LOW(legacy_io.trap_cs)]
	pop dword [LOW(legacy_io.trap_flags)]
	mov dword [LOW(legacy_io.trapped_in)], LEGACY_TRAPPED_IDT

; 10.8.5: PAE on (CR4 as saved), CR3 the PML4, EFER.LME, then CR0.PG
; activates IA-32e mode in compatibility mode; a far jump enters 64-bit.
back_to_long:
	mov ax, T_DATA32
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov esp, STACK0_TOP
	mov ecx, MSR_SYSENTER_CS
	mov eax, [LOW(saved.sysenter_cs)]
	mov edx, [LOW(saved.sysenter_cs) + 4]
	COUNTED wrmsr
	mov eax, [LOW(saved.cr4)]
	mov cr4, eax
	mov eax, [LOW(saved.cr3)]
	mov cr3, eax
	mov ecx, MSR_EFER
	mov eax, [LOW(saved.efer)]
	mov edx, [LOW(saved.efer) + 4]
	COUNTED wrmsr
	mov eax, [LOW(saved.cr0)]
	mov cr0, eax
	jmp T_CODE64:LOW(long_again)

BITS 64
long_again:
	lgdt [LOW(saved.gdtr)]
	lidt [LOW(saved.idtr)]
	movzx eax, word [LOW(saved.cs)]
	push rax
	push qword LOW(.kernel_cs)
	retfq
.kernel_cs:
	mov ds, [LOW(saved.ds)]
	mov es, [LOW(saved.es)]
	mov ss, [LOW(saved.ss)]
	mov fs, [LOW(saved.fs)]
	mov gs, [LOW(saved.gs)]
	mov ecx, MSR_FS_BASE
	mov eax, [LOW(saved.fs_base)]
	mov edx, [LOW(saved.fs_base) + 4]
	COUNTED wrmsr
	mov ecx, MSR_GS_BASE
	mov eax, [LOW(saved.gs_base)]
	mov edx, [LOW(saved.gs_base) + 4]
	COUNTED wrmsr
	; LTR faults on a busy TSS: the kernel's is busy since gdt_init().
	mov rax, [LOW(saved.gdtr) + 2]
	movzx ecx, word [LOW(saved.tr)]
	and byte [rax + rcx + 5], ~0x02
	ltr cx
	mov rsp, [LOW(saved.rsp)]
	popfq
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbp
	pop rbx
	ret

; The bodies: 16-bit and 32-bit code alike (0F 33 is RDPMC, 0F 0B UD2 in
; both), entered with EAX, ECX, EDX from legacy_io.
legacy_rdpmc:
	rdpmc
legacy_exit:
	ud2
legacy_fault:			; the selftests' unexpected fault
	ud2

; The data, and the stacks after the image, on a page of their own: the
; trampoline, its bodies and legacy.c store to them on every trip, and an
; instruction emulator checks a store to a page it translated code from
; against that code (QEMU's TCG takes a slow path for each).
	times (4096 - ($ - legacy_image) % 4096) % 4096 db 0

%macro SEGMENT 4		; base, limit, access, flags (G, D/B, L)
	dw (%2) & 0xFFFF, (%1) & 0xFFFF
	db ((%1) >> 16) & 0xFF, %3, (((%2) >> 16) & 0x0F) | ((%4) << 4)
	db ((%1) >> 24) & 0xFF
%endmacro
G4K	equ 0x8
D32	equ 0x4
L64	equ 0x2
%define CODE(dpl)	(0x9A | (dpl) << 5)
%define DATA(dpl)	(0x92 | (dpl) << 5)

align 8
legacy_gdt:
	dq 0
	SEGMENT 0, 0xFFFFF, CODE(0), G4K | L64		; T_CODE64
	SEGMENT 0, 0xFFFFF, DATA(0), G4K | D32		; T_DATA32
	SEGMENT 0, 0xFFFFF, CODE(0), G4K | D32		; T_CODE32
	SEGMENT 0, 0xFFFF, CODE(0), 0			; T_CODE16
	SEGMENT 0, 0xFFFF, DATA(0), 0			; T_DATA16
%assign n 1
%rep 3
	SEGMENT 0, 0xFFFF, CODE(n), 0			; T_CODE16_CPL(n)
	SEGMENT 0, 0xFFFFF, CODE(n), G4K | D32		; T_CODE32_CPL(n)
	SEGMENT 0, 0xFFFFF, DATA(n), G4K | D32		; T_DATA32_CPL(n)
%assign n n + 1
%endrep
	SEGMENT LOW(legacy_tss), legacy_tss_end - legacy_tss - 1, 0x89, 0
legacy_gdt_end:

legacy_gdtr:			; 10 bytes for LGDT in 64-bit mode, 6 used in 32
	dw legacy_gdt_end - legacy_gdt - 1
	dq LOW(legacy_gdt)

; 32-bit TSS (SDM Vol. 3A 9.2.1): only SS0:ESP0, for traps from CPL 1-3 and
; virtual-8086 mode; the I/O map base past the limit: no I/O bitmap.
align 8
legacy_tss:
	dd 0
	dd STACK0_TOP			; ESP0
	dd T_DATA32			; SS0
	times 22 dd 0
	dw 0
	dw legacy_tss_end - legacy_tss	; I/O map base
legacy_tss_end:

align 8
idt32:
%assign v 0
%rep 32
	dw LOW(prot_stub_%+v) & 0xFFFF, T_CODE32, 0x8E00, LOW(prot_stub_%+v) >> 16
%assign v v + 1
%endrep
idt32_end:
idt32_pointer:
	dw idt32_end - idt32 - 1
	dd LOW(idt32)

ivt:
%assign v 0
%rep 32
	dw LOW(real_stub_%+v), 0
%assign v v + 1
%endrep
ivt_end:
ivt_pointer:
	dw ivt_end - ivt - 1
	dd LOW(ivt)

align 8
saved:
.rsp:		dq 0
.cr0:		dq 0
.cr3:		dq 0
.cr4:		dq 0
.efer:		dq 0
.sysenter_cs:	dq 0
.fs_base:	dq 0
.gs_base:	dq 0
.gdtr:		times 10 db 0
.idtr:		times 10 db 0
.tr:		dw 0
.cs:		dw 0
.ds:		dw 0
.es:		dw 0
.ss:		dw 0
.fs:		dw 0
.gs:		dw 0

body_far:	dd 0, 0		; m16:32 for the far jump at CPL 3

; struct legacy_io (arch/legacy.h).
align 8
legacy_io:
.mode:		dd 0
.cpl:		dd 0
.body:		dd 0
.eax:		dd 0
.ecx:		dd 0
.edx:		dd 0
.out_eax:	dd 0
.out_ecx:	dd 0
.out_edx:	dd 0
.vector:	dd 0
.error_code:	dd 0
.trap_ip:	dd 0
.trap_cs:	dd 0
.trap_flags:	dd 0
.trapped_in:	dd 0
.rdmsr_count:	dd 0
.wrmsr_count:	dd 0

align 16
legacy_image_end:

; PVH boot (Xen's x86/HVM direct boot ABI): an ELF note of type
; XEN_ELFNOTE_PHYS32_ENTRY names the 32-bit entry point. QEMU -kernel,
; Firecracker and Cloud Hypervisor enter there in 32-bit protected mode,
; paging off, with EBX = the physical address of struct hvm_start_info.
; The descriptor is 8 bytes: QEMU reads a 64-bit address from ELF64 notes.

XEN_ELFNOTE_PHYS32_ENTRY equ 18

extern boot_entry_pvh

section .note.pvh note alloc noexec nowrite align=4
	dd 4				; name size ("Xen\0")
	dd 8				; descriptor size
	dd XEN_ELFNOTE_PHYS32_ENTRY
	db "Xen", 0
	dq boot_entry_pvh

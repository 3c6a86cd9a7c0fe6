; Multiboot2 header (Multiboot2 specification, section 3.1). GRUB finds it
; in the first 32 KiB of the file and loads the ELF by its program headers,
; then enters boot_entry_multiboot2 (the ELF entry point) in 32-bit
; protected mode with EAX = 36D76289H and EBX = the boot information.
;
; The header asks for no framebuffer (no tag 5): GRUB then hands over what it
; has without setting a mode, the EGA text screen on a BIOS and the UEFI GOP
; framebuffer, both of which the screen console draws in. Asking for one
; makes GRUB search the VESA BIOS's graphics modes at boot, which some VESA
; BIOSes do not survive (Bochs' VGA BIOS: GRUB's heap is corrupted, "out of
; range pointer", "free magic is broken", then a triple fault).

MB2_MAGIC	equ 0xE85250D6
MB2_ARCH_I386	equ 0

section .multiboot2 progbits alloc noexec nowrite align=8
mb2_header:
	dd MB2_MAGIC
	dd MB2_ARCH_I386
	dd mb2_header_end - mb2_header
	dd -(MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))
	; end tag
	dw 0, 0
	dd 8
mb2_header_end:

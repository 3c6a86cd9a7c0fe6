; Multiboot2 header (Multiboot2 specification, section 3.1). GRUB finds it
; in the first 32 KiB of the file and loads the ELF by its program headers,
; then enters boot_entry_multiboot2 (the ELF entry point) in 32-bit
; protected mode with EAX = 36D76289H and EBX = the boot information.

MB2_MAGIC	equ 0xE85250D6
MB2_ARCH_I386	equ 0

section .multiboot2 progbits alloc noexec nowrite align=8
mb2_header:
	dd MB2_MAGIC
	dd MB2_ARCH_I386
	dd mb2_header_end - mb2_header
	dd -(MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))
	; framebuffer tag (section 3.1.10), optional: any mode GRUB can set,
	; for the screen console (arch/fbcon.c)
	dw 5, 1
	dd 20
	dd 0, 0, 32		; width, height: no preference; 32 bits per pixel
	dd 0			; pad: tags are 8-byte aligned
	; end tag
	dw 0, 0
	dd 8
mb2_header_end:

; The page tables the boot path fills (boot/entry32.asm, boot/linux64.asm):
; 0 .. 4 GiB identity-mapped in 2 MiB pages. They are arch/'s, so that the
; guard pages (arch/guard.c) split them without reaching up into boot/.

global boot_pml4, boot_pdpt, boot_pd

section .pagetables nobits alloc write align=4096
boot_pml4:	resb 4096
boot_pdpt:	resb 4096
boot_pd:	resb 4 * 4096	; 2048 PDEs

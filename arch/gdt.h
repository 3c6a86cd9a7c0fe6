#ifndef PMCTEST_GDT_H
#define PMCTEST_GDT_H

#define IST_DOUBLE_FAULT	1
#define IST_NMI			2

void gdt_init(void);

#endif

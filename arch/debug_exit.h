#ifndef PMCTEST_DEBUG_EXIT_H
#define PMCTEST_DEBUG_EXIT_H

/* QEMU's isa-debug-exit (-device isa-debug-exit,iobase=0xf4): a write of v
 * makes QEMU exit with status (v << 1) | 1. Elsewhere the write is lost. */
#define DEBUG_EXIT_PORT 0xF4

#endif

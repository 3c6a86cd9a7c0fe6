#ifndef PMCTEST_VECTORS_H
#define PMCTEST_VECTORS_H

/* The mnemonic of exception vector 0-31 ("#GP", "#UD", ...). Pure: also
 * built for the host programs that report outcomes. */
const char *vector_name(unsigned vector);

#endif

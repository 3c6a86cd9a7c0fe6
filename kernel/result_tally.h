/*
 * The run's count of results: the number of the last result line, and
 * how many passed, failed and were skipped. A result is counted with one
 * store after its line is written, and the count it makes is kept beside
 * where the line starts in the log: if the CPU writing it is lost partway
 * (SMP-6), the CPU that takes over counts the line exactly when it is out.
 */
#ifndef PMCTEST_RESULT_TALLY_H
#define PMCTEST_RESULT_TALLY_H

#include "tap_writer.h"

/* The most results a run can count. */
#define RESULT_TALLY_MAX 0xFFFFu

/* Before a result line: its number. */
unsigned result_tally_begin(enum tap_result result);

/* After it. */
void result_tally_commit(void);

/* After the CPU writing was lost: the result whose line is out counted. */
void result_tally_take_over(void);

/* Result lines so far; results of one kind. */
unsigned result_tally_number(void);
unsigned result_tally_count(enum tap_result result);

#endif

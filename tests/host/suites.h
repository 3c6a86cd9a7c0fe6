/* The host test suites that test_main.c runs, one per file. */
#ifndef PMCTEST_SUITES_H
#define PMCTEST_SUITES_H

void test_model(void);			/* model_test.c: model_rdpmc() */
void test_model_span(void);		/* model_span_test.c: the sweeps' cache */
void test_decode(void);			/* decode_test.c: pmu_decode() */
void test_topology(void);		/* topology_test.c: topology_decode() */
void test_query(void);			/* query_test.c: query_parse() */
void test_tool(const char *tool);	/* tool_test.c: pmctest-model */
void test_glob(void);			/* glob_test.c: @cpuN in patterns */

#endif

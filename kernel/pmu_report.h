#ifndef PMCTEST_PMU_REPORT_H
#define PMCTEST_PMU_REPORT_H

#include "model.h"

/* The decoded enumeration as TAP comment lines. */
void pmu_report(const struct pmu_cpuid *raw);

#endif

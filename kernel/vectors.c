#include "vectors.h"

static const char *const names[32] = {
	"#DE", "#DB", "NMI", "#BP", "#OF", "#BR", "#UD", "#NM",
	"#DF", "vector 9", "#TS", "#NP", "#SS", "#GP", "#PF", "vector 15",
	"#MF", "#AC", "#MC", "#XM", "#VE", "#CP", "vector 22", "vector 23",
	"vector 24", "vector 25", "vector 26", "vector 27", "#HV", "#VC",
	"#SX", "vector 31",
};

const char *vector_name(unsigned vector)
{
	return vector < 32 ? names[vector] : "vector >= 32";
}

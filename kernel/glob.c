#include "glob.h"

bool glob_match(const char *p, const char *s)
{
	const char *star = 0, *resume = 0;

	while (*s) {
		if (*p == '*') {
			star = p++;
			resume = s;
		} else if (*p == '?' || *p == *s) {
			p++;
			s++;
		} else if (star) {	/* let the last '*' take one more */
			p = star + 1;
			s = ++resume;
		} else {
			return false;
		}
	}
	while (*p == '*')
		p++;
	return *p == '\0';
}

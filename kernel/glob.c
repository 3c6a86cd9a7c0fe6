#include "glob.h"

/* glob_match() of the first n characters of s. */
static bool match_n(const char *p, const char *s, unsigned n)
{
	const char *star = 0, *resume = 0, *end = s + n;

	while (s < end) {
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

static unsigned length_until(const char *s, char stop)
{
	unsigned n = 0;

	while (s[n] && s[n] != stop)
		n++;
	return n;
}

bool glob_match(const char *pattern, const char *s)
{
	return match_n(pattern, s, length_until(s, '\0'));
}

bool glob_match_test(const char *pattern, const char *id)
{
	if (pattern[length_until(pattern, '@')] == '@')
		return glob_match(pattern, id);
	return match_n(pattern, id, length_until(id, '@'));
}

/* CPU profiles: see profile.h. */
#include "profile.h"

#include <stdio.h>
#include <string.h>

#include "query.h"

#define PROFILE_CHARS 8192

/* Keys of a query that describe an execution, not a CPU. */
static const char *const state_keys[] = { "mode=", "cpl=", "pce=", "ecx=", "rcx=" };

/* The file with comments blanked and lines joined: one query line. */
static bool read_joined(const char *path, char *text, size_t size,
			struct strbuf *err)
{
	FILE *f = fopen(path, "r");
	size_t n;
	bool comment = false;

	if (!f) {
		strbuf_printf(err, "%s: cannot open", path);
		return false;
	}
	n = fread(text, 1, size, f);
	fclose(f);
	if (n == size) {
		strbuf_printf(err, "%s: longer than %zu characters", path, size - 1);
		return false;
	}
	text[n] = '\0';
	for (char *p = text; *p; p++) {
		if (*p == '#')
			comment = true;
		else if (*p == '\n')
			comment = false;
		if (comment || *p == '\n')
			*p = ' ';
	}
	return true;
}

static bool has_state_key(const char *text, const char *path,
			  struct strbuf *err)
{
	for (size_t k = 0; k < sizeof(state_keys) / sizeof(state_keys[0]); k++) {
		for (const char *p = strstr(text, state_keys[k]); p;
		     p = strstr(p + 1, state_keys[k])) {
			if (p == text || p[-1] == ' ' || p[-1] == '\t') {
				strbuf_printf(err, "%s: \"%s\" describes an execution, not a CPU",
					      path, state_keys[k]);
				return true;
			}
		}
	}
	return false;
}

bool profile_load(const char *path, struct pmu_cpuid *out, struct strbuf *err)
{
	static char text[PROFILE_CHARS];
	char why_text[256];
	struct strbuf why;
	struct query q;

	if (!read_joined(path, text, sizeof(text), err) ||
	    has_state_key(text, path, err))
		return false;
	strbuf_init(&why, why_text, sizeof(why_text));
	if (!query_parse(text, false, &q, &why)) {
		strbuf_printf(err, "%s: %s", path, why_text);
		return false;
	}
	*out = q.cpuid;
	return true;
}

void profile_name(const char *path, char *name, unsigned size)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
	len = strcspn(base, ".");
	if (len >= size)
		len = size - 1;
	memcpy(name, base, len);
	name[len] = '\0';
}

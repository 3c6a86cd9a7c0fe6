#include "check_context.h"

#include "exec.h"
#include "harness.h"

static const struct exec_state contexts[CHECK_CONTEXTS] = {
	{ MODE_LONG, 0, false },
	{ MODE_LONG, 3, true },
};

static const char *const names[CHECK_CONTEXTS] = { "cpl0", "cpl3" };

const struct exec_state *check_context(unsigned i)
{
	return &contexts[i];
}

const char *check_context_name(unsigned i)
{
	return names[i];
}

bool check_context_usable(const struct exec_state *s)
{
	char text[120];
	struct strbuf why;

	strbuf_init(&why, text, sizeof(text));
	if (exec_available(s, &why))
		return true;
	test_skip("%s", text);
	return false;
}

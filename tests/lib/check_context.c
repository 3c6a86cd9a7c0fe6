#include "check_context.h"

#include "counters.h"
#include "exec.h"
#include "harness.h"
#include "rdpmc_check.h"

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

void check_invalid_encoding(const struct exec_state *s, uint32_t base)
{
	uint32_t ecx = base | DEFINED_INDICES;

	/* Without one (a model-specific range, NARCH-1) the first index past
	 * the defined ones: a read or #GP(0), never #UD. */
	if (!first_invalid_ecx(base, &ecx))
		test_note("the model knows no invalid index of type %04XH here",
			  base >> 16);
	struct rdpmc_case c = { *s, ecx, SENTINEL_RAX, SENTINEL_RDX };

	if (check_rdpmc(&c))
		test_note("ECX %08XH: as the model says", ecx);
}

"""The kernel's glob (kernel/glob.c), for expectation patterns and --only."""
import re


def glob_regex(pattern):
    """'*' any run, '?' one character."""
    out = []
    for c in pattern:
        out.append(".*" if c == "*" else "." if c == "?" else re.escape(c))
    return re.compile("".join(out) + r"\Z")


class TestGlob:
    """A pattern of test IDs as the kernel's tests= reads it
    (glob_match_test): with an '@' it matches the whole ID, without one the
    ID up to its '@cpuN', so that priv.* names a test on every CPU and
    priv.*@cpu2 on CPU 2 alone. match() is true or None, as re's."""

    def __init__(self, pattern):
        self.whole = "@" in pattern
        self.regex = glob_regex(pattern)

    def match(self, test_id):
        if not self.whole:
            test_id = test_id.split("@", 1)[0]
        return self.regex.match(test_id) is not None or None


def test_glob(pattern):
    return TestGlob(pattern)

"""The kernel's glob (kernel/glob.c), for expectation patterns and --only."""
import re


def glob_regex(pattern):
    """'*' any run, '?' one character."""
    out = []
    for c in pattern:
        out.append(".*" if c == "*" else "." if c == "?" else re.escape(c))
    return re.compile("".join(out) + r"\Z")

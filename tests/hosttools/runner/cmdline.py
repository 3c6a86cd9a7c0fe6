"""The kernel command line of a run: tests=, exclude=, the target's own
words and --kernel-args."""


def kernel_cmdline(opts, excluded=(), target=None):
    parts = []
    if opts.tests:
        parts.append("tests=" + opts.tests)
    if excluded:
        parts.append("exclude=" + ",".join(excluded))
    if target and target.get("kernel_args"):
        parts.append(target["kernel_args"])
    if opts.kernel_args:
        parts.append(opts.kernel_args)
    return " ".join(parts)

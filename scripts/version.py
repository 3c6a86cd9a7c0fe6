"""The project's version: its release and the commit it was built from,
as the kernel's TAP header and the JUnit properties show it."""
import os
import subprocess

RELEASE = "0.2"


def commit():
    """`git describe --always --dirty` of the checkout, or "unknown"."""
    try:
        r = subprocess.run(["git", "describe", "--always", "--dirty"],
                           cwd=os.path.dirname(os.path.abspath(__file__)),
                           capture_output=True, text=True, timeout=10)
    except OSError:
        return "unknown"
    return r.stdout.strip() if r.returncode == 0 and r.stdout.strip() else "unknown"


def project_version():
    return f"{RELEASE} ({commit()})"


if __name__ == "__main__":
    print(project_version())

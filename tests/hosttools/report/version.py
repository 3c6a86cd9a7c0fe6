"""The project's version, as the kernel's TAP header and the JUnit
properties show it: what scripts/version.py, the build tool that makes the
header's version, prints."""
import os
import subprocess
import sys

from .. import SCRIPTS


def project_version():
    r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "version.py")],
                       capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else "unknown"

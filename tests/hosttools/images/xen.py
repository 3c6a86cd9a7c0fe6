"""Debian's Xen as scripts/fetch_xen.py leaves it beside the image: which
package and version it is, or why it could not be fetched."""
import os


def xen_package(xen):
    """(package, pinned, fetched) as scripts/fetch_xen.py wrote them next to
    the image, or None for a Xen of the user's own (XEN=path)."""
    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(xen)),
                               "package")) as f:
            words = f.read().split()
    except OSError:
        return None
    return tuple(words) if len(words) == 3 else None


def xen_unavailable(xen):
    """Why scripts/fetch_xen.py could not fetch Xen, if it said."""
    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(xen)),
                               "unavailable")) as f:
            return f.read().strip()
    except OSError:
        return None

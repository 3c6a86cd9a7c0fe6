"""--list-targets: every target, and whether it can boot here."""
from .. import targets as target_table

from .availability import availability


def list_targets(opts):
    width = max(len(t["name"]) for t in target_table.TARGETS)
    for t in target_table.TARGETS:
        ok, why = availability(t, opts)
        state = "available" if ok else "unavailable: " + why
        print(f"{t['name']:<{width}}  {t['route']:<4}  {state}\n"
              f"{'':<{width}}        {t['about']}")
    return 0

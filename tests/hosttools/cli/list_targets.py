"""--list-targets: every target, and whether it can boot here."""
from .. import targets


def list_targets(options):
    width = max(len(t.name) for t in targets.TARGETS)
    for t in targets.TARGETS:
        ok, why = targets.select(t, options.programs).availability()
        state = "available" if ok else "unavailable: " + why
        print(f"{t.name:<{width}}  {t.route:<4}  {state}\n"
              f"{'':<{width}}        {t.about}")
    return 0

"""The dependency rule (hosttools/layout_rule.py) on calls and data
references, read from the kernel's objects: nm gives each object's defined
and undefined names, each defined name maps to the file that defines it,
and a reference from one folder into a name another folder defines must be
one the rule allows: the caller's rule allows that folder, or (for part of
a folder) a header of that part declares the name, or the name is declared
in an interface header the defining layer implements. Separately, no files
may refer to each other in a circle.
"""
import functools
import pathlib
import re
import subprocess

from .layout_rule import ENTRY, IMPLEMENTS, RULES, allows, rule_for

# Objects make writes from generated sources -> the file they count as.
GENERATED_OBJECTS = {'font.o': 'arch/font.h'}	# build/font.c, arch/'s console font

COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)


def object_source(root, objects, obj):
    """The file of the tree obj was built from."""
    rel = obj.relative_to(objects)
    if rel.as_posix() in GENERATED_OBJECTS:
        return pathlib.PurePosixPath(GENERATED_OBJECTS[rel.as_posix()])
    for suffix in ('.c', '.asm'):
        source = rel.with_suffix(suffix)
        if (root / source).is_file():
            return pathlib.PurePosixPath(source.as_posix())
    return None


@functools.lru_cache(maxsize=None)
def symbols(obj):
    """(defined, undefined): the global names obj defines and refers to
    (read once: the deliberate violations read them again)."""
    out = subprocess.run(['nm', '--format=posix', str(obj)], check=True,
                         capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        name, kind = line.split()[:2]
        if kind == 'U':
            undefined.add(name)
        elif kind.isupper():
            defined.add(name)
    return defined, undefined


def references(root, objects, extra=None):
    """(caller, callee, name) for every name one file refers to and another
    defines; extra: {caller: [name]} more references, as if made."""
    defined_by, wanted = {}, {}
    for obj in sorted(objects.rglob('*.o')):
        source = object_source(root, objects, obj)
        if source is None:
            continue
        defined, undefined = symbols(obj)
        for name in defined:
            defined_by[name] = source
        wanted.setdefault(source, set()).update(undefined)
    for caller, names in (extra or {}).items():
        wanted.setdefault(pathlib.PurePosixPath(caller), set()).update(names)
    return [(caller, defined_by[name], name)
            for caller, names in sorted(wanted.items())
            for name in sorted(names)
            if name in defined_by and defined_by[name] != caller]


class Declarations:
    """Whether a header of the tree declares a name (outside comments)."""

    def __init__(self, root):
        self.root, self.texts = root, {}

    def __call__(self, header, name):
        if header not in self.texts:
            path = self.root / header
            self.texts[header] = (COMMENT.sub('', path.read_text(errors='replace'))
                                  if path.is_file() else '')
        return re.search(rf'\b{re.escape(name)}\b', self.texts[header]) is not None


def allowed(caller, callee, name, declares):
    """Whether the rule lets caller refer to name, which callee defines."""
    rule, layer = rule_for(caller), rule_for(callee)
    folder = callee.parent.as_posix()
    if rule is None or folder == caller.parent.as_posix():
        return True	# a file without a rule is the include check's to report
    if name in ENTRY.get(rule, ()):
        return True
    own = IMPLEMENTS.get(rule, set())
    for allowance in RULES[rule]:
        if isinstance(allowance, tuple):
            headers = {pathlib.PurePosixPath(allowance[0], h) for h in allowance[1]} - own
            if folder == allowance[0] and any(declares(h, name) for h in headers):
                return True
        elif folder == allowance:
            return True
    return any(declares(h, name) for h in IMPLEMENTS.get(layer, ()) if allows(rule, h))


def violations(root, refs):
    """A line for each reference the rule does not allow."""
    declares = Declarations(root)
    return [f'{caller} refers to {name} of {callee}: the rule of {rule_for(caller)} does not allow it'
            for caller, callee, name in refs
            if not allowed(caller, callee, name, declares)]


def circles(refs):
    """The files that refer to each other in a circle: each strongly
    connected component of more than one file (Tarjan), as text."""
    graph = {}
    for caller, callee, _ in refs:
        graph.setdefault(caller, set()).add(callee)
        graph.setdefault(callee, set())
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph[node]):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [f"a circle of {len(c)} files: {', '.join(sorted(p.as_posix() for p in c))}"
            for c in found]

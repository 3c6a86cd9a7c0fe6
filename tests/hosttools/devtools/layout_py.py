"""The host side's layout rule (docs/design.md, "The host side"), read
from its import statements and its comparisons:

- Directions: each folder of tests/hosttools/ imports only the folders
  PACKAGES allows it (judge/ never imports boot/, the kinds never import
  the commands); the top-level modules (procs, tool_table) anyone.
- Kinds: outside targets/ (and the checks, which test it), no module
  compares a value with a kind's name or keys a dict by one: the registry
  (hosttools/targets/__init__.py, KINDS) is the one place that dispatches
  on a kind.
checks/layout.py holds the tree to both, and wants a deliberate violation
of each reported."""
import ast
import pathlib

# Folder -> the folders its modules may import. A folder always imports
# itself; the top-level modules are open to all.
PACKAGES = {
    'judge': [],
    'boot': ['judge'],
    'images': [],
    'lava': ['judge'],
    'targets': ['judge', 'boot', 'images', 'lava'],
    'report': ['judge'],
    'cli': ['judge', 'boot', 'images', 'lava', 'targets', 'report'],
    'devtools': ['judge', 'boot', 'report'],
    'checks': ['judge', 'boot', 'images', 'lava', 'targets', 'report', 'cli', 'devtools'],
}
# What the package's top offers every folder: its two modules and paths.
TOP_NAMES = {'procs', 'tool_table', 'ROOT', 'TESTS', 'SCRIPTS'}
# The folders free to name kinds: the registry, and the checks of it.
KIND_NAMERS = {'targets', 'checks'}
# This rule names them and the folders (lava/) that share their names.
EXEMPT = {'tests/hosttools/devtools/layout_py.py'}
# The names of kinds, and the words a kind's parameters use for them.
KIND_WORDS = {'qemu', 'qemu-pmu', 'bochs', 'nested', 'xen', 'vmm', 'lava',
              'crosvm', 'firecracker', 'cloud-hypervisor', 'own'}


def modules(root):
    """(path, its folder under hosttools/ or None for a top module) of
    every module of the package."""
    base = root / 'tests' / 'hosttools'
    for path in sorted(base.rglob('*.py')):
        rel = path.relative_to(base)
        yield path, rel.parts[0] if len(rel.parts) > 1 else None


def imported(tree, path, base):
    """The hosttools folders (or top modules) path's import lines name."""
    here = path.relative_to(base).parts[:-1]
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = list(here[:len(here) - node.level + 1]) + \
                    (node.module.split('.') if node.module else [])
                alias = [a.name for a in node.names]
                names += [parts[0]] if parts else alias
            elif node.module and node.module.split('.')[0] == 'hosttools':
                parts = node.module.split('.')[1:]
                names += [parts[0]] if parts else [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            names += [a.name.split('.')[1] for a in node.names
                      if a.name.startswith('hosttools.')]
    return names


def direction_problems(root, extra=None):
    """Each import that goes against PACKAGES; extra: {path: [names]} of
    imports to add, as if a module made them."""
    base = root / 'tests' / 'hosttools'
    problems = []
    for path, folder in modules(root):
        if folder is None:
            continue
        rel = path.relative_to(root)
        names = imported(ast.parse(path.read_text(), str(rel)), path, base)
        names += (extra or {}).get(rel.as_posix(), [])
        if folder not in PACKAGES:
            problems.append(f'{rel}: its folder {folder}/ has no rule in PACKAGES')
            continue
        for name in names:
            if name == folder or name in TOP_NAMES:
                continue
            if name not in PACKAGES[folder]:
                problems.append(f'{rel} imports {name}/: {folder}/ may import '
                                f'{", ".join(PACKAGES[folder]) or "none of the folders"}')
    return problems


def kind_names(tree):
    """(line, word) of each comparison with a kind's name and each dict
    keyed by one."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            values = [node.left] + node.comparators
        elif isinstance(node, ast.Dict):
            values = [k for k in node.keys if k is not None]
        else:
            continue
        for v in values:
            for c in ast.walk(v):
                if isinstance(c, ast.Constant) and c.value in KIND_WORDS:
                    found.append((node.lineno, c.value))
    return found


def kind_problems(root, extra=None):
    """Each comparison with, or dict keyed by, a kind's name outside
    KIND_NAMERS; extra: {path: source} of modules to add."""
    problems = []
    files = [(p.relative_to(root).as_posix(), p.read_text(), folder)
             for p, folder in modules(root)]
    files += [(rel, text, pathlib.PurePosixPath(rel).parts[2])
              for rel, text in (extra or {}).items()]
    for rel, text, folder in files:
        if folder in KIND_NAMERS or rel in EXEMPT:
            continue
        for line, word in kind_names(ast.parse(text, rel)):
            problems.append(f'{rel}:{line} names the kind {word!r}: ask the '
                            'target\'s kind (hosttools/targets/) instead')
    return problems

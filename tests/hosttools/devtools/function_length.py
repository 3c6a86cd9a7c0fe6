"""The host Python in small pieces (issue 38): no function or method of
the host tools longer than LIMIT lines, its decorators, docstring and
comments included. A longer one is split by job."""
import ast

LIMIT = 60

# The host programs that have no .py suffix.
SCRIPTS = ('tests/run', 'tests/lava-judge')


def host_python(root):
    """Every host Python file of the tree: tests/, scripts/, and the
    suffixless programs."""
    for folder in ('tests', 'scripts'):
        yield from sorted((root / folder).rglob('*.py'))
    for name in SCRIPTS:
        yield root / name


def long_functions(text, name='<text>', limit=LIMIT):
    """'FILE:LINE NAME is N lines' for each function over limit lines (a
    file that does not parse is one problem, not a traceback)."""
    try:
        tree = ast.parse(text, name)
    except SyntaxError as e:
        return [f'{name}:{e.lineno} cannot be read as Python: {e.msg}']
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = node.end_lineno - node.lineno + 1
            if lines > limit:
                found.append(f'{name}:{node.lineno} {node.name} is {lines} '
                             f'lines, over {limit}')
    return found


def tree_problems(root):
    problems = []
    for path in host_python(root):
        problems += long_functions(path.read_text(), str(path.relative_to(root)))
    return problems

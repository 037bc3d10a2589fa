"""A Python program's first lines that make numba (and llvmlite) impossible to import, so a
command run after them takes the paths an install without the ``fast`` extra takes."""

BLOCK = '''
import sys
class NoNumba:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("numba", "llvmlite"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, NoNumba())
'''

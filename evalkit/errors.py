"""The one error type evalkit raises for bad input.

Every reader and validator raises :class:`InputError`.  Its message names where
the problem is (a file and line, or a parameter), what is wrong, and what to do,
so that a user never has to read a traceback to fix their data.
"""

from __future__ import annotations

from os import PathLike

__all__ = ["InputError", "ParameterError", "NotebookError", "EvalkitNote"]


class InputError(ValueError):
    """Bad input data: a malformed file, an inconsistent record, a bad value.

    Attributes
    ----------
    path, line:
        Where the problem is (``line`` is 1-based; either may be ``None``).
    problem:
        What is wrong, in one sentence.
    hint:
        What the user can do about it (may be empty).
    """

    def __init__(
        self,
        problem: str,
        *,
        path: str | PathLike | None = None,
        line: int | None = None,
        hint: str = "",
    ) -> None:
        self.path = None if path is None else str(path)
        self.line = line
        self.problem = problem
        self.hint = hint
        where = ""
        if self.path is not None:
            where = self.path + (f", line {line}" if line is not None else "")
            where += ": "
        message = where + problem
        if hint:
            message += f" ({hint})"
        super().__init__(message)


class ParameterError(InputError):
    """A parameter out of its documented range; the message names it."""

    def __init__(self, name: str, value: object, expected: str) -> None:
        super().__init__(
            f"parameter {name} = {value!r} is invalid: expected {expected}"
        )
        self.name = name
        self.value = value
        self.expected = expected


class NotebookError(RuntimeError):
    """A notebook stopped with an error; the message names the notebook, the cell and the error.

    Attributes: ``notebook`` (its name), ``cell`` (execution count of the
    failing cell, or ``None``), ``error`` (the exception's name), ``detail``
    (its message) and ``log`` (the worker's captured output, a path).
    """

    def __init__(self, notebook: str, cell: int | None, error: str, detail: str,
                 log: str | PathLike | None = None) -> None:
        self.notebook, self.cell, self.error, self.detail = notebook, cell, error, detail
        self.log = None if log is None else str(log)
        where = f"cell {cell}" if cell is not None else "before any cell ran"
        message = f"notebook {notebook} failed in {where}: {error}: {detail}"
        if self.log:
            message += f" (full output: {self.log})"
        super().__init__(message)


class EvalkitNote(UserWarning):
    """What a command says on stderr (topics left out, unjudged documents, how the gains
    were made), raised as a Python warning when the Python API is called from outside
    evalkit, so that a notebook shows it (:func:`evalkit.evaluate.notes.show_notes`)."""

"""Command line: ``evalkit reproduce``, ``sweep``, ``score``, ``compare``, ``assessors``,
``agreement``, ``simulate``, ``data fetch``.

The same work as ``make reproduce``, for people not using make.  ``score``,
``compare``, ``assessors`` and ``agreement`` need only the library; every other command
imports the workspace (papermill, Dask, ...) when it runs, never before.  Their
messages name options as the command line spells them (:func:`as_typed`), and a
negative value such as ``--grades -2:3`` reaches argparse as ``--grades=-2:3``.
"""

from __future__ import annotations

import argparse
import sys
import textwrap

from ..errors import InputError


#: What ``evalkit --help`` prints above the commands: plain text, wrapped here so that
#: a package name is never broken at its hyphen.
DESCRIPTION = textwrap.fill("Evaluation with several, disagreeing assessors. score, compare, assessors and "
               "agreement need only the library (pip install evalkit-assessors); reproduce, sweep, "
               "simulate and data need the workspace (pip install 'evalkit-assessors[workspace]', "
               "or make setup in the repository). evalkit COMMAND --help describes each.",
                            width=79, break_on_hyphens=False)


#: trec_eval's short options and what evalkit calls them (an unknown option's message names it).
TREC_EVAL_OPTIONS = {"-q": "--per-topic", "-c": "--missing zero (the default)",
                     "-m": "--measure", "-J": "--judged-only", "-M": "--depth",
                     "-l": "--rel-level", "-R": "--judgment-groups FILE (for -R qrels_jg)"}


def main(argv: list[str] | None = None) -> int:
    from ..evaluate.judges.options import negative_values

    argv = negative_values(sys.argv[1:] if argv is None else list(argv))   # --grades -2:3
    parser = argparse.ArgumentParser(prog="evalkit", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser("reproduce", help="simulate missing raw data and run every notebook")
    rep.add_argument("--only", nargs="+", metavar="NAME",
                     help="notebook names or paper folders (e.g. sakai2017)")
    rep.add_argument("--quick", action="store_true", help="small parameters (a smoke run)")
    rep.add_argument("--jobs", type=int, default=None, metavar="N",
                     help="notebooks run at once (default: cores, at most 2)")
    rep.add_argument("--verbose", action="store_true",
                     help="show each kernel's own output (papermill's cell log)")
    swp = sub.add_parser("sweep", help="run one notebook over a parameter grid (Dask tasks)")
    swp.add_argument("notebook", metavar="NOTEBOOK",
                     help="notebook name or paper folder (e.g. kim2010), or a named sweep "
                          "(sakai-p) that needs no --param and writes its summary to figures/sweeps/")
    swp.add_argument("--param", action="append", metavar="NAME=V1,V2,...",
                     help="values of one parameter (JSON values; lists in brackets); repeat for more")
    swp.add_argument("--quick", action="store_true", help="start from the notebook's quick parameters")
    swp.add_argument("--out", metavar="DIR", help="output folder (default build/sweeps/NOTEBOOK)")
    swp.add_argument("--scheduler", metavar="ADDRESS",
                     help="an existing Dask scheduler, e.g. tcp://10.0.0.5:8786 (default: a local cluster)")
    from ..evaluate import cli as evaluate_cli

    evaluate_cli.add_parsers(sub)
    sim = sub.add_parser("simulate", help="(re)write the default simulated raw data")
    sim.add_argument("--force", action="store_true", help="overwrite existing files")
    data = sub.add_parser("data", help="external public data sets")
    data_sub = data.add_subparsers(dest="data_command", required=True)
    fetch = data_sub.add_parser("fetch", help="download (or copy from a mirror) and verify")
    fetch.add_argument("names", nargs="*", metavar="NAME", help="data sets (default: all)")
    fetch.add_argument("--mirror", metavar="DIR",
                       help="copy from DIR laid out like data/external/ (or set EVALKIT_DATA_MIRROR)")
    data_sub.add_parser("list", help="list the registered data sets")
    args, extra = parser.parse_known_args(argv)
    options = [t for t in extra if t.startswith("-") and t != "-"]
    if options:
        # an option the command does not have: named, and nothing else (trec_eval's own
        # short options get their long name here)
        said = TREC_EVAL_OPTIONS.get(options[0].split("=")[0])
        print(f"evalkit {args.command}: unknown option {options[0]}"
              + (f" (trec_eval's {options[0]} is {said} here)" if said else ""), file=sys.stderr)
        return 2
    if extra and args.command in evaluate_cli.COMMANDS:
        # argparse takes positionals in one run, so a run file after an option (the usual
        # slip: several qrels after --ratings) is "unrecognized"; say what happened, in one line
        runs = getattr(args, "runs", None) or []
        taken = f" ({runs[0]} was taken as the first run file)" if runs else ""
        print(f"evalkit {args.command}: {' '.join(extra)} not understood: the run files go "
              f"together, after every option{taken}; --ratings takes one file, so give each "
              "judge's qrels with --judge NAME=FILE", file=sys.stderr)
        return 2
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")

    try:
        if args.command == "reproduce":
            from . import runner as rp

            outcomes = rp.reproduce(args.only, args.quick, args.jobs, args.verbose)
            if any(o.status != "ok" for o in outcomes):
                return 1
        elif args.command in evaluate_cli.COMMANDS:
            from ..formats._header import skipping_headers

            with skipping_headers(getattr(args, "skip_header", False)):   # runs too
                return evaluate_cli.run(args)
        elif args.command == "sweep":
            from .sweeps import engine as sw
            from .sweeps.recipes import RECIPES

            if args.notebook in RECIPES:
                for path in sw.run_recipe(args.notebook, args.out, scheduler=args.scheduler):
                    print(path)
                return 0
            if not args.param:
                parser.error("sweep: give at least one --param NAME=V1,V2,... (or a named sweep: "
                             + ", ".join(RECIPES) + ")")
            table = sw.sweep(args.notebook, [sw.parse_param(p) for p in args.param], args.out,
                             args.quick, args.scheduler)
            if (table["status"] != "ok").any():
                return 1
        elif args.command == "data":
            from .. import data as d

            if args.data_command == "list":
                for e in d.REGISTRY.values():
                    state = "installed" if d.available(e.name) else "missing"
                    print(f"{e.name:24} {state:9} {e.size:>9} B  {e.description}")
            else:
                for name, path in d.fetch(args.names or None, args.mirror).items():
                    print(f"{name}: {path} (sha256 verified)")
        elif args.command == "simulate":
            from . import runner as rp

            written = rp.ensure_raw_data(force=args.force)
            print(f"wrote {len(written)} files" if written else
                  "raw data already present (use --force to rewrite)")
    except InputError as exc:
        if args.command in evaluate_cli.COMMANDS:         # options as the command line spells them
            exc = as_typed(exc, sub.choices[args.command], args)
        print(f"evalkit: {exc}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:
        if args.command in evaluate_cli.COMMANDS or exc.name is None or exc.name.startswith("evalkit"):
            raise
        print(f"evalkit {args.command}: needs the workspace ({exc.name} is not installed); "
              "install it with pip install 'evalkit-assessors[workspace]' (or make setup)", file=sys.stderr)
        return 2
    return 0


def as_typed(exc: InputError, parser: argparse.ArgumentParser, args) -> str:
    """The message of ``exc`` as the command line spells things: a
    :class:`~evalkit.errors.ParameterError` about an option of ``parser`` that the user gave
    (``parameter grades = '3:1' is invalid``) names the option and the value as typed
    (``--grades 3:1 is invalid``); any other message is left as it is."""
    from ..errors import ParameterError

    if not isinstance(exc, ParameterError) or getattr(exc, "verbatim", False):
        return str(exc)                # verbatim: a message already written for the user
    option = "--" + str(exc.name).replace("_", "-")
    action = next((a for a in parser._actions if option in a.option_strings), None)
    typed = None if action is None else getattr(args, action.dest, None)
    if typed is None:                  # not an option given: not the user's to fix there
        return str(exc)
    value = typed if isinstance(typed, str) else exc.value
    shown = value if isinstance(value, str) else repr(value)
    return f"{option} {shown} is invalid: expected {exc.expected}"


def entry() -> None:
    """The ``evalkit`` console script and ``python -m evalkit.workspace.cli``: :func:`main`,
    then the process ends with its exit code.

    After ``score``, ``compare``, ``assessors``, ``agreement`` or ``estimate`` has loaded
    numba (the compiled reader of large files), the process ends as soon as its output is
    flushed and the ``atexit`` handlers have run, without the interpreter's teardown: freeing
    the LLVM objects of numba's machine code took about 0.35 s at exit (20 TREC-scale runs
    under ``all_trec``: 3.2 s -> 2.9 s; ``benchmarks/README.md``).  Nothing is left undone:
    every output file is closed where it is written, and the reading threads are joined.
    ``main`` itself returns as before (tests and notebooks call it)."""
    code = main()
    from ..evaluate.cli import COMMANDS

    if "numba" in sys.modules and len(sys.argv) > 1 and sys.argv[1] in COMMANDS:
        import atexit
        import os

        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):          # a reader gone (head), or closed
                code = code or 120                # as Python itself exits then
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    entry()

"""What ``evalkit --help`` and each command's ``--help`` print: plain text, every option
described, no pointer to a file the wheel does not carry, one --trials default."""

import argparse
import subprocess
import sys

import pytest

from evalkit.evaluate import cli as evaluate_cli
from evalkit.evaluate.command_inputs import TRIALS
from evalkit.workspace import cli


class _Parsed(Exception):
    def __init__(self, parser):
        self.parser = parser


def _parser(monkeypatch) -> argparse.ArgumentParser:
    """The parser ``evalkit`` builds, caught before it parses anything."""
    def catch(self, args=None, namespace=None):
        raise _Parsed(self)

    monkeypatch.setattr(argparse.ArgumentParser, "parse_known_args", catch)  # parse_args calls it
    with pytest.raises(_Parsed) as caught:
        cli.main([])
    return caught.value.parser


def _commands(parser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield name, sub
                for inner, subsub in _commands(sub):
                    yield f"{name} {inner}", subsub


def test_every_option_of_every_command_has_help(monkeypatch):
    parser = _parser(monkeypatch)
    missing = [f"{name} {action.option_strings or action.dest}"
               for name, sub in _commands(parser) for action in sub._actions
               if not isinstance(action, argparse._SubParsersAction) and not action.help]
    assert missing == []
    assert {name for name, _ in _commands(parser)} >= set(evaluate_cli.COMMANDS)


def test_one_trials_default(monkeypatch):
    parser = _parser(monkeypatch)
    defaults = {name: action.default for name, sub in _commands(parser)
                for action in sub._actions if "--trials" in action.option_strings}
    assert defaults == {"compare": TRIALS, "assessors": TRIALS, "agreement": TRIALS,
                        "estimate": TRIALS}
    assert TRIALS == 5000          # Sakai (EVIA 2017, sec. 5): B = 5000


@pytest.mark.integration
@pytest.mark.parametrize("command", [[], ["score"], ["compare"], ["assessors"], ["agreement"],
                                     ["estimate"]])
def test_help_is_plain_text_that_points_at_nothing_missing(command):
    code = "import sys; from evalkit.workspace.cli import main; sys.exit(main(sys.argv[1:]))"
    run = subprocess.run([sys.executable, "-c", code, *command, "--help"], capture_output=True,
                         text=True, check=True)
    text = run.stdout
    for markup in ("``", "::", ":mod:", ":func:", "docs/", ".md"):
        assert markup not in text, (command, markup)
    if not command:
        assert "score, compare, assessors and agreement need only the library" in " ".join(text.split())
        assert "'evalkit-assessors[workspace]'" in text
    if command == ["compare"]:
        for shape in ("trec_eval", "ir_measures", "pyterrier", "wide", "pytrec_eval", "--rename"):
            assert shape in text

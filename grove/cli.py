"""The `grove` command line: thin click commands over the public API in `grove.api`.

This module holds the click group, `main` (the `grove` entry point); each command lives in
`grove.commands`, one module per command or family, and is registered here. Every command turns
`DiagnosticError` into printed diagnostics and an exit code (`grove.commands.common`), so no
input, good or bad, ends in a traceback. A command's result goes to stdout; diagnostics, logs and
progress go to stderr (as JSON lines with `--json` or `lint --format json`).
"""

from __future__ import annotations

import _thread
import sys
import threading
import time
from types import FrameType
from typing import Any

import click

from grove import __version__
from grove.commands.cards import cards
from grove.commands.common import EXIT_INTERRUPTED, EXIT_USAGE, print_diagnostics
from grove.commands.editions import editions
from grove.commands.examples import examples
from grove.commands.export import export
from grove.commands.find import find
from grove.commands.lint import lint
from grove.commands.lsp import lsp
from grove.commands.migrate import migrate
from grove.commands.new import new
from grove.commands.play import play, replay
from grove.commands.print import print_cards
from grove.commands.score import score
from grove.commands.serve import serve
from grove.commands.sheet import sheet
from grove.commands.simulate import compare, simulate
from grove.dsl.diagnostics import Diagnostic, Severity, echo_text


class _Group(click.Group):
    """click reports a bad option itself, as text. With `--json` (or `--format json`) on the
    command line a program reads stderr as JSON lines, so there the error comes as one, with
    the same exit code (2)."""

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        previous = sys.unraisablehook
        sys.unraisablehook = _redeliver_interrupt
        argv = list(sys.argv[1:] if args is None else args)
        try:
            if not standalone_mode:
                return super().main(args, prog_name, complete_var, False, **extra)
            # click in its own standalone mode would turn a Ctrl-C outside the command's work
            # (its options read, or the work done and the process ending) into "Aborted!" and
            # exit 1; here every interrupt is the one message, exit 130
            try:
                code = super().main(args, prog_name, complete_var, False, **extra)
            except click.Abort as exc:
                if isinstance(exc.__cause__, EOFError):  # input closed at a prompt: click's word
                    click.echo("Aborted!", err=True)
                    sys.exit(1)
                _interrupted(_json_in(argv))
            except KeyboardInterrupt:
                _interrupted(_json_in(argv))
            except click.ClickException as exc:
                exc.show()
                sys.exit(exc.exit_code)
            sys.exit(code if isinstance(code, int) else 0)
        except KeyboardInterrupt:  # one landing while the above ends
            _interrupted(_json_in(argv))
        finally:
            sys.unraisablehook = previous

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["grove.argv"] = list(args)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            _interrupted(_json_asked(ctx))
        except RuntimeError as exc:
            # a Ctrl-C while a command imports a module: Python 3.11 wraps one that lands in a
            # class's making (dataclasses' __set_name__) in a RuntimeError (a CI run's traceback)
            if not isinstance(exc.__cause__, KeyboardInterrupt):
                raise
            _interrupted(_json_asked(ctx))
        except click.UsageError as exc:
            if not _json_asked(ctx):
                # click echoes the option or value it refuses: escaped and cut like any input
                message = echo_text(exc.format_message())
                exc.format_message = lambda: message  # type: ignore[method-assign]
                raise
            where = exc.ctx.command_path if exc.ctx else "grove"
            print_diagnostics([Diagnostic("USAGE-BAD-OPTION", Severity.ERROR, None,
                                          exc.format_message(), f"{where} --help")], "json")
            sys.exit(EXIT_USAGE)


def _json_asked(ctx: click.Context) -> bool:
    """Whether the command line asks for JSON (`--json`, `--format json`): stderr is then read
    as JSON lines."""
    return _json_in(ctx.meta.get("grove.argv", []))


def _json_in(argv: list[str]) -> bool:
    pairs = set(zip(argv, argv[1:], strict=False))
    return "--json" in argv or ("--format", "json") in pairs or "--format=json" in argv


def _interrupted(json: bool) -> None:
    """An interrupt said as one and exit 130, the code the table gives it (as the shell gives a
    command SIGINT ended), where click would print "Aborted!" and exit 1, the code of findings."""
    print_diagnostics([Diagnostic(
        "INTERRUPTED", Severity.ERROR, None,
        "stopped by an interrupt (Ctrl-C) before the command was done",
        "every file grove writes lands whole or not at all: a file or folder it was "
        "writing is as it was")], "json" if json else "text")
    sys.exit(EXIT_INTERRUPTED)


def _redeliver_interrupt(unraisable: Any) -> None:
    """A Ctrl-C that lands in a finalizer (`__del__`, a weakref callback) is printed as
    "Exception ignored" and lost: the command goes on as if no key were pressed. Deliver it
    again once this hook has returned (raised inside the hook, it would be lost the same way),
    to the code that runs next, where the command's own handling stops cleanly."""
    if unraisable.exc_type is not KeyboardInterrupt:
        sys.__unraisablehook__(unraisable)
        return
    threading.Thread(target=_interrupt_after, args=(sys._getframe(),), daemon=True).start()


def _interrupt_after(hook: FrameType) -> None:
    main = threading.main_thread().ident
    while True:
        frame = sys._current_frames().get(main or 0)
        while frame is not None and frame is not hook:
            frame = frame.f_back
        if frame is None:
            break
        time.sleep(0.001)
    _thread.interrupt_main()


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, prog_name="grove")
def main() -> None:
    """grove: card database and rules toolchain for the Forest Shuffle family."""


main.add_command(editions)
main.add_command(cards)
main.add_command(find)
main.add_command(export)
main.add_command(lint)
main.add_command(score)
main.add_command(play)
main.add_command(replay)
main.add_command(sheet)
main.add_command(print_cards)
main.add_command(new)
main.add_command(examples)
main.add_command(lsp)
main.add_command(migrate)
main.add_command(simulate)
main.add_command(compare)
main.add_command(serve)

"""The `streamopt` command as click defines it: `--help` (with the passes), usage errors, and
every spelling of the options in `streamopt.opt_command.OPTIONS` that click accepts.

`streamopt.opt_command.main` comes here only for command lines `plain_invocation` does not read.
"""

from __future__ import annotations

from typing import Any

import click

from streamopt.opt_command import OPTIONS, Invocation, pass_flags, pipeline_passes, run


class _PassFlagCommand(click.Command):
    """A click command that lists the registered passes in `--help`."""

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_help(ctx, formatter)
        rows = [(f"--{flag}", summary) for flag, summary in pass_flags().items()]
        with formatter.section("Passes (run in the order given)"):
            formatter.write_dl(rows)


def _pipeline(ctx: click.Context) -> list[str]:
    """The pass flags of the command line read so far, in order."""
    pipeline: list[str] = ctx.ensure_object(dict).setdefault("pipeline", [])
    return pipeline


def _append_pass(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        assert param.name is not None
        _pipeline(ctx).append(param.name.replace("_", "-"))


def _append_pipeline(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if not value:
        return
    try:
        _pipeline(ctx).extend(pipeline_passes(value))
    except ValueError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


def _options(function: Any) -> Any:
    """`function` with the command's options, pass flags last (click lists decorators'
    options from the innermost out, so they are applied in reverse)."""
    for flag, summary in reversed(list(pass_flags().items())):
        function = click.option(
            f"--{flag}",
            is_flag=True,
            expose_value=False,
            callback=_append_pass,
            help=summary,
            # Listed once, in the "Passes" section of --help.
            hidden=True,
        )(function)
    for option in reversed(OPTIONS):
        if option.attribute == "pipeline":
            decorator = click.option(
                *option.spellings,
                metavar=option.metavar,
                expose_value=False,
                callback=_append_pipeline,
                help=option.help,
            )
        elif option.metavar is not None:
            decorator = click.option(
                *option.spellings,
                option.attribute,
                default="-",
                metavar=option.metavar,
                help=option.help,
            )
        else:
            decorator = click.option(
                *option.spellings, option.attribute, is_flag=True, help=option.help
            )
        function = decorator(function)
    return function


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    # Imported when first needed: start-up time.
    from streamopt import IREE_VERSION, __version__

    click.echo(f"streamopt {__version__}")
    click.echo(f"  reads and prints the IR of IREE {IREE_VERSION} (iree-opt, iree-compile)")
    ctx.exit(0)


def _list_passes(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    flags = pass_flags()
    width = max(len(flag) for flag in flags) + 2
    for flag, summary in flags.items():
        click.echo(f"  --{flag:<{width}} {summary}")
    ctx.exit(0)


@click.command(cls=_PassFlagCommand, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("input_file", default="-", metavar="[INPUT|-]", type=click.Path(allow_dash=True))
@_options
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Print streamopt's version and the IREE version whose IR it reads, and exit.",
)
@click.option(
    "--list-passes",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_list_passes,
    help="List every pass with its summary, and exit.",
)
@click.pass_context
def command(ctx: click.Context, /, **params: Any) -> None:
    """Parse stream/hal IR, run the given passes in order, and print the result."""
    ctx.exit(run(Invocation(pipeline=_pipeline(ctx), **params)))

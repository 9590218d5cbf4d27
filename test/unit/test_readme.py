"""Every command the README shows runs as shown, and its output is what the README says.

The README's blocks are read by their language: `sh` lines are commands, `console` blocks are
`$ command` lines followed by the output they print (`...` skips lines, a line ending in ` ...`
is a prefix), `pycon` blocks are doctests, the `python` block is a lit.cfg.py, and the `text`
block is the command's synopsis. The two commands at the top install into a fresh virtualenv:
the first is run from a wheel of this tree installed on its own, the second is what `.ci/run`
runs (the whole suite, which this file is part of).
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
TEXT = README.read_text()
BLOCKS: list[tuple[str, str]] = re.findall(r"^```(\w*)\n(.*?)^```$", TEXT, re.M | re.S)
BIN = Path(sys.executable).parent
VENV_AND_INSTALL = "python3 -m venv .venv && . .venv/bin/activate && pip install "


def blocks(language: str) -> list[str]:
    return [body for lang, body in BLOCKS if lang == language]


def sh_commands() -> list[str]:
    """The commands of the `sh` blocks after the two at the top, one per line."""
    return [line for body in blocks("sh")[2:] for line in body.splitlines() if line.strip()]


def console_examples() -> list[tuple[str, list[str]]]:
    """Each `$ command` of the `console` blocks with the output lines shown after it."""
    examples: list[tuple[str, list[str]]] = []
    for body in blocks("console"):
        for line in body.splitlines():
            if line.startswith("$ "):
                examples.append((line[2:], []))
            else:
                examples[-1][1].append(line)
    return examples


def run_shell(command: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`command` run by bash in the repository's root, with this environment's tools first on
    PATH (where the README's commands find them after `. .venv/bin/activate`)."""
    environment = dict(env if env is not None else os.environ)
    environment["PATH"] = os.pathsep.join([str(BIN), environment.get("PATH", "")])
    environment.pop("COLUMNS", None)
    return subprocess.run(
        ["bash", "-c", command],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def shows(expected: list[str], actual: list[str]) -> str | None:
    """Why `actual` does not show `expected` (see the module docstring), or None."""
    position = 0
    skipping = False
    for line in expected:
        if line == "...":
            skipping = True
            continue
        prefix = line[:-4] if line.endswith(" ...") else None

        def matches(candidate: str, line: str = line, prefix: str | None = prefix) -> bool:
            return candidate.startswith(prefix) if prefix is not None else candidate == line

        if skipping:
            while position < len(actual) and not matches(actual[position]):
                position += 1
        if position >= len(actual) or not matches(actual[position]):
            return f"expected {line!r} at output line {position + 1}"
        position += 1
        skipping = False
    if not skipping and position != len(actual):
        return f"output goes on after the README's last line: {actual[position]!r}"
    return None


def test_the_readme_is_short() -> None:
    assert len(TEXT.splitlines()) <= 210


def test_the_readme_starts_with_the_two_commands() -> None:
    assert TEXT.startswith("# streamopt\n\n```sh\n")
    first, second = (body.strip() for body in blocks("sh")[:2])
    assert first.startswith(VENV_AND_INSTALL + ". && streamopt examples/")
    assert second == VENV_AND_INSTALL + "-e '.[test]' && pytest"
    assert "[fast]" not in TEXT


def test_the_first_command_runs_from_an_installed_wheel(tmp_path: Path) -> None:
    """`pip install .` then the command: the wheel of this tree, installed on its own (its
    dependencies are this environment's), runs the README's example."""
    first = blocks("sh")[0].strip()
    command = first.split(" && ")[-1]
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)],
        check=True,
        capture_output=True,
    )
    target = tmp_path / "installed"
    wheel = next(wheels.glob("streamopt-*.whl"))
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
         str(wheel)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(target))
    env["PATH"] = os.pathsep.join([str(target / "bin"), str(BIN), env.get("PATH", "")])
    # Outside the tree, as the console script runs (its own folder first on sys.path), the
    # package is the installed one, not the tree's.
    where = subprocess.run(
        [sys.executable, "-c", "import streamopt; print(streamopt.__file__)"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert where.stdout.startswith(str(target)), where.stdout + where.stderr
    assert (target / "bin" / "streamopt").is_file()
    result = subprocess.run(
        ["bash", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("stream.async.move") == 2


def test_the_second_command_is_what_ci_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert "python3 -m venv .venv" in ci and ". .venv/bin/activate" in ci
    install = next(line for line in ci if line.startswith("pip install"))
    assert shlex.split(install) == ["pip", "install", "--quiet", "-e", ".[test]"]
    assert ci[-1] == "pytest"


def test_every_pip_install_names_extras_that_exist() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    section = pyproject.split("[project.optional-dependencies]\n", 1)[1].split("\n[", 1)[0]
    extras = set(re.findall(r"^(\w+) = \[", section, re.M))
    assert {"test", "dev"} <= extras
    installs = re.findall(r"pip install (?:-e )?'?\.\[([\w,]+)\]'?", TEXT)
    assert installs
    for names in installs:
        assert set(names.split(",")) <= extras, names


@pytest.mark.parametrize("command", sh_commands())
def test_each_shell_command_runs(command: str) -> None:
    if command == "pytest":
        return  # The whole suite: the second command at the top, which .ci/run runs.
    if command.startswith("pip install"):
        return  # See test_every_pip_install_names_extras_that_exist and the two at the top.
    result = run_shell(command)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]


def test_the_shell_commands_are_there() -> None:
    commands = sh_commands()
    assert "lit examples/lit-suite" in commands
    assert any(re.fullmatch(r"pytest test/unit/\S+::\w+", c) for c in commands)
    assert any(re.fullmatch(r"lit test/lit/\S+\.mlir", c) for c in commands)


@pytest.mark.parametrize(("command", "expected"), console_examples())
def test_each_console_example_prints_what_the_readme_shows(
    command: str, expected: list[str]
) -> None:
    result = run_shell(command)
    assert result.returncode == 0, result.stderr
    # The statistics go to stderr, after the IR on stdout, as a terminal shows them.
    actual = (result.stdout + result.stderr).splitlines()
    problem = shows(expected, actual)
    assert problem is None, problem + "\n" + "\n".join(actual[-60:])


def test_the_pycon_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    examples = "\n".join(blocks("pycon"))
    assert examples
    test = doctest.DocTestParser().get_doctest(examples, {}, "README", str(README), 0)
    runner = doctest.DocTestRunner()
    failures: list[str] = []
    runner.run(test, out=failures.append)
    assert runner.failures == 0, "".join(failures)


def test_the_lit_cfg_snippet_configures_a_suite() -> None:
    (snippet,) = blocks("python")

    class Config:
        test_format: object = None
        suffixes: set[str] = set()
        environment: dict[str, str] = {}
        substitutions: list[tuple[str, str]] = []
        available_features: set[str] = set()
        name = ""

    config = Config()
    exec(compile(snippet, "README lit.cfg.py", "exec"), {"config": config})
    assert config.name == "my-suite"
    names = {pattern for pattern, _ in config.substitutions}
    assert {"%streamopt", "%streamopt-run", "%filecheck"} <= names


def test_the_synopsis_names_real_options() -> None:
    (synopsis,) = blocks("text")
    helped = run_shell("streamopt --help")
    assert helped.returncode == 0
    for option in re.findall(r"--[\w-]+|-o\b", synopsis):
        if option in ("--pass-pipeline", "-o") or option.startswith("--<"):
            continue
        assert option in helped.stdout, option


def test_the_links_lead_somewhere() -> None:
    for target in re.findall(r"\]\(([^)#]+)\)", TEXT):
        assert (ROOT / target).exists(), target


def test_the_readme_has_a_users_sections() -> None:
    headings = re.findall(r"^##+ (.+)$", TEXT, re.M)
    for heading in (
        "Install",
        "Quick start",
        "Passes",
        "The command line",
        "Differences from mlir-opt and iree-opt",
        "Running programs",
        "The IREE backend",
        "Python API",
        "In your own lit suite",
        "Storage model",
        "Testing",
    ):
        assert heading in headings, heading
    assert "Python 3.10" in TEXT and "100 MB" in TEXT


def test_contributing_says_how_to_work_on_streamopt() -> None:
    contributing = (ROOT / "CONTRIBUTING.md").read_text()
    for needed in (".[test,dev]", "ruff check", "ruff format --check", "mypy", "PASS_INDEX",
                   "@register_pass", "test/lit/passes/"):  # fmt: skip
        assert needed in contributing, needed


def test_the_license_is_the_one_pyproject_names() -> None:
    license_text = (ROOT / "LICENSE").read_text()
    assert license_text.split()[:4] == ["Apache", "License", "Version", "2.0,"]
    assert 'license = { text = "Apache-2.0" }' in (ROOT / "pyproject.toml").read_text()

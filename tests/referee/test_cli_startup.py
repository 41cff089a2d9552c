"""``tabletop COMMAND`` imports that command's module alone (a `tabletop rocca analyze` of a
short clip spent a third of its time importing the kiosk's web server, the engines and the
devices); help, ``--version`` and a mistyped command still see every command."""

from __future__ import annotations

import subprocess
import sys

import pytest

from referee.cli import COMMANDS, main


@pytest.mark.parametrize("module", COMMANDS)
def test_each_command_is_found_by_its_own_module(module, capsys):
    """The one-module path finds every command: its module registers the command named as it."""
    name = module.rpartition(".")[2]
    with pytest.raises(SystemExit) as done:
        main([name, "--help"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: tabletop {name} ")


def test_rocca_starts_without_the_other_commands_modules():
    probe = ("import sys\nfrom referee.cli import main\n"
             "try:\n    main(['rocca', 'analyze', '--help'])\nexcept SystemExit:\n    pass\n"
             "print(' '.join(sorted(sys.modules)))")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True).stdout.split()
    assert "referee.commands.rocca" in loaded
    assert not [m for m in loaded if m.startswith(("referee.web", "referee.commands.kiosk", "engines"))]
    assert "importlib.metadata" not in loaded


def test_a_mistyped_command_is_refused_with_every_command_listed(capsys):
    with pytest.raises(SystemExit) as done:
        main(["roca", "analyze"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'roca'" in err and "'rocca'" in err and "'kiosk'" in err

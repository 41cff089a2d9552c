"""install.sh and uninstall.sh: a dry run changes nothing, a second run changes nothing more."""

import hashlib
import os
from pathlib import Path

from .conftest import install, uninstall


def tree(root: Path) -> dict[str, str]:
    """Every path under root with its kind, mode and content (or link target)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath, name)
            rel = str(p.relative_to(root))
            if p.is_symlink():
                out[rel] = "-> " + os.readlink(p)
            elif p.is_dir():
                out[rel] = f"dir {oct(p.stat().st_mode & 0o7777)}"
            else:
                out[rel] = f"file {oct(p.stat().st_mode & 0o7777)} {hashlib.sha256(p.read_bytes()).hexdigest()}"
    return out


def test_dry_run_into_a_root_prints_every_step_and_changes_nothing(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    done = install("--root", root, "--dry-run")
    assert tree(root) == {}
    out = done.stdout
    for step in ("would install: /etc/systemd/system/tabletop-referee.service",
                 "would install: /etc/udev/rules.d/99-tabletop-panels.rules",
                 "would install: /etc/xdg/autostart/tabletop-bigscreen.desktop",
                 "would install: /etc/tabletop/table.toml",
                 f"would run: systemd-sysusers --root={root} tabletop.conf",
                 f"would run: python3 -m venv --system-site-packages {root}/opt/tabletop/venv",
                 f"would run: systemctl --root={root} enable tabletop-referee.service"):
        assert step in out, out
    assert out.rstrip().endswith("dry run: nothing was changed")


def test_dry_run_on_the_live_system_lists_the_service_steps(tmp_path):
    done = install("--dry-run", "--prefix", tmp_path / "opt")
    for step in ("would run: systemctl daemon-reload", "would run: systemctl enable tabletop-referee.service",
                 "would run: udevadm control --reload"):
        assert step in done.stdout
    assert not (tmp_path / "opt").exists()


def test_installing_twice_gives_the_same_tree_and_changes_nothing_the_second_time(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    first = install("--root", root, "--no-venv")
    after_first = tree(root)
    second = install("--root", root, "--no-venv")
    assert tree(root) == after_first
    assert "installed:" in first.stdout and "installed:" not in second.stdout
    assert second.stdout.rstrip().endswith("done (files changed: 0)")
    assert "etc/systemd/system/multi-user.target.wants/tabletop-referee.service" in after_first
    passwd = (root / "etc/passwd").read_text()
    (user,) = [line for line in passwd.splitlines() if line.startswith("tabletop:")]
    assert user.split(":")[5:] == ["/var/lib/tabletop", "/usr/sbin/nologin"]


def test_the_table_config_is_installed_once_and_never_overwritten(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    mine = tmp_path / "mine.toml"
    mine.write_text((Path(__file__).parents[2] / "docs/examples/kiosk.toml").read_text())
    install("--root", root, "--no-venv", "--config", mine)
    config = root / "etc/tabletop/table.toml"
    config.write_text(config.read_text() + "\n# edited at the table\n")
    again = install("--root", root, "--no-venv", "--config", mine)
    assert "kept: /etc/tabletop/table.toml" in again.stdout
    assert config.read_text().endswith("# edited at the table\n")


def test_bad_arguments_get_a_clear_message(tmp_path):
    done = install("--root", tmp_path / "missing", check=False)
    assert done.returncode == 1 and "--root" in done.stderr and "is not a directory" in done.stderr
    done = install("--prefix", "relative/dir", "--dry-run", check=False)
    assert done.returncode == 1 and "absolute path" in done.stderr
    done = install("--config", tmp_path / "none.toml", "--dry-run", check=False)
    assert done.returncode == 1 and "no such file" in done.stderr


def test_uninstall_keeps_the_journal_unless_purged_and_is_safe_twice(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    install("--root", root, "--no-venv")
    journal = root / "var/lib/tabletop/journal.sqlite"
    journal.parent.mkdir(parents=True)
    journal.write_bytes(b"the night's games")
    dry = uninstall("--root", root, "--dry-run")
    assert "would run: rm -f" in dry.stdout and (root / "etc/systemd/system/tabletop-referee.service").exists()
    uninstall("--root", root)
    for gone in ("etc/systemd/system/tabletop-referee.service", "etc/udev/rules.d/99-tabletop-panels.rules",
                 "etc/xdg/autostart/tabletop-bigscreen.desktop", "opt/tabletop",
                 "etc/systemd/system/multi-user.target.wants/tabletop-referee.service"):
        assert not (root / gone).exists(), gone
    assert journal.read_bytes() == b"the night's games" and (root / "etc/tabletop/table.toml").exists()
    again = uninstall("--root", root)
    assert "absent: /etc/systemd/system/tabletop-referee.service" in again.stdout
    uninstall("--root", root, "--purge")
    assert not journal.exists() and not (root / "etc/tabletop").exists()


def test_uninstall_removes_only_what_the_manifest_names_even_with_prefix_usr(tmp_path):
    """`--prefix /usr` once meant `rm -rf /usr`: now only the installer's own files go."""
    root = tmp_path / "root"
    (root / "usr/bin").mkdir(parents=True)
    (root / "usr/bin/python3").write_text("the system's own")
    install("--root", root, "--no-venv", "--prefix", "/usr")
    manifest = (root / "etc/tabletop/install-manifest").read_text().splitlines()
    assert manifest[0] == "prefix /usr" and "file /usr/share/doc/kiosk.md" in manifest
    assert "dir /usr" not in manifest and "dir /usr/share" in manifest
    done = uninstall("--root", root, "--prefix", "/usr")
    assert (root / "usr/bin/python3").read_text() == "the system's own"
    assert not (root / "usr/share").exists(), "the folders the installer made are gone once empty"
    assert "rm -rf" not in done.stdout, "no folder is removed whole, only files and empty folders"


def test_uninstall_without_a_manifest_or_with_another_prefix_removes_nothing(tmp_path):
    root = tmp_path / "root"
    (root / "opt/tabletop/venv").mkdir(parents=True)
    before = tree(root)
    done = uninstall("--root", root, check=False)
    assert done.returncode == 1 and "no /etc/tabletop/install-manifest" in done.stderr
    assert "nothing is removed" in done.stderr and tree(root) == before
    install("--root", root, "--no-venv")
    before = tree(root)
    done = uninstall("--root", root, "--prefix", "/usr", check=False)
    assert done.returncode == 1 and "put the program in /opt/tabletop, not there" in done.stderr
    assert tree(root) == before


def test_a_damaged_manifest_stops_the_uninstall_before_anything_goes(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    install("--root", root, "--no-venv")
    manifest = root / "etc/tabletop/install-manifest"
    for bad, says in (("tree /usr", "refusing to remove the top-level folder /usr"),
                      ("file /etc/../usr", "is not a plain path"),
                      ("file relative/path", "is not an absolute path"),
                      ("wipe /", "unknown entry")):
        good = manifest.read_text()
        manifest.write_text(good + bad + "\n")
        before = tree(root)
        done = uninstall("--root", root, check=False)
        assert done.returncode == 1 and says in done.stderr, done.stderr
        assert tree(root) == before
        manifest.write_text(good)


def test_the_table_config_holding_the_admin_pin_is_0640_root_tabletop(tmp_path):
    """The admin PIN is in table.toml: the service's group may read it, other accounts may not."""
    root = tmp_path / "root"
    root.mkdir()
    install("--root", root, "--no-venv")
    config = root / "etc/tabletop/table.toml"
    groups = dict(line.split(":")[0:3:2] for line in (root / "etc/group").read_text().splitlines())
    st = config.stat()
    assert oct(st.st_mode & 0o777) == "0o640"
    if os.getuid() == 0:  # only root can hand a file to another group; the Pi's install is root's
        assert (st.st_uid, st.st_gid) == (0, int(groups["tabletop"]))
    config.chmod(0o644)  # as an installer before this one left it
    again = install("--root", root, "--no-venv")
    assert oct(config.stat().st_mode & 0o777) == "0o640" and "run: chmod 0640" in again.stdout

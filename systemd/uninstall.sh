#!/bin/sh
# Remove the Tabletop Companion kiosk installed by install.sh.
#
#   sudo systemd/uninstall.sh [--prefix /opt/tabletop] [--root DIR] [--purge] [--dry-run]
#
# The journal in /var/lib/tabletop (every game and the nights' results) and the table config
# in /etc/tabletop are kept unless --purge is given. The tabletop account is kept (systemd's
# convention: a user id is never handed out again while files may still carry it).
set -eu

PREFIX=/opt/tabletop
ROOT=
DRY_RUN=0
PURGE=0
UNIT=tabletop-referee.service

die() { echo "uninstall.sh: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; PREFIX=$2; shift 2 ;;
        --root) [ $# -ge 2 ] || die "--root needs a directory"; ROOT=$2; shift 2 ;;
        --purge) PURGE=1; shift ;;
        --dry-run) DRY_RUN=1; shift ;;
        -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
        *) die "unknown argument $1 (try --help)" ;;
    esac
done
case "$PREFIX" in /*) ;; *) die "--prefix must be an absolute path, not $PREFIX" ;; esac
[ "$PREFIX" != / ] || die "--prefix / would remove everything"
if [ -n "$ROOT" ]; then
    [ -d "$ROOT" ] || die "--root $ROOT is not a directory"
fi
if [ "$DRY_RUN" = 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    die "run as root (sudo), or with --dry-run to see what it would do"
fi

run() {
    if [ "$DRY_RUN" = 1 ]; then echo "would run: $*"; else echo "run: $*"; "$@"; fi
}

gone() {
    if [ -e "$ROOT$1" ] || [ -L "$ROOT$1" ]; then run rm -rf "$ROOT$1"; else echo "absent: $1"; fi
}

if [ -n "$ROOT" ]; then
    if [ -f "$ROOT/etc/systemd/system/$UNIT" ]; then run systemctl --root="$ROOT" disable "$UNIT"; fi
elif [ -f "/etc/systemd/system/$UNIT" ]; then
    run systemctl disable --now "$UNIT"
fi
gone "/etc/systemd/system/$UNIT"
gone /etc/udev/rules.d/99-tabletop-panels.rules
gone /etc/xdg/autostart/tabletop-bigscreen.desktop
gone /etc/sysusers.d/tabletop.conf
gone "$PREFIX"
if [ "$PURGE" = 1 ]; then
    gone /var/lib/tabletop
    gone /etc/tabletop
else
    echo "kept: /var/lib/tabletop (the journal) and /etc/tabletop (the table config); --purge removes them"
fi
if [ -z "$ROOT" ]; then
    run systemctl daemon-reload
    run udevadm control --reload
fi
[ "$DRY_RUN" = 1 ] && echo "dry run: nothing was changed" || echo "done"

#!/bin/sh
# Install the Tabletop Companion referee as a game-night kiosk on Raspberry Pi OS.
# Safe to run again (an upgrade is the same command). See docs/kiosk.md.
#
#   sudo systemd/install.sh [--config TABLE.toml] [--prefix /opt/tabletop] [--root DIR]
#                           [--no-venv] [--room] [--dry-run]
#
# --root DIR   install into DIR as if it were / (an image being prepared, or a test): files,
#              the account (systemd-sysusers --root) and the enablement (systemctl --root);
#              nothing running is touched.
# --dry-run    print every step, change nothing.
# --no-venv    leave PREFIX/venv alone (it is managed some other way).
# --room       also install the league's room screen (tabletop-room.service, its settings in
#              /etc/tabletop/room.env); see docs/league.md.
#
# Every file and folder it puts in place is written to the manifest /etc/tabletop/install-manifest,
# which is all that uninstall.sh removes.
set -eu

PREFIX=/opt/tabletop
ROOT=
CONFIG=
DRY_RUN=0
VENV=1
ROOM=0
SRC=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)

die() { echo "install.sh: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; PREFIX=$2; shift 2 ;;
        --root) [ $# -ge 2 ] || die "--root needs a directory"; ROOT=$2; shift 2 ;;
        --config) [ $# -ge 2 ] || die "--config needs a file"; CONFIG=$2; shift 2 ;;
        --no-venv) VENV=0; shift ;;
        --room) ROOM=1; shift ;;
        --dry-run) DRY_RUN=1; shift ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        *) die "unknown argument $1 (try --help)" ;;
    esac
done
case "$PREFIX" in /*) ;; *) die "--prefix must be an absolute path, not $PREFIX" ;; esac
case "$PREFIX" in *[[:space:]#]*) die "--prefix must not contain spaces or '#': $PREFIX" ;; esac
[ "$PREFIX" != / ] || die "--prefix / would mix the program into the system's own folders"
if [ -n "$ROOT" ]; then
    [ -d "$ROOT" ] || die "--root $ROOT is not a directory"
    ROOT=$(CDPATH= cd -- "$ROOT" && pwd)
fi
if [ -n "$CONFIG" ] && [ ! -f "$CONFIG" ]; then die "--config $CONFIG: no such file"; fi
if [ "$DRY_RUN" = 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    die "run as root (sudo), or with --dry-run to see what it would do"
fi

CONFDIR=/etc/tabletop
MANIFEST=$CONFDIR/install-manifest
UNIT=tabletop-referee.service
CHANGED=0
NOTED=$(mktemp)  # this run's manifest lines: KIND PATH
trap 'rm -f "$NOTED"' EXIT

# note KIND PATH: file (installed), tree (a folder the installer manages whole: the venv),
# dir (a folder it created: removed only when empty), config (the table's own: --purge only)
note() { echo "$1 $2" >> "$NOTED"; }

# note_dirs PATH: the folders above PATH that do not exist yet, outermost first
note_dirs() {
    d=$(dirname -- "$1")
    missing=
    while [ ! -d "$ROOT$d" ]; do missing="$d $missing"; d=$(dirname -- "$d"); done
    for m in $missing; do note dir "$m"; done
}

run() {
    if [ "$DRY_RUN" = 1 ]; then echo "would run: $*"; else echo "run: $*"; "$@"; fi
}

# put SRC DEST MODE: render @PREFIX@/@CONFIG@ into ROOT/DEST, only if it differs
put() {
    dest="$ROOT$2"
    tmp=$(mktemp)
    sed -e "s#@PREFIX@#$PREFIX#g" -e "s#@CONFIG@#$CONFDIR/table.toml#g" "$1" > "$tmp"
    note_dirs "$2"
    note "${4:-file}" "$2"
    if [ -f "$dest" ] && cmp -s "$tmp" "$dest"; then
        echo "unchanged: $2"
    elif [ "$DRY_RUN" = 1 ]; then
        echo "would install: $2 (mode $3)"
    else
        install -D -m "$3" "$tmp" "$dest"
        echo "installed: $2"
        CHANGED=$((CHANGED + 1))
    fi
    rm -f "$tmp"
}

# 1. the account and its groups (gpio, i2c, spi, dialout, video)
put "$SRC/systemd/tabletop.sysusers" /etc/sysusers.d/tabletop.conf 0644
if [ -n "$ROOT" ]; then
    run systemd-sysusers --root="$ROOT" tabletop.conf
else
    run systemd-sysusers tabletop.conf
fi

# 2. the program: a venv that also sees Raspberry Pi OS's picamera2 (python3-picamera2)
if [ "$VENV" = 1 ]; then
    note_dirs "$PREFIX/venv"
    note tree "$PREFIX/venv"
    [ -x "$ROOT$PREFIX/venv/bin/python" ] || run python3 -m venv --system-site-packages "$ROOT$PREFIX/venv"
    run "$ROOT$PREFIX/venv/bin/python" -m pip install --quiet --upgrade "$SRC"
fi
put "$SRC/docs/kiosk.md" "$PREFIX/share/doc/kiosk.md" 0644

# 3. the table config: never overwritten (it is the table's own); an example the first time.
#    It holds the admin PIN: readable by root and the tabletop group only (0640 root:tabletop).
GID=$(awk -F: '$1 == "tabletop" { print $3 }' "$ROOT/etc/group" 2>/dev/null || true)

# secret FILE: a settings file with a PIN or password, 0640 root:tabletop
secret() {
    if [ -f "$ROOT$1" ] && [ -n "$GID" ] && [ "$(stat -c %a:%u:%g "$ROOT$1")" != "640:0:$GID" ]; then
        if [ "$(id -u)" = 0 ]; then
            run chown "0:$GID" "$ROOT$1"
        else  # only with --root: the owner is set when the image is installed as root
            echo "not root: $1 keeps its owner (root:tabletop when installed by root)"
        fi
        run chmod 0640 "$ROOT$1"
        CHANGED=$((CHANGED + 1))
    elif [ -z "$GID" ]; then
        echo "would set: $1 to 0640 root:tabletop (once the account exists)"
    fi
}

# keep_or_put SRC DEST: the table's own settings are never overwritten; an example the first time
keep_or_put() {
    if [ -f "$ROOT$2" ]; then
        echo "kept: $2"
        note config "$2"
    else
        put "$1" "$2" 0640 config
    fi
    secret "$2"
}
keep_or_put "${CONFIG:-$SRC/docs/examples/kiosk.toml}" "$CONFDIR/table.toml"

# 4. the service, the panels' udev rule, the big screen's autostart entry
put "$SRC/systemd/tabletop-referee.service.in" "/etc/systemd/system/$UNIT" 0644
put "$SRC/systemd/99-tabletop-panels.rules" /etc/udev/rules.d/99-tabletop-panels.rules 0644
put "$SRC/systemd/tabletop-bigscreen.desktop.in" /etc/xdg/autostart/tabletop-bigscreen.desktop 0644
UNITS=$UNIT
if [ "$ROOM" = 1 ]; then  # the league's room screen: its unit, its settings, its docs
    put "$SRC/systemd/tabletop-room.service.in" /etc/systemd/system/tabletop-room.service 0644
    put "$SRC/docs/league.md" "$PREFIX/share/doc/league.md" 0644
    keep_or_put "$SRC/docs/examples/room.env" "$CONFDIR/room.env"
    UNITS="$UNITS tabletop-room.service"
fi

# 4b. the manifest: what this run and every earlier one put in place, for uninstall.sh
if [ "$DRY_RUN" = 1 ]; then
    echo "would write: $MANIFEST"
else
    tmp=$(mktemp)
    { echo "prefix $PREFIX"; [ -f "$ROOT$MANIFEST" ] && grep -v '^prefix ' "$ROOT$MANIFEST"
      cat "$NOTED"; } | awk '!seen[$0]++' > "$tmp"
    if [ -f "$ROOT$MANIFEST" ] && cmp -s "$tmp" "$ROOT$MANIFEST"; then
        echo "unchanged: $MANIFEST"
    else
        install -D -m 0644 "$tmp" "$ROOT$MANIFEST"
        echo "installed: $MANIFEST"
        CHANGED=$((CHANGED + 1))
    fi
    rm -f "$tmp"
fi

# 5. switch it on
if [ -n "$ROOT" ]; then
    for u in $UNITS; do
        [ -L "$ROOT/etc/systemd/system/multi-user.target.wants/$u" ] && echo "enabled: $u" \
            || run systemctl --root="$ROOT" enable "$u"
    done
else
    if command -v raspi-config >/dev/null 2>&1; then
        run raspi-config nonint do_i2c 0   # 0 means: enable
        run raspi-config nonint do_spi 0
    fi
    run udevadm control --reload
    run udevadm trigger --subsystem-match=tty --action=add
    run systemctl daemon-reload
    for u in $UNITS; do
        run systemctl enable "$u"
        run systemctl restart "$u"
    done
fi
[ "$DRY_RUN" = 1 ] && echo "dry run: nothing was changed" || echo "done (files changed: $CHANGED)"

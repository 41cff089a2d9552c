for u in $UNIT tabletop-room.service; do
    if [ -n "$ROOT" ]; then
        if [ -f "$ROOT/etc/systemd/system/$u" ]; then run systemctl --root="$ROOT" disable "$u"; fi
    elif [ -f "/etc/systemd/system/$u" ]; then
        run systemctl disable --now "$u"
    fi
done

#!/bin/sh
# Remove the Tabletop Companion kiosk installed by install.sh.
#
#   sudo systemd/uninstall.sh [--prefix /opt/tabletop] [--root DIR] [--purge] [--dry-run]
#
# Only what install.sh wrote into its manifest (/etc/tabletop/install-manifest) is removed, and
# the folders it created once they are empty; without a manifest nothing is removed. --prefix,
# if given, must be the one the manifest names. The journal in /var/lib/tabletop (every game
# and the nights' results) and the table config in /etc/tabletop (with the manifest) are kept
# unless --purge is given. The tabletop account is kept (systemd's convention: a user id is
# never handed out again while files may still carry it).
set -eu

PREFIX=
ROOT=
DRY_RUN=0
PURGE=0
UNIT=tabletop-referee.service
MANIFEST=/etc/tabletop/install-manifest

die() { echo "uninstall.sh: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; PREFIX=$2; shift 2 ;;
        --root) [ $# -ge 2 ] || die "--root needs a directory"; ROOT=$2; shift 2 ;;
        --purge) PURGE=1; shift ;;
        --dry-run) DRY_RUN=1; shift ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) die "unknown argument $1 (try --help)" ;;
    esac
done
if [ -n "$ROOT" ]; then
    [ -d "$ROOT" ] || die "--root $ROOT is not a directory"
fi
[ -f "$ROOT$MANIFEST" ] || die "no $MANIFEST: nothing here was installed by install.sh (or by one \
older than the manifest), so nothing is removed"
INSTALLED=$(sed -n 's/^prefix //p' "$ROOT$MANIFEST" | head -n 1)
if [ -n "$PREFIX" ] && [ "$PREFIX" != "$INSTALLED" ]; then
    die "--prefix $PREFIX: install.sh put the program in ${INSTALLED:-?}, not there; nothing removed"
fi
if [ "$DRY_RUN" = 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    die "run as root (sudo), or with --dry-run to see what it would do"
fi

# Every path must be absolute and plain before anything is removed: a damaged manifest stops here.
while read -r kind path; do
    case "$kind" in prefix|file|tree|dir|config) ;; *) die "$MANIFEST: unknown entry '$kind $path'" ;; esac
    case "$path" in /?*) ;; *) die "$MANIFEST: '$path' is not an absolute path" ;; esac
    case "$path" in */../*|*/..|*/./*|*/.|*//*) die "$MANIFEST: '$path' is not a plain path" ;; esac
    if [ "$kind" = tree ]; then
        case "$path" in /*/*) ;; *) die "$MANIFEST: refusing to remove the top-level folder $path" ;; esac
    fi
done < "$ROOT$MANIFEST"

run() {
    if [ "$DRY_RUN" = 1 ]; then echo "would run: $*"; else echo "run: $*"; "$@"; fi
}

gone() {
    if [ -e "$ROOT$1" ] || [ -L "$ROOT$1" ]; then run rm -rf "$ROOT$1"; else echo "absent: $1"; fi
}

# gone_file PATH: a file install.sh put; a folder found there instead is not its to remove
gone_file() {
    if [ -d "$ROOT$1" ] && [ ! -L "$ROOT$1" ]; then echo "kept: $1 (a folder now, not the file install.sh put)"
    elif [ -e "$ROOT$1" ] || [ -L "$ROOT$1" ]; then run rm -f "$ROOT$1"
    else echo "absent: $1"; fi
}

if [ -n "$ROOT" ]; then
    if [ -f "$ROOT/etc/systemd/system/$UNIT" ]; then run systemctl --root="$ROOT" disable "$UNIT"; fi
elif [ -f "/etc/systemd/system/$UNIT" ]; then
    run systemctl disable --now "$UNIT"
fi

while read -r kind path; do
    case "$kind" in
        file) gone_file "$path" ;;
        tree) gone "$path" ;;
        config) if [ "$PURGE" = 1 ]; then gone_file "$path"; else echo "kept: $path (the table's settings)"; fi ;;
    esac
done < "$ROOT$MANIFEST"
if [ "$PURGE" = 1 ]; then
    gone /var/lib/tabletop
    gone /var/lib/tabletop-room
    DIRS=$(sed -n 's/^dir //p' "$ROOT$MANIFEST" | sort -r -u)
    gone "$MANIFEST"
else
    DIRS=$(sed -n 's/^dir //p' "$ROOT$MANIFEST" | sort -r -u)
    echo "kept: /var/lib/tabletop (the journal) and $MANIFEST; --purge removes them"
fi
# the folders install.sh created, deepest first, each only once nothing is left in it
for d in $DIRS; do
    if [ -d "$ROOT$d" ] && [ -z "$(ls -A "$ROOT$d")" ]; then
        run rmdir "$ROOT$d"
    elif [ -d "$ROOT$d" ]; then
        echo "kept: $d (not empty)"
    fi
done
if [ -z "$ROOT" ]; then
    run systemctl daemon-reload
    run udevadm control --reload
fi
[ "$DRY_RUN" = 1 ] && echo "dry run: nothing was changed" || echo "done"

#!/bin/sh
# A nightly SharePoint job (docs/cli.md, "Recipe: a nightly job"): exports lists to CSV and mirrors a library.
#
# Settings come from the environment, so the same script serves a systemd unit, a cron line and a test:
#   SPCONNECT_NIGHTLY_OUT      the folder the exports and the mirror go to (required)
#   SPCONNECT_NIGHTLY_LISTS    the lists to export, separated by spaces (default: Tasks)
#   SPCONNECT_NIGHTLY_LIBRARY  the library to mirror (default: none)
#   SPCONNECT                  the spconnect binary (default: spconnect on PATH)
#   SPCONNECT_PROFILE, SPCONNECT_PASSWORD_FILE, SPCONNECT_PASSWORD_COMMAND ...: as for every spconnect command.
#
# Each export replaces yesterday's file only when tonight's succeeded (--out); the mirror fetches only what changed
# since the last good night (--incremental, SharePoint's change log), removes what was deleted in SharePoint
# (--delete, only files spconnect wrote) and waits for a run that is still going (--wait).
# The mirror's report (one JSON line per file: downloaded, deleted, refused ...) and one line per step go to
# standard output (the journal under systemd, the log file under cron); the script exits
# with the first failing step's code, so the timer or cron can alert on any non-zero status.
set -u

out=${SPCONNECT_NIGHTLY_OUT:?set SPCONNECT_NIGHTLY_OUT to the folder the exports go to}
spconnect=${SPCONNECT:-spconnect}
status=0

step() {
    "$@"
    code=$?
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) exit $code: $*"
    if [ "$code" -ne 0 ] && [ "$status" -eq 0 ]; then status=$code; fi
}

mkdir -p "$out" || exit 1
for list in ${SPCONNECT_NIGHTLY_LISTS:-Tasks}; do
    step "$spconnect" items "$list" --all --out "$out/$list.csv" --quiet
done
if [ -n "${SPCONNECT_NIGHTLY_LIBRARY:-}" ]; then
    # The library's change log: the first night (or after SharePoint's log forgot the token) is a full run, the
    # next ones fetch only what changed; the token is kept beside the mirror, replaced only after a good run.
    step "$spconnect" download -r "$SPCONNECT_NIGHTLY_LIBRARY" --to "$out/mirror" --delete --wait 600 \
        --incremental "$out/mirror.token" -o ndjson --quiet
fi
exit "$status"

#!/usr/bin/env bash
# Records which of spconnect's functions a sign-in and a few everyday commands run, into
# Tools/link-order/hot-functions.txt. scripts/install.sh hands that file to the linker (lld's
# --symbol-ordering-file), which places those functions side by side at the start of the program's code, so a
# run maps in a few hundred kilobytes of code rather than pages spread over 19 MB (decision 0032).
#
#   Tools/link-order/record.sh        run it again after changes that move much code (a stale list only costs memory)
#
# Needs valgrind (apt install valgrind): callgrind names every function that runs, even once, which sampling would
# miss. Each scenario runs against spsim on loopback (release build), in a state folder of its own.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v swift >/dev/null || export PATH="/opt/swift/usr/bin:$PATH"
command -v valgrind >/dev/null || { echo "record.sh: needs valgrind (apt install valgrind)" >&2; exit 1; }
command -v strip >/dev/null || { echo "record.sh: needs binutils' strip (apt install binutils)" >&2; exit 1; }

work="$(mktemp -d)"
simulator_pid=""
cleanup() {
    if [ -n "$simulator_pid" ]; then kill "$simulator_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

echo "record.sh: building spconnect as scripts/install.sh does, with a link map, and spsim" >&2
. scripts/installed-build.sh
"${installed_build[@]}" --product spconnect -Xlinker "-Map=$work/link.map" >/dev/null
# valgrind 3.19 cannot read the DWARF 5 debug information; the symbol table is all callgrind needs.
strip --strip-debug -o "$work/spconnect" "$("${installed_build[@]}" --show-bin-path)/spconnect"
swift build -c release --product spsim >/dev/null
spsim="$(swift build -c release --show-bin-path)/spsim"

printf 'Spring2026!\n' >"$work/password"
chmod 600 "$work/password"
run=0
traced() { # traced ARGS...: one spconnect run under callgrind, in the current scenario's state folder
    run=$((run + 1))
    XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/state" HOME="$work/state" \
        SPCONNECT_PASSWORD_FILE="$work/password" valgrind --tool=callgrind --demangle=no \
        --callgrind-out-file="$work/run-$(printf %03d "$run").callgrind" "$work/spconnect" "$@" \
        >/dev/null 2>"$work/last.err" || {
        echo "record.sh: 'spconnect $*' failed:" >&2
        grep -v '^==' "$work/last.err" >&2 || true
        exit 1
    }
}

traced --version
for mode in adfs fba entra basic; do
    rm -rf "$work/state" && mkdir -m 700 "$work/state"
    "$spsim" --mode "$mode" --items 50 >"$work/site" 2>/dev/null </dev/null &
    simulator_pid=$!
    for _ in $(seq 100); do [ -s "$work/site" ] && break; sleep 0.1; done
    site="$(head -n 1 "$work/site")"
    [ -n "$site" ] || { echo "record.sh: spsim --mode $mode did not start" >&2; exit 1; }
    echo "record.sh: $mode at $site" >&2
    traced login --site "$site" --user alice@contoso.test --password-file "$work/password" --allow-http-loopback
    traced whoami
    traced lists
    traced items Big --top 10
    kill "$simulator_pid" && wait "$simulator_pid" 2>/dev/null || true
    simulator_pid=""
done
# A sign-in over TLS (spsim's own certificate, trusted with --cacert): the certificate and TLS paths.
rm -rf "$work/state" && mkdir -m 700 "$work/state"
"$spsim" --mode adfs --tls >"$work/site" 2>"$work/spsim.err" </dev/null &
simulator_pid=$!
for _ in $(seq 100); do [ -s "$work/site" ] && grep -q 'certificate written to' "$work/spsim.err" && break; sleep 0.1; done
site="$(head -n 1 "$work/site")"
certificate="$(sed -n 's/^spsim: certificate written to //p' "$work/spsim.err" | head -n 1)"
[ -n "$site" ] && [ -f "$certificate" ] || { echo "record.sh: spsim --tls did not start" >&2; exit 1; }
echo "record.sh: adfs over TLS at $site" >&2
traced login --site "$site" --user alice@contoso.test --password-file "$work/password" --cacert "$certificate"
traced whoami --cacert "$certificate"
kill "$simulator_pid" && wait "$simulator_pid" 2>/dev/null || true
simulator_pid=""
# The engine's reading of pages it has never seen: every captured page of the shared corpus, when it is there.
corpus=../shared/corpus/idp
if [ -d "$corpus" ]; then
    for page in "$corpus"/*.htm*; do traced inspect "$page" --url https://login.example.test/; done
fi

python3 Tools/link-order/callgrind_functions.py --map "$work/link.map" spconnect "$work"/run-*.callgrind \
    >"$work/hot-functions.txt"
mv "$work/hot-functions.txt" Tools/link-order/hot-functions.txt
echo "record.sh: $(wc -l <Tools/link-order/hot-functions.txt) functions in Tools/link-order/hot-functions.txt ($run runs)" >&2

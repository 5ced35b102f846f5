#!/bin/sh
# Many sites in parallel (docs/cli.md, "Recipe: many sites"): every site collection the profile's user can see is
# exported into a folder of its own, a few sites at a time, with GNU parallel (Debian: apt install parallel).
#
#   many-sites.sh OUT          export every site `spconnect sites` lists into OUT/<site>/
#   many-sites.sh --one URL OUT  export one site (what each parallel job runs; also handy by hand)
#
# Settings come from the environment, as for the nightly job:
#   SPCONNECT_SITES_FROM     a file of site URLs, one per line, to export instead of every site `spconnect sites`
#                            lists (a fixed set, or a list made earlier: spconnect sites --urls --out FILE)
#   SPCONNECT_SITES_JOBS     sites exported at once (default: 4)
#   SPCONNECT_SITES_LISTS    lists to export from each site, separated by spaces (default: Tasks); a site
#                            without one of them is said in the log and is not a failure
#   SPCONNECT_SITES_LIBRARY  the library to mirror from each site (default: "Shared Documents"; empty: none)
#   SPCONNECT                the spconnect binary (default: spconnect on PATH)
#   SPCONNECT_PROFILE, SPCONNECT_PASSWORD_FILE, SPCONNECT_PASSWORD_COMMAND ...: as for every spconnect command.
#
# All jobs use one profile: a session that ends is renewed once, under the profile's lock, while the other jobs
# wait for it; a 429 or 503 answered to one job pauses them all for the time SharePoint asked (the profile's
# shared back-off). Each site's folder is named after its path (/sites/hr -> sites_hr, the root site -> root).
# Each job's messages come together when it ends, each line tagged with its site's URL. OUT/jobs.log is GNU
# parallel's job log (one line per site with its exit code); the script exits 0 when every site went through, else
# with the number of sites that failed (GNU parallel's rule, at most 101).
set -u

spconnect=${SPCONNECT:-spconnect}

if [ "${1:-}" = "--one" ]; then
    url=${2:?usage: many-sites.sh --one URL OUT}
    out=${3:?usage: many-sites.sh --one URL OUT}
    name=$(printf '%s' "$url" | sed -e 's|^[A-Za-z]*://[^/]*||' -e 's|^/*||' -e 's|/*$||' -e 's|/|_|g')
    dir="$out/${name:-root}"
    mkdir -p "$dir" || exit 1
    status=0
    for list in ${SPCONNECT_SITES_LISTS:-Tasks}; do
        "$spconnect" items "$list" --all --site "$url" --out "$dir/$list.csv" --quiet
        code=$?
        if [ "$code" -eq 8 ]; then
            echo "$url: no list '$list' (skipped)"
        elif [ "$code" -ne 0 ]; then
            echo "$url: items $list: exit $code"
            [ "$status" -eq 0 ] && status=$code
        fi
    done
    library=${SPCONNECT_SITES_LIBRARY-Shared Documents}
    if [ -n "$library" ]; then
        "$spconnect" download -r "$library" --site "$url" --to "$dir/documents" --delete --wait 600 --quiet
        code=$?
        if [ "$code" -ne 0 ]; then
            echo "$url: download $library: exit $code"
            [ "$status" -eq 0 ] && status=$code
        fi
    fi
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $url: exit $status"
    exit "$status"
fi

out=${1:?usage: many-sites.sh OUT}
command -v parallel >/dev/null 2>&1 || { echo "many-sites.sh: GNU parallel is needed (apt install parallel)" >&2; exit 2; }
mkdir -p "$out" || exit 1
sites=${SPCONNECT_SITES_FROM:-$out/sites.txt}
if [ -z "${SPCONNECT_SITES_FROM:-}" ]; then
    "$spconnect" sites --urls --out "$sites" --quiet || exit $?
fi
parallel --will-cite --jobs "${SPCONNECT_SITES_JOBS:-4}" --joblog "$out/jobs.log" --tag \
    /bin/sh "$0" --one {} "$out" :::: "$sites"

# shellcheck shell=bash
# world-common.sh — what the live worlds' scripts (liveidp.sh, lemonmellon.sh, onprem.sh, passkeys.sh) share: messages, root, the package
# install with its policy-rc.d guard, state folders, the Apache master's PID, listening checks, PHP quoting.
# Sourced, never run; the sourcing script sets WORLD (its name in messages), PACKAGES and CANDIDATE (a package
# whose missing apt candidate means no package lists yet).

die() { echo "$WORLD: $*" >&2; exit 1; }
log() { echo "$WORLD: $*" >&2; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"
    elif command -v sudo >/dev/null 2>&1; then sudo "$@"
    else die "need root (or sudo) for: $*"
    fi
}

# Installs the PACKAGES that are missing (--no-install-recommends). No package lists yet (a fresh machine): fetched
# once first. A temporary policy-rc.d (exit 101) keeps the packages' maintainer scripts from starting the stock
# Apache on *:80, only when no such guard is there already.
#
# Worlds are installed one at a time: the test suites start them in parallel, and two apt-get runs at once lose
# dpkg's lock (exit 100). Every world's install takes the same flock (INSTALL_LOCK) first and looks for what is
# missing only once it holds it, so the second finds what the first installed; apt itself also waits for a lock
# held by anything else (DPkg::Lock::Timeout) instead of failing at once.
INSTALL_LOCK=${INSTALL_LOCK:-/tmp/spconnect-liveworlds-install.lock}
APT_LOCK_WAIT=(-o DPkg::Lock::Timeout=900)

cmd_install() {
    command -v flock >/dev/null 2>&1 || die "flock (util-linux) is needed to serialise installs"
    local lockfd
    exec {lockfd}>>"$INSTALL_LOCK" || die "cannot open the install lock $INSTALL_LOCK"
    if ! flock -n "$lockfd"; then
        log "another world is installing; waiting for $INSTALL_LOCK"
        flock -w 1800 "$lockfd" || die "gave up waiting 30 minutes for $INSTALL_LOCK"
    fi
    install_missing_packages
    local status=$?
    exec {lockfd}>&-
    return $status
}

install_missing_packages() {
    local missing=() p
    for p in "${PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$p")
        fi
    done
    if [ ${#missing[@]} -eq 0 ]; then
        log "all packages present (${#PACKAGES[@]})"
        return 0
    fi
    log "installing: ${missing[*]}"
    if ! apt-cache policy "$CANDIDATE" 2>/dev/null | grep -q 'Candidate: [0-9]'; then
        as_root apt-get "${APT_LOCK_WAIT[@]}" update
    fi
    local guard=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        guard=/usr/sbin/policy-rc.d
        as_root sh -c "printf '#!/bin/sh\n# temporary, from $WORLD install\nexit 101\n' > /usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d"
        trap 'as_root rm -f /usr/sbin/policy-rc.d' EXIT
    fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get "${APT_LOCK_WAIT[@]}" install -y --no-install-recommends "${missing[@]}"
    if [ -n "$guard" ]; then as_root rm -f "$guard"; trap - EXIT; fi
}

# /etc/hosts blocks: a world's names between "$HOSTS_BEGIN DIR" and "$HOSTS_END DIR" lines (the sourcing script sets
# HOSTS, HOSTS_BEGIN and HOSTS_END), so two worlds on other ports never remove each other's names. Rewritten in place
# (/etc/hosts may be a bind mount), by one world at a time (HOSTS_LOCK).
HOSTS_LOCK=${HOSTS_LOCK:-/tmp/spconnect-liveworlds-hosts.lock}
hosts_locked() {  # hosts_locked CMD...
    local fd
    exec {fd}>>"$HOSTS_LOCK" || die "cannot open $HOSTS_LOCK"
    flock -w 60 "$fd" || die "gave up waiting for $HOSTS_LOCK"
    "$@"
    exec {fd}>&-
}
hosts_remove() { hosts_locked hosts_remove_unlocked "$@"; }   # hosts_remove DIR
hosts_add() { hosts_locked hosts_add_unlocked "$@"; }         # hosts_add DIR "ADDR NAME"...
hosts_remove_unlocked() {
    local dir=$1 kept
    grep -qxF "$HOSTS_BEGIN $dir" "$HOSTS" 2>/dev/null || return 0
    kept=$(awk -v b="$HOSTS_BEGIN $dir" -v e="$HOSTS_END $dir" '$0==b{skip=1;next} $0==e{skip=0;next} !skip' "$HOSTS")
    printf '%s\n' "$kept" | as_root tee "$HOSTS" >/dev/null
}
hosts_add_unlocked() {
    local dir=$1 entry
    shift
    hosts_remove_unlocked "$dir"
    { printf '%s\n' "$HOSTS_BEGIN $dir"; printf '%s\n' "$@"; printf '%s\n' "$HOSTS_END $dir"; } \
        | as_root tee -a "$HOSTS" >/dev/null
    for entry in "$@"; do
        getent hosts "${entry#* }" | grep -q "^${entry%% *} " \
            || die "${entry#* } does not resolve to ${entry%% *} (another block in $HOSTS?)"
    done
}

abspath() { mkdir -p "$1" && (cd "$1" && pwd -P); }   # creates DIR (start)
existing() { [ -d "$1" ] || die "no state directory $1"; (cd "$1" && pwd -P); }

load_env() {  # load_env DIR: the variables `start` recorded in DIR/$WORLD.env
    [ -f "$1/$WORLD.env" ] || die "$1/$WORLD.env not found (was the world started from $1?)"
    # shellcheck disable=SC1090
    . "$1/$WORLD.env"
}

apache_pid() {  # apache_pid DIR: the live master PID from DIR's pidfile, or nothing
    local pid
    [ -f "$1/run/httpd.pid" ] || return 0
    pid=$(cat "$1/run/httpd.pid" 2>/dev/null || true)
    case "$pid" in ''|*[!0-9]*) return 0 ;; esac
    if kill -0 "$pid" 2>/dev/null; then echo "$pid"; fi
}

check_addr() {
    [[ $1 =~ ^127\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}$ ]] || die "address $1 is not a 127.0.0.0/8 address"
}

bound() { ss -Hltn "src $1:$2" 2>/dev/null | grep -q .; }   # bound ADDR PORT: something listens on exactly that

php_q() { printf "%s" "$1" | sed "s/\\\\/\\\\\\\\/g; s/'/\\\\'/g"; }   # for '...' PHP strings

# ---------------------------------------------------------------- Python worlds' venv and processes
# For worlds that run Python servers (onprem.sh, passkeys.sh): the sourcing script sets VENV, PY_REQUIREMENTS, a
# venv_ok function, and WORLD_DIR_VAR (the variable spawn puts in each process's environment, set to DIR, by which
# stop knows the processes of its own world).

install_venv() {  # under the same lock as the packages: two installs must not build one venv at once
    local lockfd
    exec {lockfd}>>"$INSTALL_LOCK" || die "cannot open the install lock $INSTALL_LOCK"
    flock -w 1800 "$lockfd" || die "gave up waiting 30 minutes for $INSTALL_LOCK"
    if venv_ok; then
        log "venv present ($VENV)"
    else
        log "creating the venv $VENV: ${PY_REQUIREMENTS[*]}"
        rm -rf "$VENV"; mkdir -p "$(dirname "$VENV")"
        /usr/bin/python3 -m venv "$VENV" || die "python3 -m venv failed"
        "$VENV/bin/pip" install -q --disable-pip-version-check "${PY_REQUIREMENTS[@]}" || die "pip install failed"
        echo "${PY_REQUIREMENTS[*]}" > "$VENV/.requirements"
        venv_ok || die "the venv $VENV does not import what it should"
    fi
    exec {lockfd}>&-
}

alive() {  # alive PID: runs (a zombie is gone: the init here reaps orphans only every second or two)
    kill -0 "$1" 2>/dev/null || return 1
    ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null
}

of_world() {  # of_world PID: the process carries WORLD_DIR_VAR=DIR in its environment (set by spawn)
    { tr '\0' '\n' < "/proc/$1/environ"; } 2>/dev/null | grep -qxF "$WORLD_DIR_VAR=$DIR"
}

pid_of() {  # pid_of NAME -> the live PID in DIR/run/NAME.pid that belongs to DIR, or nothing
    local pid
    pid=$(cat "$DIR/run/$1.pid" 2>/dev/null || true)
    case "$pid" in ''|*[!0-9]*) return 0 ;; esac
    alive "$pid" && of_world "$pid" && echo "$pid"
    return 0
}

stop_pid() {  # stop_pid NAME: TERM the process of DIR/run/NAME.pid (KILL after 10 s), wait until gone
    local name=$1 pid
    pid=$(pid_of "$name")
    if [ -n "$pid" ]; then
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 100); do alive "$pid" || break; sleep 0.1; done
        if alive "$pid"; then
            log "$name ($pid) ignored TERM for 10s; sending KILL"; kill -KILL "$pid" 2>/dev/null || true; sleep 0.3
        fi
        log "stopped $name (pid $pid)"
    fi
    rm -f "$DIR/run/$name.pid"
}

# "${UNBLOCKED[@]}" CMD...: exec CMD with no signal blocked. A caller's blocked mask (a test runner's threads block
# most signals) is inherited, and a server started with it sits out stop's TERM until the KILL 10 s later.
# shellcheck disable=SC2016
UNBLOCKED=(perl -MPOSIX -e 'sigprocmask(SIG_SETMASK, POSIX::SigSet->new) or die; exec @ARGV or die "$ARGV[0]: $!\n"')

# spawn NAME CMD...: runs CMD detached (own session, no blocked signals, stdin /dev/null, output to
# DIR/logs/NAME.log), with WORLD_DIR_VAR=DIR in its environment (stop checks it), PID in DIR/run/NAME.pid.
spawn() {
    local name=$1; shift
    env "$WORLD_DIR_VAR=$DIR" setsid "${UNBLOCKED[@]}" "$@" < /dev/null >> "$DIR/logs/$name.log" 2>&1 &
    echo $! > "$DIR/run/$name.pid"
}

# make_server_certs LABEL CN SAN: a test CA (EC P-256) and one server certificate for CN with subjectAltName SAN
# (`DNS:…,IP:…`) in DIR/tls, the CA copied to DIR/ca.pem; kept while the names are the same and it is valid for
# another day. The keys are 0600.
make_server_certs() {
    local label=$1 cn=$2 san=$3 t="$DIR/tls" stamp="$2 $3"
    if [ -f "$t/stamp" ] && [ "$(cat "$t/stamp")" = "$stamp" ] \
        && openssl x509 -checkend 86400 -noout -in "$t/server.crt" >/dev/null 2>&1; then
        return 0   # same names, valid for another day: reuse
    fi
    rm -rf "$t"; mkdir -p "$t"
    (umask 077
     openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -sha256 -days 30 \
        -subj "/O=spconnect LiveIdP/CN=spconnect $label test CA" \
        -addext "basicConstraints=critical,CA:TRUE,pathlen:0" -addext "keyUsage=critical,keyCertSign,cRLSign" \
        -keyout "$t/ca.key" -out "$t/ca.crt" 2>/dev/null
     openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$t/server.key" 2>/dev/null
     printf '%s\n' "basicConstraints=critical,CA:FALSE" "keyUsage=critical,digitalSignature" \
        "extendedKeyUsage=serverAuth" "subjectAltName=$san" > "$t/server.ext"
     openssl req -new -key "$t/server.key" -sha256 -subj "/O=spconnect LiveIdP/CN=$cn" \
        -out "$t/server.csr" 2>/dev/null
     openssl x509 -req -sha256 -days 29 -in "$t/server.csr" -CA "$t/ca.crt" -CAkey "$t/ca.key" \
        -CAcreateserial -extfile "$t/server.ext" -out "$t/server.crt" 2>/dev/null
    )
    [ -s "$t/server.crt" ] || die "openssl made no server certificate"
    chmod 644 "$t"/*.crt
    cp "$t/ca.crt" "$DIR/ca.pem"; chmod 644 "$DIR/ca.pem"
    echo "$stamp" > "$t/stamp"
}

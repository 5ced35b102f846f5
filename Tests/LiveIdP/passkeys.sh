#!/usr/bin/env bash
# passkeys.sh — a passkey (WebAuthn) sign-in world of two real relying parties from PyPI, beside onprem.sh:
#   * django-allauth with its mfa app (Tests/LiveIdP/passkeys/allauth_site/): password sign-in, passkeys added
#     while signed in, passkey (username-less) sign-in; WebAuthn verified by python-fido2;
#   * Flask-Security-Too (Tests/LiveIdP/passkeys/fst_app.py): password sign-in, passkey registration while signed
#     in, passkey sign-in as a first factor; WebAuthn verified by py_webauthn.
# Each runs under gunicorn with TLS (python-fido2 takes http origins only for (*.)localhost), on 127.0.0.50
# (allauth) and 127.0.0.51 (Flask-Security-Too) only, with the user alice. Each appends one line per WebAuthn
# verification its library made to DIR/<app>-verifications.log (format: Tests/LiveIdP/passkeys/verification_log.py).
# The HTTP exchanges a client performs are in Tests/LiveIdP/passkeys/FLOWS.md.
#
#   passkeys.sh install        install the Debian packages that are missing and the Python venv
#   passkeys.sh start DIR      make the CA and certificate, secrets, password, databases under DIR, add the host
#                              names, start both (new databases each start: no passkey registered)
#   passkeys.sh stop DIR       stop everything started from DIR (by PID), remove the host names
#   passkeys.sh status DIR     say whether it runs and whether the endpoints answer
#   passkeys.sh env DIR        print the world's variables (shell syntax) for tests; no password, its file
#
# WebAuthn wants a host name as rpId: start adds allauth.passkeys.spconnect.test (-> 127.0.0.50) and
# fst.passkeys.spconnect.test (-> 127.0.0.51) to /etc/hosts between "# spconnect passkeys BEGIN DIR" and
# "... END DIR" lines (root needed); stop removes that block. Origins: https://NAME:PORT; rpId: NAME.
#
# Environment (read by `start`; recorded in DIR/passkeys.env):
#   PASSKEYS_PORT (23100)  base port: allauth = base, Flask-Security-Too = base+1
#   PASSKEYS_VENV (<repo>/.build/passkeys-venv)   PASSKEYS_START_TIMEOUT (60)
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd -P)
REPO=$(cd "$HERE/../.." && pwd -P)
APPS=$HERE/passkeys
HOSTS=/etc/hosts
HOSTS_BEGIN="# spconnect passkeys BEGIN"
HOSTS_END="# spconnect passkeys END"
ALLAUTH_HOST=allauth.passkeys.spconnect.test
FST_HOST=fst.passkeys.spconnect.test
ALLAUTH_ADDR=127.0.0.50
FST_ADDR=127.0.0.51
USER_NAME=alice
USER_EMAIL=alice@spconnect.test
VENV=${PASSKEYS_VENV:-$REPO/.build/passkeys-venv}
PY_REQUIREMENTS=("Django>=5.2,<6" "django-allauth[mfa]>=65.22,<66" "fido2>=2.2,<3"
    "Flask-Security-Too[fsqla,common,mfa]>=5.9,<5.10" "webauthn>=3.0,<4" "gunicorn>=23,<28" "cryptography>=44")
PACKAGES=(python3-venv openssl curl)

WORLD=passkeys
WORLD_DIR_VAR=PASSKEYS_WORLD_DIR
CANDIDATE=python3-venv
# shellcheck source=Tests/LiveIdP/world-common.sh
. "$HERE/world-common.sh"

# ---------------------------------------------------------------- install
venv_ok() {
    [ -x "$VENV/bin/python" ] && [ "$(cat "$VENV/.requirements" 2>/dev/null)" = "${PY_REQUIREMENTS[*]}" ] \
        && "$VENV/bin/python" -c 'import django, allauth.mfa, fido2.server, flask_security, webauthn, gunicorn, flask_sqlalchemy, argon2' 2>/dev/null
}

# ---------------------------------------------------------------- processes
world_pids() {  # every live process started from DIR (gunicorn masters and their workers), by /proc
    local p pid
    for p in /proc/[0-9]*; do
        pid=${p#/proc/}
        [ "$pid" = "$$" ] && continue
        if of_world "$pid" && alive "$pid"; then echo "$pid"; fi
    done
}

app_env_set() {
    APP_ENV=(env PYTHONPATH="$APPS" PYTHONDONTWRITEBYTECODE=1 PASSKEYS_DIR="$DIR" PASSKEYS_ALLAUTH_HOST="$ALLAUTH_HOST"
        PASSKEYS_FST_HOST="$FST_HOST" DJANGO_SETTINGS_MODULE=allauth_site.settings)
}

start_app() {  # start_app NAME ADDR PORT WSGI-APP: gunicorn with TLS, one worker (SQLite), threads for clients
    PASSKEYS_VERIFICATION_LOG=$DIR/$1-verifications.log spawn "$1" "${APP_ENV[@]}" "$VENV/bin/gunicorn" \
        --bind "$2:$3" --certfile "$DIR/tls/server.crt" --keyfile "$DIR/tls/server.key" \
        --workers 1 --worker-class gthread --threads 8 --graceful-timeout 5 --timeout 60 \
        --chdir "$APPS" --access-logfile - "$4"
}

code_of() {  # code_of URL -> the HTTP status (000 when nothing answers), TLS verified against DIR's CA
    curl -sS -o /dev/null --max-time 10 --cacert "$DIR/ca.pem" \
        --resolve "$ALLAUTH_HOST:$ALLAUTH_PORT:$ALLAUTH_ADDR" --resolve "$FST_HOST:$FST_PORT:$FST_ADDR" \
        -w '%{http_code}' "$1" 2>/dev/null || true
}

# ---------------------------------------------------------------- certificates, secrets, databases
gen_certs() {  # a test CA and one server certificate for both names and addresses
    make_server_certs passkeys "$ALLAUTH_HOST" "DNS:$ALLAUTH_HOST,DNS:$FST_HOST,IP:$ALLAUTH_ADDR,IP:$FST_ADDR"
}

gen_state() {  # new password and secrets, new databases (no passkey registered), empty verification logs
    rm -f "$DIR/allauth.sqlite3" "$DIR/fst.sqlite3" "$DIR/allauth-verifications.log" "$DIR/fst-verifications.log"
    (umask 077
     openssl rand -hex 12 > "$DIR/password"
     openssl rand -hex 32 > "$DIR/allauth.secret"
     echo "$(openssl rand -hex 32) $(openssl rand -hex 16)" > "$DIR/fst.secret")
    : > "$DIR/allauth-verifications.log"; : > "$DIR/fst-verifications.log"
    # The two databases at once (about 1.5 s each, mostly imports and password hashing).
    (cd "$APPS" && exec "${APP_ENV[@]}" "$VENV/bin/python" -m allauth_site.seed) > "$DIR/logs/setup-allauth.log" 2>&1 &
    local allauth_setup=$!
    (cd "$APPS" && exec "${APP_ENV[@]}" "$VENV/bin/python" fst_app.py seed) > "$DIR/logs/setup-fst.log" 2>&1 \
        || { tail -n 20 "$DIR/logs/setup-fst.log" >&2; wait "$allauth_setup" || true; die "Flask-Security-Too setup failed"; }
    wait "$allauth_setup" || { tail -n 20 "$DIR/logs/setup-allauth.log" >&2; die "allauth setup failed"; }
}

# ---------------------------------------------------------------- env
set_world() {
    PORT=${PASSKEYS_PORT:-23100}
    if ! [[ $PORT =~ ^[0-9]+$ ]] || [ "$PORT" -lt 1024 ] || [ "$PORT" -gt 65530 ]; then
        die "PASSKEYS_PORT $PORT is not in 1024..65530"
    fi
    ALLAUTH_PORT=$PORT; FST_PORT=$((PORT + 1))
    check_addr "$ALLAUTH_ADDR"; check_addr "$FST_ADDR"
}

write_env() {
    local a="https://$ALLAUTH_HOST:$ALLAUTH_PORT" f="https://$FST_HOST:$FST_PORT"
    cat > "$DIR/passkeys.env" <<EOF
# Generated by passkeys.sh start; source it from tests. The password is in PASSKEYS_PASSWORD_FILE (new each start).
PASSKEYS_DIR='$DIR'
PASSKEYS_CA='$DIR/ca.pem'
PASSKEYS_PORT='$PORT'
PASSKEYS_VENV='$VENV'
PASSKEYS_USER='$USER_NAME'
PASSKEYS_EMAIL='$USER_EMAIL'
PASSKEYS_PASSWORD_FILE='$DIR/password'
# django-allauth (python-fido2). Origin and rpId as the RP checks them; flows in Tests/LiveIdP/passkeys/FLOWS.md
PASSKEYS_ALLAUTH_HOST='$ALLAUTH_HOST'
PASSKEYS_ALLAUTH_ADDR='$ALLAUTH_ADDR'
PASSKEYS_ALLAUTH_PORT='$ALLAUTH_PORT'
PASSKEYS_ALLAUTH_URL='$a/'
PASSKEYS_ALLAUTH_ORIGIN='$a'
PASSKEYS_ALLAUTH_RP_ID='$ALLAUTH_HOST'
PASSKEYS_ALLAUTH_LOGIN_URL='$a/accounts/login/'
PASSKEYS_ALLAUTH_PASSKEY_LOGIN_URL='$a/accounts/2fa/webauthn/login/'
PASSKEYS_ALLAUTH_ADD_PASSKEY_URL='$a/accounts/2fa/webauthn/add/'
PASSKEYS_ALLAUTH_LOGOUT_URL='$a/accounts/logout/'
# 200 "signed-in: alice" or 401 "signed-out", never a redirect
PASSKEYS_ALLAUTH_WHOAMI_URL='$a/whoami'
PASSKEYS_ALLAUTH_SESSION_COOKIE='sessionid'
PASSKEYS_ALLAUTH_CSRF_COOKIE='csrftoken'
PASSKEYS_ALLAUTH_VERIFICATION_LOG='$DIR/allauth-verifications.log'
# Flask-Security-Too (py_webauthn)
PASSKEYS_FST_HOST='$FST_HOST'
PASSKEYS_FST_ADDR='$FST_ADDR'
PASSKEYS_FST_PORT='$FST_PORT'
PASSKEYS_FST_URL='$f/'
PASSKEYS_FST_ORIGIN='$f'
PASSKEYS_FST_RP_ID='$FST_HOST'
PASSKEYS_FST_LOGIN_URL='$f/login'
PASSKEYS_FST_PASSKEY_LOGIN_URL='$f/wan-signin'
PASSKEYS_FST_REGISTER_URL='$f/wan-register'
PASSKEYS_FST_LOGOUT_URL='$f/logout'
PASSKEYS_FST_WHOAMI_URL='$f/whoami'
PASSKEYS_FST_SESSION_COOKIE='session'
PASSKEYS_FST_VERIFICATION_LOG='$DIR/fst-verifications.log'
EOF
}

print_urls() {
    cat <<EOF
passkeys world (state: $PASSKEYS_DIR)
  CA certificate     : $PASSKEYS_CA
  user               : $PASSKEYS_USER ($PASSKEYS_EMAIL), password in $PASSKEYS_PASSWORD_FILE
  django-allauth     : $PASSKEYS_ALLAUTH_LOGIN_URL  (rpId $PASSKEYS_ALLAUTH_RP_ID; log $PASSKEYS_ALLAUTH_VERIFICATION_LOG)
  Flask-Security-Too : $PASSKEYS_FST_LOGIN_URL  (rpId $PASSKEYS_FST_RP_ID; log $PASSKEYS_FST_VERIFICATION_LOG)
EOF
}

# ---------------------------------------------------------------- start / stop / status
check_endpoints() {  # prints one line per endpoint; 0 when all answer as they should
    local rc=0 name url want got
    while read -r name want url; do
        got=$(code_of "$url")
        if [ "$got" = "$want" ]; then echo "  ok   $name $url ($got)"; else echo "  FAIL $name $url ($got, want $want)"; rc=1; fi
    done <<EOF
allauth-login  200 https://$ALLAUTH_HOST:$ALLAUTH_PORT/accounts/login/
allauth-whoami 401 https://$ALLAUTH_HOST:$ALLAUTH_PORT/whoami
fst-login      200 https://$FST_HOST:$FST_PORT/login
fst-whoami     401 https://$FST_HOST:$FST_PORT/whoami
EOF
    return $rc
}

running_any() { [ -n "$(pid_of allauth)" ] || [ -n "$(pid_of fst)" ]; }

cmd_start() {
    DIR=$(abspath "${1:?usage: $0 start DIR}")
    local t0=$EPOCHREALTIME
    set_world
    local timeout=${PASSKEYS_START_TIMEOUT:-60} a
    local tool
    for tool in openssl curl perl setsid flock; do
        command -v "$tool" >/dev/null || die "$tool missing (run: $0 install)"
    done
    venv_ok || die "the Python venv $VENV is missing or incomplete (run: $0 install)"
    if running_any; then
        load_env "$DIR"; log "already running from $DIR (stop first to change it)"; print_urls; return 0
    fi
    for a in "$ALLAUTH_ADDR:$ALLAUTH_PORT" "$FST_ADDR:$FST_PORT"; do
        if bound "${a%:*}" "${a##*:}" || bound 0.0.0.0 "${a##*:}"; then
            ss -Hltnp "sport = :${a##*:}" 2>/dev/null | sed 's/^/  /' >&2 || true
            die "something already listens on $a (stop it by the PID above)"
        fi
    done
    mkdir -p "$DIR/run" "$DIR/logs"
    app_env_set
    gen_certs
    gen_state
    write_env
    load_env "$DIR"
    hosts_add "$DIR" "$ALLAUTH_ADDR $ALLAUTH_HOST" "$FST_ADDR $FST_HOST"

    start_app allauth "$ALLAUTH_ADDR" "$ALLAUTH_PORT" allauth_site.wsgi:application
    start_app fst "$FST_ADDR" "$FST_PORT" fst_app:app

    local deadline=$((SECONDS + timeout)) ok=0
    while [ $SECONDS -lt $deadline ]; do
        if check_endpoints > /dev/null; then ok=1; break; fi
        if [ -z "$(pid_of allauth)" ] || [ -z "$(pid_of fst)" ]; then break; fi   # one died: no use waiting
        sleep 0.3
    done
    if [ $ok != 1 ]; then
        check_endpoints >&2 || true
        log "not all endpoints answered within ${timeout}s; logs in $DIR/logs:"
        tail -n 15 "$DIR/logs/"*.log >&2 2>/dev/null || true
        cmd_stop "$DIR" || true
        die "start failed"
    fi
    print_urls
    echo "  pids               : allauth $(pid_of allauth), fst $(pid_of fst) (gunicorn masters)"
    awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "  started in %.1f s\n", b - a }'
}

cmd_stop() {
    DIR=$(existing "${1:?usage: $0 stop DIR}")
    local name p left
    for name in allauth fst; do stop_pid "$name"; done
    # A worker can outlive its master for a moment: by PID, those that carry PASSKEYS_WORLD_DIR=DIR.
    for _ in $(seq 1 30); do left=$(world_pids); [ -z "$left" ] && break; sleep 0.1; done
    for p in $left; do log "leftover pid $p: KILL"; kill -KILL "$p" 2>/dev/null || true; done
    if [ -f "$DIR/passkeys.env" ]; then
        load_env "$DIR"
        for _ in $(seq 1 50); do
            bound "$PASSKEYS_ALLAUTH_ADDR" "$PASSKEYS_ALLAUTH_PORT" || bound "$PASSKEYS_FST_ADDR" "$PASSKEYS_FST_PORT" || break
            sleep 0.1
        done
    fi
    hosts_remove "$DIR"
    log "stopped ($DIR)"
}

cmd_status() {
    DIR=$(existing "${1:?usage: $0 status DIR}")
    if ! running_any; then echo "stopped ($DIR)"; return 3; fi
    load_env "$DIR"
    PORT=$PASSKEYS_PORT; set_world
    echo "running: allauth pid $(pid_of allauth), fst pid $(pid_of fst)"
    print_urls
    check_endpoints
}

cmd_env() { DIR=$(existing "${1:?usage: $0 env DIR}"); cat "$DIR/passkeys.env"; }

case "${1:-}" in
    install) cmd_install; install_venv ;;
    start)   shift; cmd_start "$@" ;;
    stop)    shift; cmd_stop "$@" ;;
    status)  shift; cmd_status "$@" ;;
    env)     shift; cmd_env "$@" ;;
    *) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac

#!/usr/bin/env bash
# onprem.sh — an on-premises sign-in world of real software, beside liveidp.sh and lemonmellon.sh:
#   * an MIT Kerberos KDC (realm SPCONNECT.TEST) with alice (password), svc-nightly (keytab) and HTTP/onprem.spconnect.test;
#   * Apache 2.4 + mod_auth_gssapi: SPNEGO (Negotiate) with a Basic fallback checked against the KDC, and a
#     mod_session cookie after the first exchange;
#   * an NTLM site: Tests/LiveIdP/onprem/ntlm_server.py, whose NTLM is pyspnego's acceptor;
#   * Jupyter Server (password form) and Django's admin (username/password form, behind Apache's TLS).
# Everything listens on 127.0.0.40-45 only.
#
#   onprem.sh install        install the Debian packages that are missing and the Python venv
#   onprem.sh start DIR      make the KDC database, keytabs, certificates, configs under DIR, add the host name, start all
#   onprem.sh stop DIR       stop everything started from DIR (by PID), remove the host name
#   onprem.sh status DIR     say whether it runs and whether the endpoints answer
#   onprem.sh env DIR        print the world's variables (shell syntax) for tests
#
# SPNEGO needs the service's host name: start adds "onprem.spconnect.test" (-> ONPREM_HTTP_ADDR) to /etc/hosts
# between "# spconnect onprem BEGIN DIR" and "... END DIR" lines (root needed); stop removes that block.
# Nothing in /etc/krb5.conf, /etc/krb5kdc or /etc/apache2 is used: DIR/krb5.conf and DIR/kdc.conf are passed
# by KRB5_CONFIG and KRB5_KDC_PROFILE.
#
# Environment (read by `start`; recorded in DIR/onprem.env):
#   ONPREM_PORT (23000)  base port: KDC = base (UDP+TCP), Apache = base+1, NTLM = base+2, Jupyter = base+3,
#                        Django admin = base+4 (Apache TLS in front of waitress on 127.0.0.45:base+5)
#   ONPREM_VENV (<repo>/.build/onprem-venv)   ONPREM_START_TIMEOUT (60)
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd -P)
REPO=$(cd "$HERE/../.." && pwd -P)
APACHE_BIN=/usr/sbin/apache2
APACHE_MODDIR=/usr/lib/apache2/modules
HOSTS=/etc/hosts
HOSTS_BEGIN="# spconnect onprem BEGIN"
HOSTS_END="# spconnect onprem END"
HOSTNAME_HTTP=onprem.spconnect.test
REALM=SPCONNECT.TEST
NTLM_DOMAIN=SPCONNECT
VENV=${ONPREM_VENV:-$REPO/.build/onprem-venv}
PY_REQUIREMENTS=("pyspnego>=0.10" "jupyter_server>=2,<3" "Django>=4.2,<6" "waitress>=2")
PACKAGES=(krb5-kdc krb5-admin-server krb5-user apache2 libapache2-mod-auth-gssapi python3-venv openssl curl)

KDC_ADDR=127.0.0.40; HTTP_ADDR=127.0.0.41; NTLM_ADDR=127.0.0.42; JUPYTER_ADDR=127.0.0.43
DJANGO_ADDR=127.0.0.44; WSGI_ADDR=127.0.0.45

WORLD=onprem
WORLD_DIR_VAR=ONPREM_WORLD_DIR
CANDIDATE=krb5-kdc
# shellcheck source=Tests/LiveIdP/world-common.sh
. "$HERE/world-common.sh"

# ---------------------------------------------------------------- install
venv_ok() {
    [ -x "$VENV/bin/python" ] && [ "$(cat "$VENV/.requirements" 2>/dev/null)" = "${PY_REQUIREMENTS[*]}" ] \
        && "$VENV/bin/python" -c 'import spnego, jupyter_server, django, waitress' 2>/dev/null
}

# ---------------------------------------------------------------- helpers
code_of() {  # code_of URL [curl args...] -> the HTTP status (000 when nothing answers)
    local url=$1; shift
    curl -sS -o /dev/null --max-time 10 --cacert "$DIR/ca.pem" --resolve "$HOSTNAME_HTTP:$HTTP_PORT:$HTTP_ADDR" \
        -w '%{http_code}' "$@" "$url" 2>/dev/null || true
}

krb_env() { env KRB5_CONFIG="$DIR/krb5.conf" KRB5_KDC_PROFILE="$DIR/kdc.conf" "$@"; }

# ---------------------------------------------------------------- /etc/hosts
# The block names DIR, so two worlds (on other ports) never remove each other's lines.
# ---------------------------------------------------------------- certificates
gen_certs() {  # a test CA (EC P-256) and one server certificate for every name and address of the world
    local t="$DIR/tls" stamp="$HOSTNAME_HTTP $HTTP_ADDR $NTLM_ADDR $JUPYTER_ADDR $DJANGO_ADDR"
    if [ -f "$t/stamp" ] && [ "$(cat "$t/stamp")" = "$stamp" ] \
        && openssl x509 -checkend 86400 -noout -in "$t/server.crt" >/dev/null 2>&1; then
        return 0   # same names, valid for another day: reuse
    fi
    rm -rf "$t"; mkdir -p "$t"
    (umask 077
     openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -sha256 -days 30 \
        -subj "/O=spconnect LiveIdP/CN=spconnect onprem test CA" \
        -addext "basicConstraints=critical,CA:TRUE,pathlen:0" -addext "keyUsage=critical,keyCertSign,cRLSign" \
        -keyout "$t/ca.key" -out "$t/ca.crt" 2>/dev/null
     openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$t/server.key" 2>/dev/null
     printf '%s\n' "basicConstraints=critical,CA:FALSE" "keyUsage=critical,digitalSignature" \
        "extendedKeyUsage=serverAuth" \
        "subjectAltName=DNS:$HOSTNAME_HTTP,IP:$HTTP_ADDR,IP:$NTLM_ADDR,IP:$JUPYTER_ADDR,IP:$DJANGO_ADDR" > "$t/server.ext"
     openssl req -new -key "$t/server.key" -sha256 -subj "/O=spconnect LiveIdP/CN=$HOSTNAME_HTTP" \
        -out "$t/server.csr" 2>/dev/null
     openssl x509 -req -sha256 -days 29 -in "$t/server.csr" -CA "$t/ca.crt" -CAkey "$t/ca.key" \
        -CAcreateserial -extfile "$t/server.ext" -out "$t/server.crt" 2>/dev/null
    )
    [ -s "$t/server.crt" ] || die "openssl made no server certificate"
    chmod 644 "$t"/*.crt
    if [ "$(id -u)" -eq 0 ]; then chgrp www-data "$t/server.key"; chmod 640 "$t/server.key"; fi
    cp "$t/ca.crt" "$DIR/ca.pem"; chmod 644 "$DIR/ca.pem"
    echo "$stamp" > "$t/stamp"
}

# ---------------------------------------------------------------- Kerberos
gen_kerberos() {
    rm -rf "$DIR/krb5kdc"; mkdir -p "$DIR/krb5kdc"; chmod 700 "$DIR/krb5kdc"
    rm -f "$DIR/http.keytab" "$DIR/svc-nightly.keytab" "$DIR/krb5cc"
    cat > "$DIR/krb5.conf" <<EOF
# Generated by Tests/LiveIdP/onprem.sh: pass it as KRB5_CONFIG.
[libdefaults]
    default_realm = $REALM
    dns_lookup_realm = false
    dns_lookup_kdc = false
    rdns = false
    dns_canonicalize_hostname = false
    default_ccache_name = FILE:$DIR/krb5cc
    ticket_lifetime = 10h
    renew_lifetime = 7d
    forwardable = true

[realms]
    $REALM = {
        kdc = $KDC_ADDR:$KDC_PORT
    }

[domain_realm]
    .spconnect.test = $REALM
    spconnect.test = $REALM
EOF
    cat > "$DIR/kdc.conf" <<EOF
# Generated by Tests/LiveIdP/onprem.sh: pass it as KRB5_KDC_PROFILE.
[kdcdefaults]
    kdc_listen = $KDC_ADDR:$KDC_PORT
    kdc_tcp_listen = $KDC_ADDR:$KDC_PORT

[realms]
    $REALM = {
        database_name = $DIR/krb5kdc/principal
        key_stash_file = $DIR/krb5kdc/stash
        acl_file = $DIR/krb5kdc/kadm5.acl
        admin_keytab = FILE:$DIR/krb5kdc/kadm5.keytab
        kdc_listen = $KDC_ADDR:$KDC_PORT
        kdc_tcp_listen = $KDC_ADDR:$KDC_PORT
        max_life = 10h 0m 0s
        max_renewable_life = 7d 0h 0m 0s
        master_key_type = aes256-cts-hmac-sha1-96
        supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal
    }

[logging]
    kdc = FILE:$DIR/logs/kdc.log
    admin_server = FILE:$DIR/logs/kadmin.log
    default = FILE:$DIR/logs/krb5.log
EOF
    : > "$DIR/krb5kdc/kadm5.acl"
    chmod 644 "$DIR/krb5.conf" "$DIR/kdc.conf"
    (umask 077
     openssl rand -hex 12 > "$DIR/alice.password"
     krb_env kdb5_util create -s -r "$REALM" -P "$(openssl rand -hex 24)" > "$DIR/logs/kdb5_util.log" 2>&1 \
        || { cat "$DIR/logs/kdb5_util.log" >&2; die "kdb5_util create failed"; }
     local q
     for q in "addprinc -pw $(cat "$DIR/alice.password") alice" \
              "addprinc -randkey svc-nightly" \
              "addprinc -randkey HTTP/$HOSTNAME_HTTP" \
              "ktadd -k $DIR/svc-nightly.keytab svc-nightly" \
              "ktadd -k $DIR/http.keytab HTTP/$HOSTNAME_HTTP"; do
        krb_env kadmin.local -r "$REALM" -q "$q" >> "$DIR/logs/kadmin.local.log" 2>&1 \
            || { tail -n 5 "$DIR/logs/kadmin.local.log" >&2; die "kadmin.local: ${q%% *} failed"; }
     done
    )
    [ -s "$DIR/http.keytab" ] && [ -s "$DIR/svc-nightly.keytab" ] || die "no keytabs made (see $DIR/logs/kadmin.local.log)"
    if [ "$(id -u)" -eq 0 ]; then chgrp www-data "$DIR/http.keytab"; chmod 640 "$DIR/http.keytab"; fi
}

# ---------------------------------------------------------------- Apache (mod_auth_gssapi; TLS for Django)
gen_httpd_conf() {
    local m mods="" user_lines=""
    [ -f "$APACHE_MODDIR/mod_auth_gssapi.so" ] || die "no mod_auth_gssapi (run: $0 install)"
    if [ "$(id -u)" -eq 0 ]; then user_lines=$'User www-data\nGroup www-data'; fi
    for m in mpm_prefork authz_core authz_host authn_core authz_user mime dir alias env setenvif headers include \
             socache_shmcb ssl session session_cookie auth_gssapi proxy proxy_http; do
        mods+="LoadModule ${m}_module $APACHE_MODDIR/mod_${m}.so"$'\n'
    done
    rm -rf "$DIR/www"; mkdir -p "$DIR/www/kerberos" "$DIR/run/rcache"
    cat > "$DIR/www/index.html" <<EOF
<!DOCTYPE html>
<html><head><title>onprem</title></head>
<body><h1>SPConnect on-premises world</h1><p><a href="/kerberos/">Kerberos (Negotiate / Basic)</a></p></body></html>
EOF
    cat > "$DIR/www/kerberos/index.html" <<'EOF'
<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Kerberos site</title></head>
<body>
<h1>Hello <!--#echo var="REMOTE_USER" --></h1>
<p id="auth-type">Signed in with <!--#echo var="AUTH_TYPE" --></p>
<p><a href="whoami.json">whoami.json</a></p>
</body></html>
EOF
    printf '%s\n' '{"user":"<!--#echo encoding="none" var="REMOTE_USER" -->"}' > "$DIR/www/kerberos/whoami.json"
    cat > "$DIR/httpd.conf" <<EOF
# Generated by Tests/LiveIdP/onprem.sh — Apache for the onprem world only.
ServerRoot "$DIR"
DefaultRuntimeDir "$DIR/run"
PidFile "$DIR/run/httpd.pid"
Mutex file:$DIR/run default
ServerName $HOSTNAME_HTTP
ServerTokens Prod
ServerSignature Off
$user_lines
$mods
Listen $HTTP_ADDR:$HTTP_PORT
Listen $DJANGO_ADDR:$DJANGO_PORT

StartServers 2
MinSpareServers 1
MaxSpareServers 4
MaxRequestWorkers 16
Timeout 30
KeepAlive On

ErrorLog "$DIR/logs/error.log"
LogLevel warn
LogFormat "%v:%p %h %t \"%r\" %>s %b %D \"%{Referer}i\" user=%u" onprem
CustomLog "$DIR/logs/access.log" onprem

TypesConfig /etc/mime.types
DirectoryIndex index.html
AddDefaultCharset Off

<Directory />
    AllowOverride None
    Require all denied
</Directory>
<Directory "$DIR/www">
    Options +IncludesNoExec
    AddOutputFilter INCLUDES .html .json
    Require all granted
</Directory>

SSLRandomSeed startup builtin
SSLSessionCache "shmcb:$DIR/run/ssl_scache(512000)"
SSLProtocol all -SSLv3 -TLSv1 -TLSv1.1

<VirtualHost $HTTP_ADDR:$HTTP_PORT>
    ServerName $HOSTNAME_HTTP
    DocumentRoot "$DIR/www"
    SSLEngine on
    SSLCertificateFile "$DIR/tls/server.crt"
    SSLCertificateKeyFile "$DIR/tls/server.key"
    <Location /kerberos/>
        AuthType GSSAPI
        AuthName "SPConnect on-premises (Kerberos)"
        GssapiCredStore keytab:$DIR/http.keytab
        GssapiAllowedMech krb5
        GssapiBasicAuth On
        GssapiBasicAuthMech krb5
        GssapiSSLonly On
        GssapiLocalName Off
        # After one Negotiate (or Basic) exchange the sign-in lives in an encrypted mod_session cookie.
        GssapiUseSessions On
        GssapiSessionKey file:$DIR/session.key
        Session On
        SessionCookieName gssapi_session path=/kerberos/;httponly;secure;
        Require valid-user
    </Location>
</VirtualHost>

# Django's admin: TLS here, the application behind it (waitress on $WSGI_ADDR:$WSGI_PORT).
<VirtualHost $DJANGO_ADDR:$DJANGO_PORT>
    ServerName $DJANGO_ADDR
    SSLEngine on
    SSLCertificateFile "$DIR/tls/server.crt"
    SSLCertificateKeyFile "$DIR/tls/server.key"
    ProxyPreserveHost On
    RequestHeader set X-Forwarded-Proto "https"
    ProxyPass / http://$WSGI_ADDR:$WSGI_PORT/
    ProxyPassReverse / http://$WSGI_ADDR:$WSGI_PORT/
</VirtualHost>
EOF
    if [ "$(id -u)" -eq 0 ]; then
        chown www-data:www-data "$DIR/run/rcache"
        runuser -u www-data -- test -r "$DIR/http.keytab" 2>/dev/null \
            || die "www-data cannot read $DIR (a parent directory is not traversable); pick a state dir elsewhere"
    fi
}

start_apache() {
    rm -f "$DIR/run/httpd.pid"
    krb_env KRB5RCACHEDIR="$DIR/run/rcache" "$APACHE_BIN" -t -f "$DIR/httpd.conf" > "$DIR/logs/configtest.log" 2>&1 \
        || { cat "$DIR/logs/configtest.log" >&2; die "apache config test failed"; }
    # Apache daemonizes itself; started with no signal blocked and with the world's Kerberos files.
    if ! ONPREM_WORLD_DIR=$DIR krb_env KRB5RCACHEDIR="$DIR/run/rcache" "${UNBLOCKED[@]}" "$APACHE_BIN" -f "$DIR/httpd.conf" -k start < /dev/null; then
        tail -n 20 "$DIR/logs/error.log" >&2 2>/dev/null || true
        return 1
    fi
}

stop_apache() {
    local pid p
    pid=$(apache_pid "$DIR")
    if [ -n "$pid" ]; then
        if [ -r "/proc/$pid/cmdline" ] && ! tr '\0' ' ' < "/proc/$pid/cmdline" | grep -qF -- "$DIR/httpd.conf"; then
            die "pid $pid in $DIR/run/httpd.pid is not this world's apache; not touching it"
        fi
        kill -TERM "$pid"
        for _ in $(seq 1 100); do alive "$pid" || break; sleep 0.1; done
        if alive "$pid"; then
            log "apache $pid ignored TERM for 10s; sending KILL"; kill -KILL "$pid" 2>/dev/null || true; sleep 0.5
        fi
        log "stopped apache (pid $pid)"
    fi
    # Workers can outlive their master for a moment: by PID, those whose command line names DIR's config.
    for p in $(pgrep -f -- "$DIR/httpd.conf" || true); do kill -TERM "$p" 2>/dev/null || true; done
    for _ in $(seq 1 20); do pgrep -f -- "$DIR/httpd.conf" >/dev/null || break; sleep 0.1; done
    for p in $(pgrep -f -- "$DIR/httpd.conf" || true); do kill -KILL "$p" 2>/dev/null || true; done
    rm -f "$DIR/run/httpd.pid"
}

# ---------------------------------------------------------------- NTLM, Jupyter, Django
gen_ntlm() {
    (umask 077
     openssl rand -hex 12 > "$DIR/ntlm-alice.password"
     # DOMAIN\alice, and alice with no domain (pyspnego matches the domain exactly; Windows takes none as its own)
     printf '%s:alice:%s\n:alice:%s\n' "$NTLM_DOMAIN" "$(cat "$DIR/ntlm-alice.password")" \
        "$(cat "$DIR/ntlm-alice.password")" > "$DIR/ntlm-users.txt")
}

gen_jupyter() {
    local j="$DIR/jupyter"
    rm -rf "$j"; mkdir -p "$j/root" "$j/config" "$j/data" "$j/runtime"
    (umask 077; openssl rand -hex 12 > "$DIR/jupyter.password")
    local hashed
    hashed=$("$VENV/bin/python" -c 'import sys; from jupyter_server.auth import passwd; print(passwd(sys.stdin.read().strip()))' \
        < "$DIR/jupyter.password") || die "jupyter_server.auth.passwd failed"
    echo "Hello from the onprem world's Jupyter Server." > "$j/root/README.txt"
    cat > "$j/jupyter_server_config.py" <<EOF
# Generated by Tests/LiveIdP/onprem.sh.
c = get_config()  # noqa
c.ServerApp.ip = "$JUPYTER_ADDR"
c.ServerApp.port = $JUPYTER_PORT
c.ServerApp.port_retries = 0
c.ServerApp.base_url = "/"
c.ServerApp.open_browser = False
c.ServerApp.allow_root = True
c.ServerApp.root_dir = "$j/root"
c.ServerApp.certfile = "$DIR/tls/server.crt"
c.ServerApp.keyfile = "$DIR/tls/server.key"
c.PasswordIdentityProvider.hashed_password = "$hashed"
c.IdentityProvider.token = ""
EOF
}

gen_django() {
    local d="$DIR/django"
    rm -rf "$d"; mkdir -p "$d"
    (umask 077; openssl rand -hex 12 > "$DIR/django-alice.password")
    "$VENV/bin/django-admin" startproject onprem_site "$d" || die "django-admin startproject failed"
    cat >> "$d/onprem_site/settings.py" <<EOF

# ---- Added by Tests/LiveIdP/onprem.sh: a production-like site behind Apache's TLS (waitress trusts Apache's
# X-Forwarded-Proto, so requests are https to Django and its CSRF check wants a matching Referer or Origin).
SECRET_KEY = "$(openssl rand -hex 32)"
DEBUG = False
ALLOWED_HOSTS = ["$DJANGO_ADDR", "$WSGI_ADDR"]
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
STATIC_ROOT = BASE_DIR / "static"
EOF
    cat >> "$d/onprem_site/urls.py" <<'EOF'

# ---- Added by Tests/LiveIdP/onprem.sh: the admin's CSS/JS from STATIC_ROOT (DEBUG is off).
from django.conf import settings
from django.urls import re_path
from django.views.static import serve
urlpatterns += [re_path(r"^static/(?P<path>.*)$", serve, {"document_root": settings.STATIC_ROOT})]
EOF
    (cd "$d"
     "$VENV/bin/python" manage.py migrate --noinput > "$DIR/logs/django-setup.log" 2>&1 \
        && "$VENV/bin/python" manage.py collectstatic --noinput >> "$DIR/logs/django-setup.log" 2>&1 \
        && DJANGO_SUPERUSER_PASSWORD=$(cat "$DIR/django-alice.password") "$VENV/bin/python" manage.py createsuperuser \
            --noinput --username alice --email alice@spconnect.test >> "$DIR/logs/django-setup.log" 2>&1) \
        || { tail -n 20 "$DIR/logs/django-setup.log" >&2; die "django setup failed"; }
}

# ---------------------------------------------------------------- env
set_world() {
    PORT=${ONPREM_PORT:-23000}
    [[ $PORT =~ ^[0-9]+$ ]] && [ "$PORT" -ge 1024 ] && [ "$PORT" -le 65530 ] || die "ONPREM_PORT $PORT is not in 1024..65530"
    KDC_PORT=$PORT; HTTP_PORT=$((PORT + 1)); NTLM_PORT=$((PORT + 2)); JUPYTER_PORT=$((PORT + 3))
    DJANGO_PORT=$((PORT + 4)); WSGI_PORT=$((PORT + 5))
}

write_env() {
    cat > "$DIR/onprem.env" <<EOF
# Generated by onprem.sh start; source it from tests. Passwords are in the *_PASSWORD_FILE files (new each start).
ONPREM_DIR='$DIR'
ONPREM_CA='$DIR/ca.pem'
ONPREM_PORT='$PORT'
ONPREM_VENV='$VENV'
# Kerberos: pass these two to kinit/klist and to the client (KRB5_CONFIG, KRB5_KDC_PROFILE)
ONPREM_REALM='$REALM'
ONPREM_KRB5_CONFIG='$DIR/krb5.conf'
ONPREM_KRB5_KDC_PROFILE='$DIR/kdc.conf'
ONPREM_KRB5CCNAME='FILE:$DIR/krb5cc'
ONPREM_KDC_ADDR='$KDC_ADDR'
ONPREM_KDC_PORT='$KDC_PORT'
ONPREM_ALICE_PRINCIPAL='alice@$REALM'
ONPREM_ALICE_PASSWORD_FILE='$DIR/alice.password'
ONPREM_SVC_PRINCIPAL='svc-nightly@$REALM'
ONPREM_SVC_KEYTAB='$DIR/svc-nightly.keytab'
ONPREM_HTTP_PRINCIPAL='HTTP/$HOSTNAME_HTTP@$REALM'
ONPREM_HTTP_KEYTAB='$DIR/http.keytab'
# Apache + mod_auth_gssapi (Negotiate, Basic fallback; session cookie after sign-in)
ONPREM_HTTP_HOST='$HOSTNAME_HTTP'
ONPREM_HTTP_ADDR='$HTTP_ADDR'
ONPREM_HTTP_PORT='$HTTP_PORT'
ONPREM_KERBEROS_URL='https://$HOSTNAME_HTTP:$HTTP_PORT/kerberos/'
ONPREM_KERBEROS_WHOAMI_URL='https://$HOSTNAME_HTTP:$HTTP_PORT/kerberos/whoami.json'
ONPREM_KERBEROS_SESSION_COOKIE='gssapi_session'
ONPREM_KERBEROS_BASIC_REALM='SPConnect on-premises (Kerberos)'
# NTLM site (pyspnego acceptor); user name as the server reports it: SPCONNECT\\alice
ONPREM_NTLM_URL='https://$NTLM_ADDR:$NTLM_PORT/'
ONPREM_NTLM_WHOAMI_URL='https://$NTLM_ADDR:$NTLM_PORT/whoami.json'
ONPREM_NTLM_DOMAIN='$NTLM_DOMAIN'
ONPREM_NTLM_USER='alice'
ONPREM_NTLM_PASSWORD_FILE='$DIR/ntlm-alice.password'
ONPREM_NTLM_SESSION_COOKIE='NTLMSESSION'
# Jupyter Server: password only (no user name), form at /login
ONPREM_JUPYTER_URL='https://$JUPYTER_ADDR:$JUPYTER_PORT/'
ONPREM_JUPYTER_LOGIN_URL='https://$JUPYTER_ADDR:$JUPYTER_PORT/login'
# signed out: 302 to /login?next=%2Fview%2FREADME.txt; signed in: 200, an HTML page titled README.txt
ONPREM_JUPYTER_PROTECTED_URL='https://$JUPYTER_ADDR:$JUPYTER_PORT/view/README.txt'
# signed out: 403 JSON; signed in: 200 JSON whose "content" is "Hello from the onprem world's Jupyter Server.\n"
# (/files/README.txt gives the text itself, but only with a same-site Referer: 403 without one)
ONPREM_JUPYTER_CONTENT_URL='https://$JUPYTER_ADDR:$JUPYTER_PORT/api/contents/README.txt'
# signed in: 200 {"identity": {"username": <random>, "name": "Anonymous ..."}} (password-only: no user name)
ONPREM_JUPYTER_API_URL='https://$JUPYTER_ADDR:$JUPYTER_PORT/api/me'
ONPREM_JUPYTER_XSRF_COOKIE='_xsrf'
ONPREM_JUPYTER_PASSWORD_FILE='$DIR/jupyter.password'
# Django admin (TLS by Apache, waitress behind it on $WSGI_ADDR:$WSGI_PORT)
ONPREM_DJANGO_URL='https://$DJANGO_ADDR:$DJANGO_PORT/admin/'
ONPREM_DJANGO_LOGIN_URL='https://$DJANGO_ADDR:$DJANGO_PORT/admin/login/?next=/admin/'
ONPREM_DJANGO_USER='alice'
ONPREM_DJANGO_SESSION_COOKIE='sessionid'
ONPREM_DJANGO_CSRF_COOKIE='csrftoken'
ONPREM_DJANGO_PASSWORD_FILE='$DIR/django-alice.password'
EOF
}

print_urls() {
    cat <<EOF
onprem world (state: $ONPREM_DIR)
  CA certificate : $ONPREM_CA
  Kerberos       : realm $ONPREM_REALM, KDC $ONPREM_KDC_ADDR:$ONPREM_KDC_PORT (udp+tcp); KRB5_CONFIG=$ONPREM_KRB5_CONFIG
                   alice (password $ONPREM_ALICE_PASSWORD_FILE), svc-nightly (keytab $ONPREM_SVC_KEYTAB)
  Negotiate site : $ONPREM_KERBEROS_URL  (+ whoami.json; Basic fallback; cookie $ONPREM_KERBEROS_SESSION_COOKIE)
  NTLM site      : $ONPREM_NTLM_URL  ($ONPREM_NTLM_DOMAIN\\alice, password $ONPREM_NTLM_PASSWORD_FILE)
  Jupyter Server : $ONPREM_JUPYTER_LOGIN_URL  (password $ONPREM_JUPYTER_PASSWORD_FILE; page $ONPREM_JUPYTER_PROTECTED_URL)
  Django admin   : $ONPREM_DJANGO_URL  (alice, password $ONPREM_DJANGO_PASSWORD_FILE)
EOF
}

# ---------------------------------------------------------------- start / stop / status
check_endpoints() {  # prints one line per endpoint; 0 when all answer as they should
    local rc=0 name url want got
    while read -r name want url; do
        got=$(code_of "$url")
        if [ "$got" = "$want" ]; then echo "  ok   $name $url ($got)"; else echo "  FAIL $name $url ($got, want $want)"; rc=1; fi
    done <<EOF
apache  200 https://$HOSTNAME_HTTP:$HTTP_PORT/
gssapi  401 https://$HOSTNAME_HTTP:$HTTP_PORT/kerberos/
ntlm    401 https://$NTLM_ADDR:$NTLM_PORT/
jupyter 200 https://$JUPYTER_ADDR:$JUPYTER_PORT/login
django  200 https://$DJANGO_ADDR:$DJANGO_PORT/admin/login/
EOF
    if ! ss -Hlun "src $KDC_ADDR:$KDC_PORT" 2>/dev/null | grep -q . || ! bound "$KDC_ADDR" "$KDC_PORT"; then
        echo "  FAIL kdc $KDC_ADDR:$KDC_PORT (udp+tcp) not listening"; rc=1
    else
        echo "  ok   kdc $KDC_ADDR:$KDC_PORT (udp+tcp)"
    fi
    return $rc
}

running_any() {
    [ -n "$(apache_pid "$DIR")" ] || [ -n "$(pid_of krb5kdc)" ] || [ -n "$(pid_of ntlm)" ] \
        || [ -n "$(pid_of jupyter)" ] || [ -n "$(pid_of django)" ]
}

cmd_start() {
    DIR=$(abspath "${1:?usage: $0 start DIR}")
    local t0=$EPOCHREALTIME
    set_world
    local timeout=${ONPREM_START_TIMEOUT:-60} a
    [ -x "$APACHE_BIN" ] && command -v krb5kdc >/dev/null && command -v kadmin.local >/dev/null \
        && command -v kinit >/dev/null && [ -f "$APACHE_MODDIR/mod_auth_gssapi.so" ] || die "packages missing (run: $0 install)"
    venv_ok || die "the Python venv $VENV is missing or incomplete (run: $0 install)"
    if running_any; then
        load_env "$DIR"; log "already running from $DIR (stop first to change it)"; print_urls; return 0
    fi
    for a in "$KDC_ADDR:$KDC_PORT" "$HTTP_ADDR:$HTTP_PORT" "$NTLM_ADDR:$NTLM_PORT" "$JUPYTER_ADDR:$JUPYTER_PORT" \
             "$DJANGO_ADDR:$DJANGO_PORT" "$WSGI_ADDR:$WSGI_PORT"; do
        if bound "${a%:*}" "${a##*:}" || bound 0.0.0.0 "${a##*:}"; then
            ss -Hltnp "sport = :${a##*:}" 2>/dev/null | sed 's/^/  /' >&2 || true
            die "something already listens on $a (stop it by the PID above)"
        fi
    done
    mkdir -p "$DIR/run" "$DIR/logs"
    gen_certs
    gen_kerberos
    gen_httpd_conf
    gen_ntlm
    gen_jupyter
    gen_django
    write_env
    load_env "$DIR"
    hosts_add "$DIR" "$HTTP_ADDR $HOSTNAME_HTTP"

    # KDC: daemonizes itself, PID file in DIR/run.
    rm -f "$DIR/run/krb5kdc.pid"
    ONPREM_WORLD_DIR=$DIR krb_env "${UNBLOCKED[@]}" krb5kdc -r "$REALM" -P "$DIR/run/krb5kdc.pid" < /dev/null \
        || { cmd_stop "$DIR" || true; die "krb5kdc did not start (see $DIR/logs/kdc.log)"; }
    start_apache || { cmd_stop "$DIR" || true; die "apache did not start (see $DIR/logs/error.log)"; }
    NTLM_USER_FILE=$DIR/ntlm-users.txt spawn ntlm "$VENV/bin/python" "$HERE/onprem/ntlm_server.py" \
        --addr "$NTLM_ADDR" --port "$NTLM_PORT" --cert "$DIR/tls/server.crt" --key "$DIR/tls/server.key" \
        --domain "$NTLM_DOMAIN"
    JUPYTER_CONFIG_DIR=$DIR/jupyter/config JUPYTER_DATA_DIR=$DIR/jupyter/data JUPYTER_RUNTIME_DIR=$DIR/jupyter/runtime \
        spawn jupyter "$VENV/bin/python" -m jupyter_server --config="$DIR/jupyter/jupyter_server_config.py"
    PYTHONPATH=$DIR/django DJANGO_SETTINGS_MODULE=onprem_site.settings \
        spawn django "$VENV/bin/python" -m waitress --listen="$WSGI_ADDR:$WSGI_PORT" --threads=8 \
        --trusted-proxy=127.0.0.1 --trusted-proxy-headers=x-forwarded-proto onprem_site.wsgi:application

    local deadline=$((SECONDS + timeout)) ok=0
    while [ $SECONDS -lt $deadline ]; do
        if check_endpoints > /dev/null; then ok=1; break; fi
        sleep 0.3
    done
    if [ $ok != 1 ]; then
        check_endpoints >&2 || true
        log "not all endpoints answered within ${timeout}s; logs in $DIR/logs:"
        tail -n 5 "$DIR/logs/"*.log >&2 2>/dev/null || true
        cmd_stop "$DIR" || true
        die "start failed"
    fi
    print_urls
    echo "  pids           : kdc $(pid_of krb5kdc), apache $(apache_pid "$DIR"), ntlm $(pid_of ntlm), jupyter $(pid_of jupyter), django $(pid_of django)"
    awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "  started in %.1f s\n", b - a }'
}

cmd_stop() {
    DIR=$(existing "${1:?usage: $0 stop DIR}")
    local name
    stop_apache
    for name in ntlm jupyter django krb5kdc; do stop_pid "$name"; done
    if [ -f "$DIR/onprem.env" ]; then
        load_env "$DIR"
        for _ in $(seq 1 50); do
            bound "$ONPREM_HTTP_ADDR" "$ONPREM_HTTP_PORT" || bound "$ONPREM_KDC_ADDR" "$ONPREM_KDC_PORT" || break
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
    PORT=$ONPREM_PORT; set_world
    echo "running: kdc ${ONPREM_KDC_ADDR} pid $(pid_of krb5kdc), apache $(apache_pid "$DIR"), ntlm $(pid_of ntlm), jupyter $(pid_of jupyter), django $(pid_of django)"
    print_urls
    check_endpoints
}

cmd_env() { DIR=$(existing "${1:?usage: $0 env DIR}"); cat "$DIR/onprem.env"; }

case "${1:-}" in
    install) cmd_install; install_venv ;;
    start)   shift; cmd_start "$@" ;;
    stop)    shift; cmd_stop "$@" ;;
    status)  shift; cmd_status "$@" ;;
    env)     shift; cmd_env "$@" ;;
    *) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac

#!/usr/bin/env bash
# liveidp.sh — a live SAML identity-provider world made of real software
# (Debian's SimpleSAMLphp 1.19 under Apache 2.4 + mod_php + mod_ssl).
#
#   liveidp.sh install        install the Debian packages that are missing
#   liveidp.sh start DIR      generate CA, certs, configs under DIR and start Apache
#   liveidp.sh stop DIR       stop the Apache started from DIR (by PID), wait until gone
#   liveidp.sh status DIR     say whether it runs and whether the endpoints answer
#   liveidp.sh env DIR        print the world's variables (shell syntax) for tests
#
# Nothing in /etc/apache2 or /usr/share/simplesamlphp is changed: Apache runs
# with its own config file (DIR/httpd.conf), PidFile, logs and runtime dir
# under DIR, and each SimpleSAMLphp instance reads its own config dir through
# SIMPLESAMLPHP_CONFIG_DIR (set per VirtualHost with SetEnv).
#
# Environment (read by `start`; recorded in DIR/liveidp.env for stop/status):
#   LIVEIDP_IDP_ADDR  (127.0.0.21)   LIVEIDP_SP_ADDR  (127.0.0.22)
#   LIVEIDP_PORT      (8443)         LIVEIDP_IDP_PORT / LIVEIDP_SP_PORT (= LIVEIDP_PORT)
#   LIVEIDP_NEWUI     (0)            1 = SimpleSAMLphp's Twig UI ('usenewui'), 0 = stock UI
#   LIVEIDP_START_TIMEOUT (30)       seconds to wait for the https endpoints
set -euo pipefail

SSP_DIR=/usr/share/simplesamlphp
APACHE_BIN=/usr/sbin/apache2
APACHE_MODDIR=/usr/lib/apache2/modules
PACKAGES=(simplesamlphp apache2 libapache2-mod-php php-cli php-xml php-mbstring php-curl openssl curl)

die() { echo "liveidp: $*" >&2; exit 1; }
log() { echo "liveidp: $*" >&2; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"
    elif command -v sudo >/dev/null 2>&1; then sudo "$@"
    else die "need root (or sudo) for: $*"
    fi
}

# ---------------------------------------------------------------- install
cmd_install() {
    local missing=() p
    for p in "${PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$p")
        fi
    done
    if [ ${#missing[@]} -eq 0 ]; then
        log "all packages present: ${PACKAGES[*]}"
        return 0
    fi
    log "installing: ${missing[*]}"
    # No package lists yet (fresh machine)? Fetch them once.
    if ! apt-cache policy simplesamlphp 2>/dev/null | grep -q 'Candidate: [0-9]'; then
        as_root apt-get update
    fi
    # Keep the apache2 package's maintainer scripts from starting the stock
    # Apache on *:80 (the usual policy-rc.d guard), only if no guard exists.
    local guard=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        guard=/usr/sbin/policy-rc.d
        as_root sh -c 'printf "#!/bin/sh\n# temporary, from liveidp.sh install\nexit 101\n" > /usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d'
        trap 'as_root rm -f /usr/sbin/policy-rc.d' EXIT
    fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
    if [ -n "$guard" ]; then as_root rm -f "$guard"; trap - EXIT; fi
}

# ---------------------------------------------------------------- helpers
abspath() { mkdir -p "$1" && (cd "$1" && pwd -P); }   # creates DIR (start)
existing() { [ -d "$1" ] || die "no state directory $1"; (cd "$1" && pwd -P); }

load_env() {
    local dir=$1
    [ -f "$dir/liveidp.env" ] || die "$dir/liveidp.env not found (was the world started from $dir?)"
    # shellcheck disable=SC1091
    . "$dir/liveidp.env"
}

apache_pid() {  # prints the live master PID, or nothing
    local dir=$1 pid
    [ -f "$dir/run/httpd.pid" ] || return 0
    pid=$(cat "$dir/run/httpd.pid" 2>/dev/null || true)
    case "$pid" in ''|*[!0-9]*) return 0 ;; esac
    if kill -0 "$pid" 2>/dev/null; then echo "$pid"; fi
}

probe() {  # probe URL CA -> 0 when https answers 200 and verifies
    curl -sS -o /dev/null --max-time 5 --cacert "$2" -w '%{http_code}' "$1" 2>/dev/null | grep -q '^200$'
}

check_addr() {
    [[ $1 =~ ^127\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}$ ]] || die "address $1 is not a 127.0.0.0/8 address"
}
check_port() {
    [[ $1 =~ ^[0-9]+$ ]] && [ "$1" -ge 1024 ] && [ "$1" -le 65535 ] || die "port $1 is not in 1024..65535"
}

bound() {  # bound ADDR PORT -> 0 if something listens on exactly ADDR:PORT
    ss -Hltn "src $1:$2" 2>/dev/null | grep -q .
}
listening() {  # listening ADDR PORT -> 0 if ADDR:PORT is taken (also by a wildcard listener)
    bound "$1" "$2" || bound 0.0.0.0 "$2"
}

# ---------------------------------------------------------------- certificates
gen_certs() {
    local dir=$1 stamp="$IDP_ADDR $SP_ADDR"
    local t="$dir/tls"
    if [ -f "$dir/ca.pem" ] && [ -f "$t/stamp" ] && [ "$(cat "$t/stamp")" = "$stamp" ] \
        && openssl x509 -checkend 86400 -noout -in "$t/idp.crt" >/dev/null 2>&1 \
        && openssl x509 -checkend 86400 -noout -in "$t/sp.crt" >/dev/null 2>&1; then
        return 0   # reuse: same addresses, still valid for a day
    fi
    rm -rf "$t"; mkdir -p "$t"
    (umask 077
     openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 30 \
        -subj "/O=spconnect LiveIdP/CN=spconnect LiveIdP test CA" \
        -addext "basicConstraints=critical,CA:TRUE,pathlen:0" \
        -addext "keyUsage=critical,keyCertSign,cRLSign" \
        -addext "subjectKeyIdentifier=hash" \
        -keyout "$t/ca.key" -out "$t/ca.crt" 2>/dev/null
     local name addr
     for name in idp sp; do
        if [ $name = idp ]; then addr=$IDP_ADDR; else addr=$SP_ADDR; fi
        cat > "$t/$name.ext" <<EOF
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=IP:$addr
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid
EOF
        openssl req -new -newkey rsa:2048 -nodes -sha256 \
            -subj "/O=spconnect LiveIdP/CN=$addr" \
            -keyout "$t/$name.key" -out "$t/$name.csr" 2>/dev/null
        openssl x509 -req -sha256 -days 29 -in "$t/$name.csr" \
            -CA "$t/ca.crt" -CAkey "$t/ca.key" -CAcreateserial \
            -extfile "$t/$name.ext" -out "$t/$name.crt" 2>/dev/null
     done
     # SAML signing key pair of the IdP (self-signed, as SimpleSAMLphp docs do)
     openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 30 \
        -subj "/O=spconnect LiveIdP/CN=LiveIdP SAML signing" \
        -keyout "$t/saml-idp.key" -out "$t/saml-idp.crt" 2>/dev/null
    )
    chmod 644 "$t"/*.crt
    cp "$t/ca.crt" "$dir/ca.pem"; chmod 644 "$dir/ca.pem"
    echo "$stamp" > "$t/stamp"
}

# ---------------------------------------------------------------- SimpleSAMLphp configs
php_q() { printf "%s" "$1" | sed "s/\\\\/\\\\\\\\/g; s/'/\\\\'/g"; }  # for '...' PHP strings

write_ssp_config() {  # write_ssp_config INSTDIR BASEURL ENABLE_IDP(true|false)
    local inst=$1 baseurl=$2 enable_idp=$3
    local salt admin newui=false
    [ "${NEWUI}" = 1 ] && newui=true
    salt=$(openssl rand -hex 24); admin=$(openssl rand -hex 12)
    cat > "$inst/config/config.php" <<EOF
<?php
// Generated by Tests/LiveIdP/liveidp.sh — do not edit; regenerated by every start.
// Values not set here keep SimpleSAMLphp 1.19's built-in defaults.
\$config = [
    'baseurlpath' => '$(php_q "$baseurl")',
    'certdir' => '$(php_q "$inst/cert/")',
    'loggingdir' => '$(php_q "$inst/log/")',
    'datadir' => '$(php_q "$inst/data/")',
    'tempdir' => '$(php_q "$inst/tmp")',
    'metadatadir' => '$(php_q "$inst/metadata/")',
    'attributenamemapdir' => '/etc/simplesamlphp/attributemap/',
    'secretsalt' => '$salt',
    'auth.adminpassword' => '$admin',
    'technicalcontact_name' => 'LiveIdP',
    'technicalcontact_email' => 'na@example.org',   // stock: no error-report form on error pages
    'timezone' => 'UTC',
    'admin.protectindexpage' => false,
    'admin.protectmetadata' => false,
    'admin.checkforupdates' => false,
    'trusted.url.domains' => ['$IDP_ADDR:$IDP_PORT', '$SP_ADDR:$SP_PORT'],
    'debug' => ['saml' => false, 'backtraces' => true, 'validatexml' => false],
    'showerrors' => true,          // stock value
    'errorreporting' => true,      // stock value; the report form shows only with a real technicalcontact_email
    'logging.level' => SimpleSAML\Logger::INFO,
    'logging.handler' => 'file',
    'logging.logfile' => 'simplesamlphp.log',
    'statistics.out' => [],
    'enable.saml20-idp' => $enable_idp,
    'module.enable' => ['exampleauth' => true, 'core' => true, 'saml' => true, 'consent' => true],
    'usenewui' => $newui,
    'session.duration' => 8 * 3600,
    // Not 'session.rememberme.enable': Debian's SimpleSAMLphp 1.19 fails on PHP 8 when it is checked (an undefined
    // 'secure' key in SessionHandlerPHP::setCookie), in a browser too.
    'session.cookie.name' => 'SimpleSAMLSessionID',
    'session.cookie.path' => '/',
    'session.cookie.secure' => true,
    'session.cookie.samesite' => \SimpleSAML\Utils\HTTP::canSetSameSiteNone() ? 'None' : null,
    'session.phpsession.cookiename' => 'SimpleSAML',
    'session.phpsession.savepath' => '$(php_q "$inst/sessions")',
    'session.phpsession.httponly' => true,
    'session.authtoken.cookiename' => 'SimpleSAMLAuthToken',
    'language.available' => ['en'],
    'language.default' => 'en',
    'language.cookie.secure' => true,
    'store.type' => 'phpsession',
    'metadata.sources' => [['type' => 'flatfile']],
    'production' => true,
];
EOF
}

gen_ssp() {
    local dir=$1 idp="$dir/idp" sp="$dir/sp" d
    for d in "$idp" "$sp"; do
        rm -rf "$d/config" "$d/metadata" "$d/cert"
        mkdir -p "$d/config" "$d/metadata" "$d/cert" "$d/log" "$d/data" "$d/tmp" "$d/sessions" "$d/www"
    done
    local certdata
    certdata=$(sed -e '/-----/d' "$dir/tls/saml-idp.crt" | tr -d '\n')
    cp "$dir/tls/saml-idp.crt" "$idp/cert/saml-idp.crt"
    cp "$dir/tls/saml-idp.key" "$idp/cert/saml-idp.key"

    # ---- IdP
    write_ssp_config "$idp" "$IDP_URL/simplesaml/" true
    cat > "$idp/config/authsources.php" <<'EOF'
<?php
// Generated by Tests/LiveIdP/liveidp.sh.
$config = [
    'admin' => ['core:AdminPassword'],
    'example-userpass' => [
        'exampleauth:UserPass',
        'alice:alice-pass-1' => [
            'uid' => ['alice'],
            'mail' => ['alice@liveidp.test'],
            'displayName' => ['Alice Liveidp'],
            'eduPersonAffiliation' => ['member', 'employee'],
        ],
        'bob:bob-pass-2' => [
            'uid' => ['bob'],
            'mail' => ['bob@liveidp.test'],
            'displayName' => ['Bob Liveidp'],
            'eduPersonAffiliation' => ['member'],
        ],
        // Correct password, then the IdP's authproc filter (saml20-idp-hosted.php) throws.
        'broken:broken-pass-3' => [
            'uid' => ['broken'],
            'mail' => ['broken@liveidp.test'],
            'displayName' => ['Broken Liveidp'],
        ],
    ],
];
EOF
    cat > "$idp/metadata/saml20-idp-hosted.php" <<EOF
<?php
// Generated by Tests/LiveIdP/liveidp.sh.
\$metadata['$IDP_ENTITY'] = [
    'host' => '__DEFAULT__',
    'privatekey' => 'saml-idp.key',
    'certificate' => 'saml-idp.crt',
    'auth' => 'example-userpass',
    'authproc' => [
        // After a correct password for uid=broken the IdP fails: an uncaught
        // SimpleSAML\\Error\\Exception ends on SimpleSAMLphp's stock error page.
        50 => [
            'class' => 'core:PHP',
            'code' => '
                if (isset(\$attributes["uid"][0]) && \$attributes["uid"][0] === "broken") {
                    throw new \\SimpleSAML\\Error\\Exception("LiveIdP: the account broken fails after sign-in (by design)");
                }
            ',
        ],
        // Every sign-in then asks to release the attributes to the SP ("Yes, continue" / "No, cancel"), as many
        // federations' IdPs do; nothing is remembered, so each sign-in meets the page.
        90 => ['class' => 'consent:Consent', 'focus' => 'yes', 'checked' => false],
    ],
];
EOF
    cat > "$idp/metadata/saml20-sp-remote.php" <<EOF
<?php
// Generated by Tests/LiveIdP/liveidp.sh: the SP at $SP_URL.
\$metadata['$SP_ENTITY'] = [
    'AssertionConsumerService' => '$SP_URL/simplesaml/module.php/saml/sp/saml2-acs.php/default-sp',
    'SingleLogoutService' => '$SP_URL/simplesaml/module.php/saml/sp/saml2-logout.php/default-sp',
];
EOF
    cat > "$idp/www/index.html" <<EOF
<!DOCTYPE html>
<html><head><title>LiveIdP IdP</title></head>
<body><h1>LiveIdP identity provider</h1>
<p>SAML 2.0 IdP metadata: <a href="/simplesaml/saml2/idp/metadata.php">/simplesaml/saml2/idp/metadata.php</a></p>
</body></html>
EOF

    # ---- SP
    write_ssp_config "$sp" "$SP_URL/simplesaml/" false
    cat > "$sp/config/authsources.php" <<EOF
<?php
// Generated by Tests/LiveIdP/liveidp.sh.
\$config = [
    'admin' => ['core:AdminPassword'],
    'default-sp' => [
        'saml:SP',
        'entityID' => '$SP_ENTITY',
        'idp' => '$IDP_ENTITY',
        'discoURL' => null,
    ],
];
EOF
    cat > "$sp/metadata/saml20-idp-remote.php" <<EOF
<?php
// Generated by Tests/LiveIdP/liveidp.sh: the IdP at $IDP_URL.
\$metadata['$IDP_ENTITY'] = [
    'SingleSignOnService' => '$IDP_URL/simplesaml/saml2/idp/SSOService.php',
    'SingleLogoutService' => '$IDP_URL/simplesaml/saml2/idp/SingleLogoutService.php',
    'certData' => '$certdata',
];
EOF
    mkdir -p "$sp/www/protected"
    cat > "$sp/www/protected/index.php" <<'EOF'
<?php
// The protected page of the LiveIdP SP: signs in through the IdP, then greets.
require_once '/usr/share/simplesamlphp/lib/_autoload.php';
$as = new \SimpleSAML\Auth\Simple('default-sp');
$as->requireAuth();
$attributes = $as->getAttributes();
$uid = isset($attributes['uid'][0]) ? $attributes['uid'][0] : '(no uid)';
$h = function ($s) { return htmlspecialchars((string) $s, ENT_QUOTES, 'UTF-8'); };
header('Content-Type: text/html; charset=utf-8');
header('Cache-Control: no-store');
echo "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>LiveIdP protected page</title></head>\n<body>\n";
echo '<h1 id="hello">Hello, ' . $h($uid) . "</h1>\n<dl id=\"attributes\">\n";
foreach ($attributes as $name => $values) {
    echo '<dt>' . $h($name) . '</dt><dd>' . $h(implode(', ', $values)) . "</dd>\n";
}
echo "</dl>\n<p><a id=\"logout\" href=\"logout.php\">Sign out</a></p>\n</body></html>\n";
EOF
    cat > "$sp/www/protected/logout.php" <<'EOF'
<?php
// Single logout through the IdP, then back to /whoami.php.
require_once '/usr/share/simplesamlphp/lib/_autoload.php';
$as = new \SimpleSAML\Auth\Simple('default-sp');
$as->logout(\SimpleSAML\Utils\HTTP::getSelfURLHost() . '/whoami.php');
EOF
    cat > "$sp/www/whoami.php" <<'EOF'
<?php
// Unprotected: says whether this browser is signed in at the SP, never redirects.
require_once '/usr/share/simplesamlphp/lib/_autoload.php';
$as = new \SimpleSAML\Auth\Simple('default-sp');
header('Content-Type: text/plain; charset=utf-8');
header('Cache-Control: no-store');
if ($as->isAuthenticated()) {
    $a = $as->getAttributes();
    echo 'signed-in: ' . (isset($a['uid'][0]) ? $a['uid'][0] : '') . "\n";
} else {
    http_response_code(401);
    echo "signed-out\n";
}
EOF
    cat > "$sp/www/index.html" <<'EOF'
<!DOCTYPE html>
<html><head><title>LiveIdP SP</title></head>
<body><h1>LiveIdP service provider</h1>
<p><a href="/protected/">Protected page</a> · <a href="/whoami.php">whoami</a></p>
</body></html>
EOF
}

# ---------------------------------------------------------------- Apache config
gen_httpd_conf() {
    local dir=$1 user_lines="" php_so
    php_so=$(ls "$APACHE_MODDIR"/libphp*.so 2>/dev/null | head -n1)
    [ -n "$php_so" ] || die "no mod_php in $APACHE_MODDIR (run: $0 install)"
    if [ "$(id -u)" -eq 0 ]; then user_lines=$'User www-data\nGroup www-data'; fi
    local m mods=""
    for m in mpm_prefork authz_core authz_host mime dir alias env setenvif socache_shmcb ssl; do
        mods+="LoadModule ${m}_module $APACHE_MODDIR/mod_${m}.so"$'\n'
    done
    cat > "$dir/httpd.conf" <<EOF
# Generated by Tests/LiveIdP/liveidp.sh — Apache for the LiveIdP world only.
ServerRoot "$dir"
DefaultRuntimeDir "$dir/run"
PidFile "$dir/run/httpd.pid"
Mutex file:$dir/run default
ServerName $IDP_ADDR
ServerTokens Prod
ServerSignature Off
$user_lines
$mods
LoadModule php_module $php_so

Listen $IDP_ADDR:$IDP_PORT
Listen $SP_ADDR:$SP_PORT

StartServers 2
MinSpareServers 1
MaxSpareServers 4
MaxRequestWorkers 16
MaxConnectionsPerChild 0
Timeout 30
KeepAlive On

ErrorLog "$dir/logs/error.log"
LogLevel warn
LogFormat "%v:%p %h %t \"%r\" %>s %b %D" liveidp
CustomLog "$dir/logs/access.log" liveidp

TypesConfig /etc/mime.types
DirectoryIndex index.php index.html
AddDefaultCharset Off

<FilesMatch ".+\\.php\$">
    SetHandler application/x-httpd-php
</FilesMatch>
php_admin_value error_log "$dir/logs/php-error.log"
php_admin_flag log_errors on
php_admin_flag display_errors off

<Directory />
    AllowOverride None
    Require all denied
</Directory>
<Directory $SSP_DIR/www>
    AllowOverride None
    Require all granted
</Directory>
<Directory $dir/idp/www>
    Require all granted
</Directory>
<Directory $dir/sp/www>
    Require all granted
</Directory>

SSLRandomSeed startup builtin
SSLSessionCache "shmcb:$dir/run/ssl_scache(512000)"
SSLProtocol all -SSLv3 -TLSv1 -TLSv1.1

<VirtualHost $IDP_ADDR:$IDP_PORT>
    ServerName $IDP_ADDR
    DocumentRoot "$dir/idp/www"
    SSLEngine on
    SSLCertificateFile "$dir/tls/idp.crt"
    SSLCertificateKeyFile "$dir/tls/idp.key"
    SetEnv SIMPLESAMLPHP_CONFIG_DIR "$dir/idp/config"
    Alias /simplesaml $SSP_DIR/www
</VirtualHost>

<VirtualHost $SP_ADDR:$SP_PORT>
    ServerName $SP_ADDR
    DocumentRoot "$dir/sp/www"
    SSLEngine on
    SSLCertificateFile "$dir/tls/sp.crt"
    SSLCertificateKeyFile "$dir/tls/sp.key"
    SetEnv SIMPLESAMLPHP_CONFIG_DIR "$dir/sp/config"
    Alias /simplesaml $SSP_DIR/www
</VirtualHost>
EOF
}

fix_perms() {  # when root, Apache's children run as www-data
    local dir=$1 d
    [ "$(id -u)" -eq 0 ] || return 0
    for d in idp sp; do
        chown -R www-data:www-data "$dir/$d/log" "$dir/$d/data" "$dir/$d/tmp" "$dir/$d/sessions"
        chmod 700 "$dir/$d/sessions"
        chown -R root:www-data "$dir/$d/config" "$dir/$d/metadata" "$dir/$d/cert"
        chmod 750 "$dir/$d/config" "$dir/$d/metadata" "$dir/$d/cert"
        chmod 640 "$dir/$d/config"/* "$dir/$d/metadata"/*
        find "$dir/$d/cert" -type f -exec chmod 640 {} +
    done
    if ! runuser -u www-data -- test -r "$dir/idp/config/config.php" 2>/dev/null; then
        die "www-data cannot read $dir (a parent directory is not traversable); pick a state dir elsewhere"
    fi
}

write_env() {
    local dir=$1
    cat > "$dir/liveidp.env" <<EOF
# Generated by liveidp.sh start; source it from tests.
LIVEIDP_DIR='$dir'
LIVEIDP_CA='$dir/ca.pem'
LIVEIDP_IDP_ADDR='$IDP_ADDR'
LIVEIDP_IDP_PORT='$IDP_PORT'
LIVEIDP_SP_ADDR='$SP_ADDR'
LIVEIDP_SP_PORT='$SP_PORT'
LIVEIDP_IDP_URL='$IDP_URL'
LIVEIDP_SP_URL='$SP_URL'
LIVEIDP_IDP_ENTITY='$IDP_ENTITY'
LIVEIDP_SP_ENTITY='$SP_ENTITY'
LIVEIDP_PROTECTED_URL='$SP_URL/protected/'
LIVEIDP_WHOAMI_URL='$SP_URL/whoami.php'
LIVEIDP_NEWUI='$NEWUI'
EOF
}

print_urls() {
    cat <<EOF
LiveIdP world (state: $LIVEIDP_DIR)
  CA certificate : $LIVEIDP_CA
  IdP            : $LIVEIDP_IDP_URL/simplesaml/   (metadata: $LIVEIDP_IDP_URL/simplesaml/saml2/idp/metadata.php)
  SP             : $LIVEIDP_SP_URL/simplesaml/    (metadata: $LIVEIDP_SP_URL/simplesaml/module.php/saml/sp/metadata.php/default-sp)
  protected page : $LIVEIDP_PROTECTED_URL
  whoami         : $LIVEIDP_WHOAMI_URL
  users          : alice/alice-pass-1  bob/bob-pass-2  broken/broken-pass-3 (fails after password)
EOF
}

# ---------------------------------------------------------------- start / stop / status
cmd_start() {
    local dir; dir=$(abspath "${1:?usage: $0 start DIR}")
    IDP_ADDR=${LIVEIDP_IDP_ADDR:-127.0.0.21}
    SP_ADDR=${LIVEIDP_SP_ADDR:-127.0.0.22}
    IDP_PORT=${LIVEIDP_IDP_PORT:-${LIVEIDP_PORT:-8443}}
    SP_PORT=${LIVEIDP_SP_PORT:-${LIVEIDP_PORT:-8443}}
    NEWUI=${LIVEIDP_NEWUI:-0}
    local timeout=${LIVEIDP_START_TIMEOUT:-30}
    check_addr "$IDP_ADDR"; check_addr "$SP_ADDR"; check_port "$IDP_PORT"; check_port "$SP_PORT"
    [ "$IDP_ADDR:$IDP_PORT" != "$SP_ADDR:$SP_PORT" ] || die "IdP and SP need different address:port"
    [ -x "$APACHE_BIN" ] && [ -d "$SSP_DIR" ] && command -v curl >/dev/null \
        || die "packages missing (run: $0 install)"

    local pid; pid=$(apache_pid "$dir")
    if [ -n "$pid" ]; then
        load_env "$dir"; log "already running (pid $pid)"; print_urls; return 0
    fi
    local a
    for a in "$IDP_ADDR:$IDP_PORT" "$SP_ADDR:$SP_PORT"; do
        if listening "${a%:*}" "${a##*:}"; then
            ss -Hltnp "sport = :${a##*:}" 2>/dev/null | sed 's/^/  /' >&2 || true
            die "something already listens on $a (an earlier world whose state dir was removed? stop it by the PID above)"
        fi
    done

    IDP_URL="https://$IDP_ADDR:$IDP_PORT"
    SP_URL="https://$SP_ADDR:$SP_PORT"
    IDP_ENTITY="$IDP_URL/simplesaml/saml2/idp/metadata.php"
    SP_ENTITY="$SP_URL/simplesaml/module.php/saml/sp/metadata.php/default-sp"

    mkdir -p "$dir/run" "$dir/logs"
    rm -f "$dir/run/httpd.pid"
    gen_certs "$dir"
    gen_ssp "$dir"
    gen_httpd_conf "$dir"
    fix_perms "$dir"
    write_env "$dir"
    load_env "$dir"

    "$APACHE_BIN" -t -f "$dir/httpd.conf" >"$dir/logs/configtest.log" 2>&1 \
        || { cat "$dir/logs/configtest.log" >&2; die "apache config test failed"; }
    # -k start: Apache daemonizes and writes DIR/run/httpd.pid. Started with no signal blocked: a caller's
    # blocked mask (a test runner's threads block most signals) is inherited, and Apache then sat out stop's
    # TERM until the KILL 10 s later.
    if ! perl -MPOSIX -e 'sigprocmask(SIG_SETMASK, POSIX::SigSet->new) or die; exec @ARGV or die "$ARGV[0]: $!\n"' \
        "$APACHE_BIN" -f "$dir/httpd.conf" -k start; then
        tail -n 20 "$dir/logs/error.log" >&2 2>/dev/null || true
        die "apache did not start (see $dir/logs/error.log)"
    fi

    local deadline=$((SECONDS + timeout)) ok=0
    while [ $SECONDS -lt $deadline ]; do
        if probe "$LIVEIDP_IDP_URL/simplesaml/saml2/idp/metadata.php" "$LIVEIDP_CA" \
            && probe "$LIVEIDP_SP_URL/simplesaml/module.php/saml/sp/metadata.php/default-sp" "$LIVEIDP_CA"; then
            ok=1; break
        fi
        if [ -z "$(apache_pid "$dir")" ] && [ -f "$dir/run/httpd.pid" ]; then break; fi
        sleep 0.2
    done
    if [ $ok != 1 ]; then
        log "endpoints did not answer within ${timeout}s; error log:"
        tail -n 30 "$dir/logs/error.log" >&2 || true
        cmd_stop "$dir" || true
        die "start failed"
    fi
    print_urls
    echo "  apache pid     : $(apache_pid "$dir")"
}

cmd_stop() {
    local dir; dir=$(existing "${1:?usage: $0 stop DIR}")
    local pid; pid=$(apache_pid "$dir")
    if [ -z "$pid" ]; then log "not running ($dir)"; rm -f "$dir/run/httpd.pid"; return 0; fi
    # Only our master: its command line must name our config file.
    if [ -r "/proc/$pid/cmdline" ] && ! tr '\0' ' ' < "/proc/$pid/cmdline" | grep -qF -- "$dir/httpd.conf"; then
        die "pid $pid in $dir/run/httpd.pid is not this world's apache; not touching it"
    fi
    kill -TERM "$pid"
    local i
    for i in $(seq 1 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        log "apache $pid ignored TERM for 10s; sending KILL"
        kill -KILL "$pid" 2>/dev/null || true
        sleep 0.5
    fi
    # Workers can outlive their master (finishing a keep-alive connection): stop those by PID too.
    local worker
    for worker in $(pgrep -f -- "$dir/httpd.conf" || true); do kill -TERM "$worker" 2>/dev/null || true; done
    for i in $(seq 1 20); do
        pgrep -f -- "$dir/httpd.conf" >/dev/null || break
        sleep 0.1
    done
    for worker in $(pgrep -f -- "$dir/httpd.conf" || true); do kill -KILL "$worker" 2>/dev/null || true; done
    # wait for the ports to be free
    if [ -f "$dir/liveidp.env" ]; then
        load_env "$dir"
        for i in $(seq 1 50); do
            bound "$LIVEIDP_IDP_ADDR" "$LIVEIDP_IDP_PORT" || bound "$LIVEIDP_SP_ADDR" "$LIVEIDP_SP_PORT" || break
            sleep 0.1
        done
    fi
    rm -f "$dir/run/httpd.pid"
    log "stopped (was pid $pid)"
}

cmd_status() {
    local dir; dir=$(existing "${1:?usage: $0 status DIR}")
    local pid; pid=$(apache_pid "$dir")
    if [ -z "$pid" ]; then echo "stopped ($dir)"; return 3; fi
    load_env "$dir"
    echo "running: apache pid $pid"
    print_urls
    local u rc=0
    for u in "$LIVEIDP_IDP_URL/simplesaml/saml2/idp/metadata.php" \
             "$LIVEIDP_SP_URL/simplesaml/module.php/saml/sp/metadata.php/default-sp"; do
        if probe "$u" "$LIVEIDP_CA"; then echo "  ok   $u"; else echo "  FAIL $u"; rc=1; fi
    done
    return $rc
}

cmd_env() {
    local dir; dir=$(existing "${1:?usage: $0 env DIR}")
    cat "$dir/liveidp.env"
}

case "${1:-}" in
    install) cmd_install ;;
    start)   shift; cmd_start "$@" ;;
    stop)    shift; cmd_stop "$@" ;;
    status)  shift; cmd_status "$@" ;;
    env)     shift; cmd_env "$@" ;;
    *) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac

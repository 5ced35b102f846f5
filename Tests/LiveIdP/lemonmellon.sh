#!/usr/bin/env bash
# lemonmellon.sh — two more live sign-in worlds of real software, beside liveidp.sh:
#   * LemonLDAP::NG 2.16 (Debian): its portal with the Demo user backend, a site protected by its
#     Apache (mod_perl) handler, and the portal as SAML IdP for a SimpleSAMLphp SP;
#   * Apache mod_auth_mellon 0.18 as SAML SP in front of a SimpleSAMLphp 1.19 IdP of its own.
# All of it is one private Apache 2.4 (mod_php, mod_perl, mod_fcgid, mod_auth_mellon, mod_ssl) on
# 127.0.0.30-34 only.
#
#   lemonmellon.sh install      install the Debian packages that are missing
#   lemonmellon.sh start DIR    generate CA, certs, configs under DIR, add the host names, start Apache
#   lemonmellon.sh stop DIR     stop the Apache started from DIR (by PID), remove the host names
#   lemonmellon.sh status DIR   say whether it runs and whether the endpoints answer
#   lemonmellon.sh env DIR      print the world's variables (shell syntax) for tests
#
# LemonLDAP's SSO cookie is a domain cookie (Domain=example.test), so its portal and protected site need
# host names: start adds them to /etc/hosts between "# spconnect lemonmellon BEGIN" and "... END" lines
# (root needed), stop removes that block again. Nothing in /etc/apache2, /etc/lemonldap-ng,
# /var/lib/lemonldap-ng, /etc/simplesamlphp or /usr/share is changed.
#
# Environment (read by `start`; recorded in DIR/lemonmellon.env):
#   LM_PORT (8443)   LM_PORTAL_ADDR (127.0.0.30)  LM_APP_ADDR (127.0.0.31)  LM_LLSP_ADDR (127.0.0.32)
#   LM_IDP_ADDR (127.0.0.33)  LM_MELLON_ADDR (127.0.0.34)  LM_START_TIMEOUT (30)
set -euo pipefail

SSP_DIR=/usr/share/simplesamlphp
LL_DIR=/usr/share/lemonldap-ng
LL_DEMO_CONF=/var/lib/lemonldap-ng/conf/lmConf-1.json
APACHE_BIN=/usr/sbin/apache2
APACHE_MODDIR=/usr/lib/apache2/modules
HOSTS=/etc/hosts
HOSTS_BEGIN="# spconnect lemonmellon BEGIN"
HOSTS_END="# spconnect lemonmellon END"
PACKAGES=(
    apache2 libapache2-mod-php php-cli php-xml php-mbstring php-curl simplesamlphp libapache2-mod-auth-mellon
    lemonldap-ng lemonldap-ng-handler libapache2-mod-perl2 libapache2-mod-fcgid liblasso-perl
    # Perl modules the portal needs for what is used here (Recommends of lemonldap-ng, left out by --no-install-recommends)
    libauthen-oath-perl libconvert-base32-perl libfcgi-perl libfcgi-procmanager-perl libgd-securityimage-perl
    libimage-magick-perl libemail-sender-perl libmime-tools-perl libemail-date-format-perl libauthen-webauthn-perl
    libcrypt-urandom-perl libstring-random-perl libtext-unidecode-perl libunicode-string-perl libxml-simple-perl
    libio-string-perl
    openssl curl
)

WORLD=lemonmellon
CANDIDATE=lemonldap-ng
# shellcheck source=Tests/LiveIdP/world-common.sh
. "$(dirname "$0")/world-common.sh"

# ---------------------------------------------------------------- helpers
probe() {  # probe URL -> 0 when it answers 200 over TLS verified with the world's CA (names resolved by us)
    curl -sS -o /dev/null --max-time 10 --cacert "$DIR/ca.pem" \
        --resolve "auth.example.test:$PORT:$PORTAL_ADDR" --resolve "test1.example.test:$PORT:$APP_ADDR" \
        -w '%{http_code}' "$1" 2>/dev/null | grep -q '^200$'
}

pem_body() { sed -e '/-----/d' "$1" | tr -d '\n'; }

# ---------------------------------------------------------------- certificates and keys
gen_certs() {
    local t="$DIR/tls" stamp="$PORTAL_ADDR $APP_ADDR $LLSP_ADDR $IDP_ADDR $MELLON_ADDR"
    if [ -f "$t/stamp" ] && [ "$(cat "$t/stamp")" = "$stamp" ] \
        && openssl x509 -checkend 86400 -noout -in "$t/server.crt" >/dev/null 2>&1; then
        return 0   # same addresses, valid for another day: reuse
    fi
    rm -rf "$t"; mkdir -p "$t"
    (umask 077
     # RSA keys are most of a first start: the three SAML signing pairs (self-signed; SAML wants RSA) are made
     # side by side, the TLS CA and server keys are EC P-256, which takes milliseconds.
     local name
     for name in ll-saml idp-saml mellon-saml; do
        openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 30 -subj "/O=spconnect LiveIdP/CN=$name" \
            -keyout "$t/$name.key" -out "$t/$name.crt" 2>/dev/null &
     done
     openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$t/server.key" 2>/dev/null
     openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -sha256 -days 30 \
        -subj "/O=spconnect LiveIdP/CN=spconnect lemonmellon test CA" \
        -addext "basicConstraints=critical,CA:TRUE,pathlen:0" -addext "keyUsage=critical,keyCertSign,cRLSign" \
        -keyout "$t/ca.key" -out "$t/ca.crt" 2>/dev/null
     wait
     printf '%s\n' "basicConstraints=critical,CA:FALSE" "keyUsage=critical,digitalSignature" \
        "extendedKeyUsage=serverAuth" \
        "subjectAltName=DNS:auth.example.test,DNS:test1.example.test,IP:$PORTAL_ADDR,IP:$APP_ADDR,IP:$LLSP_ADDR,IP:$IDP_ADDR,IP:$MELLON_ADDR" \
        > "$t/server.ext"
     openssl req -new -key "$t/server.key" -sha256 -subj "/O=spconnect LiveIdP/CN=lemonmellon" \
        -out "$t/server.csr" 2>/dev/null
     openssl x509 -req -sha256 -days 29 -in "$t/server.csr" -CA "$t/ca.crt" -CAkey "$t/ca.key" \
        -CAcreateserial -extfile "$t/server.ext" -out "$t/server.crt" 2>/dev/null
     for name in ll-saml idp-saml mellon-saml server; do
        [ -s "$t/$name.key" ] || die "openssl made no $name key"
     done
    )
    chmod 644 "$t"/*.crt
    cp "$t/ca.crt" "$DIR/ca.pem"; chmod 644 "$DIR/ca.pem"
    echo "$stamp" > "$t/stamp"
}

# ---------------------------------------------------------------- SimpleSAMLphp (IdP for mellon; SP for LemonLDAP)
ssp_config() {  # ssp_config INST BASEURL IDP(true|false)
    local inst=$1
    rm -rf "$inst"; mkdir -p "$inst"/{config,metadata,cert,log,data,tmp,sessions}
    cat > "$inst/config/config.php" <<PHP
<?php
// Generated by Tests/LiveIdP/lemonmellon.sh; regenerated by every start.
\$config = [
    'baseurlpath' => '$(php_q "$2")',
    'certdir' => '$(php_q "$inst/cert/")', 'loggingdir' => '$(php_q "$inst/log/")',
    'datadir' => '$(php_q "$inst/data/")', 'tempdir' => '$(php_q "$inst/tmp")',
    'metadatadir' => '$(php_q "$inst/metadata/")',
    'attributenamemapdir' => '/etc/simplesamlphp/attributemap/',
    'secretsalt' => '$(openssl rand -hex 24)', 'auth.adminpassword' => '$(openssl rand -hex 12)',
    'technicalcontact_name' => 'LiveIdP', 'technicalcontact_email' => 'na@example.org',
    'timezone' => 'UTC', 'admin.protectindexpage' => false, 'admin.protectmetadata' => false,
    'admin.checkforupdates' => false,
    'trusted.url.domains' => ['$IDP_ADDR:$PORT', '$MELLON_ADDR:$PORT', '$LLSP_ADDR:$PORT', 'auth.example.test:$PORT'],
    'showerrors' => true, 'logging.level' => SimpleSAML\Logger::INFO, 'logging.handler' => 'file',
    'logging.logfile' => 'simplesamlphp.log', 'statistics.out' => [],
    'enable.saml20-idp' => $3,
    'module.enable' => ['exampleauth' => true, 'core' => true, 'saml' => true],
    'session.cookie.secure' => true, 'session.cookie.samesite' => 'None',
    'session.phpsession.cookiename' => 'SimpleSAML',
    'session.phpsession.savepath' => '$(php_q "$inst/sessions")', 'session.phpsession.httponly' => true,
    'session.authtoken.cookiename' => 'SimpleSAMLAuthToken',
    'language.available' => ['en'], 'language.default' => 'en',
    'store.type' => 'phpsession', 'metadata.sources' => [['type' => 'flatfile']], 'production' => true,
];
PHP
}

gen_mellon_idp() {  # the SimpleSAMLphp IdP on IDP_ADDR, for the mellon SP only
    local inst="$DIR/idp"
    ssp_config "$inst" "$IDP_URL/simplesaml/" true
    cp "$DIR/tls/idp-saml.crt" "$DIR/tls/idp-saml.key" "$inst/cert/"
    cat > "$inst/config/authsources.php" <<'PHP'
<?php
// Generated by Tests/LiveIdP/lemonmellon.sh.
$config = [
    'admin' => ['core:AdminPassword'],
    'users' => [
        'exampleauth:UserPass',
        'carol:carol-pass-4' => ['uid' => ['carol'], 'mail' => ['carol@liveidp.test'], 'displayName' => ['Carol Mellon']],
    ],
];
PHP
    cat > "$inst/metadata/saml20-idp-hosted.php" <<PHP
<?php
// Generated by Tests/LiveIdP/lemonmellon.sh.
\$metadata['$IDP_ENTITY'] = [
    'host' => '__DEFAULT__', 'privatekey' => 'idp-saml.key', 'certificate' => 'idp-saml.crt', 'auth' => 'users',
];
PHP
    cat > "$inst/metadata/saml20-sp-remote.php" <<PHP
<?php
// Generated by Tests/LiveIdP/lemonmellon.sh: mod_auth_mellon at $MELLON_URL.
\$metadata['$MELLON_ENTITY'] = [
    'AssertionConsumerService' => '$MELLON_URL/mellon/postResponse',
    'SingleLogoutService' => '$MELLON_URL/mellon/logout',
    'NameIDFormat' => 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
    'certData' => '$(pem_body "$DIR/tls/mellon-saml.crt")',
];
PHP
    mkdir -p "$DIR/www/idp"
    echo '<!DOCTYPE html><html><head><title>lemonmellon IdP</title></head><body><h1>SimpleSAMLphp IdP for mellon</h1></body></html>' \
        > "$DIR/www/idp/index.html"
}

gen_mellon_sp() {
    local m="$DIR/mellon"
    rm -rf "$m"; mkdir -p "$m" "$DIR/www/mellon/protected"
    cp "$DIR/tls/mellon-saml.crt" "$DIR/tls/mellon-saml.key" "$m/"
    cat > "$m/sp-metadata.xml" <<XML
<?xml version="1.0"?>
<!-- Generated by Tests/LiveIdP/lemonmellon.sh: the mod_auth_mellon SP. -->
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="$MELLON_ENTITY">
  <md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" AuthnRequestsSigned="true">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>$(pem_body "$m/mellon-saml.crt")</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="$MELLON_URL/mellon/logout"/>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:transient</md:NameIDFormat>
    <md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="$MELLON_URL/mellon/postResponse" index="0"/>
  </md:SPSSODescriptor>
</md:EntityDescriptor>
XML
    cat > "$m/idp-metadata.xml" <<XML
<?xml version="1.0"?>
<!-- Generated by Tests/LiveIdP/lemonmellon.sh: the SimpleSAMLphp IdP at $IDP_URL. -->
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="$IDP_ENTITY">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>$(pem_body "$DIR/tls/idp-saml.crt")</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="$IDP_URL/simplesaml/saml2/idp/SingleLogoutService.php"/>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:transient</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="$IDP_URL/simplesaml/saml2/idp/SSOService.php"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>
XML
    cat > "$DIR/www/mellon/protected/index.php" <<'PHP'
<?php
// Behind mod_auth_mellon (MellonUser uid): greets the signed-in user.
$h = function ($s) { return htmlspecialchars((string) $s, ENT_QUOTES, 'UTF-8'); };
header('Content-Type: text/html; charset=utf-8');
header('Cache-Control: no-store');
echo "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>mellon protected page</title></head>\n<body>\n";
echo '<h1 id="hello">Hello, ' . $h($_SERVER['REMOTE_USER'] ?? '(nobody)') . "</h1>\n</body></html>\n";
PHP
    echo '<!DOCTYPE html><html><head><title>mellon SP</title></head><body><h1>mod_auth_mellon SP</h1><p><a href="/protected/">Protected page</a></p></body></html>' \
        > "$DIR/www/mellon/index.html"
}

gen_ll_sp() {  # the SimpleSAMLphp SP on LLSP_ADDR whose IdP is LemonLDAP
    local inst="$DIR/llsp"
    ssp_config "$inst" "$LLSP_URL/simplesaml/" false
    cat > "$inst/config/authsources.php" <<PHP
<?php
// Generated by Tests/LiveIdP/lemonmellon.sh.
\$config = [
    'admin' => ['core:AdminPassword'],
    'll-sp' => ['saml:SP', 'entityID' => '$LLSP_ENTITY', 'idp' => '$LL_ENTITY', 'discoURL' => null],
];
PHP
    cat > "$inst/metadata/saml20-idp-remote.php" <<PHP
<?php
// Generated by Tests/LiveIdP/lemonmellon.sh: LemonLDAP::NG's SAML IdP.
\$metadata['$LL_ENTITY'] = [
    'SingleSignOnService' => '$PORTAL_URL/saml/singleSignOn',
    'SingleLogoutService' => '$PORTAL_URL/saml/singleLogout',
    'certData' => '$(pem_body "$DIR/tls/ll-saml.crt")',
];
PHP
    mkdir -p "$DIR/www/llsp/protected"
    cat > "$DIR/www/llsp/protected/index.php" <<'PHP'
<?php
// Signs in through LemonLDAP::NG (SAML), then greets.
require_once '/usr/share/simplesamlphp/lib/_autoload.php';
$as = new \SimpleSAML\Auth\Simple('ll-sp');
$as->requireAuth();
$a = $as->getAttributes();
$h = function ($s) { return htmlspecialchars((string) $s, ENT_QUOTES, 'UTF-8'); };
header('Content-Type: text/html; charset=utf-8');
header('Cache-Control: no-store');
echo "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>LemonLDAP SAML SP protected page</title></head>\n<body>\n";
echo '<h1 id="hello">Hello, ' . $h($a['uid'][0] ?? '(no uid)') . "</h1>\n</body></html>\n";
PHP
    echo '<!DOCTYPE html><html><head><title>LemonLDAP SAML SP</title></head><body><p><a href="/protected/">Protected page</a></p></body></html>' \
        > "$DIR/www/llsp/index.html"
}

# ---------------------------------------------------------------- LemonLDAP::NG
gen_lemonldap() {
    local l="$DIR/ll"
    rm -rf "$l"; mkdir -p "$l"/{conf,cache,sessions/lock,psessions/lock,notifications,captcha,log,fcgid} "$DIR/www/test1"
    cat > "$l/lemonldap-ng.ini" <<INI
; Generated by Tests/LiveIdP/lemonmellon.sh. Read by the portal (FastCGI) and the handler (mod_perl).
[all]
logLevel = notice
logger = Lemonldap::NG::Common::Logger::Std
checkTime = 1
[configuration]
type = File
dirName = $l/conf
localStorage = Cache::FileCache
localStorageOptions = { 'namespace' => 'lemonldap-ng-config', 'default_expires_in' => 600, 'directory_umask' => '007', 'cache_root' => '$l/cache', 'cache_depth' => 3 }
[portal]
staticPrefix = /static
templateDir = $LL_DIR/portal/templates
languages = en
[handler]
status = 0
useRedirectOnError = 1
INI
    # rtyler's TOTP secret: base32, kept across starts of the same DIR (an authenticator app would keep it too)
    if [ ! -s "$DIR/rtyler.totp" ]; then
        (umask 077; openssl rand 20 | basenc --base32 > "$DIR/rtyler.totp")
    fi
    chmod 600 "$DIR/rtyler.totp"
    # The configuration: Debian's demo lmConf-1.json (only read), with this world's names, paths, rules,
    # second factors and SAML IdP set on top.
    LM_L="$l" LM_PORT="$PORT" LM_LL_KEY="$DIR/tls/ll-saml.key" LM_LL_CRT="$DIR/tls/ll-saml.crt" \
    LM_LLSP_URL="$LLSP_URL" LM_LLSP_ENTITY="$LLSP_ENTITY" LM_LL_ENTITY="$LL_ENTITY" \
        perl -MJSON::PP -e '
        my ($demo, $out) = @ARGV;
        local $/; open my $in, "<", $demo or die "$demo: $!"; my $c = decode_json(<$in>); close $in;
        my $slurp = sub { open my $f, "<", $_[0] or die "$_[0]: $!"; local $/; scalar <$f> };
        my ($l, $port) = @ENV{qw(LM_L LM_PORT)};
        my $portal = "https://auth.example.test:$port/";
        my $acs = "$ENV{LM_LLSP_URL}/simplesaml/module.php/saml/sp/saml2-acs.php/ll-sp";
        my %set = (
            cfgNum => 1, cfgAuthor => "Tests/LiveIdP/lemonmellon.sh", cfgDate => time,
            domain => "example.test", portal => $portal, https => 1, securedCookie => 1,
            trustedDomains => "auth.example.test:$port test1.example.test:$port",
            globalStorage => "Apache::Session::File",
            globalStorageOptions => { Directory => "$l/sessions", LockDirectory => "$l/sessions/lock",
                generateModule => "Lemonldap::NG::Common::Apache::Session::Generate::SHA256" },
            persistentStorage => "Apache::Session::File",
            persistentStorageOptions => { Directory => "$l/psessions", LockDirectory => "$l/psessions/lock" },
            localSessionStorage => "Cache::FileCache",
            localSessionStorageOptions => { namespace => "lemonldap-ng-sessions", cache_root => "$l/cache",
                cache_depth => 3, default_expires_in => 600, directory_umask => "007" },
            notificationStorageOptions => { dirName => "$l/notifications" },
            locationRules => { "auth.example.test" => { default => "accept" },
                               "test1.example.test" => { "^/logout" => "logout_sso", default => "accept" } },
            exportedHeaders => { "test1.example.test" => { "Auth-User" => q{$uid} } },
            vhostOptions => { "test1.example.test" => { vhostPort => $port, vhostHttps => 1, vhostMaintenance => 0,
                vhostAliases => "", vhostType => "Main" } },
            applicationList => {}, loginHistoryEnabled => 0,
            # TOTP on; msmith must register a second factor before going on; rtyler has one registered
            totp2fActivation => 1, totp2fSelfRegistration => 1, totp2fIssuer => "spconnect LiveIdP",
            sfRequired => q{$uid eq "msmith"},
            # SAML IdP under /saml/ for the SimpleSAMLphp SP ll-sp
            issuerDBSAMLActivation => 1, issuerDBSAMLPath => "^/saml/", issuerDBSAMLRule => 1,
            samlEntityID => $ENV{LM_LL_ENTITY},
            samlServicePrivateKeySig => $slurp->($ENV{LM_LL_KEY}), samlServicePrivateKeySigPwd => "",
            samlServicePublicKeySig => $slurp->($ENV{LM_LL_CRT}),
            samlSPMetaDataXML => { "ll-sp" => { samlSPMetaDataXML => qq{<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="$ENV{LM_LLSP_ENTITY}">
 <md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
  <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:transient</md:NameIDFormat>
  <md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="$acs" index="0"/>
 </md:SPSSODescriptor>
</md:EntityDescriptor>} } },
            samlSPMetaDataOptions => { "ll-sp" => {
                samlSPMetaDataOptionsNameIDFormat => "transient", samlSPMetaDataOptionsSignSSOMessage => 1,
                samlSPMetaDataOptionsCheckSSOMessageSignature => 0, samlSPMetaDataOptionsSignSLOMessage => 1,
                samlSPMetaDataOptionsCheckSLOMessageSignature => 0, samlSPMetaDataOptionsEncryptionMode => "none",
                samlSPMetaDataOptionsEnableIDPInitiatedURL => 0, samlSPMetaDataOptionsForceUTF8 => 1,
                samlSPMetaDataOptionsOneTimeUse => 0, samlSPMetaDataOptionsNotOnOrAfterTimeout => 72000,
                samlSPMetaDataOptionsSessionNotOnOrAfterTimeout => 72000,
                samlSPMetaDataOptionsSignatureMethod => "RSA_SHA256" } },
            samlSPMetaDataExportedAttributes => { "ll-sp" => {
                uid => "1;uid;urn:oasis:names:tc:SAML:2.0:attrname-format:basic;uid",
                cn => "0;displayName;urn:oasis:names:tc:SAML:2.0:attrname-format:basic;displayName",
                mail => "0;mail;urn:oasis:names:tc:SAML:2.0:attrname-format:basic;mail" } },
        );
        $c->{$_} = $set{$_} for keys %set;
        for my $k (qw(mailUrl registerUrl)) { $c->{$k} =~ s{^https?://[^/]+/}{$portal} if $c->{$k} }
        open my $o, ">", $out or die "$out: $!"; print $o JSON::PP->new->canonical->pretty->encode($c); close $o;
    ' "$LL_DEMO_CONF" "$l/conf/lmConf-1.json"
    # rtyler's registered TOTP device lives in his persistent session, written with LemonLDAP's own library.
    LLNG_DEFAULTCONFFILE="$l/lemonldap-ng.ini" perl -MLemonldap::NG::Common::Session \
        -MLemonldap::NG::Common::Util=getPSessionID -e '
        my ($dir, $secret) = @ARGV;
        my $devices = qq([{"type":"TOTP","name":"spconnect LiveIdP","_secret":"$secret","epoch":) . time . "}]";
        my $s = Lemonldap::NG::Common::Session->new({
            storageModule => "Apache::Session::File",
            storageModuleOptions => { Directory => $dir, LockDirectory => "$dir/lock" },
            id => getPSessionID("rtyler"), force => 1, kind => "Persistent",
            info => { _session_uid => "rtyler", _2fDevices => $devices } });
        $s->data or die "the persistent session of rtyler: " . ($s->error // "not written") . "\n";
    ' "$l/psessions" "$(cat "$DIR/rtyler.totp")"
    cat > "$DIR/www/test1/index.php" <<'PHP'
<?php
// Behind LemonLDAP::NG's handler, which sends the user as the Auth-User header.
$h = function ($s) { return htmlspecialchars((string) $s, ENT_QUOTES, 'UTF-8'); };
header('Content-Type: text/html; charset=utf-8');
header('Cache-Control: no-store');
echo "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>test1 protected page</title></head>\n<body>\n";
echo '<h1 id="hello">Hello, ' . $h($_SERVER['HTTP_AUTH_USER'] ?? '(nobody)') . "</h1>\n</body></html>\n";
PHP
}

# ---------------------------------------------------------------- Apache
gen_httpd_conf() {
    local php_so m mods="" user_lines=""
    php_so=$(ls "$APACHE_MODDIR"/libphp*.so 2>/dev/null | head -n1)
    [ -n "$php_so" ] || die "no mod_php in $APACHE_MODDIR (run: $0 install)"
    if [ "$(id -u)" -eq 0 ]; then user_lines=$'User www-data\nGroup www-data'; fi
    for m in mpm_prefork authz_core authz_host authn_core authz_user mime dir alias env setenvif headers rewrite \
             socache_shmcb ssl fcgid perl auth_mellon; do
        mods+="LoadModule ${m}_module $APACHE_MODDIR/mod_${m}.so"$'\n'
    done
    local tls="SSLEngine on
    SSLCertificateFile \"$DIR/tls/server.crt\"
    SSLCertificateKeyFile \"$DIR/tls/server.key\""
    local mellon_common="MellonEndpointPath /mellon
        MellonSPentityId \"$MELLON_ENTITY\"
        MellonSPPrivateKeyFile \"$DIR/mellon/mellon-saml.key\"
        MellonSPCertFile \"$DIR/mellon/mellon-saml.crt\"
        MellonSPMetadataFile \"$DIR/mellon/sp-metadata.xml\"
        MellonIdPMetadataFile \"$DIR/mellon/idp-metadata.xml\"
        MellonSecureCookie On
        MellonUser uid"
    cat > "$DIR/httpd.conf" <<CONF
# Generated by Tests/LiveIdP/lemonmellon.sh — Apache for the LemonLDAP::NG and mellon worlds only.
ServerRoot "$DIR"
DefaultRuntimeDir "$DIR/run"
PidFile "$DIR/run/httpd.pid"
Mutex file:$DIR/run default
ServerName $PORTAL_ADDR
ServerTokens Prod
ServerSignature Off
$user_lines
$mods
LoadModule php_module $php_so

Listen $PORTAL_ADDR:$PORT
Listen $APP_ADDR:$PORT
Listen $LLSP_ADDR:$PORT
Listen $IDP_ADDR:$PORT
Listen $MELLON_ADDR:$PORT

StartServers 2
MinSpareServers 1
MaxSpareServers 4
MaxRequestWorkers 16
Timeout 30
KeepAlive On

ErrorLog "$DIR/logs/error.log"
LogLevel warn
LogFormat "%v:%p %h %t \"%r\" %>s %b %D" lemonmellon
CustomLog "$DIR/logs/access.log" lemonmellon
TypesConfig /etc/mime.types
DirectoryIndex index.php index.html
AddDefaultCharset Off

<FilesMatch ".+\\.php\$">
    SetHandler application/x-httpd-php
</FilesMatch>
php_admin_value error_log "$DIR/logs/php-error.log"
php_admin_flag log_errors on
php_admin_flag display_errors off

SSLRandomSeed startup builtin
SSLSessionCache "shmcb:$DIR/run/ssl_scache(512000)"
SSLProtocol all -SSLv3 -TLSv1 -TLSv1.1

# LemonLDAP::NG: the portal runs as FastCGI (mod_fcgid), the handler in mod_perl.
FcgidIPCDir "$DIR/ll/fcgid"
FcgidProcessTableFile "$DIR/ll/fcgid/shm"
FcgidInitialEnv LLNG_DEFAULTCONFFILE "$DIR/ll/lemonldap-ng.ini"
FcgidMaxRequestLen 2000000
FcgidMaxProcessesPerClass 2
PerlSetEnv LLNG_DEFAULTCONFFILE "$DIR/ll/lemonldap-ng.ini"
PerlOptions +GlobalRequest
PerlModule Lemonldap::NG::Handler::ApacheMP2

<Directory />
    AllowOverride None
    Require all denied
</Directory>
<Directory $SSP_DIR/www>
    Require all granted
</Directory>
<Directory $DIR/www>
    Require all granted
</Directory>

<VirtualHost $PORTAL_ADDR:$PORT>
    ServerName auth.example.test
    $tls
    DocumentRoot "$LL_DIR/portal/htdocs"
    <Directory "$LL_DIR/portal/htdocs">
        Require all granted
        Options +ExecCGI +FollowSymLinks
    </Directory>
    RewriteEngine On
    RewriteCond "%{REQUEST_URI}" "!^/(?:(?:static|javascript|favicon).*|.*\\.fcgi(?:/.*)?)\$"
    RewriteRule "^/(.+)\$" "/index.fcgi/\$1" [PT]
    <Files *.fcgi>
        SetHandler fcgid-script
        CGIPassAuth On
        Options +ExecCGI
        Header unset Lm-Remote-User
    </Files>
    Alias /static/ "$LL_DIR/portal/htdocs/static/"
    Alias /javascript/ /usr/share/javascript/
    <Directory /usr/share/javascript>
        Require all granted
    </Directory>
    DirectoryIndex index.fcgi
</VirtualHost>

<VirtualHost $APP_ADDR:$PORT>
    ServerName test1.example.test
    $tls
    PerlHeaderParserHandler Lemonldap::NG::Handler::ApacheMP2
    DocumentRoot "$DIR/www/test1"
</VirtualHost>

<VirtualHost $LLSP_ADDR:$PORT>
    ServerName $LLSP_ADDR
    $tls
    DocumentRoot "$DIR/www/llsp"
    SetEnv SIMPLESAMLPHP_CONFIG_DIR "$DIR/llsp/config"
    Alias /simplesaml $SSP_DIR/www
</VirtualHost>

<VirtualHost $IDP_ADDR:$PORT>
    ServerName $IDP_ADDR
    $tls
    DocumentRoot "$DIR/www/idp"
    SetEnv SIMPLESAMLPHP_CONFIG_DIR "$DIR/idp/config"
    Alias /simplesaml $SSP_DIR/www
</VirtualHost>

<VirtualHost $MELLON_ADDR:$PORT>
    ServerName $MELLON_ADDR
    $tls
    DocumentRoot "$DIR/www/mellon"
    <Location />
        MellonEnable info
        $mellon_common
    </Location>
    <Location /protected>
        MellonEnable auth
        AuthType Mellon
        Require valid-user
    </Location>
</VirtualHost>
CONF
}

fix_perms() {  # as root, Apache's children (and the portal) run as www-data
    [ "$(id -u)" -eq 0 ] || return 0
    local d
    for d in idp llsp; do
        chown -R www-data:www-data "$DIR/$d/log" "$DIR/$d/data" "$DIR/$d/tmp" "$DIR/$d/sessions"
        chmod 700 "$DIR/$d/sessions"
        chown -R root:www-data "$DIR/$d/config" "$DIR/$d/metadata" "$DIR/$d/cert"
        chmod -R g+rX,o-rwx "$DIR/$d/config" "$DIR/$d/metadata" "$DIR/$d/cert"
    done
    chown -R www-data:www-data "$DIR/ll"
    chmod -R o-rwx "$DIR/ll"
    chown -R root:www-data "$DIR/mellon"; chmod -R g+rX,o-rwx "$DIR/mellon"
    runuser -u www-data -- test -r "$DIR/ll/lemonldap-ng.ini" 2>/dev/null \
        || die "www-data cannot read $DIR (a parent directory is not traversable); pick a state dir elsewhere"
}

write_env() {
    cat > "$DIR/lemonmellon.env" <<ENV
# Generated by lemonmellon.sh start; source it from tests.
LM_DIR='$DIR'
LM_CA='$DIR/ca.pem'
LM_PORT='$PORT'
LM_PORTAL_ADDR='$PORTAL_ADDR'
LM_APP_ADDR='$APP_ADDR'
LM_LLSP_ADDR='$LLSP_ADDR'
LM_IDP_ADDR='$IDP_ADDR'
LM_MELLON_ADDR='$MELLON_ADDR'
LM_PORTAL_URL='$PORTAL_URL/'
LM_TEST1_URL='https://test1.example.test:$PORT/'
LM_LLSP_PROTECTED_URL='$LLSP_URL/protected/'
LM_MELLON_PROTECTED_URL='$MELLON_URL/protected/'
LM_IDP_URL='$IDP_URL'
LM_RTYLER_TOTP_FILE='$DIR/rtyler.totp'
ENV
}

print_urls() {
    cat <<EOF
lemonmellon world (state: $LM_DIR)
  CA certificate   : $LM_CA
  LemonLDAP portal : $LM_PORTAL_URL  (auth.example.test = $LM_PORTAL_ADDR; SAML IdP under /saml/)
  LemonLDAP site   : $LM_TEST1_URL  (test1.example.test = $LM_APP_ADDR, the mod_perl handler)
  SAML SP (LL IdP) : $LM_LLSP_PROTECTED_URL
  mellon SP        : $LM_MELLON_PROTECTED_URL  (IdP $LM_IDP_URL/simplesaml/)
  users            : LemonLDAP dwho/dwho, rtyler/rtyler (+TOTP $LM_RTYLER_TOTP_FILE), msmith/msmith (must register 2FA);
                     mellon's IdP carol/carol-pass-4
EOF
}

set_world() {
    PORT=${LM_PORT:-8443}
    PORTAL_ADDR=${LM_PORTAL_ADDR:-127.0.0.30}; APP_ADDR=${LM_APP_ADDR:-127.0.0.31}
    LLSP_ADDR=${LM_LLSP_ADDR:-127.0.0.32}; IDP_ADDR=${LM_IDP_ADDR:-127.0.0.33}
    MELLON_ADDR=${LM_MELLON_ADDR:-127.0.0.34}
    PORTAL_URL="https://auth.example.test:$PORT"
    LLSP_URL="https://$LLSP_ADDR:$PORT"; IDP_URL="https://$IDP_ADDR:$PORT"; MELLON_URL="https://$MELLON_ADDR:$PORT"
    LL_ENTITY="$PORTAL_URL/saml/metadata"
    LLSP_ENTITY="$LLSP_URL/simplesaml/module.php/saml/sp/metadata.php/ll-sp"
    IDP_ENTITY="$IDP_URL/simplesaml/saml2/idp/metadata.php"
    MELLON_ENTITY="$MELLON_URL/mellon/metadata"
}

# ---------------------------------------------------------------- start / stop / status
cmd_start() {
    DIR=$(abspath "${1:?usage: $0 start DIR}")
    local t0=$EPOCHREALTIME t1 t2
    set_world
    local timeout=${LM_START_TIMEOUT:-30} a
    for a in "$PORTAL_ADDR" "$APP_ADDR" "$LLSP_ADDR" "$IDP_ADDR" "$MELLON_ADDR"; do check_addr "$a"; done
    [[ $PORT =~ ^[0-9]+$ ]] && [ "$PORT" -ge 1024 ] && [ "$PORT" -le 65535 ] || die "port $PORT is not in 1024..65535"
    [ -x "$APACHE_BIN" ] && [ -d "$SSP_DIR" ] && [ -f "$LL_DEMO_CONF" ] && [ -f "$APACHE_MODDIR/mod_auth_mellon.so" ] \
        && [ -f "$APACHE_MODDIR/mod_perl.so" ] && [ -f "$APACHE_MODDIR/mod_fcgid.so" ] || die "packages missing (run: $0 install)"
    local pid; pid=$(apache_pid "$DIR")
    if [ -n "$pid" ]; then load_env "$DIR"; log "already running (pid $pid)"; print_urls; return 0; fi
    for a in "$PORTAL_ADDR" "$APP_ADDR" "$LLSP_ADDR" "$IDP_ADDR" "$MELLON_ADDR"; do
        if bound "$a" "$PORT" || bound 0.0.0.0 "$PORT"; then
            ss -Hltnp "sport = :$PORT" 2>/dev/null | sed 's/^/  /' >&2 || true
            die "something already listens on $a:$PORT (stop it by the PID above)"
        fi
    done
    mkdir -p "$DIR/run" "$DIR/logs"
    rm -f "$DIR/run/httpd.pid"
    gen_certs
    gen_mellon_idp
    gen_mellon_sp
    gen_ll_sp
    gen_lemonldap
    gen_httpd_conf
    fix_perms
    write_env
    load_env "$DIR"
    "$APACHE_BIN" -t -f "$DIR/httpd.conf" > "$DIR/logs/configtest.log" 2>&1 \
        || { cat "$DIR/logs/configtest.log" >&2; die "apache config test failed"; }
    hosts_add "$DIR" "$PORTAL_ADDR auth.example.test" "$APP_ADDR test1.example.test"
    t1=$EPOCHREALTIME
    # Started with no signal blocked: a caller's blocked mask (a test runner's threads block most signals) is
    # inherited through Apache by the portal's FastCGI process, which then never sees stop's TERM.
    if ! perl -MPOSIX -e 'sigprocmask(SIG_SETMASK, POSIX::SigSet->new) or die; exec @ARGV or die "$ARGV[0]: $!\n"' \
        "$APACHE_BIN" -f "$DIR/httpd.conf" -k start; then
        tail -n 20 "$DIR/logs/error.log" >&2 2>/dev/null || true
        hosts_remove "$DIR"
        die "apache did not start (see $DIR/logs/error.log)"
    fi
    # Ready when the portal (its FastCGI process loads LemonLDAP on the first request) and both
    # SimpleSAMLphp instances answer.
    local deadline=$((SECONDS + timeout)) ok=0
    while [ $SECONDS -lt $deadline ]; do
        if probe "$PORTAL_URL/" && probe "$IDP_URL/simplesaml/saml2/idp/metadata.php" \
            && probe "$LLSP_URL/simplesaml/module.php/saml/sp/metadata.php/ll-sp"; then
            ok=1; break
        fi
        [ -n "$(apache_pid "$DIR")" ] || break
        sleep 0.2
    done
    if [ $ok != 1 ]; then
        log "endpoints did not answer within ${timeout}s; error log:"
        tail -n 30 "$DIR/logs/error.log" >&2 || true
        cmd_stop "$DIR" || true
        die "start failed"
    fi
    t2=$EPOCHREALTIME
    print_urls
    echo "  apache pid       : $(apache_pid "$DIR")"
    awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "  started in %.1f s (configuration %.1f s, apache until answering %.1f s)\n", c - a, b - a, c - b }'

}

cmd_stop() {
    DIR=$(existing "${1:?usage: $0 stop DIR}")
    local pid; pid=$(apache_pid "$DIR")
    if [ -z "$pid" ]; then
        log "not running ($DIR)"; rm -f "$DIR/run/httpd.pid"; hosts_remove "$DIR"; return 0
    fi
    if [ -r "/proc/$pid/cmdline" ] && ! tr '\0' ' ' < "/proc/$pid/cmdline" | grep -qF -- "$DIR/httpd.conf"; then
        die "pid $pid in $DIR/run/httpd.pid is not this world's apache; not touching it"
    fi
    kill -TERM "$pid"
    local i
    for i in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
        log "apache $pid ignored TERM for 10s; sending KILL"; kill -KILL "$pid" 2>/dev/null || true; sleep 0.5
    fi
    # Workers and the portal's FastCGI process can outlive the master for a moment: by PID, those of DIR only
    # (a portal process is DIR's when its environment names DIR's lemonldap-ng.ini).
    local p left
    portal_pids() {
        for p in $(pgrep -f -- "$LL_DIR/portal/htdocs/index.fcgi" || true); do
            tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null \
                | grep -qxF "LLNG_DEFAULTCONFFILE=$DIR/ll/lemonldap-ng.ini" && echo "$p"
        done
        return 0
    }
    for p in $(pgrep -f -- "$DIR/httpd.conf" || true) $(portal_pids); do kill -TERM "$p" 2>/dev/null || true; done
    for i in $(seq 1 20); do
        left=$( (pgrep -f -- "$DIR/httpd.conf" || true; portal_pids) | grep -c . || true)
        [ "$left" -gt 0 ] || break
        sleep 0.1
    done
    for p in $(pgrep -f -- "$DIR/httpd.conf" || true) $(portal_pids); do
        log "pid $p outlived TERM; sending KILL"; kill -KILL "$p" 2>/dev/null || true
    done
    if [ -f "$DIR/lemonmellon.env" ]; then
        load_env "$DIR"
        for i in $(seq 1 50); do
            bound "$LM_PORTAL_ADDR" "$LM_PORT" || bound "$LM_MELLON_ADDR" "$LM_PORT" || break
            sleep 0.1
        done
    fi
    rm -f "$DIR/run/httpd.pid"
    hosts_remove "$DIR"
    log "stopped (was pid $pid)"
}

cmd_status() {
    DIR=$(existing "${1:?usage: $0 status DIR}")
    local pid; pid=$(apache_pid "$DIR")
    if [ -z "$pid" ]; then echo "stopped ($DIR)"; return 3; fi
    load_env "$DIR"
    PORT=$LM_PORT; PORTAL_ADDR=$LM_PORTAL_ADDR; APP_ADDR=$LM_APP_ADDR
    echo "running: apache pid $pid"
    print_urls
    local u rc=0
    for u in "$LM_PORTAL_URL" "$LM_IDP_URL/simplesaml/saml2/idp/metadata.php" \
             "https://$LM_LLSP_ADDR:$LM_PORT/simplesaml/module.php/saml/sp/metadata.php/ll-sp" \
             "https://$LM_MELLON_ADDR:$LM_PORT/mellon/metadata"; do
        if probe "$u"; then echo "  ok   $u"; else echo "  FAIL $u"; rc=1; fi
    done
    return $rc
}

cmd_env() { DIR=$(existing "${1:?usage: $0 env DIR}"); cat "$DIR/lemonmellon.env"; }

case "${1:-}" in
    install) cmd_install ;;
    start)   shift; cmd_start "$@" ;;
    stop)    shift; cmd_stop "$@" ;;
    status)  shift; cmd_status "$@" ;;
    env)     shift; cmd_env "$@" ;;
    *) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac

#!/usr/bin/env python3
"""certauth_host.py - a stand-in for Entra's certauth endpoint, for spconnect's certificate sign-in tests.

Entra's certauth host asks for the user's certificate in the TLS handshake (../shared/docs/entra-passwordless.md
section 1). spsim cannot (libmicrohttpd would need GnuTLS calls), so this program does that part with Python's own
TLS, and spsim does the rest. Standard library only.

    certauth_host.py --listen 127.0.0.52 --port-file FILE --cert server.pem --key server.key \
        --trusted-ca ca.pem [--other-ca other.pem] --secret-file FILE --login-url URL \
        [--revoked SERIAL,...] [--revoked-code CODE] [--log FILE] [--pid-file FILE]

POST /{tenant}/certauth with ctx and flowToken (the page's post):
  * no certificate in the handshake: AADSTS50192 (RawCredentialExpectedNotFound);
  * a certificate whose issuer is not --trusted-ca (the handshake accepts --other-ca's, as Entra's TLS layer takes any
    certificate and its validation fails after): AADSTS50017 (CertificateValidationFailed);
  * a serial in --revoked: --revoked-code (Entra's code for it is not documented; default 50017);
  * no RFC822Name (e-mail) in the subject alternative names to bind: AADSTS1001003. The binding is RFC822Name to the
    user's name, one of Entra's documented username bindings (the default, the UPN other-name, needs an ASN.1
    reader the standard library lacks);
  * otherwise an auto-post form back to --login-url with ctx, flowtoken and certificatetoken =
    base64url(JSON {upn, ctx, iat, mfa}) "." base64url(HMAC-SHA256(secret, first part)), spsim's format.
Errors are Entra's error page shape: a $Config with pgid ConvergedError, sErrorCode and sErrTxt. Each decision is one
line in --log. Runs until SIGTERM; the port it got is written to --port-file.
"""
import argparse
import base64
import hashlib
import hmac
import html
import json
import os
import signal
import ssl
import sys
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ERRORS = {
    "50192": "AADSTS50192: No certificate was sent. A TLS-inspecting proxy may have removed it.",
    "50017": "AADSTS50017: Certificate validation failed.",
    "1001003": "AADSTS1001003: Unable to acquire the value specified in the binding from the certificate.",
}


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def names(pairs):
    """A certificate name (ssl's tuple of RDN tuples) as a comparable tuple."""
    return tuple(sorted(item for rdn in pairs for item in rdn))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listen", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--trusted-ca", required=True)
    parser.add_argument("--other-ca")
    parser.add_argument("--secret-file", required=True)
    parser.add_argument("--login-url", required=True)
    parser.add_argument("--revoked", default="")
    parser.add_argument("--revoked-code", default="50017")
    parser.add_argument("--log")
    parser.add_argument("--pid-file", help="where to write this process's id (the tests stop it by PID)")
    args = parser.parse_args()
    # A test runner's threads block most signals, and a child inherits the mask: unblock TERM and INT so that the
    # tests' stop by PID ends this process.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))

    with open(args.secret_file, "rb") as handle:
        secret = handle.read().strip()
    trusted_subject = names(ssl._ssl._test_decode_cert(args.trusted_ca)["subject"])
    revoked = {serial.strip().upper() for serial in args.revoked.split(",") if serial.strip()}

    def log(line: str) -> None:
        if args.log:
            with open(args.log, "a", encoding="utf-8") as handle:
                handle.write(line + "\n")

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_):  # quiet: decisions go to --log
            pass

        def page(self, status: int, body: str) -> None:
            data = body.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)

        def error(self, code: str, text: str = "") -> None:
            text = text or ERRORS.get(code, "AADSTS%s: Certificate validation failed." % code)
            log("refused code=%s" % code)
            config = json.dumps(
                {"pgid": "ConvergedError", "sErrorCode": code, "iErrorCode": int(code), "sErrTxt": text})
            self.page(200, "<!DOCTYPE html><html><head><title>Sign in to your account</title><script>$Config="
                      + config.replace("<", "\\u003c") + ";</script></head><body></body></html>")

        def do_POST(self) -> None:
            if not self.path.split("?")[0].endswith("/certauth"):
                self.page(404, "<html><body>not found</body></html>")
                return
            length = int(self.headers.get("Content-Length") or 0)
            form = urllib.parse.parse_qs(self.rfile.read(length).decode("utf-8"))
            ctx = form.get("ctx", [""])[0]
            flow_token = form.get("flowToken", [""])[0]
            peer = self.connection.getpeercert()
            if not peer:
                self.error("50192")
                return
            if names(peer.get("issuer", ())) != trusted_subject:
                self.error("50017")
                return
            if peer.get("serialNumber", "").upper() in revoked:
                self.error(args.revoked_code, "AADSTS%s: The certificate has been revoked." % args.revoked_code)
                return
            emails = [value for kind, value in peer.get("subjectAltName", ()) if kind == "email"]
            if not emails:
                self.error("1001003")
                return
            claims = json.dumps({"upn": emails[0], "ctx": ctx, "iat": int(time.time()), "mfa": False},
                                separators=(",", ":")).encode("utf-8")
            first = b64url(claims)
            token = first + "." + b64url(hmac.new(secret, first.encode("ascii"), hashlib.sha256).digest())
            log("accepted upn=%s serial=%s" % (emails[0], peer.get("serialNumber", "")))
            fields = "".join('<input type="hidden" name="%s" value="%s">' % (name, html.escape(value, quote=True))
                             for name, value in (("ctx", ctx), ("flowtoken", flow_token), ("certificatetoken", token)))
            self.page(200, '<!DOCTYPE html><html><head><title>Working...</title></head>'
                      '<body onload="document.forms[0].submit()"><form method="POST" action="%s">%s'
                      '<noscript><p>Script is disabled. Click Submit to continue.</p>'
                      '<input type="submit" value="Submit"></noscript></form></body></html>'
                      % (html.escape(args.login_url, quote=True), fields))

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.cert, args.key)
    context.verify_mode = ssl.CERT_OPTIONAL
    context.load_verify_locations(args.trusted_ca)
    if args.other_ca:
        context.load_verify_locations(args.other_ca)
    server = ThreadingHTTPServer((args.listen, args.port), Handler)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    if args.pid_file:
        with open(args.pid_file, "w", encoding="ascii") as handle:
            handle.write(str(os.getpid()))
    temporary = args.port_file + ".tmp"
    with open(temporary, "w", encoding="ascii") as handle:
        handle.write(str(server.server_address[1]))
    os.replace(temporary, args.port_file)
    log("listening %s:%d" % (args.listen, server.server_address[1]))
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())

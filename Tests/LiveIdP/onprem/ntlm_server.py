#!/usr/bin/env python3
"""A small HTTPS site behind NTLM, for the onprem world (Tests/LiveIdP/onprem.sh).

The NTLM itself is pyspnego's acceptor (spnego.server(protocol="ntlm")), which checks the
client's answers against the accounts in the file named by NTLM_USER_FILE (DOMAIN:user:password
lines; pyspnego matches the domain exactly, so a ":user:password" line serves clients that send
no domain, as a Windows server does). This file only carries the HTTP side of it, as IIS does:

  * no Authorization and no session cookie  -> 401, WWW-Authenticate: NTLM
  * Authorization: NTLM <negotiate>         -> 401, WWW-Authenticate: NTLM <challenge>
    (on the same connection: the acceptor lives as long as the connection does)
  * Authorization: NTLM <authenticate>      -> 200 and a session cookie when pyspnego accepts it,
                                               401 WWW-Authenticate: NTLM again when it does not
  * a session cookie from an earlier sign-in -> 200 without a new handshake

Pages: / (HTML, "Hello DOMAIN\\user"), /whoami.json ({"user": ...}), /logout (forgets the session).

    python3 ntlm_server.py --addr 127.0.0.42 --port 23002 --cert server.crt --key server.key --domain SPCONNECT
"""
import argparse
import base64
import html
import http.server
import json
import os
import secrets
import ssl
import sys
import threading

import spnego

COOKIE = "NTLMSESSION"
SESSIONS = {}              # cookie value -> user name ("DOMAIN\\user")
SESSIONS_LOCK = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"   # keep-alive: NTLM authenticates the connection
    server_version = "spconnect-onprem-ntlm"
    sys_version = ""
    timeout = 30

    def setup(self):
        super().setup()
        self.ntlm = None            # this connection's acceptor, between challenge and answer

    def log_message(self, fmt, *args):
        sys.stderr.write("%s %s\n" % (self.address_string(), fmt % args))

    # ---------------------------------------------------------------- responses
    def send(self, status, body, ctype="text/html; charset=utf-8", headers=()):
        data = body.encode("utf-8")
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def unauthorized(self, token=None):
        challenge = "NTLM" if token is None else "NTLM " + base64.b64encode(token).decode("ascii")
        self.send(401, "<!DOCTYPE html>\n<html><head><title>401 Unauthorized</title></head>"
                       "<body><h1>401 Unauthorized</h1><p>Sign in with NTLM.</p></body></html>\n",
                  headers=[("WWW-Authenticate", challenge)])

    def page(self, user, headers=()):
        if self.path.split("?", 1)[0] == "/whoami.json":
            self.send(200, json.dumps({"user": user}) + "\n", "application/json", headers)
        else:
            self.send(200, "<!DOCTYPE html>\n<html><head><title>NTLM site</title></head><body>\n"
                           f"<h1>Hello {html.escape(user)}</h1>\n"
                           '<p><a href="/whoami.json">whoami.json</a> · <a href="/logout">Sign out</a></p>\n'
                           "</body></html>\n", headers=headers)

    # ---------------------------------------------------------------- requests
    def session_id(self):
        for part in self.headers.get("Cookie", "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == COOKIE:
                return value
        return None

    def session_user(self):
        with SESSIONS_LOCK:
            return SESSIONS.get(self.session_id())

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path not in ("/", "/whoami.json", "/logout"):
            self.send(404, "<h1>404 Not Found</h1>\n")
            return
        if path == "/logout":
            with SESSIONS_LOCK:
                SESSIONS.pop(self.session_id(), None)
            self.send(200, "<h1>Signed out</h1>\n",
                      headers=[("Set-Cookie", f"{COOKIE}=; Path=/; Max-Age=0; Secure; HttpOnly")])
            return
        user = self.session_user()
        if user is not None:
            self.page(user)
            return
        scheme, _, token = self.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "ntlm" or not token.strip():
            self.ntlm = None
            self.unauthorized()
            return
        try:
            raw = base64.b64decode(token.strip(), validate=True)
            if self.ntlm is None or raw[8:12] == b"\x01\x00\x00\x00":   # a NEGOTIATE message starts anew
                self.ntlm = spnego.server(protocol="ntlm")
            out = self.ntlm.step(raw)
        except Exception as e:     # a wrong password, a malformed token: pyspnego says no
            self.log_message("NTLM refused: %s", e)
            self.ntlm = None
            self.unauthorized()
            return
        if not self.ntlm.complete:
            self.unauthorized(out)   # the CHALLENGE
            return
        user = self.ntlm.client_principal
        if "\\" not in user:   # signed in with no domain (the file's ":user:password" line): as IIS, name ours
            user = self.server.domain + "\\" + user
        self.ntlm = None
        sid = secrets.token_urlsafe(24)
        with SESSIONS_LOCK:
            SESSIONS[sid] = user
        self.page(user, headers=[("Set-Cookie", f"{COOKIE}={sid}; Path=/; Secure; HttpOnly; SameSite=Lax")])

    do_HEAD = do_GET


class TLSServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def finish_request(self, request, client_address):   # the TLS handshake in the connection's thread
        request.settimeout(30)
        super().finish_request(self.tls.wrap_socket(request, server_side=True), client_address)

    def handle_error(self, request, client_address):
        sys.stderr.write("%s: connection error: %s\n" % (client_address[0], sys.exc_info()[1]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--addr", required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--cert", required=True)
    ap.add_argument("--key", required=True)
    ap.add_argument("--domain", required=True, help="the NetBIOS domain reported for users who gave none")
    args = ap.parse_args()
    if not os.path.isfile(os.environ.get("NTLM_USER_FILE", "")):
        sys.exit("NTLM_USER_FILE must name the DOMAIN:user:password file")
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(args.cert, args.key)
    httpd = TLSServer((args.addr, args.port), Handler)
    httpd.tls = tls
    httpd.domain = args.domain.upper()
    print(f"NTLM site on https://{args.addr}:{args.port}/", flush=True)
    httpd.serve_forever()


if __name__ == "__main__":
    main()

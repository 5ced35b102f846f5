#!/usr/bin/env python3
"""browser_check.py — walk the LiveIdP world as a browser without JavaScript would.

Python 3 standard library only. It reads the world's address book from
DIR/liveidp.env (written by `liveidp.sh start DIR`), then for each case:

  GET the SP's protected page -> follow redirects (SP -> IdP SSOService -> login page)
  -> fill the username/password form found in the HTML -> POST it
  -> on the self-posting page, submit its form (hidden SAMLResponse + RelayState)
  -> follow the SP's redirect back to the protected page.

Cases: alice and bob sign in ("Hello, <uid>"); a wrong password and an unknown
user come back to the login form with the IdP's error text; after a wrong
password the same login page still accepts the right one; `broken` ends on
the IdP's error page (and, once the IdP session exists, on the SP's error
page); a second visit is single sign-on (no login form); sign out through the
IdP leaves the SP signed out; a client without cookies ends on the IdP's
"Missing cookie" page; losing the SP's cookie before the SAMLResponse POST
still signs in (the SP takes the response as unsolicited).

Every HTML body seen (redirect bodies too) is saved under --pages
(default /tmp/liveidp-pages) as CASE-NN-KIND.html, with an index.txt.

usage: browser_check.py [--dir .build/liveidp] [--pages /tmp/liveidp-pages] [-v]
exit status 0 when every case passed; prints 'N passed, N failed' at the end.
"""

import argparse
import html
import http.cookiejar
import os
import re
import shlex
import ssl
import sys
import urllib.error
import urllib.parse
import urllib.request
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "param", "source", "track", "wbr"}


# ------------------------------------------------------------------ HTML model
class Page(HTMLParser):
    """Forms, scripts, title, and every text run with the element path it sits in."""

    def __init__(self, url, body):
        super().__init__(convert_charrefs=True)
        self.url = url
        self.body = body
        self.forms = []
        self.scripts = []
        self.title = ""
        self.texts = []        # (path, text)
        self.headings = []     # (tag, text, path)
        self.meta_refresh = None
        self._stack = []       # [(tag, attrs-dict)]
        self._form = None
        self._in_title = False
        self._heading = None
        self._button = None
        self.feed(body)
        self.close()

    @staticmethod
    def _label(tag, a):
        s = tag
        if a.get("id"):
            s += "#" + a["id"]
        if a.get("class"):
            s += "." + ".".join(a["class"].split())
        if tag == "form" and a.get("name"):
            s += "[name=%s]" % a["name"]
        return s

    def path(self):
        return " > ".join(self._label(t, a) for t, a in self._stack)

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self._form = {"action": a.get("action"), "method": (a.get("method") or "get").lower(),
                          "name": a.get("name"), "id": a.get("id"), "fields": [], "buttons": [],
                          "path": self.path()}
            self.forms.append(self._form)
        elif tag == "input" and self._form is not None:
            t = (a.get("type") or "text").lower()
            f = {"tag": "input", "name": a.get("name"), "type": t, "value": a.get("value", ""),
                 "id": a.get("id"), "autocomplete": a.get("autocomplete"),
                 "checked": "checked" in a, "disabled": "disabled" in a,
                 "in_noscript": any(s[0] == "noscript" for s in self._stack)}
            (self._form["buttons"] if t in ("submit", "image") else self._form["fields"]).append(f)
        elif tag == "button" and self._form is not None:
            self._button = {"tag": "button", "name": a.get("name"), "type": (a.get("type") or "submit").lower(),
                            "value": a.get("value", ""), "id": a.get("id"), "text": "",
                            "in_noscript": any(s[0] == "noscript" for s in self._stack)}
            self._form["buttons"].append(self._button)
        elif tag in ("select", "textarea") and self._form is not None:
            self._form["fields"].append({"tag": tag, "name": a.get("name"), "type": tag, "value": "",
                                         "id": a.get("id"), "autocomplete": a.get("autocomplete"),
                                         "checked": False, "disabled": "disabled" in a,
                                         "in_noscript": False})
        elif tag == "script":
            self.scripts.append(a.get("src") or "(inline)")
        elif tag == "title":
            self._in_title = True
        elif tag == "meta" and a.get("http-equiv", "").lower() == "refresh":
            self.meta_refresh = a.get("content")
        if tag in ("h1", "h2", "h3"):
            self._heading = [tag, "", None]
        if tag not in VOID:
            self._stack.append((tag, a))
            if self._heading is not None and self._heading[2] is None and tag in ("h1", "h2", "h3"):
                self._heading[2] = self.path()

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self._stack and self._stack[-1][0] == tag:
            self._stack.pop()

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        if tag == "title":
            self._in_title = False
        if tag == "button":
            self._button = None
        if tag in ("h1", "h2", "h3") and self._heading is not None:
            self.headings.append((self._heading[0], " ".join(self._heading[1].split()), self._heading[2]))
            self._heading = None
        for i in range(len(self._stack) - 1, -1, -1):
            if self._stack[i][0] == tag:
                del self._stack[i:]
                break

    def handle_data(self, data):
        if self._in_title:
            self.title += data
        if self._heading is not None:
            self._heading[1] += data
        if self._button is not None:
            self._button["text"] += data.strip()
        if self._stack and self._stack[-1][0] in ("script", "style"):
            return
        t = " ".join(data.split())
        if t:
            self.texts.append((self.path(), t))

    # ---- queries
    def text(self):
        return " ".join(t for _, t in self.texts)

    def find_text(self, needle):
        return [(p, t) for p, t in self.texts if needle.lower() in t.lower()]

    def login_form(self):
        for f in self.forms:
            if any(x["type"] == "password" for x in f["fields"]):
                return f
        return None

    def saml_post_form(self):
        for f in self.forms:
            names = {x["name"] for x in f["fields"]}
            if "SAMLResponse" in names or "SAMLRequest" in names:
                return f
        return None


def describe_form(f):
    out = ["form action=%r method=%s%s  (inside: %s)" % (
        f["action"], f["method"], (" name=%r" % f["name"]) if f["name"] else "", f["path"] or "-")]
    for x in f["fields"] + f["buttons"]:
        v = x.get("value") or ""
        if len(v) > 40:
            v = v[:20] + "...(%d chars)" % len(v)
        extra = []
        if x.get("autocomplete"):
            extra.append("autocomplete=%s" % x["autocomplete"])
        if x.get("id"):
            extra.append("id=%s" % x["id"])
        if x.get("in_noscript"):
            extra.append("inside <noscript>")
        if x.get("checked"):
            extra.append("checked")
        if x.get("text"):
            extra.append("text=%r" % x["text"])
        out.append("    <%s type=%s name=%r value=%r %s>" % (x["tag"], x["type"], x["name"], v, " ".join(extra)))
    return "\n".join(out)


# ------------------------------------------------------------------ the browser
def resolve_action(base, action):
    """A form's action resolved as a browser does (WHATWG URL parsing).

    A missing or empty action is the document's URL. A relative reference
    that starts with "?" keeps the path and replaces the query (so the stock
    login form's action="?" posts to loginuserpass.php? with an empty query;
    its AuthState travels as a hidden field). Python's urljoin keeps the old
    query for a bare "?", so that case is done here.
    """
    if not action:
        return base
    if action.startswith("?"):
        b = urllib.parse.urlsplit(base)
        q, _, frag = action[1:].partition("#")
        return urllib.parse.urlunsplit((b.scheme, b.netloc, b.path, q, frag)) or base
    return urllib.parse.urljoin(base, action)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    def __init__(self, cafile, case, pages_dir, verbose, cookies=True):
        self.jar = http.cookiejar.CookieJar()
        ctx = ssl.create_default_context(cafile=cafile)
        handlers = [urllib.request.HTTPSHandler(context=ctx), NoRedirect()]
        if cookies:
            handlers.append(urllib.request.HTTPCookieProcessor(self.jar))
        self.opener = urllib.request.build_opener(*handlers)
        self.case = case
        self.pages_dir = pages_dir
        self.n = 0
        self.verbose = verbose
        self.trail = []  # lines describing each hop
        self.saved = []  # (file, kind, url)

    def _save(self, body, kind, url):
        self.n += 1
        name = "%s-%02d-%s.html" % (self.case, self.n, kind)
        with open(os.path.join(self.pages_dir, name), "w", encoding="utf-8") as fh:
            fh.write(body)
        self.saved.append((name, kind, url))
        return name

    def request(self, method, url, data=None, kind="page", max_hops=10):
        """One request, then redirects followed like a browser (303/302 POST -> GET)."""
        hops = 0
        while True:
            body_bytes = None
            if data is not None:
                body_bytes = urllib.parse.urlencode(data).encode()
            req = urllib.request.Request(url, data=body_bytes, method=method)
            req.add_header("User-Agent", "spconnect-liveidp-check/1 (no JavaScript)")
            req.add_header("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8")
            req.add_header("Accept-Language", "en")
            if body_bytes is not None:
                req.add_header("Content-Type", "application/x-www-form-urlencoded")
            try:
                resp = self.opener.open(req, timeout=20)
            except urllib.error.HTTPError as e:
                resp = e
            status = resp.status if hasattr(resp, "status") else resp.code
            raw = resp.read()
            ctype = resp.headers.get("Content-Type", "")
            body = raw.decode("utf-8", "replace")
            cookies = resp.headers.get_all("Set-Cookie") or []
            loc = resp.headers.get("Location")
            line = "%s %s -> %d %s" % (method, url if len(url) < 110 else url[:107] + "...", status, ctype)
            if loc:
                line += "\n      Location: " + (loc if len(loc) < 110 else loc[:107] + "...")
            for c in cookies:
                line += "\n      Set-Cookie: " + c
            self.trail.append(line)
            if self.verbose:
                print("   ", line)
            if status in (301, 302, 303, 307, 308) and loc:
                if "html" in ctype and body.strip():
                    self._save(body, kind + "-redirect-body", url)
                hops += 1
                if hops > max_hops:
                    raise AssertionError("too many redirects")
                url = urllib.parse.urljoin(url, loc)
                if status in (301, 302, 303) and method == "POST":
                    method, data = "GET", None
                continue
            page = Page(url, body)
            page.status = status
            page.ctype = ctype
            if "html" in ctype:
                page.saved_as = self._save(body, kind, url)
            else:
                page.saved_as = None
            return page

    def submit(self, page, form, values, kind, button=None):
        """Submit FORM of PAGE as a browser would: successful controls + the clicked button."""
        data = []
        for x in form["fields"]:
            if not x["name"] or x.get("disabled"):
                continue
            if x["type"] in ("checkbox", "radio") and not x["checked"]:
                continue
            if x["type"] in ("reset", "button", "file"):
                continue
            data.append((x["name"], values.get(x["name"], x["value"])))
        if button is None:
            button = next((b for b in form["buttons"] if b["type"] == "submit"), None)
        if button is not None and button.get("name"):
            data.append((button["name"], button.get("value", "")))
        url = resolve_action(page.url, form["action"])
        if form["method"] == "post":
            return self.request("POST", url, data=dict(data) if len({k for k, _ in data}) == len(data) else data,
                                kind=kind)
        q = urllib.parse.urlencode(data)
        return self.request("GET", url.split("?")[0] + "?" + q, kind=kind)

    def cookies_for(self, host):
        return sorted((c.name, c.domain, c.path, c.secure) for c in self.jar if c.domain.lstrip(".") == host)


# ------------------------------------------------------------------ the cases
class Failure(Exception):
    pass


def expect(cond, msg):
    if not cond:
        raise Failure(msg)


def load_env(d):
    env = {}
    with open(os.path.join(d, "liveidp.env"), encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                k, v = line.split("=", 1)
                env[k] = shlex.split(v)[0] if v else ""
    return env


def describe_errors(page):
    """Where the error text sits: headings, and text runs that mention errors."""
    out = []
    for tag, text, path in page.headings:
        out.append("    heading <%s> %r  at %s" % (tag, text, path))
    for p, t in page.texts:
        if re.search(r"incorrect|error|exception|fail|wrong|either no user", t, re.I):
            out.append("    text %r\n         at %s" % (t if len(t) < 160 else t[:157] + "...", p))
    return "\n".join(out[:14])


def to_login_page(b, env):
    p = b.request("GET", env["LIVEIDP_PROTECTED_URL"], kind="login")
    expect(p.status == 200, "login page status %d" % p.status)
    expect(urllib.parse.urlsplit(p.url).netloc == "%s:%s" % (env["LIVEIDP_IDP_ADDR"], env["LIVEIDP_IDP_PORT"]),
           "login page is not on the IdP: %s" % p.url)
    f = p.login_form()
    expect(f is not None, "no form with a password field on %s" % p.url)
    return p, f


def post_credentials(b, page, form, user, password, kind):
    user_field = next((x["name"] for x in form["fields"] if x["type"] in ("text", "email")
                       and x["name"] and not x.get("disabled")), None)
    pass_field = next(x["name"] for x in form["fields"] if x["type"] == "password")
    expect(user_field is not None, "no username field")
    return b.submit(page, form, {user_field: user, pass_field: password}, kind=kind)


def finish_saml_post(b, page, env, expect_uid):
    f = page.saml_post_form()
    expect(f is not None, "expected the self-posting SAMLResponse page, got %r (%s)" % (page.title, page.url))
    names = [x["name"] for x in f["fields"]]
    expect("SAMLResponse" in names and "RelayState" in names, "auto-post form fields: %r" % names)
    final = b.submit(page, f, {}, kind="protected")
    expect(final.status == 200, "protected page status %d" % final.status)
    expect(final.url == env["LIVEIDP_PROTECTED_URL"], "ended at %s" % final.url)
    expect("Hello, %s" % expect_uid in final.text(), "no 'Hello, %s' on %s: %r" % (
        expect_uid, final.url, final.text()[:200]))
    return f, final


def case_signin(b, env, user, password, report):
    p, f = to_login_page(b, env)
    report.append("  login page %s  title=%r  (%s)\n  %s\n  scripts: %s" % (
        p.saved_as, p.title.strip(), p.url.split("?")[0], describe_form(f), p.scripts))
    ap = post_credentials(b, p, f, user, password, kind="autopost")
    sf, final = finish_saml_post(b, ap, env, user)
    report.append("  auto-post page %s  title=%r  status=%d\n  %s\n  scripts: %s  meta-refresh: %s" % (
        ap.saved_as, ap.title.strip(), ap.status, describe_form(sf), ap.scripts, ap.meta_refresh))
    report.append("  final %s  %r" % (final.saved_as, [t for _, t in final.texts][:3]))
    w = b.request("GET", env["LIVEIDP_WHOAMI_URL"], kind="whoami")
    expect(w.status == 200 and w.body.strip() == "signed-in: %s" % user, "whoami says %r" % w.body)
    report.append("  SP cookies: %s" % b.cookies_for(env["LIVEIDP_SP_ADDR"]))
    report.append("  IdP cookies: %s" % b.cookies_for(env["LIVEIDP_IDP_ADDR"]))


def case_alice(b, env, report):
    case_signin(b, env, "alice", "alice-pass-1", report)
    # single sign-on: a fresh SP session (SP cookies dropped) signs in with no form
    sp = env["LIVEIDP_SP_ADDR"]
    for c in list(b.jar):
        if c.domain.lstrip(".") == sp:
            b.jar.clear(c.domain, c.path, c.name)
    w = b.request("GET", env["LIVEIDP_WHOAMI_URL"], kind="whoami")
    expect(w.status == 401, "without SP cookies whoami should be 401, got %d" % w.status)
    p = b.request("GET", env["LIVEIDP_PROTECTED_URL"], kind="sso-autopost")
    expect(p.login_form() is None, "SSO showed a login form again")
    finish_saml_post(b, p, env, "alice")
    report.append("  SSO: with only the IdP cookies, protected page -> auto-post page -> Hello, alice (no form)")
    # sign out through the IdP
    lo = b.request("GET", env["LIVEIDP_SP_URL"] + "/protected/logout.php", kind="logout")
    if lo.saml_post_form() is not None:
        lo = b.submit(lo, lo.saml_post_form(), {}, kind="logout")
    w = b.request("GET", env["LIVEIDP_WHOAMI_URL"], kind="whoami")
    expect(w.status == 401 and "signed-out" in w.body, "after logout whoami says %d %r" % (w.status, w.body))
    report.append("  logout: /protected/logout.php -> IdP SLO -> back; whoami 401 signed-out; ended at %s" % lo.url)


def case_bob(b, env, report):
    case_signin(b, env, "bob", "bob-pass-2", report)


def case_bad_login(b, env, report, user, password, retry=None):
    p, f = to_login_page(b, env)
    e = post_credentials(b, p, f, user, password, kind="login-error")
    expect(e.status == 200, "status %d after bad credentials" % e.status)
    f2 = e.login_form()
    expect(f2 is not None, "no login form after bad credentials (%s)" % e.url)
    # Stock UI: "Incorrect username or password". The Twig UI (LIVEIDP_NEWUI=1) of
    # Debian's package has no top-level locales/, so it shows the raw key
    # "{errors:title_WRONGUSERPASS}" instead.
    hits = e.find_text("Incorrect username or password") or e.find_text("{errors:title_WRONGUSERPASS}")
    expect(hits, "no 'Incorrect username or password' (nor its dictionary key) on the page")
    report.append("  after bad credentials: %s  status=%d  url=%s\n%s\n  username field keeps value: %r\n  %s" % (
        e.saved_as, e.status, e.url.split("?")[0], describe_errors(e),
        next((x["value"] for x in f2["fields"] if x["name"] == "username"), None), describe_form(f2)))
    if retry:
        ap = post_credentials(b, e, f2, retry[0], retry[1], kind="autopost")
        finish_saml_post(b, ap, env, retry[0])
        report.append("  the same error page then takes %s's right password -> Hello, %s" % (retry[0], retry[0]))


def case_broken(b, env, report):
    p, f = to_login_page(b, env)
    e = post_credentials(b, p, f, "broken", "broken-pass-3", kind="idp-error")
    expect(e.login_form() is None and e.saml_post_form() is None, "broken: got a form page, not the error page")
    expect(urllib.parse.urlsplit(e.url).netloc.startswith(env["LIVEIDP_IDP_ADDR"]), "error page not on the IdP")
    expect(e.find_text("Unhandled exception") or e.find_text("UNHANDLEDEXCEPTION"), "no error text on %s" % e.url)
    report.append("  error page %s  status=%d  title=%r  url=%s\n%s\n  forms: %s" % (
        e.saved_as, e.status, e.title.strip(), e.url.split("?")[0], describe_errors(e),
        "\n  ".join(describe_form(x) for x in e.forms) or "none"))
    w = b.request("GET", env["LIVEIDP_WHOAMI_URL"], kind="whoami")
    expect(w.status == 401, "broken must not be signed in at the SP")
    # The password was right, so the IdP's session is signed in (SimpleSAMLAuthToken
    # at the IdP). A second try is single sign-on: the filter throws inside
    # SSOService.php this time, and the IdP answers the SP with a SAML error
    # Response, so that try ends on the SP's error page instead.
    again = b.request("GET", env["LIVEIDP_PROTECTED_URL"], kind="second-try")
    if again.saml_post_form() is not None:
        again = b.submit(again, again.saml_post_form(), {}, kind="second-try-error")
    expect(again.login_form() is None and "Hello" not in again.text(), "broken: second try signed in?")
    report.append("  second try (IdP session exists): ended at %s  status=%d  title=%r  saved %s\n%s" % (
        again.url.split("?")[0], again.status, again.title.strip(), again.saved_as, describe_errors(again)))


def case_no_cookies(b, env, report):
    # A client that keeps no cookies: the IdP loses its AuthState, restarts the
    # request with a cookieTime parameter and then shows core/no_cookie.php.
    p = b.request("GET", env["LIVEIDP_PROTECTED_URL"], kind="no-cookie")
    expect(p.login_form() is None, "a cookie-less client got a login form")
    expect("no_cookie.php" in p.url and p.find_text("Missing cookie"), "expected the Missing cookie page, got %s" % p.url)
    report.append("  ended at %s  status=%d  title=%r  saved %s\n%s" % (
        p.url.split("?")[0], p.status, p.title.strip(), p.saved_as, describe_errors(p)))


def case_sp_cookie_lost(b, env, report):
    # The SP's cookies are lost between the redirect to the IdP and the POST of
    # the SAMLResponse. SimpleSAMLphp 1.19's SP cannot load the request state
    # (InResponseTo), logs it, and accepts the response as unsolicited: it
    # signs in and goes to RelayState. So the SP's pre-login cookie is not
    # needed; the cookies set by the ACS POST are the session.
    p, f = to_login_page(b, env)
    ap = post_credentials(b, p, f, "alice", "alice-pass-1", kind="autopost")
    sp = env["LIVEIDP_SP_ADDR"]
    for c in list(b.jar):
        if c.domain.lstrip(".") == sp:
            b.jar.clear(c.domain, c.path, c.name)
    sf = ap.saml_post_form()
    expect(sf is not None, "no auto-post page")
    e = b.submit(ap, sf, {}, kind="protected")
    expect("Hello, alice" in e.text(), "without the SP's first cookie: %r at %s" % (e.title, e.url))
    report.append("  POST SAMLResponse without the SP's earlier cookie -> %s  status=%d  %r (accepted as unsolicited)" % (
        e.url, e.status, [t for _, t in e.texts][:2]))


CASES = [
    ("alice", case_alice),
    ("bob", case_bob),
    ("wrong-password", lambda b, env, r: case_bad_login(b, env, r, "alice", "not-alices-password",
                                                         retry=("alice", "alice-pass-1"))),
    ("unknown-user", lambda b, env, r: case_bad_login(b, env, r, "mallory", "whatever")),
    ("broken", case_broken),
    ("no-cookies", case_no_cookies),
    ("sp-cookie-lost", case_sp_cookie_lost),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", default=".build/liveidp")
    ap.add_argument("--pages", default="/tmp/liveidp-pages")
    ap.add_argument("--only", action="append", help="run only this case (repeatable)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every request and response")
    args = ap.parse_args()
    env = load_env(args.dir)
    os.makedirs(args.pages, exist_ok=True)
    passed = failed = 0
    index = []
    for name, fn in CASES:
        if args.only and name not in args.only:
            continue
        b = Browser(env["LIVEIDP_CA"], name, args.pages, args.verbose, cookies=(name != "no-cookies"))
        report = []
        try:
            fn(b, env, report)
            passed += 1
            print("ok   %s" % name)
        except Exception as e:  # noqa: BLE001 — any failure is a failed case
            failed += 1
            print("FAIL %s: %s: %s" % (name, type(e).__name__, e))
            if not args.verbose:
                print("     trail:\n     " + "\n     ".join(b.trail))
        for line in report:
            print(line)
        index.append("== %s\n%s\n%s\n" % (name, "\n".join("  %s  %s" % (f, u) for f, _, u in b.saved),
                                          "\n".join("  " + t for t in b.trail)))
    with open(os.path.join(args.pages, "index.txt"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(index))
    print("pages saved in %s (index.txt lists them with every request)" % args.pages)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

"""Python clients and curl through `spconnect gateway` (docs/cli.md, the gateway section; issue #28).

The built `spsim` (entra mode) and `spconnect` run as processes: spconnect signs in with a private HOME and
XDG_STATE_HOME (the password on standard input), then `spconnect gateway --secret-file F` runs with
SPCONNECT_PASSWORD in its environment for renewals. Python `requests` and Office365-REST-Python-Client reach the
site through it with the gateway's secret as their only credential, a session that ends in the middle is renewed
once, and requests without the secret, from a foreign Host or a foreign Origin, or for a path out of the site are
refused (and a non-loopback --listen is a usage error). The recipes of docs/cli.md run as written there. Every
captured output and response is searched for the password, the secret and the session's cookie values.
"""
import concurrent.futures
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
import urllib.parse

import pytest
import requests
from office365.runtime.auth.token_response import TokenResponse
from office365.sharepoint.client_context import ClientContext

from conftest import ROOT, spconnect_binary, spsim_binary

USER = "alice@contoso.test"
PASSWORD = "Spring2026!"
NOMETADATA = {"Accept": "application/json;odata=nometadata"}


class Gateway:
    """spsim, a signed-in profile in a private home, and `spconnect gateway` on it; `outputs` holds every text the
    processes and the clients produced (for the leak check)."""

    def __init__(self, *spsim_arguments):
        spconnect, spsim = spconnect_binary(), spsim_binary()
        self.folder = pathlib.Path(tempfile.mkdtemp(prefix="spc-pygateway-"))
        self.home = self.folder / "home"
        (self.home / ".config" / "spconnect").mkdir(parents=True)
        (self.home / ".cache").mkdir()
        self.environment = {"HOME": str(self.home), "XDG_STATE_HOME": str(self.home / "state"),
                            "PATH": "/usr/bin:/bin"}
        self.outputs = []
        self.earlier_cookies = []
        self.sim_log = self.folder / "spsim.log"
        self.gateway_log = self.folder / "gateway.log"
        self.logs = [self.sim_log.open("w"), self.gateway_log.open("w")]
        self.sim = subprocess.Popen(
            [spsim, "--mode", "entra", "--log", *spsim_arguments], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self.logs[0], text=True)
        self.gateway = None
        try:
            self.start(spconnect)
        except BaseException:
            self.stop(check=False)
            raise

    def start(self, spconnect):
        """Reads spsim's URL, signs in (the password on standard input) and starts the gateway."""
        self.site = self.sim.stdout.readline().strip()
        assert self.site.startswith("http"), "spsim did not print its URL"
        login = self.spconnect(
            "login", "--site", self.site, "--user", USER, "--password-stdin", "--allow-http-loopback",
            input=PASSWORD + "\n")
        assert login.returncode == 0, login.stderr
        self.secret_file = self.home / ".config" / "spconnect" / "gateway.secret"
        self.gateway = subprocess.Popen(
            [spconnect, "gateway", "--secret-file", str(self.secret_file)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=self.logs[1], text=True,
            env={**self.environment, "SPCONNECT_PASSWORD": PASSWORD})
        self.url = self.gateway.stdout.readline().strip()
        assert self.url.startswith("http://127."), f"the gateway did not print its URL: {self.log}"
        self.outputs.append(self.url)
        (self.home / ".cache" / "gateway.url").write_text(self.url + "\n")
        self.secret = self.secret_file.read_text().strip()
        assert len(self.secret) >= 32
        assert os.stat(self.secret_file).st_mode & 0o777 == 0o600

    def spconnect(self, *arguments, input=None):
        """Runs the built spconnect with the private home; its outputs are kept for the leak check."""
        done = subprocess.run([spconnect_binary(), *arguments], input=input or "", capture_output=True, text=True,
                              env=self.environment, timeout=120)
        self.outputs += [done.stdout, done.stderr]
        return done

    def run_snippet(self, program, source):
        """Runs a recipe (`bash -c` or `python -c`) with the private home; returns its standard output."""
        done = subprocess.run([program, "-c", source], capture_output=True, text=True, timeout=120,
                              env={**self.environment, "PYTHONDONTWRITEBYTECODE": "1"})
        self.outputs += [done.stdout, done.stderr]
        assert done.returncode == 0, done.stderr
        return done.stdout

    def session(self):
        """A requests session with the gateway's secret as its Basic password (as docs/cli.md's recipe)."""
        session = requests.Session()
        session.auth = ("x", self.secret)
        return session

    def keep(self, response):
        """Keeps a response's status line, headers and body for the leak check; returns it. The site's cookies stay
        in the session: no answer of the gateway sets one."""
        self.outputs += [f"{response.status_code} {dict(response.headers)}", response.text]
        assert "set-cookie" not in {name.lower() for name in response.headers}, response.headers
        return response

    @property
    def log(self):
        return self.gateway_log.read_text() if self.gateway_log.exists() else ""

    def sim_requests(self):
        """spsim's request log so far: (status, method, host, path) per answered request. spsim writes its log in
        batches, so a marker request of our own is sent straight to it and the log is read once the marker is in
        it: every request answered before the marker is then there too (no fixed sleep)."""
        marker = f"/_conformance/flush-{uuid.uuid4().hex}"
        try:
            urllib.request.urlopen(self.site + marker, timeout=10).close()
        except urllib.error.HTTPError:
            pass  # answered (404): that is all a marker needs
        deadline = time.monotonic() + 20
        while True:
            lines = self.sim_log.read_text().splitlines()
            at = next((index for index, line in enumerate(lines) if marker in line), None)
            if at is not None:
                break
            assert time.monotonic() < deadline, "spsim never logged the marker request"
            time.sleep(0.05)
        requests = [tuple(line.split(" ", 3)) for line in lines[:at] if re.match(r"^\d{3} [A-Z]+ ", line)]
        return [entry for entry in requests if "/_conformance/flush-" not in entry[3]]

    def site_sign_ins(self):
        """Sign-ins that made a site session: the identity provider's form post back to the site."""
        return [entry for entry in self.sim_requests()
                if entry[1] == "POST" and entry[3].lower().startswith("/_forms/default.aspx")]

    def cookie_values(self):
        """The values of the session's cookies as saved now (the long ones)."""
        saved = (self.home / "state" / "spconnect" / "sessions" / "default.cookies").read_text()
        values = [line.split("\t")[-1] for line in saved.splitlines() if line and not line.startswith("# ")]
        return [value for value in values if len(value) > 12]

    def expect_no_secrets(self):
        everything = "\n".join(self.outputs) + self.log
        assert PASSWORD not in everything
        assert self.secret not in everything
        values = self.cookie_values() + self.earlier_cookies
        assert values, "the session has cookies to look for"
        for value in values:
            assert value not in everything

    def stop(self, check=True):
        """Stops the gateway (SIGTERM to its PID), then spsim (its stdin closed); `check`: the gateway exits 0."""
        gateway, self.gateway = self.gateway, None
        if gateway is not None:
            gateway.send_signal(signal.SIGTERM)
            gateway.stdin.close()
            status = gateway.wait(timeout=20)
            gateway.stdout.close()
            assert status == 0 or not check, f"the gateway exited {status}: {self.log}"
        if self.sim.poll() is None:
            self.sim.stdin.close()  # stdin closing stops spsim
            self.sim.wait(timeout=10)
            self.sim.stdout.close()
        for log in self.logs:
            log.close()


@pytest.fixture
def gateway():
    started = []

    def start(*spsim_arguments):
        running = Gateway(*spsim_arguments)
        started.append(running)
        return running

    yield start
    for running in started:
        running.stop()
        shutil.rmtree(running.folder, ignore_errors=True)


def stable(answer):
    """An answer without what changes by the second (the web's change token holds the time)."""
    return {name: value for name, value in answer.items() if name != "CurrentChangeToken"}


def recipe(language, marker):
    """The fenced `language` block of docs/cli.md's gateway section that contains `marker`."""
    text = (ROOT / "docs" / "cli.md").read_text()
    section = text.split("### `spconnect gateway", 1)[1].split("\n### ", 1)[0]
    blocks = [block for block in re.findall(r"```" + language + r"\n(.*?)```", section, re.S) if marker in block]
    assert len(blocks) == 1, f"one {language} recipe with {marker!r} in docs/cli.md's gateway section"
    return blocks[0]


def test_requests_reads_the_web_and_a_list_as_spconnect_does(gateway):
    running = gateway("--items", "5")
    session = running.session()
    for path in ["/_api/web", "/_api/web/lists/getbytitle('Big')/items?$select=Id,Title&$orderby=Id"]:
        through = running.keep(session.get(running.url + path, headers=NOMETADATA))
        assert through.status_code == 200, through.text
        direct = running.spconnect("api", "GET", path, "--raw")
        assert direct.returncode == 0, direct.stderr
        # The same answer, with the site's absolute URLs naming the gateway (so a client follows them back to it).
        assert running.site not in through.text, "no link leads past the gateway"
        expected = json.loads(direct.stdout.replace(running.site, running.url))
        assert stable(through.json()) == stable(expected), "as the site answers spconnect"
    web = session.get(running.url + "/_api/web", headers=NOMETADATA).json()
    assert web["Title"] == "SPSim Team"
    assert [item["Id"] for item in through.json()["value"]] == [1, 2, 3, 4, 5]

    # Paging: the next link names the site; its path and query on the gateway's URL give the next page.
    ids, link = [], running.url + "/_api/web/lists/getbytitle('Big')/items?$select=Id&$top=2"
    while link:
        page = running.keep(session.get(link, headers=NOMETADATA)).json()
        ids += [item["Id"] for item in page["value"]]
        next_link = urllib.parse.urlsplit(page.get("odata.nextLink", ""))
        link = next_link.path and f"{running.url}{next_link.path}?{next_link.query}"
    assert ids == [1, 2, 3, 4, 5]

    # The recipes of docs/cli.md, as written there.
    tasks = running.keep(session.get(running.url + "/_api/web/lists/getbytitle('Tasks')/items", headers=NOMETADATA))
    expected = "".join(f"{item['Id']} {item['Title']}\n" for item in tasks.json()["value"])
    assert expected, "Tasks has items"
    printed = running.run_snippet(sys.executable, recipe("python", "session.headers"))
    assert printed == "SPSim Team\n" + expected
    curl = json.loads(running.run_snippet("/bin/bash", recipe("sh", "curl -sS -K -")))
    assert stable(curl) == stable(web)
    running.expect_no_secrets()


def test_office365_client_reads_lists_and_uploads_through_the_gateway(gateway):
    running = gateway("--items", "40")
    ctx = ClientContext(running.url).with_transport(session=running.session())
    assert ctx.web.get().execute_query().title == "SPSim Team"
    titles = [sp_list.title for sp_list in ctx.web.lists.get().execute_query()]
    assert {"Tasks", "Big", "Documents"} <= set(titles), titles
    # One page here; paging through the next links is test_paging_follows_next_links_through_the_gateway.
    items = ctx.web.lists.get_by_title("Big").items.get().top(100).execute_query()
    assert [item.id for item in items] == list(range(1, 41))
    first = ctx.web.lists.get_by_title("Big").get_item_by_id(1).get().execute_query()
    assert first.properties["Title"] == items[0].properties["Title"] and first.properties["Title"]

    folder = ctx.web.get_folder_by_server_relative_url("/Shared Documents")
    uploaded = folder.upload_file("gateway.txt", b"through the gateway").execute_query()
    assert uploaded.properties["Name"] == "gateway.txt"
    content = ctx.web.get_file_by_server_relative_url("/Shared Documents/gateway.txt").get_content().execute_query()
    assert content.value == b"through the gateway"
    seen = running.spconnect("ls", "Shared Documents")
    assert "gateway.txt" in seen.stdout, "spconnect sees what the client uploaded"

    # The other form the gateway takes its secret in, Authorization: Bearer, through the client's token callback.
    bearer = ClientContext(running.url).with_access_token(lambda: TokenResponse(running.secret, "Bearer"))
    assert bearer.web.get().execute_query().title == "SPSim Team"
    again = bearer.web.get_file_by_server_relative_url("/Shared Documents/gateway.txt").get_content().execute_query()
    assert again.value == b"through the gateway"

    printed = running.run_snippet(sys.executable, recipe("python", "ClientContext"))
    assert printed.splitlines()[0] == "SPSim Team"
    assert set(printed.splitlines()[1:]) == set(titles)
    running.outputs.append(content.value.decode())
    running.expect_no_secrets()


def test_a_session_that_ends_between_requests_is_renewed_once(gateway):
    lifetime = 12
    running = gateway("--faults", f"cookieLifetime={lifetime}")
    signed_in = time.monotonic()
    session = running.session()
    first = running.keep(session.get(running.url + "/_api/web", headers=NOMETADATA))
    assert first.status_code == 200, first.text
    sign_ins = len(running.site_sign_ins())
    assert sign_ins == 1, "the login's"
    running.earlier_cookies = running.cookie_values()

    time.sleep(max(0.0, signed_in + lifetime + 1 - time.monotonic()))
    before = len(running.sim_requests())
    ctx = ClientContext(running.url).with_transport(session=session)
    assert ctx.web.get().execute_query().title == "SPSim Team"
    after = running.keep(session.get(running.url + "/_api/web/lists/getbytitle('Tasks')/items", headers=NOMETADATA))
    assert after.status_code == 200, after.text
    since = running.sim_requests()[before:]
    assert since[0][0] in ("302", "401", "403"), f"the session did end: the site refused the old cookie: {since}"
    assert [entry[0] for entry in since[-3:]] == ["200"] * 3, "then contextinfo, the web and the items, renewed"
    assert len(running.site_sign_ins()) == sign_ins + 1, "one renewal"
    assert running.cookie_values() != running.earlier_cookies, "the renewed session was saved"
    running.expect_no_secrets()


def test_eight_clients_after_a_second_expiry_all_succeed_with_one_renewal(gateway):
    lifetime = 8
    running = gateway("--faults", f"cookieLifetime={lifetime}")
    session = running.session()
    assert running.keep(session.get(running.url + "/_api/web")).status_code == 200
    time.sleep(lifetime + 1)
    ctx = ClientContext(running.url).with_transport(session=session)
    assert ctx.web.get().execute_query().title == "SPSim Team"
    renewed = time.monotonic()
    assert len(running.site_sign_ins()) == 2, "the login's and one renewal"
    running.earlier_cookies = running.cookie_values()

    time.sleep(max(0.0, renewed + lifetime + 1 - time.monotonic()))
    before = len(running.sim_requests())
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        burst = list(pool.map(lambda _: running.session().get(running.url + "/_api/web", headers=NOMETADATA),
                              range(8)))
    since = " | ".join(" ".join(entry) for entry in running.sim_requests()[before:])
    assert [running.keep(response).status_code for response in burst] == [200] * 8, since
    assert len(running.site_sign_ins()) == 3, "one more renewal for the eight"
    running.expect_no_secrets()


def test_requests_without_the_secret_from_a_foreign_host_or_origin_or_out_of_the_site_are_refused(gateway):
    running = gateway()
    sent = len(running.sim_requests())
    web = running.url + "/_api/web"
    refusals = [
        ("no secret", requests.get(web), 401),
        ("wrong secret", requests.get(web, auth=("x", "wrong")), 401),
        ("a secret as the user name", requests.get(web, auth=(running.secret, "x")), 401),
        ("foreign Host", requests.get(web, auth=("x", running.secret), headers={"Host": "sharepoint.example"}), 421),
        ("foreign Origin",
         requests.get(web, auth=("x", running.secret), headers={"Origin": "https://evil.example"}), 403),
    ]
    for name, response, status in refusals:
        running.keep(response)
        assert response.status_code == status, f"{name}: {response.status_code} {response.text}"
        assert response.text.startswith("spconnect gateway: "), f"{name}: a reason the client can show"
    assert refusals[0][1].headers.get("WWW-Authenticate", "").startswith("Basic ")
    remote = running.spconnect("gateway", "--listen", "0.0.0.0:8700")
    assert remote.returncode == 2 and "loopback" in remote.stderr, remote.stderr
    # A path out of the site, sent as written (requests would resolve the dots itself).
    outside = requests.Request("GET", running.url + "/x", auth=("x", running.secret)).prepare()
    outside.url = running.url + "/a/../../etc/passwd"
    with requests.Session() as plain:
        dots = running.keep(plain.send(outside))
    assert dots.status_code == 400 and "only paths on the site" in dots.text, dots.text
    assert len(running.sim_requests()) == sent, "a refused request is never sent on"
    allowed = running.keep(requests.get(web, headers={"Authorization": f"Bearer {running.secret}", **NOMETADATA}))
    assert allowed.status_code == 200 and allowed.json()["Title"] == "SPSim Team"
    running.stop()
    running.expect_no_secrets()


def test_paging_follows_next_links_through_the_gateway(gateway):
    running = gateway("--items", "250")
    page = running.keep(running.session().get(
        running.url + "/_api/web/lists/getbytitle('Big')/items?$top=100", headers=NOMETADATA))
    assert page.status_code == 200
    assert page.json()["odata.nextLink"].startswith(running.url + "/"), "the next link names the gateway"
    ctx = ClientContext(running.url).with_transport(session=running.session())
    items = ctx.web.lists.get_by_title("Big").items.get_all(100).execute_query()
    assert [item.id for item in items] == list(range(1, 251))

"""Independent clients of spsim's Entra tenant (docs/simulator.md, "Entra tenant"):

* MSAL for Python gets app-only tokens with a certificate (ConfidentialClientApplication: a PEM key with its SHA-1
  thumbprint, RS256/x5t; a PKCS#12 file, PS256/x5t#S256) and delegated tokens through the device flow
  (PublicClientApplication), and its tokens read /_api/web; PyJWT verifies them with the tenant's published key.
* PyJWT verifies the client assertions the built `spconnect` signed, with the app's certificate.
"""
import datetime
import os
import pathlib
import re
import subprocess
import tempfile
import threading

import jwt
import msal
import pytest
import requests
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

from conftest import ROOT, spsim_binary

FULL_CONTROL = "11111111-1111-4111-8111-111111111111"
PUBLIC_CLIENT = "44444444-4444-4444-8444-444444444444"


class Tenant:
    """`spsim --mode entra --tls` with an app certificate registered; its site, identity provider and CA file."""

    def __init__(self, folder):
        self.folder = pathlib.Path(folder)
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "conformance app")])
        now = datetime.datetime.now(datetime.timezone.utc)
        certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                       .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
                       .not_valid_after(now + datetime.timedelta(days=2)).sign(key, hashes.SHA256()))
        self.certificate = certificate
        self.key_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                         serialization.NoEncryption())
        self.cert_path = self.folder / "app.crt"
        self.cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
        self.key_path = self.folder / "app.key"
        self.key_path.write_bytes(self.key_pem)
        os.chmod(self.key_path, 0o600)
        self.pfx_path = self.folder / "app.pfx"
        self.pfx_path.write_bytes(pkcs12.serialize_key_and_certificates(
            b"app", key, certificate, None, serialization.BestAvailableEncryption(b"pfx password")))
        self.process = subprocess.Popen(
            [spsim_binary(), "--mode", "entra", "--tls", "--app-certificate", str(self.cert_path),
             "--device-code-interval", "1"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.site = self.process.stdout.readline().strip()
        ca, idp = None, None
        while idp is None:
            line = self.process.stderr.readline()
            assert line, "spsim stopped before naming its identity provider"
            if "certificate written to" in line:
                ca = line.split("certificate written to", 1)[1].strip()
            match = re.search(r"identity provider (https://[0-9.:]+)", line)
            if match:
                idp = match.group(1)
        threading.Thread(target=self.process.stderr.read, daemon=True).start()
        self.ca, self.idp = ca, idp
        challenge = requests.get(self.site + "/_vti_bin/client.svc", headers={"Authorization": "Bearer"}, verify=ca)
        self.tenant = re.search(r'realm="([^"]+)"', challenge.headers["WWW-Authenticate"]).group(1)
        self.authority = f"{self.idp}/{self.tenant}"

    def http_client(self):
        """MSAL's HTTP client: trusts the simulator's CA. (requests lets REQUESTS_CA_BUNDLE in the environment
        override a session's `verify`, which is what MSAL's own `verify=` sets; `trust_env` off keeps ours.)"""
        session = requests.Session()
        session.trust_env = False
        session.verify = self.ca
        return session

    def stop(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)

    def sha1_thumbprint(self):
        return self.certificate.fingerprint(hashes.SHA1()).hex().upper()

    def read_web(self, token):
        return requests.get(self.site + "/_api/web", verify=self.ca, headers={
            "Authorization": "Bearer " + token, "Accept": "application/json;odata=nometadata"})

    def verify_access_token(self, token):
        """PyJWT checks the tenant's signature (JWKS from the discovery document), audience and expiry."""
        config = requests.get(self.authority + "/v2.0/.well-known/openid-configuration", verify=self.ca).json()
        keys = requests.get(config["jwks_uri"], verify=self.ca).json()["keys"]
        kid = jwt.get_unverified_header(token)["kid"]
        key = jwt.PyJWK(next(k for k in keys if k["kid"] == kid)).key
        return jwt.decode(token, key, algorithms=["RS256"], audience=self.site,
                          issuer=f"https://sts.windows.net/{self.tenant}/")


@pytest.fixture
def tenant():
    with tempfile.TemporaryDirectory() as folder:
        running = Tenant(folder)
        yield running
        running.stop()


@pytest.mark.parametrize("credential", ["pem", "pfx"])
def test_msal_confidential_client_with_a_certificate_reads_the_web(tenant, credential):
    if credential == "pem":
        client_credential = {"private_key": tenant.key_pem.decode(), "thumbprint": tenant.sha1_thumbprint()}
    else:
        client_credential = {"private_key_pfx_path": str(tenant.pfx_path), "passphrase": "pfx password"}
    app = msal.ConfidentialClientApplication(
        FULL_CONTROL, authority=tenant.authority, client_credential=client_credential, http_client=tenant.http_client(),
        instance_discovery=False)
    result = app.acquire_token_for_client([tenant.site + "/.default"])
    assert "access_token" in result, result
    claims = tenant.verify_access_token(result["access_token"])
    assert claims["appid"] == FULL_CONTROL and claims["appidacr"] == "2"
    assert claims["roles"] == ["Sites.FullControl.All"]
    web = tenant.read_web(result["access_token"])
    assert web.status_code == 200 and web.json()["Title"] == "SPSim Team"
    header = jwt.get_unverified_header(requests.get(tenant.idp + "/_spsim/assertions", verify=tenant.ca)
                                       .text.splitlines()[-1])
    assert header["alg"] == ("RS256" if credential == "pem" else "PS256")
    assert ("x5t" if credential == "pem" else "x5t#S256") in header


def test_msal_device_flow_reads_the_web_as_the_user(tenant):
    app = msal.PublicClientApplication(
        PUBLIC_CLIENT, authority=tenant.authority, http_client=tenant.http_client(), instance_discovery=False)
    flow = app.initiate_device_flow(scopes=[tenant.site + "/.default"])
    assert flow["user_code"] in flow["message"]
    approved = requests.post(tenant.idp + "/_spsim/devicecode", verify=tenant.ca,
                             data={"user_code": flow["user_code"], "user": "alice@contoso.test"})
    assert approved.status_code == 200
    result = app.acquire_token_by_device_flow(flow)
    assert "access_token" in result, result
    assert "refresh_token" in result
    assert tenant.verify_access_token(result["access_token"])["upn"] == "alice@contoso.test"
    web = tenant.read_web(result["access_token"])
    assert web.status_code == 200
    me = requests.get(tenant.site + "/_api/web/currentuser", verify=tenant.ca, headers={
        "Authorization": "Bearer " + result["access_token"], "Accept": "application/json;odata=nometadata"})
    assert me.json()["Email"] == "alice@contoso.test"


def test_msal_with_a_secret_gets_a_token_sharepoint_refuses(tenant):
    app = msal.ConfidentialClientApplication(
        "22222222-2222-4222-8222-222222222222", authority=tenant.authority,
        client_credential="spsim-secret-0123456789", http_client=tenant.http_client(),
        instance_discovery=False)
    result = app.acquire_token_for_client([tenant.site + "/.default"])
    web = tenant.read_web(result["access_token"])
    assert web.status_code == 401 and "Unsupported app only token" in web.text


def spconnect_binary():
    for config in ("debug", "release"):
        candidate = ROOT / ".build" / config / "spconnect"
        if candidate.exists():
            return str(candidate)
    pytest.skip("spconnect is not built (swift build --product spconnect)")


@pytest.mark.parametrize("algorithm", ["RS256", "PS256"])
def test_pyjwt_verifies_the_assertion_spconnect_signed(tenant, algorithm):
    state = tenant.folder / "state"
    result = subprocess.run(
        [spconnect_binary(), "login", "--site", tenant.site, "--app-id", FULL_CONTROL, "--certificate",
         str(tenant.cert_path), "--key", str(tenant.key_path), "--algorithm", algorithm, "--authority", tenant.idp,
         "--cacert", tenant.ca],
        env={"XDG_STATE_HOME": str(state), "HOME": str(state), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assertion = requests.get(tenant.idp + "/_spsim/assertions", verify=tenant.ca).text.splitlines()[-1]
    token_url = f"{tenant.authority}/oauth2/v2.0/token"
    claims = jwt.decode(assertion, tenant.certificate.public_key(), algorithms=[algorithm], audience=token_url,
                        issuer=FULL_CONTROL, options={"require": ["exp", "nbf", "iat", "jti", "sub"]})
    assert claims["sub"] == FULL_CONTROL
    header = jwt.get_unverified_header(assertion)
    # Thumbprints of the certificate's DER, as cryptography computes them.
    if algorithm == "RS256":
        assert header["x5t"] == jwt.utils.base64url_encode(tenant.certificate.fingerprint(hashes.SHA1())).decode()
    else:
        assert header["x5t#S256"] == jwt.utils.base64url_encode(tenant.certificate.fingerprint(hashes.SHA256())).decode()
    # The token spconnect obtained is the tenant's, for the site, and never appears in what spconnect printed.
    session = (state / "spconnect" / "sessions" / "default.cookies").read_text()
    token = re.search(r'"accessToken":"([^"]+)"', session).group(1)
    assert tenant.verify_access_token(token)["appid"] == FULL_CONTROL
    assert token not in result.stdout + result.stderr and assertion not in result.stdout + result.stderr

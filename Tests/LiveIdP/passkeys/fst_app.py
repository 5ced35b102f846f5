# fst_app.py — the Flask-Security-Too relying party of Tests/LiveIdP/passkeys.sh: password sign-in (/login) and
# WebAuthn, allowed as a first factor (passkey sign-in at /wan-signin) and registered while signed in
# (/wan-register). SQLite under the state directory; TLS and the process come from gunicorn (fst_app:app).
# Production-like: secure cookies, Flask-WTF's CSRF tokens on every form, Flask's TRUSTED_HOSTS.
#   PASSKEYS_DIR                state directory (database, secrets, password)
#   PASSKEYS_FST_HOST           the host name (also the WebAuthn rpId; origin https://HOST:PORT)
#   PASSKEYS_VERIFICATION_LOG   DIR/fst-verifications.log (see verification_log.py)
# `python fst_app.py seed` creates the tables and the user alice (alice@spconnect.test), password from DIR/password.
#
# The verification log wraps py_webauthn's verify_registration_response and verify_authentication_response (which
# Flask-Security-Too calls as webauthn.<name>) and writes what they returned or raised. Flask-Security-Too may call
# verify_authentication_response twice for one assertion (first requiring user verification, then as the sign-in
# asked); the calls of one request are written as one line (attempts=2). A sign-in refused before the library was
# asked (an unknown credential id, a user handle that does not match) is written with library=none.
import functools
import os
import sys
from pathlib import Path

import webauthn
from flask import Flask, Response, g, render_template_string
from flask_security import Security, SQLAlchemyUserDatastore, current_user, hash_password
from flask_security import webauthn as fs_webauthn
from flask_security.models import fsqla_v3 as fsqla
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import generate_csrf
from webauthn.helpers import parse_authenticator_data

import verification_log

STATE = Path(os.environ["PASSKEYS_DIR"])
HOST = os.environ["PASSKEYS_FST_HOST"]
secret, salt = (STATE / "fst.secret").read_text().split()

app = Flask(__name__)
app.config.update(
    SECRET_KEY=secret,
    SECURITY_PASSWORD_SALT=salt,
    SQLALCHEMY_DATABASE_URI=f"sqlite:///{STATE / 'fst.sqlite3'}",
    TRUSTED_HOSTS=[HOST],
    SESSION_COOKIE_SECURE=True,
    REMEMBER_COOKIE_SECURE=True,
    SECURITY_USERNAME_ENABLE=True,          # sign in as "alice" (the e-mail address works too)
    SECURITY_WEBAUTHN=True,
    SECURITY_WAN_ALLOW_AS_FIRST_FACTOR=True,  # passkey sign-in
    SECURITY_WAN_ALLOW_AS_MULTI_FACTOR=True,
    SECURITY_WAN_ALLOW_USER_HINTS=False,    # username-less: no identity asked, resident keys required
    SECURITY_WAN_RP_NAME="SPConnect passkeys (Flask-Security-Too)",
    SECURITY_POST_LOGIN_VIEW="/",
    SECURITY_POST_LOGOUT_VIEW="/",
)

db = SQLAlchemy(app)
fsqla.FsModels.set_db_info(db)


class Role(db.Model, fsqla.FsRoleMixin):
    pass


class User(db.Model, fsqla.FsUserMixin):
    pass


class WebAuthn(db.Model, fsqla.FsWebAuthnMixin):
    pass


user_datastore = SQLAlchemyUserDatastore(db, User, Role, WebAuthn)
security = Security(app, user_datastore)


@app.route("/")
def home():
    return render_template_string(
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Flask-Security-Too passkeys</title></head><body>"
        "<h1>Flask-Security-Too relying party</h1>"
        "{% if current_user.is_authenticated %}<p id='user'>Signed in as {{ current_user.username }}</p>"
        "<p><a href='/wan-register'>Passkeys</a></p>"
        "<form action='/logout' method='post'>"
        "<input type='hidden' name='csrf_token' value='{{ csrf_token }}'><button type='submit'>Sign out</button></form>"
        "{% else %}<p id='user'>Signed out</p><p><a href='/login'>Sign in</a> · "
        "<a href='/wan-signin'>Sign in with a passkey</a></p>{% endif %}</body></html>",
        csrf_token=generate_csrf())


@app.route("/whoami")
def whoami():  # never redirects: 200 "signed-in: <username>" or 401 "signed-out"
    if current_user.is_authenticated:
        return Response(f"signed-in: {current_user.username}\n", mimetype="text/plain")
    return Response("signed-out\n", status=401, mimetype="text/plain")


# ---- the verification log
def _user_of(credential_id):
    cred = user_datastore.find_webauthn(credential_id=credential_id)
    user = user_datastore.find_user_from_webauthn(cred) if cred else None
    return user.username if user else None


def _counter(auth_data):
    try:
        return parse_authenticator_data(auth_data).sign_count
    except Exception:
        return "?"


_verify_registration = webauthn.verify_registration_response
_verify_authentication = webauthn.verify_authentication_response


@functools.wraps(_verify_registration)
def logged_verify_registration(**kwargs):
    user = current_user.username if current_user.is_authenticated else None
    try:
        result = _verify_registration(**kwargs)
    except Exception as exc:
        raw_id = getattr(kwargs.get("credential"), "raw_id", None)
        verification_log.write("register", "rejected", user=user, credential=verification_log.b64url(raw_id),
                               library="py_webauthn", reason=exc)
        raise
    verification_log.write("register", "ok", user=user, credential=verification_log.b64url(result.credential_id),
                           sign_count=result.sign_count, library="py_webauthn")
    return result


@functools.wraps(_verify_authentication)
def logged_verify_authentication(**kwargs):
    cred = kwargs.get("credential")
    entry = {"user": _user_of(cred.raw_id), "credential": verification_log.b64url(cred.raw_id),
             "sign_count": _counter(cred.response.authenticator_data),
             "stored_sign_count": kwargs.get("credential_current_sign_count", "?")}
    g.setdefault("wan_calls", []).append(entry)
    try:
        result = _verify_authentication(**kwargs)
    except Exception as exc:
        entry["reason"] = exc
        raise
    return result


webauthn.verify_registration_response = logged_verify_registration
webauthn.verify_authentication_response = logged_verify_authentication

_validate_signin = fs_webauthn.WebAuthnSigninResponseForm.validate


@functools.wraps(_validate_signin)
def logged_validate_signin(self, **kwargs):
    ok = _validate_signin(self, **kwargs)
    if not ok and not g.get("wan_calls"):
        raw_id = getattr(self.cred, "credential_id", None)
        g.wan_refused = {"user": getattr(self.user, "username", None),
                         "credential": verification_log.b64url(raw_id) if raw_id else "?",
                         "reason": "flask-security: " + "; ".join(self.credential.errors or ["refused"])}
    return ok


fs_webauthn.WebAuthnSigninResponseForm.validate = logged_validate_signin


@app.after_request
def write_verifications(response):
    calls = g.pop("wan_calls", None)
    if calls:
        last = calls[-1]
        verification_log.write("authenticate", "rejected" if "reason" in last else "ok", user=last["user"],
                               credential=last["credential"], sign_count=last["sign_count"],
                               stored_sign_count=last["stored_sign_count"], library="py_webauthn",
                               attempts=len(calls) if len(calls) > 1 else None, reason=last.get("reason"))
    refused = g.pop("wan_refused", None)
    if refused:
        verification_log.write("authenticate", "rejected", library="none", **refused)
    return response


def seed():
    password = (STATE / "password").read_text().strip()
    with app.app_context():
        db.create_all()
        user = user_datastore.find_user(username="alice")
        if user is None:
            user_datastore.create_user(username="alice", email="alice@spconnect.test", password=hash_password(password))
        else:
            user.password = hash_password(password)
        db.session.commit()
    print("seeded alice")


if __name__ == "__main__" and sys.argv[1:] == ["seed"]:
    seed()

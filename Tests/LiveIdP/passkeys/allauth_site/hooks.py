# hooks.py — the allauth site's verification log: wraps python-fido2's Fido2Server.register_complete and
# authenticate_complete (the library allauth verifies WebAuthn with) and writes each call's outcome through
# verification_log.write, then re-raises or returns exactly what the library did. A sign-in allauth refuses before
# or after the library (a user handle of nobody; no user-verified flag) is logged as library=none.
# allauth keeps no sign counter (the credential's registration data only): stored_sign_count is "-".
import functools

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

import verification_log


def _request():
    from allauth.core import context
    return getattr(context, "request", None)


def _note(outcome):  # the library's last outcome in this request, for the form wrapper below
    req = _request()
    if req is not None:
        req._passkeys_library_outcome = outcome


def _user_from_handle(response):
    try:
        from allauth.account.utils import url_str_to_user_pk
        from fido2.utils import websafe_decode
        handle = response.get("response", {}).get("userHandle")
        if not handle:
            return None
        user = get_user_model().objects.filter(pk=url_str_to_user_pk(websafe_decode(handle).decode("utf8"))).first()
        return user.get_username() if user else None
    except Exception:
        return None


def _signed_in_user():
    req = _request()
    user = getattr(req, "user", None)
    return user.get_username() if user is not None and user.is_authenticated else None


def install():
    from fido2.server import Fido2Server
    from fido2.webauthn import AuthenticationResponse

    if getattr(Fido2Server, "_passkeys_logged", False):
        return
    register_complete = Fido2Server.register_complete
    authenticate_complete = Fido2Server.authenticate_complete

    @functools.wraps(register_complete)
    def logged_register_complete(self, state, response):
        user = _signed_in_user()
        sent = response.get("id") if isinstance(response, dict) else None
        try:
            auth_data = register_complete(self, state, response)
        except Exception as exc:
            verification_log.write("register", "rejected", user=user, credential=sent if isinstance(sent, str) else "?",
                                   library="fido2", reason=exc)
            raise
        verification_log.write("register", "ok", user=user,
                               credential=verification_log.b64url(auth_data.credential_data.credential_id),
                               sign_count=auth_data.counter, library="fido2")
        return auth_data

    @functools.wraps(authenticate_complete)
    def logged_authenticate_complete(self, state, credentials, response):
        user = _user_from_handle(response) or _signed_in_user()
        credential, sign_count = "?", "?"
        try:
            parsed = AuthenticationResponse.from_dict(response)
            credential = verification_log.b64url(parsed.raw_id)
            sign_count = parsed.response.authenticator_data.counter
        except Exception:
            pass
        try:
            cred = authenticate_complete(self, state, credentials, response)
        except Exception as exc:
            _note("rejected")
            verification_log.write("authenticate", "rejected", user=user, credential=credential,
                                   sign_count=sign_count, library="fido2", reason=exc)
            raise
        _note("ok")
        verification_log.write("authenticate", "ok", user=user, credential=credential, sign_count=sign_count,
                               library="fido2")
        return cred

    Fido2Server.register_complete = logged_register_complete
    Fido2Server.authenticate_complete = logged_authenticate_complete
    Fido2Server._passkeys_logged = True

    # allauth's own refusals around the library (same request, library not asked or it said ok).
    from allauth.mfa.webauthn.forms import AuthenticateWebAuthnForm
    clean_credential = AuthenticateWebAuthnForm.clean_credential

    @functools.wraps(clean_credential)
    def logged_clean_credential(self):
        req = _request()
        if req is not None:
            req._passkeys_library_outcome = None
        try:
            return clean_credential(self)
        except ValidationError as exc:
            if getattr(req, "_passkeys_library_outcome", None) != "rejected":
                cause = exc.__cause__ or exc.__context__
                reason = "; ".join(exc.messages) + (f" ({cause})" if cause else "")
                sent = self.cleaned_data.get("credential")
                sent = sent if isinstance(sent, dict) else {}
                verification_log.write("authenticate", "rejected", user=_user_from_handle(sent) or _signed_in_user(),
                                       credential=sent.get("id") or "?", library="none", reason=f"allauth: {reason}")
            raise

    AuthenticateWebAuthnForm.clean_credential = logged_clean_credential

# verification_log.py — one line per WebAuthn verification a relying party's own library performs, appended to the
# file named by PASSKEYS_VERIFICATION_LOG (Tests/LiveIdP/passkeys.sh sets it to DIR/<app>-verifications.log).
# Shared by allauth_site (python-fido2) and fst_app.py (py_webauthn); each wraps its library's verify calls and
# hands the outcome here. Nothing is verified here: the libraries' own results are only written down.
#
# Line format (fields space-separated, reason last and quoted):
#   <register|authenticate> <ok|rejected> user=<name|?> credential=<base64url id|?> sign_count=<n|?>
#       stored_sign_count=<n|-> library=<fido2|py_webauthn|none> [attempts=<n>] [reason="<library message>"] at=<UTC>
# sign_count is the counter the authenticator sent (authenticatorData), stored_sign_count the one the RP kept from the
# credential's last use ("-": the RP keeps none). library=none: the RP refused before its library was asked (an
# unknown credential id, a user handle of nobody).
import base64
import datetime
import os
import threading

_lock = threading.Lock()


def b64url(data):
    return base64.urlsafe_b64encode(bytes(data)).rstrip(b"=").decode("ascii") if data is not None else "?"


def write(action, outcome, *, user="?", credential="?", sign_count="?", stored_sign_count="-", library,
          attempts=None, reason=None):
    fields = [action, outcome, f"user={user or '?'}", f"credential={credential or '?'}",
              f"sign_count={sign_count}", f"stored_sign_count={stored_sign_count}", f"library={library}"]
    if attempts is not None:
        fields.append(f"attempts={attempts}")
    if reason is not None:
        clean = " ".join(str(reason).split()).replace("\\", "\\\\").replace('"', '\\"')
        fields.append(f'reason="{clean}"')
    fields.append("at=" + datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ"))
    path = os.environ.get("PASSKEYS_VERIFICATION_LOG")
    if not path:
        return
    line = " ".join(fields) + "\n"
    with _lock:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line.encode("utf-8"))
        finally:
            os.close(fd)

# views.py — "/" (a page naming the signed-in user, with links to sign out and to the passkey pages) and /whoami,
# which never redirects: 200 "signed-in: <username>" or 401 "signed-out" (text/plain), for tests.
from django.http import HttpResponse
from django.utils.html import escape


def whoami(request):
    if request.user.is_authenticated:
        return HttpResponse(f"signed-in: {request.user.get_username()}\n", content_type="text/plain")
    return HttpResponse("signed-out\n", status=401, content_type="text/plain")


def home(request):
    if request.user.is_authenticated:
        body = (f"<p id=\"user\">Signed in as {escape(request.user.get_username())}</p>"
                "<p><a href=\"/accounts/2fa/webauthn/add/\">Add a passkey</a> · "
                "<a href=\"/accounts/2fa/webauthn/\">Passkeys</a> · <a href=\"/accounts/logout/\">Sign out</a></p>")
    else:
        body = "<p id=\"user\">Signed out</p><p><a href=\"/accounts/login/\">Sign in</a></p>"
    return HttpResponse("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>allauth passkeys</title></head>"
                        f"<body><h1>django-allauth relying party</h1>{body}</body></html>")

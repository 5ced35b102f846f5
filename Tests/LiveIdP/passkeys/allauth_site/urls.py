# urls.py — allauth's URLs under /accounts/ (sign-in, sign-out, /accounts/2fa/ for passkeys), "/" and /whoami
# (who is signed in), and the static files of allauth's pages (its WebAuthn JavaScript) with DEBUG off.
from django.contrib.staticfiles.views import serve as static_serve
from django.urls import include, path, re_path

from allauth_site import views

urlpatterns = [
    path("", views.home, name="home"),
    path("whoami", views.whoami, name="whoami"),
    path("accounts/", include("allauth.urls")),
    re_path(r"^static/(?P<path>.*)$", static_serve, {"insecure": True}),
]

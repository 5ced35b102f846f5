# settings.py — the allauth relying party of Tests/LiveIdP/passkeys.sh: django-allauth with its mfa app, WebAuthn as
# the only second factor and passkey (username-less) sign-in on. Production-like: DEBUG off, TLS (gunicorn), secure
# cookies, CSRF on. Everything per run comes from the environment (passkeys.sh start sets it):
#   PASSKEYS_DIR                state directory (database, secret key)
#   PASSKEYS_ALLAUTH_HOST       the host name (also the WebAuthn rpId; origin https://HOST:PORT)
#   PASSKEYS_VERIFICATION_LOG   DIR/allauth-verifications.log (see verification_log.py)
import os
from pathlib import Path

STATE = Path(os.environ["PASSKEYS_DIR"])
HOST = os.environ["PASSKEYS_ALLAUTH_HOST"]

SECRET_KEY = (STATE / "allauth.secret").read_text().strip()
DEBUG = False
ALLOWED_HOSTS = [HOST]
ROOT_URLCONF = "allauth_site.urls"
WSGI_APPLICATION = "allauth_site.wsgi.application"

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "allauth_site.apps.PasskeysSiteConfig",   # the verification log (hooks.py)
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
    ]},
}]
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(STATE / "allauth.sqlite3")}}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
STATIC_URL = "/static/"

SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"

# django-allauth: sign in by user name; no e-mail verification (alice's address is seeded as verified anyway).
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "none"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"

# Passkeys: WebAuthn the only MFA type; passkey (username-less) sign-in on. Adding a key needs no reauthentication
# prompt: allauth's default (True) sends GET /accounts/2fa/webauthn/add/ to /accounts/reauthenticate/?next=... even
# right after a sign-in (a sign-in is not a reauthentication), and takes the password there (good for 300 s).
# The origin check stays python-fido2's own (MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN off): https, host == rpId.
MFA_SUPPORTED_TYPES = ["webauthn"]
MFA_PASSKEY_LOGIN_ENABLED = True
MFA_REAUTHENTICATION_REQUIRED = False
MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = False
# allauth counts every request to the passkey login URL (the options GET and the credential POST) against
# "10/m/ip"; a test suite signs in more often than a person, so the limit is raised (it still exists).
MFA_RATE_LIMITS = {"webauthn_login": "120/m/ip"}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}

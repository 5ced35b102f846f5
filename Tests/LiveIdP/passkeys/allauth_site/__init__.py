# allauth_site — a small Django site whose sign-in is django-allauth's (password, and passkeys through its mfa app),
# run by Tests/LiveIdP/passkeys.sh under gunicorn with TLS. Settings come from the environment that script sets.

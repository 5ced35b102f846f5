# wsgi.py — the WSGI application gunicorn serves (passkeys.sh: gunicorn allauth_site.wsgi:application).
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "allauth_site.settings")
application = get_wsgi_application()

# apps.py — installs the verification log's wrappers (hooks.py) once Django has loaded its apps.
from django.apps import AppConfig


class PasskeysSiteConfig(AppConfig):
    name = "allauth_site"
    label = "allauth_site"

    def ready(self):
        from allauth_site import hooks
        hooks.install()

# seed.py — run once per start: `migrate` (a new SQLite database), then the user alice (password from DIR/password)
# with the verified, primary address alice@spconnect.test. `python -m allauth_site.seed`, DJANGO_SETTINGS_MODULE set.
import os

import django

django.setup()

from allauth.account.models import EmailAddress  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402

call_command("migrate", interactive=False, verbosity=0)

password = open(os.path.join(os.environ["PASSKEYS_DIR"], "password")).read().strip()
User = get_user_model()
user, _ = User.objects.get_or_create(username="alice", defaults={"email": "alice@spconnect.test"})
user.email = "alice@spconnect.test"
user.set_password(password)
user.save()
EmailAddress.objects.update_or_create(user=user, email=user.email, defaults={"verified": True, "primary": True})
print("seeded alice")

#pragma once
// libsecret (the Secret Service client) and the GLib it runs on. Only CSecretShims includes this: Swift sees the
// shim's plain C API, never a GLib type.
#include <libsecret/secret.h>

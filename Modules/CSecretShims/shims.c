#include "CSecretShims.h"

#include <dlfcn.h>
#include <libsecret/secret.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// libsecret (and the GLib it runs on) is loaded when the keyring is first used, not when the program starts: most
// runs never touch the keyring, and loading GLib, GIO and libsecret costs a start-up a third of curl's whole run.
// The headers give every function's type; the addresses come from dlsym, so nothing here links against them.
#define SPC_FUNCTIONS(X) \
    X(secret_password_storev_sync) \
    X(secret_password_lookupv_sync) \
    X(secret_password_searchv_sync) \
    X(secret_password_clearv_sync) \
    X(secret_password_free) \
    X(secret_service_get_sync) \
    X(secret_collection_for_alias_sync) \
    X(secret_collection_get_locked) \
    X(secret_item_get_locked) \
    X(secret_item_get_type) \
    X(secret_error_get_quark) \
    X(g_dbus_error_quark) \
    X(g_io_error_quark) \
    X(g_type_check_instance_is_a) \
    X(g_cancellable_cancel) \
    X(g_cancellable_new) \
    X(g_cond_clear) \
    X(g_cond_init) \
    X(g_cond_signal) \
    X(g_cond_wait_until) \
    X(g_error_free) \
    X(g_get_monotonic_time) \
    X(g_hash_table_insert) \
    X(g_hash_table_new) \
    X(g_hash_table_unref) \
    X(g_list_free_full) \
    X(g_mutex_clear) \
    X(g_mutex_init) \
    X(g_mutex_lock) \
    X(g_mutex_unlock) \
    X(g_object_unref) \
    X(g_thread_join) \
    X(g_thread_new) \
    X(g_str_hash) \
    X(g_str_equal)

static struct {
#define SPC_MEMBER(name) __typeof__(&name) fn_##name;
    SPC_FUNCTIONS(SPC_MEMBER)
#undef SPC_MEMBER
} L;

static pthread_once_t spc_load_once = PTHREAD_ONCE_INIT;
static const char *spc_load_failure = NULL;

static void spc_load(void) {
    void *library = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        spc_load_failure = "libsecret is not installed (libsecret-1.so.0: install the libsecret-1-0 package)";
        return;
    }
#define SPC_RESOLVE(name) \
    if ((L.fn_##name = (__typeof__(&name)) dlsym(library, #name)) == NULL) { \
        spc_load_failure = "the installed libsecret lacks " #name; \
        return; \
    }
    SPC_FUNCTIONS(SPC_RESOLVE)
#undef SPC_RESOLVE
}

// 0 when libsecret is loaded; else 1, with why in `*message` (a copy; the call is then SPC_KEYRING_UNAVAILABLE).
static int spc_unavailable(char **message) {
    pthread_once(&spc_load_once, spc_load);
    if (spc_load_failure == NULL) return 0;
    *message = strdup(spc_load_failure);
    return 1;
}

// SPConnect's own schema: its name is matched with the attributes (no SECRET_SCHEMA_DONT_MATCH_NAME), so another
// application's entry with the same attribute names is never found, changed or removed. Static: it outlives
// every call that points at it.
static const SecretSchema spc_password_schema = {
    "org.spconnect.Password",
    SECRET_SCHEMA_NONE,
    {
        {"origin", SECRET_SCHEMA_ATTRIBUTE_STRING},
        {"user", SECRET_SCHEMA_ATTRIBUTE_STRING},
        {NULL, 0},
    },
};

// Cancels a call that runs past its deadline. libsecret's synchronous calls run a main loop of their own until
// the service answers, and an unlock prompt has no time limit: on a machine where nobody can answer it, only the
// cancellable ends the wait.
typedef struct {
    GMutex lock;
    GCond changed;
    gboolean finished;
    gboolean fired;
    gint64 deadline;
    GCancellable *cancellable;
    GThread *thread;
} spc_watchdog;

static gpointer spc_watchdog_main(gpointer data) {
    spc_watchdog *watchdog = data;
    L.fn_g_mutex_lock(&watchdog->lock);
    while (!watchdog->finished) {
        if (!L.fn_g_cond_wait_until(&watchdog->changed, &watchdog->lock, watchdog->deadline)) {
            if (!watchdog->finished) {
                watchdog->fired = TRUE;
                L.fn_g_cancellable_cancel(watchdog->cancellable);
            }
            break;
        }
    }
    L.fn_g_mutex_unlock(&watchdog->lock);
    return NULL;
}

static void spc_watchdog_start(spc_watchdog *watchdog, int timeout_ms) {
    L.fn_g_mutex_init(&watchdog->lock);
    L.fn_g_cond_init(&watchdog->changed);
    watchdog->finished = FALSE;
    watchdog->fired = FALSE;
    watchdog->deadline = L.fn_g_get_monotonic_time() + (gint64)(timeout_ms > 0 ? timeout_ms : 1) * G_TIME_SPAN_MILLISECOND;
    watchdog->cancellable = L.fn_g_cancellable_new();
    watchdog->thread = L.fn_g_thread_new("spc-keyring-watchdog", spc_watchdog_main, watchdog);
}

// Stops the watchdog; TRUE when it had cancelled the call.
static gboolean spc_watchdog_stop(spc_watchdog *watchdog) {
    L.fn_g_mutex_lock(&watchdog->lock);
    watchdog->finished = TRUE;
    L.fn_g_cond_signal(&watchdog->changed);
    L.fn_g_mutex_unlock(&watchdog->lock);
    L.fn_g_thread_join(watchdog->thread);
    gboolean fired = watchdog->fired;
    L.fn_g_object_unref(watchdog->cancellable);
    L.fn_g_cond_clear(&watchdog->changed);
    L.fn_g_mutex_clear(&watchdog->lock);
    return fired;
}

// The status for a failed call's error; `*message` takes a copy of the error's own text.
static spc_keyring_status spc_status_for(GError *error, gboolean timed_out, char **message) {
    *message = strdup(error->message);
    spc_keyring_status status = SPC_KEYRING_FAILED;
    if (timed_out) {
        status = SPC_KEYRING_TIMED_OUT;
    } else if (error->domain == L.fn_secret_error_get_quark()) {
        if (error->code == SECRET_ERROR_IS_LOCKED) status = SPC_KEYRING_LOCKED;
        else if (error->code == SECRET_ERROR_NO_SUCH_OBJECT) status = SPC_KEYRING_NOT_FOUND;
    } else if (error->domain == L.fn_g_dbus_error_quark()) {
        switch (error->code) {
        case G_DBUS_ERROR_ACCESS_DENIED:
        case G_DBUS_ERROR_AUTH_FAILED:
            status = SPC_KEYRING_DENIED;
            break;
        case G_DBUS_ERROR_TIMEOUT:
        case G_DBUS_ERROR_TIMED_OUT:
        case G_DBUS_ERROR_NO_REPLY:
            status = SPC_KEYRING_TIMED_OUT;
            break;
        default:
            // ServiceUnknown, NameHasNoOwner, Spawn*, NoServer, Disconnected, ...: nothing answers for the service.
            status = SPC_KEYRING_UNAVAILABLE;
        }
    } else if (error->domain == L.fn_g_io_error_quark()) {
        // A dismissed unlock prompt ends the call as cancelled; a bus that cannot be reached is an I/O error.
        status = error->code == G_IO_ERROR_CANCELLED ? SPC_KEYRING_LOCKED : SPC_KEYRING_UNAVAILABLE;
    }
    L.fn_g_error_free(error);
    return status;
}

static GHashTable *spc_attributes(const char *origin, const char *user) {
    GHashTable *attributes = L.fn_g_hash_table_new(L.fn_g_str_hash, L.fn_g_str_equal);
    L.fn_g_hash_table_insert(attributes, (gpointer) "origin", (gpointer) origin);
    L.fn_g_hash_table_insert(attributes, (gpointer) "user", (gpointer) user);
    return attributes;
}

// What a search that never unlocks finds for the attributes: 0 nothing, 1 only locked entries, 2 an unlocked one.
static int spc_matching_entries(GHashTable *attributes, GCancellable *cancellable, GError **error) {
    GList *items = L.fn_secret_password_searchv_sync(&spc_password_schema, attributes, SECRET_SEARCH_ALL, cancellable, error);
    int found = 0;
    for (GList *node = items; node != NULL; node = node->next) {
        gboolean locked = L.fn_g_type_check_instance_is_a((GTypeInstance *) node->data, L.fn_secret_item_get_type())
            && L.fn_secret_item_get_locked((SecretItem *) node->data);
        if (!locked) found = 2;
        else if (found == 0) found = 1;
    }
    L.fn_g_list_free_full(items, L.fn_g_object_unref);
    return found;
}

// When no prompt may be shown: whether the default collection can take an item without one. FALSE with `*message`
// set when it is locked or missing (creating it would prompt for its password).
static gboolean spc_default_collection_open(GCancellable *cancellable, GError **error, char **message) {
    SecretService *service = L.fn_secret_service_get_sync(SECRET_SERVICE_NONE, cancellable, error);
    if (service == NULL) return FALSE;
    SecretCollection *collection = L.fn_secret_collection_for_alias_sync(
        service, SECRET_COLLECTION_DEFAULT, SECRET_COLLECTION_NONE, cancellable, error);
    L.fn_g_object_unref(service);
    if (collection == NULL) {
        if (*error == NULL) *message = strdup("there is no default keyring, and making one asks for its password");
        return FALSE;
    }
    gboolean locked = L.fn_secret_collection_get_locked(collection);
    L.fn_g_object_unref(collection);
    if (locked) *message = strdup("the default keyring is locked");
    return !locked;
}

spc_keyring_status spc_keyring_probe(int timeout_ms, char **message) {
    *message = NULL;
    if (spc_unavailable(message)) return SPC_KEYRING_UNAVAILABLE;
    spc_watchdog watchdog;
    spc_watchdog_start(&watchdog, timeout_ms);
    GError *error = NULL;
    SecretService *service = L.fn_secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, watchdog.cancellable, &error);
    gboolean timed_out = spc_watchdog_stop(&watchdog);
    if (service == NULL) {
        if (error == NULL) return SPC_KEYRING_UNAVAILABLE;
        return spc_status_for(error, timed_out, message);
    }
    L.fn_g_object_unref(service);
    return SPC_KEYRING_OK;
}

spc_keyring_status spc_keyring_store(
    const char *origin, const char *user, const char *label, const char *password, int allow_prompt, int timeout_ms,
    char **message) {
    *message = NULL;
    if (spc_unavailable(message)) return SPC_KEYRING_UNAVAILABLE;
    GHashTable *attributes = spc_attributes(origin, user);
    spc_watchdog watchdog;
    spc_watchdog_start(&watchdog, timeout_ms);
    GError *error = NULL;
    gboolean stored = FALSE;
    gboolean refused = !allow_prompt && !spc_default_collection_open(watchdog.cancellable, &error, message);
    if (!refused) {
        stored = L.fn_secret_password_storev_sync(
            &spc_password_schema, attributes, SECRET_COLLECTION_DEFAULT, label, password, watchdog.cancellable, &error);
    }
    gboolean timed_out = spc_watchdog_stop(&watchdog);
    L.fn_g_hash_table_unref(attributes);
    if (stored) return SPC_KEYRING_OK;
    if (error != NULL) {
        free(*message);
        return spc_status_for(error, timed_out, message);
    }
    return refused ? SPC_KEYRING_LOCKED : SPC_KEYRING_FAILED;
}

spc_keyring_status spc_keyring_lookup(
    const char *origin, const char *user, int allow_prompt, int timeout_ms, char **password, char **message) {
    *password = NULL;
    *message = NULL;
    if (spc_unavailable(message)) return SPC_KEYRING_UNAVAILABLE;
    GHashTable *attributes = spc_attributes(origin, user);
    spc_watchdog watchdog;
    spc_watchdog_start(&watchdog, timeout_ms);
    GError *error = NULL;
    gchar *found = NULL;
    // What exists, looked at without unlocking anything: only locked entries would mean an unlock prompt.
    int matching = spc_matching_entries(attributes, watchdog.cancellable, &error);
    gboolean locked = error == NULL && matching == 1 && !allow_prompt;
    if (error == NULL && matching > 0 && !locked) {
        found = L.fn_secret_password_lookupv_sync(&spc_password_schema, attributes, watchdog.cancellable, &error);
        // Nothing came back and nothing failed: the entry's collection stayed locked (the prompt failed or was
        // dismissed).
        locked = found == NULL && error == NULL;
    }
    gboolean timed_out = spc_watchdog_stop(&watchdog);
    L.fn_g_hash_table_unref(attributes);
    if (found != NULL) {
        *password = found;
        return SPC_KEYRING_OK;
    }
    if (error != NULL) return spc_status_for(error, timed_out, message);
    if (timed_out) return SPC_KEYRING_TIMED_OUT;
    return locked ? SPC_KEYRING_LOCKED : SPC_KEYRING_NOT_FOUND;
}

spc_keyring_status spc_keyring_clear(
    const char *origin, const char *user, int allow_prompt, int timeout_ms, char **message) {
    *message = NULL;
    if (spc_unavailable(message)) return SPC_KEYRING_UNAVAILABLE;
    GHashTable *attributes = spc_attributes(origin, user);
    spc_watchdog watchdog;
    spc_watchdog_start(&watchdog, timeout_ms);
    GError *error = NULL;
    gboolean removed = FALSE;
    int matching = spc_matching_entries(attributes, watchdog.cancellable, &error);
    gboolean locked = error == NULL && matching == 1 && !allow_prompt;
    if (error == NULL && matching > 0 && !locked) {
        removed = L.fn_secret_password_clearv_sync(&spc_password_schema, attributes, watchdog.cancellable, &error);
    }
    gboolean timed_out = spc_watchdog_stop(&watchdog);
    L.fn_g_hash_table_unref(attributes);
    if (removed) return SPC_KEYRING_OK;
    if (error != NULL) return spc_status_for(error, timed_out, message);
    if (locked) return SPC_KEYRING_LOCKED;
    return matching > 0 ? SPC_KEYRING_LOCKED : SPC_KEYRING_NOT_FOUND;
}

void spc_keyring_free_password(char *password) {
    if (password != NULL) L.fn_secret_password_free(password);
}

void spc_keyring_free_message(char *message) { free(message); }

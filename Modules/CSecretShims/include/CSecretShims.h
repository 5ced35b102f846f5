#pragma once
// Fixed-signature wrappers over libsecret's variadic simple password API (`secret_password_store_sync` and
// friends), with SPConnect's own schema and a watchdog that cancels a call still running after its time (a locked
// keyring may put up an unlock prompt that nobody answers on a headless machine). No GLib type appears here; every
// symbol carries the `spc_` prefix. Only the Keyring module may import this module.
#include <stddef.h>

/// What a keyring call came to.
typedef enum {
    SPC_KEYRING_OK = 0,
    /// No Secret Service could be reached: no session bus, or nothing on it provides org.freedesktop.secrets.
    SPC_KEYRING_UNAVAILABLE = 1,
    /// The collection is locked and was not unlocked (the prompt failed or was dismissed).
    SPC_KEYRING_LOCKED = 2,
    /// The lookup found no entry for this origin and user.
    SPC_KEYRING_NOT_FOUND = 3,
    /// The service or the bus refused the call.
    SPC_KEYRING_DENIED = 4,
    /// The call did not finish within its time and was cancelled.
    SPC_KEYRING_TIMED_OUT = 5,
    /// Any other failure (the message says which).
    SPC_KEYRING_FAILED = 6,
} spc_keyring_status;

/// Connects to the Secret Service and opens a session with it, storing nothing: whether the keyring can be used.
spc_keyring_status spc_keyring_probe(int timeout_ms, char *_Nullable *_Nonnull message);

// `allow_prompt` 0: never ask the service to unlock anything (no one could answer its prompt, as with no display):
// a locked collection or entry is SPC_KEYRING_LOCKED at once.

/// Stores `password` for (`origin`, `user`) in the default collection under `label`, replacing an earlier entry.
spc_keyring_status spc_keyring_store(
    const char *_Nonnull origin, const char *_Nonnull user, const char *_Nonnull label,
    const char *_Nonnull password, int allow_prompt, int timeout_ms, char *_Nullable *_Nonnull message);

/// The password for (`origin`, `user`) in `*password` (free it with `spc_keyring_free_password`), or
/// SPC_KEYRING_NOT_FOUND, or SPC_KEYRING_LOCKED when an entry exists but its collection stayed locked.
spc_keyring_status spc_keyring_lookup(
    const char *_Nonnull origin, const char *_Nonnull user, int allow_prompt, int timeout_ms,
    char *_Nullable *_Nonnull password, char *_Nullable *_Nonnull message);

/// Removes the entries for (`origin`, `user`); SPC_KEYRING_NOT_FOUND when there was none.
spc_keyring_status spc_keyring_clear(
    const char *_Nonnull origin, const char *_Nonnull user, int allow_prompt, int timeout_ms,
    char *_Nullable *_Nonnull message);

/// Wipes and frees a password from `spc_keyring_lookup`.
void spc_keyring_free_password(char *_Nullable password);

/// Frees a message from any call above.
void spc_keyring_free_message(char *_Nullable message);

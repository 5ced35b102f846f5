extension SessionStore {
    /// Checks, before a sign-in asks for or sends any secret, that its session could be kept: the profile name is
    /// valid, the sessions folder exists (created 0700 when missing) and no one else may write to it, and a session
    /// file already saved for `profile` follows the trust rules a load applies (``PrivateFiles``: a regular file,
    /// yours, mode 0600, no symbolic link). The refusal is the one ``save(_:profile:)`` or ``load(profile:)``
    /// would give, only before the password went anywhere.
    ///
    /// - Throws: ``StoreError/untrusted(path:reason:fix:)`` naming the folder or file, the reason and the fix;
    ///   ``StoreError/invalidProfileName(_:)``; ``StoreError/io(path:reason:)`` when the folder cannot be created.
    public func checkBeforeSignIn(profile: String) throws(StoreError) {
        let path = try path(for: profile)
        try makeDirectory()
        do {
            try PrivateFiles.checkFile(path)
        } catch {
            throw .untrusted(path: path, reason: error.reason, fix: error.fix)
        }
    }
}

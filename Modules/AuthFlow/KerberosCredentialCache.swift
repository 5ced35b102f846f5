import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Whether the user has a Kerberos credential cache for a sign-in to answer `Negotiate` with (SPNEGO through
/// libcurl's GSS-API): `KRB5CCNAME` names one (a `FILE:` cache, or a bare path, must exist and be the user's; a
/// `KEYRING:`, `KCM:`, `DIR:` or `MEMORY:` cache is left to the GSS-API library to judge), else the default file
/// cache `/tmp/krb5cc_UID` exists. No ticket is read: whether one is valid for the server's realm is the server's
/// answer. `kinit` makes the cache; an unattended job makes it from a keytab with `kinit -kt KEYTAB PRINCIPAL`.
public enum KerberosCredentialCache {
    /// Whether a cache is there, judged from the process's environment.
    public static func isPresent() -> Bool { isPresent(environment: ProcessInfo.processInfo.environment) }

    /// Whether a cache is there, judged from `environment`.
    public static func isPresent(environment: [String: String]) -> Bool {
        guard let name = environment["KRB5CCNAME"], !name.isEmpty else {
            return isOwnFile("/tmp/krb5cc_\(getuid())")
        }
        if name.hasPrefix("FILE:") { return isOwnFile(String(name.dropFirst("FILE:".count))) }
        if name.hasPrefix("/") { return isOwnFile(name) }
        return name.contains(":")
    }

    /// A regular file owned by the user (the GSS-API library refuses anything else too).
    private static func isOwnFile(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return (status.st_mode & S_IFMT) == S_IFREG && status.st_uid == getuid()
    }
}

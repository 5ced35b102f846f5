import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `body` with `arguments` and `environment` (nil: this process's) as the NUL-terminated C string arrays
/// `posix_spawn` takes (each array ends in nil), freed when `body` returns: the one way the apps build a child's argv
/// and envp.
package func withSpawnStrings<Result>(
    arguments: [String], environment: [String: String]? = nil,
    _ body: (_ argv: [UnsafeMutablePointer<CChar>?], _ envp: [UnsafeMutablePointer<CChar>?]) -> Result
) -> Result {
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        for pointer in argv { free(pointer) }
        for pointer in envp { free(pointer) }
    }
    return body(argv, envp)
}

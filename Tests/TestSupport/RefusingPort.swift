#if canImport(Glibc)
    import Glibc
#endif

/// A loopback TCP port that refuses every connection for as long as this value lives.
///
/// The port is bound but never listened on, so a connect gets `ECONNREFUSED` and, unlike the
/// port of a server that was stopped, no other test running in parallel can be given it.
public final class RefusingPort: @unchecked Sendable {
    /// The port number on 127.0.0.1.
    public let port: UInt16
    private let descriptor: Int32

    /// Binds a fresh port on 127.0.0.1.
    public init() throws {
        (descriptor, port) = try LoopbackSocket.bound()
    }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    deinit { close(descriptor) }
}

/// A TCP socket bound to a fresh port of 127.0.0.1 (not listening yet).
enum LoopbackSocket {
    /// The descriptor and its port; throws the failing call's errno.
    static func bound() throws -> (descriptor: Int32, port: UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RefusingPortError(call: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        var actual = sockaddr_in()
        var actualLength = length
        let named = withUnsafeMutablePointer(to: &actual) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &actualLength) }
        }
        guard bound == 0, named == 0 else {
            let code = errno
            close(descriptor)
            throw RefusingPortError(call: bound == 0 ? "getsockname" : "bind", code: code)
        }
        return (descriptor, UInt16(bigEndian: actual.sin_port))
    }
}

/// A system call failed while a ``RefusingPort`` was being set up.
public struct RefusingPortError: Error, CustomStringConvertible {
    /// The call that failed.
    public let call: String
    /// Its `errno`.
    public let code: Int32

    public var description: String { "\(call) failed with errno \(code)" }
}

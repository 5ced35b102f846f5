#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where renderers write their output. Presentation never prints: every renderer takes a sink.
///
/// Sinks are reference types used from one task or thread at a time; they are not `Sendable`.
public protocol OutputSink: AnyObject {
    /// Writes `text` as UTF-8.
    func write(_ text: String)
    /// Writes raw bytes.
    func write(bytes: [UInt8])
    /// Pushes buffered output to its destination. Sinks without a buffer do nothing.
    func flush()
}

extension OutputSink {
    /// Default: encodes `text` as UTF-8 and forwards it to ``write(bytes:)``.
    public func write(_ text: String) {
        write(bytes: Array(text.utf8))
    }

    /// Default: nothing to flush.
    public func flush() {}
}

/// A buffered sink over a file descriptor (standard output by default).
///
/// Output is collected in a buffer of `bufferCapacity` bytes and written with `write(2)` when the buffer is full,
/// on ``flush()``, and when the sink is deinitialised. Interrupted writes are retried; the first failure is kept in
/// ``failure`` and later output is dropped (for example after the reader of a pipe went away).
/// The sink does not own the descriptor and never closes it. Not thread-safe: use it from one task at a time.
public final class FileDescriptorSink: OutputSink {
    /// The descriptor written to.
    public let fileDescriptor: Int32
    /// How many bytes are buffered before they are written.
    public let bufferCapacity: Int
    /// The `errno` of the first failed write, or `nil` while every write succeeded.
    public private(set) var failure: Int32?
    private var buffer: [UInt8] = []

    /// Creates a sink over `fileDescriptor` (1 = standard output, 2 = standard error).
    /// - Parameter bufferCapacity: bytes kept before writing; 0 writes through on every call.
    public init(fileDescriptor: Int32 = 1, bufferCapacity: Int = 64 * 1024) {
        self.fileDescriptor = fileDescriptor
        self.bufferCapacity = max(0, bufferCapacity)
        buffer.reserveCapacity(self.bufferCapacity)
    }

    /// A buffered sink for standard output.
    public static func standardOutput() -> FileDescriptorSink {
        FileDescriptorSink(fileDescriptor: 1)
    }

    /// A sink for standard error; small buffer, meant to be flushed after each update.
    public static func standardError() -> FileDescriptorSink {
        FileDescriptorSink(fileDescriptor: 2, bufferCapacity: 4 * 1024)
    }

    deinit {
        flush()
    }

    /// Appends `text` to the buffer, writing it out when the buffer is full.
    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= bufferCapacity { flush() }
    }

    /// Appends `bytes` to the buffer, writing it out when the buffer is full.
    public func write(bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= bufferCapacity { flush() }
    }

    /// Writes everything buffered to the descriptor.
    public func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil, !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = systemWrite(fileDescriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
    }
}

private func systemWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        return write(descriptor, pointer, count)
    #endif
}

/// An in-memory sink, for tests and for building a string to hand to another API (an HTTP response body).
///
/// Not thread-safe: use it from one task at a time.
public final class MemorySink: OutputSink {
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []
    /// How many times `write` was called.
    public private(set) var writeCount = 0

    /// Creates an empty sink.
    public init() {}

    /// Everything written so far, decoded as UTF-8.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends `text` as UTF-8.
    public func write(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        writeCount += 1
    }

    /// Appends `bytes`.
    public func write(bytes: [UInt8]) {
        self.bytes.append(contentsOf: bytes)
        writeCount += 1
    }

    /// Forgets everything written.
    public func reset() {
        bytes.removeAll()
        writeCount = 0
    }
}

import Foundation

#if FUZZING
    import CFuzzerDriver
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// What the fuzz targets share. Each target is one source file whose `@main` calls ``main(_:)`` with its entry
/// (a function of the input bytes that traps on a crash or a failed oracle).
///
/// Built with `-sanitize=fuzzer,address -DFUZZING`, ``main(_:)`` hands the command line to libFuzzer's driver and
/// the entry runs as `LLVMFuzzerTestOneInput`. In a plain build it replays the files or folders it is given (a crash
/// file, a whole corpus), so `swift build` builds and links every target and a crash can be rerun without the
/// fuzzer.
public enum Fuzz {
    /// The entry of the running target (set once by ``main(_:)``, before any input is run).
    nonisolated(unsafe) static var entry: ([UInt8]) -> Void = { _ in }

    /// Runs the target: libFuzzer under `-DFUZZING`, else ``replay(_:_:)`` over the command-line arguments.
    ///
    /// With `FUZZ_WRITE_SEEDS=DIR` in the environment it only writes `seeds` (inputs for targets without captured
    /// ones in `../shared/corpus`) to `DIR/seed-N` and exits: `Tools/fuzz/run` seeds a new corpus that way.
    public static func main(_ entry: @escaping ([UInt8]) -> Void, seeds: [String] = []) -> Never {
        if let directory = ProcessInfo.processInfo.environment["FUZZ_WRITE_SEEDS"] {
            for (index, seed) in seeds.enumerated() {
                let path = directory + "/seed-\(index)"
                guard FileManager.default.createFile(atPath: path, contents: Data(seed.utf8)) else {
                    FileHandle.standardError.write(Data("cannot write \(path)\n".utf8))
                    exit(2)
                }
            }
            exit(0)
        }
        Fuzz.entry = entry
        #if FUZZING
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
        #else
            replay(CommandLine.arguments, entry)
            exit(0)
        #endif
    }
    /// Stops the process with `message` when an oracle does not hold: libFuzzer reports it as a crash and saves
    /// the input (`crash-…`), the replay driver exits with a trap.
    public static func check(
        _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        if !condition() {
            fatalError("oracle failed: \(message())", file: file, line: line)
        }
    }

    /// Runs `entry` over every file named in `arguments` (directories: every file in them, sorted), or over
    /// standard input when none is named. Prints one line per input and a count at the end.
    public static func replay(_ arguments: [String], _ entry: ([UInt8]) -> Void) {
        let names = Array(arguments.dropFirst())
        if names.isEmpty {
            entry(Array(FileHandle.standardInput.readDataToEndOfFile()))
            print("replayed standard input")
            return
        }
        var count = 0
        for name in names {
            for path in files(at: name) {
                guard let data = FileManager.default.contents(atPath: path) else {
                    FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
                    exit(2)
                }
                print("replaying \(path) (\(data.count) bytes)")
                entry(Array(data))
                count += 1
            }
        }
        print("replayed \(count) input(s), no crash")
    }

    private static func files(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return [path]
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().map { path + "/" + $0 }.filter { !isDirectoryPath($0) }
    }

    private static func isDirectoryPath(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The input bytes of libFuzzer's callback as an array.
    public static func bytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
        size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// `bytes` split at every `separator` (empty pieces kept).
    public static func split(_ bytes: [UInt8], at separator: UInt8) -> [[UInt8]] {
        bytes.split(separator: separator, omittingEmptySubsequences: false).map(Array.init)
    }

    /// UTF-8 text of `bytes` (invalid sequences become U+FFFD).
    public static func text(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

/// Reads structured values off the front of a fuzz input: a byte at a time, or text up to a separator.
/// Running out of bytes yields zeros and empty strings, so every input decodes to something.
public struct FuzzReader {
    private let bytes: [UInt8]
    private var index = 0

    /// A reader over `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether every byte was consumed.
    public var isAtEnd: Bool { index >= bytes.count }

    /// The next byte, 0 at the end.
    public mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// The next eight bytes as a little-endian integer (missing bytes are 0).
    public mutating func uint64() -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(byte()) << UInt64(shift) }
        return value
    }

    /// The bytes up to (not including) the next `separator`, which is consumed; the rest at the end.
    public mutating func bytes(upTo separator: UInt8) -> [UInt8] {
        let start = index
        while index < bytes.count && bytes[index] != separator { index += 1 }
        let piece = Array(bytes[start..<min(index, bytes.count)])
        if index < bytes.count { index += 1 }
        return piece
    }

    /// The text up to the next `separator` (see ``bytes(upTo:)``).
    public mutating func text(upTo separator: UInt8) -> String {
        Fuzz.text(bytes(upTo: separator))
    }

    /// Everything not read yet.
    public mutating func rest() -> [UInt8] {
        defer { index = bytes.count }
        return index < bytes.count ? Array(bytes[index...]) : []
    }
}

#if FUZZING
    /// libFuzzer's per-input callback (also exported under its conventional name).
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        Fuzz.entry(data.map { Fuzz.bytes($0, size) } ?? [])
        return 0
    }
#endif

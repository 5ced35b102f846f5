import Foundation

/// The clock jump: `Tools/soak-clock-shift/clock-shift.c`, compiled once per soak with the toolchain's clang, moves
/// one spconnect run's wall clock when preloaded. Only that process's clock moves; the simulator (the server) and
/// the kernel's file times keep real time, as a client machine whose clock was set wrong would see them.
struct ClockShift {
    /// The compiled library.
    let library: String

    /// The shifts a night's jump picks from: a few hours and days either way, and past the session's cookies.
    static let shifts: [Int] = [-3 * 86_400, -7_200, 7_200, 3 * 86_400, 40 * 86_400]

    /// Compiles the shim into `folder`; nil (the fault is left out, and said so) without a C compiler.
    static func build(into folder: String) -> ClockShift? {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("soak-clock-shift/clock-shift.c").path
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let compilers = ["clang", "cc"].flatMap { name in path.split(separator: ":").map { "\($0)/\(name)" } }
        guard FileManager.default.fileExists(atPath: source),
            let compiler = compilers.first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { return nil }
        let library = folder + "/libclockshift.so"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: compiler)
        process.arguments = ["-shared", "-fPIC", "-O2", "-o", library, source, "-ldl"]
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return ClockShift(library: library)
    }

    /// `environment` with the wall clock moved by `seconds`.
    func environment(_ environment: [String: String], shiftedBy seconds: Int) -> [String: String] {
        var shifted = environment
        shifted["LD_PRELOAD"] = library
        shifted["SOAK_CLOCK_SHIFT_SECONDS"] = String(seconds)
        return shifted
    }
}

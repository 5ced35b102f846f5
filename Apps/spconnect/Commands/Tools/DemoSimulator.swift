import AppSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The simulator `spconnect demo` signs in to: the `spsim` executable beside `spconnect` (built first with
/// `swift build --product spsim` when spconnect runs from a package's `.build` folder and it is not there yet),
/// started as a process of its own in Entra ID mode, so `spconnect` itself does not link the simulator. Its site URL
/// is the first line it prints; its identity provider's is in its first line on standard error. It stops when its
/// standard input closes (``stop()``, or this process ending in any way).
final class DemoSimulator {
    let siteURL: String
    let identityProviderURL: String?
    private let pid: pid_t
    private var input: Int32

    /// Starts the simulator; throws with what to do when there is none to start.
    init(say: (String) -> Void) throws {
        let executable = try Self.findOrBuild(say: say)
        var stdinEnds: [Int32] = [-1, -1]
        var stdoutEnds: [Int32] = [-1, -1]
        var stderrEnds: [Int32] = [-1, -1]
        guard pipe(&stdinEnds) == 0, pipe(&stdoutEnds) == 0, pipe(&stderrEnds) == 0 else {
            throw DemoError(description: "cannot start spsim: \(String(cString: strerror(errno)))")
        }
        for end in stdinEnds + stdoutEnds + stderrEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        _ = posix_spawn_file_actions_adddup2(&actions, stdinEnds[0], 0)
        _ = posix_spawn_file_actions_adddup2(&actions, stdoutEnds[1], 1)
        _ = posix_spawn_file_actions_adddup2(&actions, stderrEnds[1], 2)
        var pid: pid_t = 0
        let result = withSpawnStrings(arguments: [executable, "--mode", "entra"]) { argv, envp in
            posix_spawn(&pid, executable, &actions, nil, argv, envp)
        }
        for end in [stdinEnds[0], stdoutEnds[1], stderrEnds[1]] { _ = close(end) }
        defer {
            _ = close(stdoutEnds[0])
            _ = close(stderrEnds[0])
        }
        guard result == 0 else {
            _ = close(stdinEnds[1])
            throw DemoError(description: "cannot start \(executable): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        input = stdinEnds[1]
        guard let site = Self.firstLine(of: stdoutEnds[0]), site.hasPrefix("http") else {
            stopProcess(pid: pid, input: &input)
            throw DemoError(description: "\(executable) did not start (it printed no site URL)")
        }
        siteURL = site
        let banner = Self.firstLine(of: stderrEnds[0]) ?? ""
        identityProviderURL = banner.components(separatedBy: "identity provider ").dropFirst().first?
            .split(separator: ",").first.map(String.init)
    }

    deinit { stopProcess(pid: pid, input: &input) }

    /// Stops the simulator (closing its standard input) and waits for it.
    func stop() { stopProcess(pid: pid, input: &input) }

    /// `spsim` beside this executable, built there first when this one runs from a package's build folder.
    private static func findOrBuild(say: (String) -> Void) throws -> String {
        let folder = SiblingProgram.folder
        let beside = SiblingProgram.path("spsim")
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        // .build/<triple>/<configuration>/spconnect, or .build/<configuration>/spconnect: the package is above.
        var package = folder
        while package.path != "/" && package.lastPathComponent != ".build" { package.deleteLastPathComponent() }
        package.deleteLastPathComponent()
        let manifest = package.appendingPathComponent("Package.swift").path
        guard package.path != "/", FileManager.default.fileExists(atPath: manifest) else {
            throw DemoError(
                description: "the simulator (spsim) is not installed beside spconnect (\(beside)); build it with "
                    + "'swift build --product spsim' in the SPConnect package and copy it there")
        }
        let configuration = folder.path.contains("/release") ? "release" : "debug"
        say("(Building the simulator first: swift build -c \(configuration) --product spsim)")
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        build.arguments = ["swift", "build", "-c", configuration, "--product", "spsim", "--package-path", package.path]
        // Its progress and warnings stay out of the demo; a failure says how to see them.
        build.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        build.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try build.run()
        build.waitUntilExit()
        guard build.terminationStatus == 0, FileManager.default.isExecutableFile(atPath: beside) else {
            throw DemoError(
                description: "could not build the simulator (swift build --product spsim exited "
                    + "\(build.terminationStatus)); run that in \(package.path) to see why, then the demo again")
        }
        return beside
    }

    /// The first line read from `descriptor` (waiting for it), or nil when it ends first.
    private static func firstLine(of descriptor: Int32) -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
            if line.count > 4096 { return nil }
        }
        return nil
    }
}

/// Closes the simulator's standard input (which stops it) and reaps it, killing it when it does not go within 5 s.
private func stopProcess(pid: pid_t, input: inout Int32) {
    guard input >= 0 else { return }
    _ = close(input)
    input = -1
    var status: Int32 = 0
    for _ in 0..<100 {
        if waitpid(pid, &status, WNOHANG) == pid { return }
        usleep(50_000)
    }
    _ = kill(pid, SIGKILL)
    _ = waitpid(pid, &status, 0)
}

/// Why the demo cannot run.
struct DemoError: Error, CustomStringConvertible {
    let description: String
}

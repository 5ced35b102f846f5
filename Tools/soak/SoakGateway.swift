import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `spconnect gateway`, started once and serving every night (its session renewed as it ends), and the environment
/// that makes `sp:` an rclone WebDAV remote on it (no config file; the password obscured by rclone itself).
final class SoakGateway {
    let process: Process
    let rcloneEnvironment: [String: String]

    private init(process: Process, rcloneEnvironment: [String: String]) {
        self.process = process
        self.rcloneEnvironment = rcloneEnvironment
    }

    static func start(_ world: SoakWorld) async throws -> SoakGateway {
        let folder = world.work + "/gateway"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: world.spconnect)
        process.arguments = ["gateway", "--secret-file", folder + "/secret"]
        process.environment = world.environment
        _ = FileManager.default.createFile(atPath: folder + "/out", contents: nil)
        _ = FileManager.default.createFile(atPath: folder + "/err", contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/out"))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/err"))
        try process.run()
        var url: String?
        for _ in 0..<200 {
            if let text = try? String(contentsOfFile: folder + "/out", encoding: .utf8), text.contains("\n") {
                url = text.split(separator: "\n").first.map(String.init)
                break
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        guard let url else {
            process.terminate()
            throw SoakFailure("spconnect gateway did not start (see \(folder)/err)")
        }
        let base = ["HOME": folder, "XDG_CONFIG_HOME": folder, "RCLONE_CONFIG": folder + "/rclone.conf"]
        let obscured = try await ChildRun.run(
            "/usr/bin/rclone", ["obscure", "-"], environment: base, logs: folder, label: "obscure",
            standardInput: folder + "/secret")
        let password = obscured.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return SoakGateway(
            process: process,
            rcloneEnvironment: base.merging([
                "RCLONE_CONFIG_SP_TYPE": "webdav", "RCLONE_CONFIG_SP_URL": url, "RCLONE_CONFIG_SP_VENDOR": "other",
                "RCLONE_CONFIG_SP_USER": "x", "RCLONE_CONFIG_SP_PASS": password,
            ]) { $1 })
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}

import Foundation
import Testing

@testable import spconnect_status

/// Headless Chromium, when installed (Debian package `chromium`; `.ci/run` installs it).
enum Chromium {
    /// The browser's path, or nil when it is not installed.
    static let path: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").map(String.init)
        for folder in folders + ["/usr/bin"] {
            for name in ["chromium", "chromium-browser"]
            where FileManager.default.isExecutableFile(atPath: folder + "/" + name) {
                return folder + "/" + name
            }
        }
        return nil
    }()

    /// Runs `chromium --headless … --dump-dom url` and returns the serialised DOM (stdout); kills it after
    /// `timeout` seconds.
    static func dumpDOM(_ url: String, timeout: Double = 120) async throws -> String {
        let path = try #require(Chromium.path)
        let scratch = NSTemporaryDirectory() + "spc-chromium-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let output = scratch + "/dom.html"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--user-data-dir=" + scratch + "/profile", "--dump-dom", url,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = scratch
        process.environment = environment
        let outputHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        defer { try? outputHandle.close() }
        process.standardOutput = outputHandle
        process.standardError = FileHandle.nullDevice
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume()
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                if process.isRunning { process.terminate() }
            }
        }
        return String(decoding: FileManager.default.contents(atPath: output) ?? Data(), as: UTF8.self)
    }
}

/// The page as a real browser sees it: loaded in headless Chromium, no JavaScript needed.
@Suite struct BrowserTests {
    @Test(
        .enabled(
            if: Chromium.path != nil,
            "chromium is not installed: the browser check is skipped (apt-get install -y chromium to run it)"))
    func chromiumRendersTheSessionPage() async throws {
        let fixture = try await StatusFixture()
        defer { fixture.stop() }
        let dom = try await Chromium.dumpDOM(fixture.baseURL + "/")
        #expect(dom.contains("Signed in as Alice Example"), "DOM was: \(dom.prefix(2000))")
        #expect(dom.contains("<h1>SharePoint session</h1>"))
        #expect(dom.contains("alice@contoso.test"))
        for cookie in fixture.session.cookies { #expect(!dom.contains(cookie.value)) }
    }
}

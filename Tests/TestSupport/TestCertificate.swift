import Foundation

/// A self-signed certificate for 127.0.0.1 made with the openssl command, and its files (in a fresh temporary
/// folder), for tests that serve https on loopback.
public struct TestCertificate: Sendable {
    public let certificatePEM: String
    public let keyPEM: String
    /// The certificate's file: what `--cacert` or `caFile` takes to trust it.
    public let certificatePath: String

    /// Makes a new key and certificate; throws when openssl fails.
    public static func make() async throws -> TestCertificate {
        let directory = NSTemporaryDirectory() + "spc-cert-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let cert = directory + "/cert.pem"
        let key = directory + "/key.pem"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert,
        ]
        process.standardError = FileHandle.nullDevice
        guard try await runCollectingOutput(process).status == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "openssl req failed"])
        }
        return TestCertificate(
            certificatePEM: try String(contentsOfFile: cert, encoding: .utf8),
            keyPEM: try String(contentsOfFile: key, encoding: .utf8), certificatePath: cert)
    }
}

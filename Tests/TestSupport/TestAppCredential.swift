public import Foundation

/// An RSA key and self-signed certificate made with the openssl command, as an admin makes them for an Entra app
/// registration (`openssl req -x509 -newkey rsa:2048`), in a fresh temporary folder: the key file is 0600, and an
/// encrypted PKCS#8 copy of the key (password in a 0600 file) sits beside it.
public struct TestAppCredential: Sendable {
    public let directory: String
    public let certificatePath: String
    public let keyPath: String
    public let encryptedKeyPath: String
    public let passwordPath: String
    public let password = "correct horse battery"
    public var certificatePEM: String { (try? String(contentsOfFile: certificatePath, encoding: .utf8)) ?? "" }
    public var keyPEM: String { (try? String(contentsOfFile: keyPath, encoding: .utf8)) ?? "" }

    /// Makes a new key and certificate; throws when openssl fails.
    public static func make(commonName: String = "spconnect-test-app") async throws -> TestAppCredential {
        let directory = NSTemporaryDirectory() + "spc-app-" + UUID().uuidString
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let credential = TestAppCredential(
            directory: directory, certificatePath: directory + "/app.crt", keyPath: directory + "/app.key",
            encryptedKeyPath: directory + "/app-encrypted.key", passwordPath: directory + "/app.password")
        try await openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=\(commonName)",
            "-keyout", credential.keyPath, "-out", credential.certificatePath,
        ])
        try await openssl([
            "pkcs8", "-topk8", "-v2", "aes-256-cbc", "-in", credential.keyPath, "-out", credential.encryptedKeyPath,
            "-passout", "pass:" + credential.password,
        ])
        try Data((credential.password + "\n").utf8).write(to: URL(fileURLWithPath: credential.passwordPath))
        for path in [credential.keyPath, credential.encryptedKeyPath, credential.passwordPath] {
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        }
        return credential
    }

    /// Runs `/usr/bin/openssl arguments` (standard input `input`, else empty) and returns its standard output; throws when it fails.
    @discardableResult
    public static func openssl(_ arguments: [String], input: Data? = nil) async throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        var inputPath: String?
        if let input {
            let path = NSTemporaryDirectory() + "spc-openssl-in-" + UUID().uuidString
            try input.write(to: URL(fileURLWithPath: path))
            inputPath = path
            process.standardInput = FileHandle(forReadingAtPath: path)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        defer { if let inputPath { try? FileManager.default.removeItem(atPath: inputPath) } }
        let (data, status) = try await runCollectingOutput(process)
        guard status == 0 else {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [NSLocalizedDescriptionKey: "openssl \(arguments.first ?? "") failed"])
        }
        return data
    }
}

import Cryptography
import Foundation
public import Transport

/// A user's certificate and private key for Entra's certificate-based authentication, read from their files once:
/// the key only when it is a regular file of the user's, mode 0600, never through a symbolic link (the rules of
/// app-only keys); an encrypted key's password from its own file. The key must belong to the certificate (RSA or
/// P-256). The result goes to libcurl as memory, never as a path it would open again.
public enum UserCertificateFiles {
    /// The client certificate in `certificatePath` (its key there too, or in `keyPath`).
    public static func load(certificatePath: String, keyPath: String?, keyPasswordPath: String?) throws(TokenError)
        -> ClientCertificate
    {
        let path = keyPath ?? certificatePath
        let keyBytes = try privateFile(path)
        // A key kept in the certificate's file: that file is read once, under the key's rules.
        let certificateBytes: [UInt8]
        if keyPath == nil {
            certificateBytes = keyBytes
        } else {
            do {
                certificateBytes = Array(try Data(contentsOf: URL(fileURLWithPath: certificatePath)))
            } catch {
                throw TokenError(.credentialFile, detail: "\(certificatePath) cannot be read")
            }
        }
        let certificate: Certificate
        do {
            certificate = try Certificate(pem: certificateBytes)
        } catch {
            throw TokenError.credential(certificatePath, error)
        }
        var password: Secret?
        if let keyPasswordPath {
            do {
                password = try PasswordFile.read(keyPasswordPath)
            } catch {
                throw TokenError(.credentialFile, detail: "the key password file: \(error)")
            }
        }
        let matches: Bool
        if let rsa = try? PrivateKey(pem: keyBytes, password: password.map { Array($0.revealedValue().utf8) }) {
            matches = certificate.matches(rsa)
        } else if let elliptic = try? P256PrivateKey(
            pem: keyBytes, password: password.map { Array($0.revealedValue().utf8) })
        {
            matches = certificate.matches(elliptic)
        } else {
            throw TokenError(
                .credentialFile,
                detail: "\(path) holds no RSA or P-256 private key this program can read (or its password is wrong)")
        }
        guard matches else { throw TokenError.credential(path, .keyDoesNotMatchCertificate) }
        // A key kept in the certificate's file stays out of the certificate's bytes: those are not a secret.
        return ClientCertificate(
            certificatePEM: certificateBlocks(certificateBytes),
            keyPEM: Secret(String(decoding: keyBytes, as: UTF8.self)),
            keyPassword: password)
    }

    /// The bytes of the key's file: a regular file of the user's, mode 0600, never through a symbolic link.
    private static func privateFile(_ path: String) throws(TokenError) -> [UInt8] {
        do {
            guard let bytes = try PrivateFiles.contents(of: path, limit: 1 << 20, remedy: .keepFile) else {
                throw TokenError(.credentialFile, detail: "\(path): no such file")
            }
            return bytes
        } catch let distrust as PrivateFiles.Distrust {
            throw TokenError(
                .credentialFile, detail: "refusing the private key \(path): \(distrust.reason); \(distrust.fix)")
        } catch let error as TokenError {
            throw error
        } catch {
            throw TokenError(.credentialFile, detail: "\(path) cannot be read")
        }
    }

    /// The `CERTIFICATE` blocks of a PEM text (the chain), without any key block beside them.
    private static func certificateBlocks(_ pem: [UInt8]) -> [UInt8] {
        let text = String(decoding: pem, as: UTF8.self)
        var blocks = ""
        var rest = text[...]
        while let begin = rest.range(of: "-----BEGIN CERTIFICATE-----"),
            let end = rest.range(of: "-----END CERTIFICATE-----", range: begin.upperBound..<rest.endIndex)
        {
            blocks += rest[begin.lowerBound..<end.upperBound] + "\n"
            rest = rest[end.upperBound...]
        }
        return Array(blocks.utf8)
    }
}

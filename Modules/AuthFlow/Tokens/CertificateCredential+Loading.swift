import Cryptography
import Foundation
import JSON
import Transport

/// A certificate credential read from its files, for one sign-in: the certificate (thumbprints) and its private
/// key. Not `Sendable` (it owns OpenSSL handles); made, used and dropped within one task.
final class LoadedCertificateCredential {
    let certificate: Certificate
    let key: PrivateKey
    let algorithm: SignatureAlgorithm

    /// Reads the files of `credential`: the key only when it is a regular file of the user's, mode 0600, never
    /// through a symbolic link (``PrivateFiles``); the password, for an encrypted key, from its own file with the
    /// same rules as password files; checks that the key belongs to the certificate.
    init(_ credential: CertificateCredential) throws(TokenError) {
        let certificateBytes: [UInt8]
        do {
            certificateBytes = Array(try Data(contentsOf: URL(fileURLWithPath: credential.certificatePath)))
        } catch {
            throw TokenError(.credentialFile, detail: "\(credential.certificatePath) cannot be read")
        }
        do {
            certificate = try Certificate(pem: certificateBytes)
        } catch {
            throw TokenError.credential(credential.certificatePath, error)
        }
        let keyPath = credential.keyPath ?? credential.certificatePath
        let keyBytes: [UInt8]
        do {
            guard let bytes = try PrivateFiles.contents(of: keyPath, limit: 1 << 20) else {
                throw TokenError(.credentialFile, detail: "\(keyPath): no such file")
            }
            keyBytes = bytes
        } catch let distrust as PrivateFiles.Distrust {
            throw TokenError(
                .credentialFile,
                detail: "refusing the private key \(keyPath): \(distrust.reason); it must be a file of your own that "
                    + "only you can read, not a symbolic link (chmod 600 '\(keyPath)')")
        } catch let error as TokenError {
            throw error
        } catch {
            throw TokenError(.credentialFile, detail: "\(keyPath) cannot be read")
        }
        var password: [UInt8]?
        if let passwordPath = credential.keyPasswordPath {
            do {
                password = Array(try PasswordFile.read(passwordPath).revealedValue().utf8)
            } catch {
                throw TokenError(.credentialFile, detail: "the key password file: \(error)")
            }
        }
        do {
            key = try PrivateKey(pem: keyBytes, password: password)
        } catch {
            throw TokenError.credential(keyPath, error)
        }
        guard certificate.matches(key) else {
            throw TokenError.credential(keyPath, .keyDoesNotMatchCertificate)
        }
        algorithm = credential.algorithm
    }

    /// A client assertion (RFC 7523) for `clientId` at the token endpoint `audience`: header `alg`, `typ` and
    /// `x5t` (RS256) or `x5t#S256` (PS256); claims `aud`, `iss` = `sub` = `clientId`, a fresh `jti`, `nbf`, `iat`,
    /// `exp` 10 minutes on. A ``Secret``: it stands for the key until it expires.
    func assertion(clientId: String, audience: String, now: Date = Date()) throws(TokenError) -> Secret {
        let seconds = Int(now.timeIntervalSince1970)
        var header: [String: JSONValue] = ["typ": "JWT"]
        switch algorithm {
        case .rs256: header["x5t"] = .string(Base64URL.encode(certificate.sha1Thumbprint))
        case .ps256: header["x5t#S256"] = .string(Base64URL.encode(certificate.sha256Thumbprint))
        }
        let claims: [String: JSONValue] = [
            "aud": .string(audience), "iss": .string(clientId), "sub": .string(clientId),
            "jti": .string(UUID().uuidString.lowercased()), "nbf": .integer(Int64(seconds)),
            "iat": .integer(Int64(seconds)), "exp": .integer(Int64(seconds + 600)),
        ]
        do {
            return Secret(try JSONWebToken.signed(header: header, claims: claims, key: key, algorithm: algorithm))
        } catch {
            throw TokenError(.credentialFile, detail: "signing the client assertion failed: \(error)")
        }
    }
}

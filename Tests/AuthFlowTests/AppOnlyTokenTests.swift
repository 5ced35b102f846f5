import AuthFlow
import Cryptography
import Foundation
import SPSim
import TestSupport
import Testing
import Transport

/// App-only sign-in with a certificate against the simulated Entra tenant over https: the assertion, the token, the
/// tenant discovered from SharePoint's Bearer challenge, and each refusal with its reason.
@Suite struct AppOnlyTokenTests {
    @Test(arguments: [SignatureAlgorithm.rs256, .ps256])
    func aCertificateGetsAnAppOnlyTokenForTheSite(algorithm: SignatureAlgorithm) async throws {
        let world = try await TokenWorld.start()
        let session = try await world.appOnly(algorithm: algorithm).run()
        let tokens = try #require(session.tokens)
        #expect(tokens.kind == .appOnly && tokens.tenant == world.simulator.tenantId)
        #expect(tokens.scope == world.simulator.siteURL + "/.default")
        #expect(tokens.claims.roles == ["Sites.FullControl.All"] && tokens.claims.audience == world.simulator.siteURL)
        #expect(tokens.claims.appAuthentication == "2")
        #expect(tokens.expiresAt.timeIntervalSinceNow > 3000 && tokens.refreshToken == nil)
        #expect(session.user == "app:" + SimulatedApp.fullControlId && session.cookies.isEmpty)
        // The assertion named the certificate the way the algorithm says, and carried the claims Entra checks.
        let assertion = try #require(world.simulator.receivedClientAssertions().last)
        let header = try #require(JSONWebToken.header(of: assertion))
        #expect(header["alg"]?.stringValue == algorithm.rawValue)
        let certificate = try Certificate(pem: Array(world.app.certificatePEM.utf8))
        switch algorithm {
        case .rs256: #expect(header["x5t"]?.stringValue == Base64URL.encode(certificate.sha1Thumbprint))
        case .ps256: #expect(header["x5t#S256"]?.stringValue == Base64URL.encode(certificate.sha256Thumbprint))
        }
        let claims = try #require(JSONWebToken.payload(of: assertion))
        #expect(
            claims["aud"]?.stringValue == "\(world.simulator.identityProviderURL)/\(tokens.tenant)/oauth2/v2.0/token")
        #expect(
            claims["iss"]?.stringValue == SimulatedApp.fullControlId
                && claims["sub"]?.stringValue == claims["iss"]?.stringValue)
        #expect(
            claims["jti"]?.stringValue != nil && claims["nbf"]?.int64Value != nil
                && claims["exp"]?.int64Value != nil)
        #expect(JSONWebToken.verify(assertion, with: try certificate.publicKey()))
        // Nothing secret in what a session prints.
        #expect(!"\(session)".contains(tokens.accessToken.revealedValue()))
        await world.stop()
    }

    @Test func theTenantIsReadFromTheBearerChallenge() async throws {
        let world = try await TokenWorld.start()
        #expect(
            try await TenantDiscovery.tenant(of: world.simulator.siteURL, client: world.client)
                == world.simulator.tenantId)
        #expect(TenantDiscovery.realm(in: #"Bearer realm="abc",client_id="x""#) == "abc")
        #expect(TenantDiscovery.realm(in: #"NTLM"#) == nil)
        await world.stop()
    }

    @Test func aCertificateEntraDoesNotKnowIsRefusedWithItsReason() async throws {
        let world = try await TokenWorld.start()
        let stranger = try await TestAppCredential.make()
        let credential = CertificateCredential(certificatePath: stranger.certificatePath, keyPath: stranger.keyPath)
        await #expect { try await world.appOnly(credential: credential).run() } throws: { error in
            (error as? TokenError)?.reason == .certificateNotRegistered
                && (error as? TokenError)?.serverCodes == [700027]
        }
        await #expect { try await world.appOnly("99999999-0000-4000-8000-000000000000").run() } throws: { error in
            (error as? TokenError)?.reason == .appNotFound
        }
        await world.stop()
    }

    @Test func theKeyFileMustBePrivateAndMatchTheCertificate() async throws {
        let world = try await TokenWorld.start()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: world.app.keyPath)
        await #expect { try await world.appOnly().run() } throws: { error in
            guard let error = error as? TokenError else { return false }
            return error.reason == .credentialFile && error.description.contains("chmod 600")
        }
        let other = try await TestAppCredential.make()
        let mismatched = CertificateCredential(certificatePath: world.app.certificatePath, keyPath: other.keyPath)
        await #expect { try await world.appOnly(credential: mismatched).run() } throws: { error in
            (error as? TokenError)?.description.contains("does not belong to the certificate") == true
        }
        // An encrypted key with its password file works; without it, it says so.
        let encrypted = CertificateCredential(
            certificatePath: world.app.certificatePath, keyPath: world.app.encryptedKeyPath,
            keyPasswordPath: world.app.passwordPath, algorithm: .ps256)
        #expect(try await world.appOnly(credential: encrypted).run().tokens != nil)
        var noPassword = encrypted
        noPassword.keyPasswordPath = nil
        await #expect { try await world.appOnly(credential: noPassword).run() } throws: { error in
            (error as? TokenError)?.description.contains("encrypted") == true
        }
        await world.stop()
    }

    @Test func anOldOrReplayedAssertionIsRefused() async throws {
        let world = try await TokenWorld.start()
        await #expect { try await world.appOnly().run(now: Date().addingTimeInterval(-3600)) } throws: { error in
            (error as? TokenError)?.reason == .clockSkew
        }
        _ = try await world.appOnly().run()
        let spent = try #require(world.simulator.receivedClientAssertions().last)
        let replay = try await world.postToken([
            ("grant_type", "client_credentials"), ("client_id", SimulatedApp.fullControlId),
            ("scope", world.simulator.siteURL + "/.default"),
            ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
            ("client_assertion", spent),
        ])
        #expect(replay.status == 401 && String(decoding: replay.body, as: UTF8.self).contains("jti replayed"))
        await world.stop()
    }

    @Test func plainHTTPToTheTokenEndpointIsRefusedBeforeAnythingIsSent() async throws {
        let world = try await TokenWorld.start()
        var signIn = world.appOnly(tenant: world.simulator.tenantId)
        signIn.authorityHost = world.simulator.identityProviderURL.replacingOccurrences(of: "https:", with: "http:")
        await #expect { try await signIn.run() } throws: { error in
            (error as? TokenError)?.reason == .insecureAuthority
        }
        #expect(world.simulator.receivedClientAssertions().isEmpty)
        await world.stop()
    }
}

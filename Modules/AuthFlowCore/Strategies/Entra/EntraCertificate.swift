import HTML
import JSON
import TransportValues

/// Entra's certificate-based authentication for users (../shared/docs/entra-passwordless.md §1): when
/// `GetCredentialType` says the account may use a certificate (`HasCertAuth`, `CertAuthParams.CertAuthUrl`) and
/// the sign-in has one, the page's `ctx` and the answer's flow token are posted to the certauth URL with the
/// certificate in the TLS handshake; its answer is an auto-post form back to Entra (`ctx`, `flowtoken`,
/// `certificatetoken`), which the pages after it read as usual.
enum EntraCertificate {
    /// The post to the certauth endpoint, when the account takes a certificate and the sign-in has one; nil
    /// otherwise. Only over https: the certificate goes in a TLS handshake.
    static func request(credentials: JSONValue?, config: AADConfig, answerURL: String, state: FlowState)
        -> SignInRequest?
    {
        guard let certificate = state.configuration.userCertificate, credentials?["HasCertAuth"]?.boolValue == true,
            let address = credentials?["CertAuthParams"]?["CertAuthUrl"]?.stringValue, !address.isEmpty
        else { return nil }
        let url = URLResolution.resolve(address, against: answerURL)
        guard URLParts(url)?.scheme == "https" else { return nil }
        // The flow token and the certificate's handshake are credentials: the certauth host must be Microsoft's
        // (one service with the page's) or one the user allows.
        var request = SignInRequest(
            method: "POST", url: url,
            form: [("ctx", config.text("sCtx") ?? ""), ("flowToken", config.flowToken ?? "")], purpose: .credentials,
            carriesCredentials: true)
        request.carriesPassword = false
        request.clientCertificate = certificate
        return request
    }

    /// The outcome of a certificate error code (§1.7), with what to do; nil for another code.
    static func refusal(code: String, message: String) -> SignInOutcome? {
        let words = message.isEmpty ? "Entra refused the certificate" : message
        let advice: String
        switch code {
        case "50192": advice = "no certificate reached Entra (a proxy doing TLS inspection strips it)"
        case "50017":
            advice =
                "the certificate did not validate: its issuer is not a CA the tenant trusts, or its revocation "
                + "list could not be read"
        case "1001003", "500187":
            advice =
                "this certificate does not name the account (username binding) or does not meet the policy: "
                + "give the user's own certificate"
        case "500173", "2205015": advice = "Entra could not check the certificate's revocation list (CRL)"
        case "500186": advice = "the tenant's policy blocks certificate sign-in for this account"
        case "1001000": advice = "the tenant's certificate policy could not be read: ask the administrator"
        default: return nil
        }
        return .invalidCredentials(message: "\(words) (code \(code): \(advice))", code: code)
    }
}

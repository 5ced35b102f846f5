import Foundation
import HTTPServer

/// The legacy SharePoint Online STS: `GetUserRealm.srf` and `extSTS.srf` (SOAP, compact tokens).
extension SimulatorCore {
    func getUserRealm(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let login = request.formValue("login") ?? request.queryValue("login") ?? ""
        let domain = login.split(separator: "@").last.map(String.init) ?? ""
        let inDomain = users.filter { $0.email.lowercased().hasSuffix("@" + domain.lowercased()) }
        let known = !inDomain.isEmpty
        let federated = inDomain.contains { $0.federated }
        let kind = federated ? "Federated" : known ? "Managed" : "Unknown"
        let authURL =
            federationURL + "/adfs/ls/?username=" + percentEncode(login)
            + "&wa=wsignin1.0&wtrealm=urn%3afederation%3aMicrosoftOnline&wctx="
        let stsURL = federationURL + "/adfs/services/trust/2005/usernamemixed"
        let wantsXML = request.queryValue("xml") == "1" || request.formValue("xml") == "1"
        if wantsXML {
            var text =
                "<?xml version=\"1.0\" encoding=\"utf-8\"?><RealmInfo Success=\"true\"><State>4</State><UserState>1</UserState><Login>\(xmlEscape(login))</Login><NameSpaceType>\(kind)</NameSpaceType>"
            if known {
                text +=
                    "<DomainName>\(xmlEscape(domain))</DomainName><IsFederatedNS>\(federated)</IsFederatedNS><FederationBrandName>Contoso</FederationBrandName><CloudInstanceName>microsoftonline.com</CloudInstanceName><CloudInstanceIssuerUri>urn:federation:MicrosoftOnline</CloudInstanceIssuerUri>"
            }
            if federated {
                text += "<AuthURL>\(xmlEscape(authURL))</AuthURL><STSAuthURL>\(xmlEscape(stsURL))</STSAuthURL>"
            }
            text += "</RealmInfo>"
            return HTTPServerResponse(status: 200, contentType: "text/xml; charset=utf-8", text: text)
        }
        var members: [(String, JSON)] = [
            ("State", .int(4)), ("UserState", .int(1)), ("Login", .string(login)), ("NameSpaceType", .string(kind)),
        ]
        if known {
            members += [
                ("DomainName", .string(domain)), ("FederationBrandName", .string("Contoso")),
                ("CloudInstanceName", .string("microsoftonline.com")),
                ("CloudInstanceIssuerUri", .string("urn:federation:MicrosoftOnline")),
            ]
        }
        if federated { members.append(("AuthURL", .string(authURL))) }
        return HTTPServerResponse(
            status: 200, contentType: "application/json; charset=utf-8", text: JSON.object(members).serialized())
    }

    /// `POST /extSTS.srf`: success with a BinarySecurityToken, a SOAP fault, or a token-less RSTR.
    func extSTS(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let body = String(decoding: request.body, as: UTF8.self)
        let soapType = "application/soap+xml; charset=utf-8"
        let username = xmlElementText(body, "Username") ?? ""
        let password = xmlElementText(body, "Password") ?? ""
        let address = xmlElementText(body, "Address").flatMap { _ in lastAddress(body) } ?? siteURL + "/"
        let now = nowEpoch()
        let ppHeader =
            "<psf:pp xmlns:psf=\"http://schemas.microsoft.com/Passport/SoapServices/SOAPFault\"><psf:serverVersion>1</psf:serverVersion><psf:authstate>0x80048800</psf:authstate><psf:reqstatus>0x80048821</psf:reqstatus><psf:serverInfo MachineName=\"SPSIM\" ServerVersion=\"16.0\" ServerTime=\"\(CivilTime(now).iso)\">SPSim</psf:serverInfo></psf:pp>"
        func fault(_ code: String, _ text: String) -> HTTPServerResponse {
            let xml =
                "<?xml version=\"1.0\" encoding=\"utf-8\" ?><S:Envelope xmlns:S=\"http://www.w3.org/2003/05/soap-envelope\" xmlns:wsse=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd\" xmlns:wsu=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd\" xmlns:wst=\"http://schemas.xmlsoap.org/ws/2005/02/trust\" xmlns:psf=\"http://schemas.microsoft.com/Passport/SoapServices/SOAPFault\"><S:Header>\(ppHeader)</S:Header><S:Body><S:Fault><S:Code><S:Value>S:Sender</S:Value><S:Subcode><S:Value>wst:FailedAuthentication</S:Value></S:Subcode></S:Code><S:Reason><S:Text xml:lang=\"en-US\">Authentication Failure</S:Text></S:Reason><S:Detail><psf:error><psf:value>0x80048821</psf:value><psf:internalerror><psf:code>\(code)</psf:code><psf:text>\(xmlEscape(text))</psf:text></psf:internalerror></psf:error></S:Detail></S:Fault></S:Body></S:Envelope>"
            return HTTPServerResponse(status: 500, contentType: soapType, text: xml)
        }
        // Federated users (§2.4 step 3): a SAML assertion from usernamemixed instead of a UsernameToken.
        var assertionUser: Int?
        if username.isEmpty, let range = body.range(of: "AssertionID=\"") {
            let id = String(body[range.upperBound...].prefix { $0 != "\"" })
            assertionUser = state.withLock { state in
                defer { state.assertions[id] = nil }
                return state.assertions[id]
            }
            if assertionUser == nil { return fault("0x80048821", "AADSTS50008: SAML token is invalid.") }
        }
        guard !username.isEmpty || assertionUser != nil else {
            return fault("0x80045c0f", "AADSTS90023: Invalid STS request.")
        }
        if let candidate = userIndex(login: username), users[candidate].federated {
            return fault("0x80048821", "Direct login to WLID is not allowed for this federated namespace")
        }
        guard let index = assertionUser ?? checkPassword(login: username, password: password) else {
            return fault(
                "0x80048821", "AADSTS50126: Error validating credentials due to invalid username or password.")
        }
        let user = users[index]
        if user.mfa {
            return fault(
                "0x800434D4",
                "AADSTS50076: Due to a configuration change made by your administrator, or because you moved to a new location, you must use multi-factor authentication to access this resource."
            )
        }
        if user.passwordChange {
            return fault("0x80048821", "AADSTS50055: The password is expired.")
        }
        if user.conditionalAccess {
            // Token-less RSTR: only psf:pp with an error status, no RequestedSecurityToken.
            let xml =
                "<?xml version=\"1.0\" encoding=\"utf-8\" ?><S:Envelope xmlns:S=\"http://www.w3.org/2003/05/soap-envelope\" xmlns:wst=\"http://schemas.xmlsoap.org/ws/2005/02/trust\" xmlns:psf=\"http://schemas.microsoft.com/Passport/SoapServices/SOAPFault\"><S:Header><psf:pp><psf:serverVersion>1</psf:serverVersion><psf:authstate>0x80048800</psf:authstate><psf:reqstatus>0x8004882c</psf:reqstatus><psf:errorstatus>0x80045b00</psf:errorstatus></psf:pp></S:Header><S:Body><wst:RequestSecurityTokenResponse><psf:pp><psf:reqstatus>0x8004882c</psf:reqstatus><psf:errorstatus>0x80045b00</psf:errorstatus></psf:pp></wst:RequestSecurityTokenResponse></S:Body></S:Envelope>"
            return HTTPServerResponse(status: 200, contentType: soapType, text: xml)
        }
        let token = "EwB" + Tokens.random(bytes: 200) + "AAA="
        state.withLock { $0.legacyTokens[token] = index }
        let created = CivilTime(now).iso
        let xml =
            "<?xml version=\"1.0\" encoding=\"utf-8\" ?><S:Envelope xmlns:S=\"http://www.w3.org/2003/05/soap-envelope\" xmlns:wsse=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd\" xmlns:wsu=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd\" xmlns:wsa=\"http://www.w3.org/2005/08/addressing\"><S:Header><wsa:Action S:mustUnderstand=\"1\" wsu:Id=\"Action\">http://schemas.xmlsoap.org/ws/2005/02/trust/RSTR/Issue</wsa:Action><wsa:To S:mustUnderstand=\"1\" wsu:Id=\"To\">http://www.w3.org/2005/08/addressing/anonymous</wsa:To><wsse:Security S:mustUnderstand=\"1\"><wsu:Timestamp wsu:Id=\"TS\" xmlns:wsu=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd\"><wsu:Created>\(created)</wsu:Created><wsu:Expires>\(CivilTime(now + 300).iso)</wsu:Expires></wsu:Timestamp></wsse:Security></S:Header><S:Body><wst:RequestSecurityTokenResponse xmlns:S=\"http://www.w3.org/2003/05/soap-envelope\" xmlns:wst=\"http://schemas.xmlsoap.org/ws/2005/02/trust\" xmlns:wsse=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd\" xmlns:wsu=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd\" xmlns:saml=\"urn:oasis:names:tc:SAML:1.0:assertion\" xmlns:wsp=\"http://schemas.xmlsoap.org/ws/2004/09/policy\" xmlns:psf=\"http://schemas.microsoft.com/Passport/SoapServices/SOAPFault\"><wst:TokenType>urn:passport:compact</wst:TokenType><wsp:AppliesTo xmlns:wsa=\"http://www.w3.org/2005/08/addressing\"><wsa:EndpointReference><wsa:Address>\(xmlEscape(address))</wsa:Address></wsa:EndpointReference></wsp:AppliesTo><wst:Lifetime><wsu:Created>\(created)</wsu:Created><wsu:Expires>\(CivilTime(now + 86400).iso)</wsu:Expires></wst:Lifetime><wst:RequestedSecurityToken><wsse:BinarySecurityToken Id=\"Compact0\">t=\(xmlEscape(token))&amp;p=</wsse:BinarySecurityToken></wst:RequestedSecurityToken><wst:RequestedAttachedReference><wsse:SecurityTokenReference><wsse:Reference URI=\"\(Tokens.random(bytes: 12))\"></wsse:Reference></wsse:SecurityTokenReference></wst:RequestedAttachedReference><wst:RequestedUnattachedReference><wsse:SecurityTokenReference><wsse:Reference URI=\"\(Tokens.random(bytes: 12))\"></wsse:Reference></wsse:SecurityTokenReference></wst:RequestedUnattachedReference></wst:RequestSecurityTokenResponse></S:Body></S:Envelope>"
        return HTTPServerResponse(status: 200, contentType: soapType, text: xml)
    }

    /// The AppliesTo address (the last `Address` element in the envelope).
    func lastAddress(_ xml: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: "<(?:[A-Za-z0-9_]+:)?Address>([^<]*)</"),
            let match = regex.matches(in: xml, range: NSRange(xml.startIndex..., in: xml)).last,
            let range = Range(match.range(at: 1), in: xml)
        else { return nil }
        return xmlUnescape(String(xml[range]))
    }
}

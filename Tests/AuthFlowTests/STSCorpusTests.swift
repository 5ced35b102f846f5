import Foundation
import TestSupport
import Testing
import Transport

@testable import AuthFlow
@testable import AuthFlowCore

/// The facts `shared/corpus/sp-rest/manifest.json` states about the real extSTS answer
/// (`sts_extsts_success_response.xml`), read with the legacy SharePoint Online route's own XML reader (`SOAPText`),
/// and that route's move on that answer. The corpus is read in place, never copied.
@Suite(.enabled(if: STSCorpus.available, STSCorpus.absentMessage))
struct STSCorpusTests {
    @Test(arguments: STSCorpus.facts)
    func factHoldsThroughTheLegacyRoutesReader(_ fact: STSCorpus.Fact) throws {
        let xml = try STSCorpus.responseText()
        let value = try #require(STSCorpus.evaluate(fact.path, in: xml), "path not found: \(fact.path)")
        #expect(value == fact.value, "\(fact.fact)")
    }

    @Test func theManifestStatesSixFactsAboutTheResponse() throws {
        #expect(STSCorpus.facts.count == 6)
        #expect(try STSCorpus.responseData().count == STSCorpus.entry?.bytes)
    }

    /// The route asks extSTS for a token for the address the captured answer applies to, takes the token the
    /// manifest states from that answer, and posts exactly that (unescaped) text to the site.
    @Test func theLegacyRoutePostsTheCapturedToken() throws {
        let address = try #require(STSCorpus.facts.first { $0.path.hasSuffix("/wsa:Address") }?.value)
        let token = try #require(STSCorpus.facts.first { $0.path.hasSuffix("/wsse:BinarySecurityToken") }?.value)
        let site = String(address.dropLast())  // https://imperiallondon.sharepoint.com
        var route = LegacySPO(
            configuration: SignInConfiguration(
                siteURL: site, username: "someone@imperiallondon.example", password: Secret("not used"),
                flow: .legacySPO))
        let started = route.start()
        let realm = try #require(started)
        #expect(realm.url == "https://login.microsoftonline.com/GetUserRealm.srf")

        let managed = SignInResponse(
            url: realm.url, status: 200, headers: [], location: nil,
            body: Array(#"{"State":4,"UserState":1,"NameSpaceType":"Managed"}"#.utf8), siteCookies: [])
        guard case .send(let tokenRequest, _)? = route.next(after: managed) else {
            Issue.record("a managed realm should lead to the extSTS request")
            return
        }
        #expect(tokenRequest.url == "https://login.microsoftonline.com/extSTS.srf")
        let envelope = String(decoding: tokenRequest.rawBody?.bytes ?? [], as: UTF8.self)
        #expect(SOAPText.element("Address", in: SOAPText.wholeElement("AppliesTo", in: envelope) ?? "") == address)

        let answer = SignInResponse(
            url: tokenRequest.url, status: 200, headers: [], location: nil, body: try STSCorpus.responseData(),
            siteCookies: [])
        guard case .send(let post, _)? = route.next(after: answer) else {
            Issue.record("the captured extSTS answer should lead to the token POST")
            return
        }
        #expect(post.method == "POST")
        #expect(post.url == site + "/_forms/default.aspx?wa=wsignin1.0")
        #expect(post.rawBody?.bytes == Array(token.utf8))
    }
}

/// The sp-rest manifest's STS entry and its informal XML paths.
enum STSCorpus {
    static let file = "sts_extsts_success_response.xml"

    static let directory = SharedCorpus.restResponses

    static var available: Bool { SharedCorpus.isAvailable(directory) }

    static let absentMessage = SharedCorpus.absentMessage(directory)

    struct Fact: Decodable, Sendable, CustomTestStringConvertible {
        let fact: String
        let path: String
        let value: String
        var testDescription: String { fact }
    }

    struct Entry: Decodable, Sendable {
        let file: String
        let bytes: Int
        let facts: [Fact]
    }

    private struct Manifest: Decodable {
        let files: [ManifestFile]
    }

    /// Only the STS entry is decoded as an `Entry` (the JSON entries' fact values are not all strings).
    private struct ManifestFile: Decodable {
        let file: String
        let entry: Entry?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            file = try container.decode(String.self, forKey: .file)
            entry = file == STSCorpus.file ? try Entry(from: decoder) : nil
        }

        enum CodingKeys: String, CodingKey { case file }
    }

    static let entry: Entry? = {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent("manifest.json").path),
            let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
        else { return nil }
        return manifest.files.first { $0.file == file }?.entry
    }()

    static let facts: [Fact] = entry?.facts ?? []

    static func responseData() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(file)))
    }

    static func responseText() throws -> String { String(decoding: try responseData(), as: UTF8.self) }

    /// Evaluates a manifest path (`S:Envelope/S:Body/…/wst:TokenType`, `.../wst:Lifetime/wsu:Created`,
    /// `.../wsse:BinarySecurityToken/@Id`; `...` elides the envelope) with `SOAPText`: each step narrows to the
    /// first element of that local name inside the previous one and must carry the step's prefix; the last step
    /// is that element's unescaped text, or an attribute of its start tag.
    static func evaluate(_ path: String, in xml: String) -> String? {
        var scope = xml
        let steps = path.split(separator: "/").map(String.init).filter { $0 != "..." }
        for (index, step) in steps.enumerated() {
            if step.hasPrefix("@") {
                guard index == steps.count - 1, let tagEnd = scope.firstIndex(of: ">") else { return nil }
                return attribute(String(step.dropFirst()), inStartTag: String(scope[...tagEnd]))
            }
            let localName = String(step.split(separator: ":").last ?? "")
            guard let element = SOAPText.wholeElement(localName, in: scope), element.hasPrefix("<" + step) else {
                return nil
            }
            if index == steps.count - 1 { return SOAPText.element(localName, in: element).map(SOAPText.unescape) }
            scope = element
        }
        return nil
    }

    /// The value of attribute `name` (exact, unprefixed) in one start tag.
    static func attribute(_ name: String, inStartTag tag: String) -> String? {
        guard let range = tag.range(of: "\\s\(name)=\"[^\"]*\"", options: .regularExpression) else { return nil }
        return SOAPText.unescape(String(tag[range].drop { $0 != "\"" }.dropFirst().dropLast()))
    }
}

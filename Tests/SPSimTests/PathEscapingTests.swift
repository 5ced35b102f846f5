import Foundation
import SPSim
import TestSupport
import Testing

/// File names with `%`, `#`, `'`, space and `,` round trip through every upload and lookup form, sent exactly as a
/// correct client puts them on the wire (§6.3): inside a `…Url('…')` / `add(url='…')` literal `'`→`''`,
/// `%`→`%25`, `#`→`%23`, then the URL is percent-encoded; inside a `…Path(decodedurl='…')` /
/// `AddUsingPath(decodedurl='…')` literal only `'`→`''`, then the URL is percent-encoded.
@Suite(.childProcesses) struct PathEscapingTests {
    /// A name, its wire form inside a `…Url` literal, its wire form inside a `…Path` literal (written by hand).
    static let names: [(name: String, url: String, path: String)] = [
        ("50%.txt", "50%2525.txt", "50%25.txt"),
        ("a#b.txt", "a%2523b.txt", "a%23b.txt"),
        ("a, b.txt", "a,%20b.txt", "a,%20b.txt"),
        ("x%25y.txt", "x%252525y.txt", "x%2525y.txt"),
        ("O'Neil, 100% #1.txt", "O''Neil,%20100%2525%20%25231.txt", "O''Neil,%20100%25%20%231.txt"),
    ]

    static let library = "/_api/web/GetFolderByServerRelativeUrl('/Shared%20Documents')"

    @Test func namesRoundTripThroughAddAndTheUrlAndPathForms() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        let digest = try await client.digest()
        for (name, url, path) in Self.names {
            let content = "content of " + name
            let addedUsingPath = try await client.post(
                Self.library + "/Files/AddUsingPath(decodedurl='\(path)',overwrite=true)",
                body: Array(content.utf8), digest: digest)
            #expect(addedUsingPath.status == 200, "\(name) AddUsingPath")
            #expect(addedUsingPath.json?["Name"]?.string == name)
            #expect(addedUsingPath.json?["ServerRelativeUrl"]?.string == "/Shared Documents/" + name)

            let byUrl = try await client.get(
                "/_api/web/GetFileByServerRelativeUrl('/Shared%20Documents/\(url)')/$value")
            #expect(byUrl.status == 200 && byUrl.body == content, "\(name) by Url")
            let byPath = try await client.get(
                "/_api/web/GetFileByServerRelativePath(decodedurl='/Shared%20Documents/\(path)')/$value")
            #expect(byPath.status == 200 && byPath.body == content, "\(name) by Path")
            let metadata = try await client.get(
                "/_api/web/GetFileByServerRelativePath(decodedurl='/Shared%20Documents/\(path)')")
            #expect(metadata.json?["Name"]?.string == name, "\(name) metadata by Path")

            let replaced = "replaced " + name
            let added = try await client.post(
                Self.library + "/Files/add(url='\(url)',overwrite=true)", body: Array(replaced.utf8), digest: digest)
            #expect(added.status == 200, "\(name) add")
            #expect(added.json?["Name"]?.string == name, "\(name) add")
            #expect(added.json?["ServerRelativeUrl"]?.string == "/Shared Documents/" + name)
            let again = try await client.get(
                "/_api/web/GetFileByServerRelativePath(decodedurl='/Shared%20Documents/\(path)')/$value")
            #expect(again.body == replaced, "\(name) replaced through add(url=)")
        }
        // Every upload landed on one file per name: nothing was stored under a cut-off or half-decoded name.
        let listing = try await client.get(Self.library + "/Files?$select=Name")
        let stored = Set((listing.json?["value"]?.array ?? []).compactMap { $0["Name"]?.string })
        for (name, _, _) in Self.names { #expect(stored.contains(name), "\(name)") }
        #expect(!stored.contains("'a") && !stored.contains("'O''Neil") && !stored.contains("50%25.txt"))
    }

    /// A comma inside the quoted name does not end the `url` parameter, and the parameter after it still counts.
    @Test func commaInsideTheQuotedNameKeepsTheOtherParameters() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        let digest = try await client.digest()
        let first = try await client.post(
            Self.library + "/Files/add(url='a,%20b.txt',overwrite=false)", body: Array("one".utf8), digest: digest)
        #expect(first.status == 200 && first.json?["Name"]?.string == "a, b.txt")
        let second = try await client.post(
            Self.library + "/Files/add(url='a,%20b.txt',overwrite=false)", body: Array("two".utf8), digest: digest)
        #expect(second.status == 400)
        #expect(second.json?["odata.error"]?["code"]?.string == "-2130575257, Microsoft.SharePoint.SPException")
        let quoted = try await client.post(
            Self.library + "/Files/add(url='it''s,%20ok.txt',overwrite=true)", body: Array("q".utf8), digest: digest)
        #expect(quoted.json?["Name"]?.string == "it's, ok.txt")
    }

    /// A server-relative path in another site collection (below `/sites/`, `/teams/`, or on another host) is a 400
    /// ArgumentException in every file and folder form; a missing file inside the site stays a 404.
    @Test func pathsOutsideTheSiteCollectionAre400() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        for path in [
            "GetFileByServerRelativeUrl('/sites/other/x.pdf')",
            "GetFileByServerRelativePath(decodedurl='/sites/other/x.pdf')",
            "GetFileByServerRelativeUrl('/teams/other/Shared%20Documents/x.pdf')/$value",
            "GetFolderByServerRelativeUrl('/sites/other/Shared%20Documents')/Files",
            "GetFolderByServerRelativePath(decodedurl='/sites/other')",
            "GetFileByServerRelativeUrl('https://other.example/x.pdf')",
        ] {
            let answer = try await client.get("/_api/web/" + path)
            #expect(answer.status == 400, "\(path)")
            #expect(answer.json?["odata.error"]?["code"]?.string == "-2147024809, System.ArgumentException", "\(path)")
        }
        let verbose = try await client.get(
            "/_api/web/GetFileByServerRelativeUrl('/sites/other/x.pdf')", accept: "application/json;odata=verbose")
        #expect(verbose.status == 400)
        #expect(verbose.json?["error"]?["code"]?.string == "-2147024809, System.ArgumentException")
        let missing = try await client.get("/_api/web/GetFileByServerRelativeUrl('/Shared%20Documents/x.pdf')")
        #expect(missing.status == 404)
        #expect(missing.json?["odata.error"]?["code"]?.string == "-2130575338, Microsoft.SharePoint.SPException")
    }

    /// `Files/add` and `Files/AddUsingPath` on a folder below a list's root folder create the file in that folder;
    /// on a folder that does not exist they are a 404.
    @Test func addIntoASubFolderCreatesTheFileThere() async throws {
        let simulator = try startSimulator(.basic)
        defer { simulator.stop() }
        let client = RESTClient(simulator: simulator)
        let digest = try await client.digest()
        let forms = "/_api/web/GetFolderByServerRelativeUrl('/Shared%20Documents/Forms')"
        let added = try await client.post(
            forms + "/Files/add(url='in-forms.txt',overwrite=true)", body: Array("forms".utf8), digest: digest)
        #expect(added.status == 200)
        #expect(added.json?["ServerRelativeUrl"]?.string == "/Shared Documents/Forms/in-forms.txt")
        let byPath = try await client.post(
            "/_api/web/GetFolderByServerRelativePath(decodedurl='/Shared%20Documents/Forms')/Files/AddUsingPath(decodedurl='b%25.txt',overwrite=true)",
            body: Array("path".utf8), digest: digest)
        #expect(byPath.json?["ServerRelativeUrl"]?.string == "/Shared Documents/Forms/b%.txt")
        #expect(
            try await client.get(
                "/_api/web/GetFileByServerRelativeUrl('/Shared%20Documents/Forms/in-forms.txt')/$value"
            ).body == "forms")
        let inForms = try await client.get(forms + "/Files?$select=Name")
        #expect(
            Set((inForms.json?["value"]?.array ?? []).compactMap { $0["Name"]?.string }) == ["in-forms.txt", "b%.txt"])
        let atRoot = try await client.get(Self.library + "/Files?$select=Name")
        #expect(!(atRoot.json?["value"]?.array ?? []).contains { $0["Name"]?.string == "in-forms.txt" })

        let nowhere = try await client.post(
            "/_api/web/GetFolderByServerRelativeUrl('/Shared%20Documents/Nope')/Files/add(url='x.txt',overwrite=true)",
            body: Array("x".utf8), digest: digest)
        #expect(nowhere.status == 404)
        #expect(nowhere.json?["odata.error"]?["code"]?.string == "-2147024894, System.IO.FileNotFoundException")
        // The web's root folder holds no files in the simulator: an add there is refused, never a 200 listing.
        let root = try await client.post(
            "/_api/web/GetFolderByServerRelativeUrl('/')/Files/add(url='root.txt',overwrite=true)",
            body: Array("x".utf8), digest: digest)
        #expect(root.status == 400)
    }
}

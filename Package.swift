// swift-tools-version: 6.0
// SPConnect: a headless SharePoint client. This manifest is the architecture: one `// MARK:` per layer,
// imports only point down (Tools/check-imports enforces the table in docs/architecture.md).
import PackageDescription

/// Settings every Swift target gets, applied in one place at the end of this file.
let strictSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "SPConnect",
    products: [
        .executable(name: "spconnect", targets: ["spconnect"]),
        .executable(name: "spsim", targets: ["spsim"]),
        .executable(name: "spconnect-status", targets: ["spconnect-status"]),
        .library(name: "JSON", targets: ["JSON"]),
        .library(name: "TransportValues", targets: ["TransportValues"]),
        .library(name: "Transport", targets: ["Transport"]),
        .library(name: "HTML", targets: ["HTML"]),
        .library(name: "Cryptography", targets: ["Cryptography"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "SharePoint", targets: ["SharePoint"]),
        .library(name: "Presentation", targets: ["Presentation"]),
        .library(name: "AuthFlowCore", targets: ["AuthFlowCore"]),
        .library(name: "AuthFlow", targets: ["AuthFlow"]),
        .library(name: "Gateway", targets: ["Gateway"]),
        .library(name: "LocalFiles", targets: ["LocalFiles"]),
        .library(name: "CommandLineKit", targets: ["CommandLineKit"]),
        .library(name: "Mirror", targets: ["Mirror"]),
        .library(name: "BulkWrites", targets: ["BulkWrites"]),
        .library(name: "FileOperations", targets: ["FileOperations"]),
        .library(name: "ListOperations", targets: ["ListOperations"]),
    ],
    targets: [
        // MARK: C bridges (system libraries and the typed shim over their variadic calls)

        /// libcurl: HTTP transfers, cookie engine, TLS, proxies, NTLM.
        .systemLibrary(
            name: "CCurl", path: "Modules/CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        /// libxml2's HTML parser and XPath (ICU hidden: see docs/architecture.md).
        .systemLibrary(
            name: "CLibXML2", path: "Modules/CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]),
        /// libmicrohttpd: the embedded HTTP server.
        .systemLibrary(
            name: "CMicroHTTPD", path: "Modules/CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
        /// OpenSSL's libcrypto: HMAC and digests (for one-time passwords).
        .systemLibrary(
            name: "CCrypto", path: "Modules/CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        /// Typed, non-variadic wrappers (prefix `spc_`), one target per library, each over its own bridge only:
        /// curl's setopt/getinfo; libmicrohttpd's daemon start and info; libxml2's `xmlFree`.
        .target(name: "CCurlShims", dependencies: ["CCurl"], path: "Modules/CCurlShims"),
        .target(name: "CMicroHTTPDShims", dependencies: ["CMicroHTTPD"], path: "Modules/CMicroHTTPDShims"),
        .target(name: "CXMLShims", dependencies: ["CLibXML2"], path: "Modules/CXMLShims"),
        /// libsecret's password calls with SPConnect's own schema and a watchdog (no GLib type in the header).
        /// libsecret is loaded with dlopen on the keyring's first use (decision 0021), so no program links it: the
        /// shim sees its headers (libsecret-1-dev, Debian's paths for every architecture) and nothing else.
        .target(
            name: "CSecretShims", path: "Modules/CSecretShims",
            cSettings: [
                .unsafeFlags(
                    ["-I/usr/include/libsecret-1", "-I/usr/include/glib-2.0"]
                        + ["x86_64", "aarch64", "arm", "i386", "powerpc64le", "s390x", "riscv64"].map {
                            "-I/usr/lib/\($0)-linux-gnu\(["arm": "eabihf"][$0] ?? "")/glib-2.0/include"
                        })
            ]),

        // MARK: Core

        /// One JSON value type: an order-keeping RFC 8259 parser and a compact/pretty writer.
        .target(name: "JSON", path: "Modules/JSON"),
        /// What HTTP code speaks in without libcurl: secrets, cookies, credentials, the transport's error, redaction.
        .target(name: "TransportValues", path: "Modules/TransportValues"),
        /// HTTP over libcurl: exchanges, cookie jar (libcurl's engine), TLS, auth, retries, traces.
        .target(
            name: "Transport", dependencies: ["TransportValues", "CCurl", "CCurlShims"], path: "Modules/Transport"),
        /// HMAC and time-based one-time passwords (RFC 6238) over libcrypto.
        .target(name: "Cryptography", dependencies: ["CCrypto"], path: "Modules/Cryptography"),
        /// Offline HTML reading on libxml2: forms (WHATWG submission), refreshes, scripts, page kinds.
        .target(name: "HTML", dependencies: ["CLibXML2", "CXMLShims", "JSON"], path: "Modules/HTML"),
        /// Command lines declared once: typed options, the parser, help, did-you-mean, completions, the man page.
        .target(name: "CommandLineKit", path: "Modules/CommandLineKit"),
        /// Local folders reached by descriptor, one name at a time, never through a link; `flock` locks in them.
        .target(name: "LocalFiles", path: "Modules/LocalFiles"),
        /// A tiny embedded HTTP server over libmicrohttpd, loopback by default.
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "CMicroHTTPDShims"], path: "Modules/HTTPServer"),

        /// The Secret Service keyring for the apps' saved passwords (`login --save-password`); no library uses it.
        .target(name: "Keyring", dependencies: ["CSecretShims", "Transport"], path: "Modules/Keyring"),

        // MARK: Engines

        /// The sign-in engine without I/O: the state machine, page kinds and rules, strategies, policy, outcomes,
        /// sessions as values. No libcurl, no files.
        .target(
            name: "AuthFlowCore", dependencies: ["TransportValues", "HTML", "Cryptography", "JSON"],
            path: "Modules/AuthFlowCore"),
        /// The headless sign-in over Transport: the driver, the session store, renewals, token sign-ins.
        .target(
            name: "AuthFlow", dependencies: ["AuthFlowCore", "Transport", "HTML", "Cryptography", "JSON"],
            path: "Modules/AuthFlow"),

        /// A signed-in session lent to other tools on loopback: admission by secret, forwarding with the session's
        /// credentials, answers streamed through a spool, links rewritten, the session renewed in flight.
        .target(name: "Gateway", dependencies: ["Transport", "HTTPServer"], path: "Modules/Gateway"),

        // MARK: Domain

        /// The SharePoint REST object model: webs, lists, items, fields, files; OData; paging; errors.
        .target(name: "SharePoint", dependencies: ["Transport", "JSON", "LocalFiles"], path: "Modules/SharePoint"),

        /// The tree mirror: library folders to local folders and back, the ledger of what it wrote, locks,
        /// deletions, incremental runs by change token; it reports events and never prints.
        .target(
            name: "Mirror", dependencies: ["SharePoint", "LocalFiles", "Cryptography"],
            path: "Modules/Mirror"),

        /// Files and folders a word names, read, removed to the recycle bin and downloaded, reporting one outcome per
        /// path and never printing.
        .target(
            name: "FileOperations",
            dependencies: ["SharePoint", "Mirror", "LocalFiles", "Presentation", "CommandLineKit"],
            path: "Modules/FileOperations"),

        /// A list's items as records, page by page: the selection checked against the list's fields, reading ahead or
        /// by ranges of `ID`, projections and display texts; it never prints.
        .target(
            name: "ListOperations", dependencies: ["SharePoint", "Presentation", "Mirror", "CommandLineKit", "JSON"],
            path: "Modules/ListOperations"),

        /// Rows of a CSV or NDJSON file written to a list as `$batch` change sets, one result per row.
        .target(
            name: "BulkWrites", dependencies: ["SharePoint", "Presentation", "JSON", "CommandLineKit"],
            path: "Modules/BulkWrites"),

        // MARK: App support (what both apps share, never a library)

        /// The one ordered chain of password sources for renewals, `status` and the status app; helper commands.
        .target(
            name: "AppSupport", dependencies: ["AuthFlow", "Keyring", "Transport", "Cryptography", "SharePoint"],
            path: "Modules/AppSupport"),

        // MARK: Presentation

        /// Records and renderers: terminal tables, JSON, NDJSON, CSV, escaped HTML, progress bars.
        .target(name: "Presentation", dependencies: ["SharePoint", "JSON"], path: "Modules/Presentation"),

        // MARK: Apps

        /// The `spconnect` command-line tool.
        .executableTarget(
            name: "spconnect",
            dependencies: [
                "Transport", "HTML", "AuthFlow", "SharePoint", "Presentation", "JSON", "Cryptography", "Keyring",
                "AppSupport", "HTTPServer", "Gateway", "LocalFiles", "Mirror", "CommandLineKit",
                "BulkWrites", "FileOperations", "ListOperations",
            ],
            path: "Apps/spconnect", plugins: ["Registry"]),

        /// `spconnect-status`: a tiny HTML status app (session health, lists, photos) on loopback.
        .executableTarget(
            name: "spconnect-status",
            dependencies: [
                "Transport", "HTTPServer", "AuthFlow", "SharePoint", "Presentation", "JSON", "Keyring", "AppSupport",
                "CommandLineKit", "ListOperations",
            ],
            path: "Apps/spconnect-status"),

        // MARK: Tools (never imported by Modules)

        /// SharePoint + identity-provider simulator, as a library the tests start in-process.
        .target(
            name: "SPSim", dependencies: ["HTTPServer", "Cryptography", "TransportValues"], path: "Tools/spsim/SPSim",
            plugins: ["Registry"]),
        /// `spsim`: the simulator as a command (demo, benchmarks, conformance suite).
        .executableTarget(name: "spsim", dependencies: ["SPSim", "CommandLineKit"], path: "Tools/spsim/spsim"),

        /// A year of nightly jobs against spsim in minutes, every output checked against the server (docs/soak.md).
        .executableTarget(
            name: "soak", dependencies: ["SPSim", "SharePoint", "AuthFlow", "Transport", "JSON", "CommandLineKit"],
            path: "Tools/soak"),

        /// Lists the commands of spconnect and the REST routes of spsim declared in their files, at build time, so a
        /// new one is one declaration in its own file (no list to edit).
        .plugin(
            name: "Registry", capability: .buildTool(), dependencies: ["registry-generator"], path: "Plugins/Registry"),
        /// The Registry plugin's generator.
        .executableTarget(name: "registry-generator", path: "Tools/registry-generator"),

        /// The smallest program embedding the sign-in engine (see docs/embedding.md).
        .executableTarget(name: "embed-example", dependencies: ["AuthFlow", "Transport"], path: "Tools/embed-example"),

        /// Benchmarks, side by side with a baseline in one run (figures in docs/performance.md).
        .executableTarget(
            name: "bench", dependencies: ["SPSim", "Transport", "SharePoint", "HTML", "AuthFlow", "CommandLineKit"],
            path: "Tools/bench"),

        // MARK: Fuzzing (libFuzzer targets; built and run by Tools/fuzz/run, see docs/fuzzing.md)

        /// libFuzzer's `LLVMFuzzerRunDriver`, declared for Swift (the fuzz targets' `@main` starts the fuzzer).
        .target(name: "CFuzzerDriver", path: "Tools/fuzz/CFuzzerDriver"),
        /// What every fuzz target shares: the libFuzzer or replay entry, oracle failures, input slicing.
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver"], path: "Tools/fuzz/FuzzSupport"),
        /// Page reading as AuthFlow does it, then every form's submissions (urlencoded bodies decoded back).
        .executableTarget(
            name: "fuzz-html", dependencies: ["FuzzSupport", "HTML", "AuthFlow"], path: "Tools/fuzz/html"),
        /// `$Config` extraction and the other script readers (redirects, self-submits, function bodies).
        .executableTarget(
            name: "fuzz-config", dependencies: ["FuzzSupport", "HTML", "AuthFlowCore", "JSON"],
            path: "Tools/fuzz/config"),
        /// The JSON parser: parse, write, parse again; the streaming and skipping parses against the plain one.
        .executableTarget(name: "fuzz-json", dependencies: ["FuzzSupport", "JSON"], path: "Tools/fuzz/json"),
        /// OData pages in every flavour: streamed decode against the tree decode, error bodies, names, dates.
        .executableTarget(
            name: "fuzz-odata", dependencies: ["FuzzSupport", "SharePoint", "JSON"], path: "Tools/fuzz/odata"),
        /// The session (Netscape cookie) file and the last sign-in record: parse, render, parse again.
        .executableTarget(
            name: "fuzz-session", dependencies: ["FuzzSupport", "AuthFlowCore", "AuthFlow", "Transport"],
            path: "Tools/fuzz/session"),
        /// URL resolution (HTML's RFC 3986 resolver, AuthFlow's Foundation one), refresh values, percent-encoding.
        .executableTarget(
            name: "fuzz-url", dependencies: ["FuzzSupport", "HTML", "AuthFlowCore"], path: "Tools/fuzz/url"),
        /// The CSV writer on fuzzed records, its output read back as RFC 4180 and by `--from`'s CSV reader.
        .executableTarget(
            name: "fuzz-csv", dependencies: ["FuzzSupport", "Presentation", "JSON"], path: "Tools/fuzz/csv"),
        /// The `$batch` multipart answer reader: written again, read back; cut short, never read as whole.
        .executableTarget(
            name: "fuzz-batch", dependencies: ["FuzzSupport", "SharePoint"], path: "Tools/fuzz/batch"),
        /// The token and device-code endpoints' answers, and the session file's token line for what they give.
        .executableTarget(
            name: "fuzz-token", dependencies: ["FuzzSupport", "AuthFlowCore", "AuthFlow", "Transport", "JSON"],
            path: "Tools/fuzz/token"
        ),
        /// The download ledger of `download -r`: parse, render, parse again.
        .executableTarget(
            name: "fuzz-ledger", dependencies: ["FuzzSupport", "Mirror"], path: "Tools/fuzz/ledger"),

        /// Change-log answers and the change tokens kept between runs.
        .executableTarget(
            name: "fuzz-changes", dependencies: ["FuzzSupport", "SharePoint", "Mirror"], path: "Tools/fuzz/changes"),
        /// The gateway's admission of a request head and its rewriting of JSON and multistatus answers.
        .executableTarget(
            name: "fuzz-gateway", dependencies: ["FuzzSupport", "Gateway", "HTTPServer", "JSON", "Transport"],
            path: "Tools/fuzz/gateway"),

        // MARK: Tests (one target per module)

        /// Helpers shared by the test targets (child processes awaited without blocking the pool).
        .target(name: "TestSupport", dependencies: ["Transport"], path: "Tests/TestSupport"),

        .testTarget(name: "JSONTests", dependencies: ["JSON"], path: "Tests/JSONTests"),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit"], path: "Tests/CommandLineKitTests"),
        .testTarget(
            name: "CryptographyTests", dependencies: ["TestSupport", "Cryptography"], path: "Tests/CryptographyTests"),
        .testTarget(
            name: "TransportTests", dependencies: ["TestSupport", "Transport", "HTTPServer", "Cryptography"],
            path: "Tests/TransportTests"),
        .testTarget(
            name: "SPSimTests",
            dependencies: ["TestSupport", "SPSim", "HTTPServer", "AuthFlowCore", "Cryptography", "JSON"],
            path: "Tests/SPSimTests"),
        .testTarget(
            name: "SharePointTests", dependencies: ["TestSupport", "SharePoint", "Transport", "SPSim", "LocalFiles"],
            path: "Tests/SharePointTests"),
        .testTarget(
            name: "AuthFlowTests",
            dependencies: [
                "TestSupport", "AuthFlowCore", "AuthFlow", "HTML", "Transport", "SPSim", "HTTPServer", "Cryptography",
                "SharePoint",
            ],
            path: "Tests/AuthFlowTests"),
        .testTarget(name: "PresentationTests", dependencies: ["Presentation"], path: "Tests/PresentationTests"),
        .testTarget(
            name: "CLITests",
            dependencies: ["TestSupport", "spconnect", "SPSim", "HTTPServer", "Transport", "Cryptography"],
            path: "Tests/CLITests"),
        .testTarget(
            name: "StatusAppTests",
            dependencies: ["TestSupport", "spconnect-status", "SPSim", "HTTPServer", "Transport", "CommandLineKit"],
            path: "Tests/StatusAppTests", exclude: ["__Snapshots__"]),
        .testTarget(name: "HTMLTests", dependencies: ["TestSupport", "HTML", "AuthFlow"], path: "Tests/HTMLTests"),
        .testTarget(
            name: "BulkWritesTests", dependencies: ["TestSupport", "BulkWrites", "SharePoint", "Transport", "SPSim"],
            path: "Tests/BulkWritesTests"),
        .testTarget(
            name: "MirrorTests",
            dependencies: ["TestSupport", "Mirror", "LocalFiles", "SharePoint", "Transport", "SPSim"],
            path: "Tests/MirrorTests"),
        .testTarget(
            name: "FileOperationsTests",
            dependencies: [
                "TestSupport", "FileOperations", "Mirror", "SharePoint", "Transport", "SPSim", "LocalFiles",
            ],
            path: "Tests/FileOperationsTests"),
        .testTarget(
            name: "ListOperationsTests",
            dependencies: [
                "TestSupport", "ListOperations", "SharePoint", "Presentation", "Transport", "SPSim", "CommandLineKit",
            ],
            path: "Tests/ListOperationsTests"),
        .testTarget(
            name: "GatewayTests", dependencies: ["TestSupport", "Gateway", "HTTPServer", "Transport", "SPSim"],
            path: "Tests/GatewayTests"),
        .testTarget(
            name: "HTTPServerTests", dependencies: ["TestSupport", "HTTPServer", "Transport"],
            path: "Tests/HTTPServerTests"),
    ]
)

for target in package.targets where target.type != .system && target.type != .plugin {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSwiftSettings
}

// MARK: Targets built alone

/// `SPCONNECT_ONLY_TARGETS=TransportTests,GatewayTests` declares those targets and only what they need (the targets
/// they depend on, through plugins too, and the products made of those): the sanitizer runs build five suites, not
/// the whole package (Tools/sanitize), and the fuzz runs their fuzz targets without the Registry plugin, whose tool
/// cannot be linked with libFuzzer's main (Tools/fuzz/run). Unset, the package is whole.
if let wanted = Context.environment["SPCONNECT_ONLY_TARGETS"] {
    let byName = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
    var needed = Set<String>()
    var pending = wanted.split(separator: ",").map { String($0) }
    while let name = pending.popLast() {
        guard let target = byName[name], needed.insert(name).inserted else { continue }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): pending.append(name)
            case .productItem: break
            @unknown default: break
            }
        }
        for plugin in target.plugins ?? [] {
            if case .plugin(let name, _) = plugin { pending.append(name) }
        }
    }
    package.targets.removeAll { !needed.contains($0.name) }
    package.products.removeAll { product in
        let targets = (product as? Product.Library)?.targets ?? (product as? Product.Executable)?.targets ?? []
        return !targets.allSatisfy(needed.contains)
    }
}

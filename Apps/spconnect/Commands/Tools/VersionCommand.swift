import Transport

let versionCommand = Command(
    name: "version", summary: "Print the version of spconnect and the libraries it runs on.", synopsis: "",
    options: [], examples: ["spconnect version", "spconnect --version"]
) { _ in
    print("spconnect \(version) (libcurl \(LibraryInfo.curlVersion))")
    return .ok
}

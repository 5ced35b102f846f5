import Transport

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "--version" || arguments.first == "version" {
    print("spconnect 0.1.0 (libcurl \(LibraryInfo.curlVersion))")
} else {
    print("usage: spconnect --version")
}

import Foundation

// `spconnect-status`: the session's status page on loopback. Everything is in StatusServer.run so that
// `spconnect status --serve` can call the same code.
exit(StatusServer.run(arguments: Array(CommandLine.arguments.dropFirst())))

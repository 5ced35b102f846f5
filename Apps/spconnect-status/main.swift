import Foundation

// `spconnect-status`: the session's status page on loopback. Everything is in StatusServer.run so that
// `spconnect status --serve` can call the same code.
let code = StatusServer.run(arguments: Array(CommandLine.arguments.dropFirst()))
// Out as spconnect leaves (Apps/spconnect/main.swift): output flushed, then without the libraries' exit handlers, in
// which MIT Kerberos destroys mutexes a pool thread may still lock while releasing a Negotiate transfer.
fflush(nil)
_exit(code)

/// Transport speaks in the values of TransportValues (secrets, cookies, credentials, its errors, the redaction
/// rules): a client that imports Transport has them too, as swift-nio's `NIO` re-exports `NIOCore`.
@_exported public import TransportValues

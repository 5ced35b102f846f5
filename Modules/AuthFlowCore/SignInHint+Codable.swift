/// A hint as one JSON object: `{"hint": NAME}` and the value it carries (`host`, `flows`, `methods`), so a
/// sign-in record keeps hints typed and each front end words them its own way.
extension SignInHint: Codable {
    private enum Key: String, CodingKey { case hint, host, flows, methods, days }

    /// Reads a hint written by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let name = try container.decode(String.self, forKey: .hint)
        switch name {
        case "allowHost": self = .allowHost(try container.decode(String.self, forKey: .host))
        case "tryFlows":
            self = .tryFlows(
                try container.decode([String].self, forKey: .flows).compactMap(SignInFlow.init(rawValue:)))
        case "savePages": self = .savePages
        case "recordTrace": self = .recordTrace
        case "giveOneTimeCodeSource": self = .giveOneTimeCodeSource
        case "allowPlainHTTPOnLoopback": self = .allowPlainHTTPOnLoopback
        case "getKerberosTicket": self = .getKerberosTicket
        case "skipRegistration": self = .skipRegistration(days: try container.decode(Int.self, forKey: .days))
        case "chooseSecondFactorMethod":
            self = .chooseSecondFactorMethod(
                try container.decode([String].self, forKey: .methods).compactMap(SecondFactorMethod.init(rawValue:)))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .hint, in: container, debugDescription: "unknown sign-in hint '\(name)'")
        }
    }

    /// Writes the hint's name and its value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .allowHost(let host):
            try container.encode("allowHost", forKey: .hint)
            try container.encode(host, forKey: .host)
        case .tryFlows(let flows):
            try container.encode("tryFlows", forKey: .hint)
            try container.encode(flows.map(\.rawValue), forKey: .flows)
        case .savePages: try container.encode("savePages", forKey: .hint)
        case .recordTrace: try container.encode("recordTrace", forKey: .hint)
        case .giveOneTimeCodeSource: try container.encode("giveOneTimeCodeSource", forKey: .hint)
        case .allowPlainHTTPOnLoopback: try container.encode("allowPlainHTTPOnLoopback", forKey: .hint)
        case .getKerberosTicket: try container.encode("getKerberosTicket", forKey: .hint)
        case .skipRegistration(let days):
            try container.encode("skipRegistration", forKey: .hint)
            try container.encode(days, forKey: .days)
        case .chooseSecondFactorMethod(let methods):
            try container.encode("chooseSecondFactorMethod", forKey: .hint)
            try container.encode(methods.map(\.rawValue), forKey: .methods)
        }
    }
}

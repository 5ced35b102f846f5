import Foundation
import SPSim
import TestSupport
import Testing

/// One HTTP answer as curl saw it.
struct Answer {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: String
    var bodyBytes: [UInt8]
    var exitCode: Int32

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    func headers(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    var json: JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: Data(bodyBytes)) }
}

/// A curl-driven client with its own cookie jar file (the real `/usr/bin/curl`, as the brief asks).
final class Browser {
    let jar: String
    /// Extra curl arguments sent with every request (e.g. `--cacert FILE` for the TLS simulator).
    var common: [String] = []
    private let directory: URL

    init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("spsim-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        jar = directory.appendingPathComponent("jar.txt").path
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Runs curl once (no redirect following), returning status, headers and body; suspends, without blocking a
    /// thread, while curl runs.
    func request(
        _ url: String, method: String? = nil, headers: [String] = [], form: [(String, String)]? = nil,
        body: [UInt8]? = nil, extra: [String] = [], useJar: Bool = true
    ) async throws -> Answer {
        let headerFile = directory.appendingPathComponent("h-\(UUID().uuidString)").path
        let bodyFile = directory.appendingPathComponent("b-\(UUID().uuidString)").path
        defer {
            try? FileManager.default.removeItem(atPath: headerFile)
            try? FileManager.default.removeItem(atPath: bodyFile)
        }
        var arguments = ["-s", "--max-time", "20", "-D", headerFile, "-o", bodyFile]
        if useJar { arguments += ["-c", jar, "-b", jar] }
        if let method { arguments += ["-X", method] }
        for header in headers { arguments += ["-H", header] }
        if let form {
            if form.isEmpty { arguments += ["--data", ""] }
            for (name, value) in form { arguments += ["--data-urlencode", "\(name)=\(value)"] }
        }
        if let body {
            let file = directory.appendingPathComponent("up-\(UUID().uuidString)").path
            try Data(body).write(to: URL(fileURLWithPath: file))
            arguments += ["--data-binary", "@" + file]
        }
        arguments += common + extra
        arguments.append(url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = arguments
        let exitCode = try await runToExit(process)
        let headerText = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: bodyFile))).map { [UInt8]($0) } ?? []
        // Keep only the last header block.
        let blocks = headerText.components(separatedBy: "\r\n\r\n").filter { !$0.isEmpty }
        let lines = (blocks.last ?? "").components(separatedBy: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        let parsed: [(name: String, value: String)] = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return Answer(
            status: status, headers: parsed, body: String(decoding: bytes, as: UTF8.self), bodyBytes: bytes,
            exitCode: exitCode)
    }

    /// Cookies in the jar as (name, value, domain).
    func cookies() -> [(name: String, value: String, domain: String)] {
        guard let text = try? String(contentsOfFile: jar, encoding: .utf8) else { return [] }
        return text.components(separatedBy: "\n").compactMap { line in
            var line = line
            if line.hasPrefix("#HttpOnly_") { line = String(line.dropFirst("#HttpOnly_".count)) }
            guard !line.hasPrefix("#"), !line.isEmpty else { return nil }
            let fields = line.components(separatedBy: "\t")
            guard fields.count >= 7 else { return nil }
            return (fields[5], fields[6], fields[0])
        }
    }

    func cookie(_ name: String) -> String? { cookies().first { $0.name == name }?.value }
}

/// Resolves a `Location` against the URL that answered it.
func resolve(_ location: String, against base: String) -> String {
    if location.hasPrefix("http://") || location.hasPrefix("https://") { return location }
    let parts = base.components(separatedBy: "/")
    return parts.prefix(3).joined(separator: "/") + location
}

/// The `$Config={…};` object of an Entra-like page.
func entraConfig(_ html: String) -> [String: JSONValue]? {
    guard let start = html.range(of: "$Config=") else { return nil }
    let rest = html[start.upperBound...]
    guard let end = rest.range(of: ";\n") else { return nil }
    let json = String(rest[..<end.lowerBound])
    guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)) else {
        return nil
    }
    return object
}

func htmlUnescape(_ text: String) -> String {
    text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
        .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&#39;", with: "'")
        .replacingOccurrences(of: "&amp;", with: "&")
}

/// Regex captures (first group of every match).
func captures(_ pattern: String, in text: String) -> [[String]] {
    guard let regex = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else {
        return []
    }
    return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
        (1..<match.numberOfRanges).map { index in
            Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
        }
    }
}

/// A form of a page, minimally parsed: action and its `<input>` name/value pairs (test-grade, not a browser).
struct SimpleForm {
    var action: String
    var fields: [(String, String)]

    /// The form whose opening tag matches `selector` (e.g. `id="loginForm"`), or the first form.
    init?(html: String, selector: String? = nil) {
        let forms = captures("(<form[^>]*>)(.*?)</form>", in: html)
        guard let form = forms.first(where: { selector == nil || $0[0].contains(selector!) }) else { return nil }
        action = htmlUnescape(captures("action=\"([^\"]*)\"", in: form[0]).first?.first ?? "")
        fields = []
        for input in captures("<input([^>]*)>", in: form[1]) {
            let attributes = input[0]
            guard let name = captures("name=\"([^\"]*)\"", in: attributes).first?.first else { continue }
            let type = captures("type=\"([^\"]*)\"", in: attributes).first?.first?.lowercased() ?? "text"
            if type == "submit" || type == "checkbox" { continue }
            let value = captures("value=\"([^\"]*)\"", in: attributes).first?.first ?? ""
            fields.append((htmlUnescape(name), htmlUnescape(value)))
        }
    }

    mutating func set(_ name: String, _ value: String) {
        if let index = fields.firstIndex(where: { $0.0 == name }) {
            fields[index].1 = value
        } else {
            fields.append((name, value))
        }
    }
}

/// A decoded JSON value that keeps booleans and numbers apart (for type assertions).
enum JSONValue: Decodable, Equatable, CustomStringConvertible {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    subscript(index: Int) -> JSONValue? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    var kind: String {
        switch self {
        case .string: return "string"
        case .number: return "number"
        case .bool: return "bool"
        case .null: return "null"
        case .array: return "array"
        case .object: return "object"
        }
    }

    var description: String {
        switch self {
        case .string(let text): return "\"\(text)\""
        case .number(let value): return "\(value)"
        case .bool(let flag): return "\(flag)"
        case .null: return "null"
        case .array(let values): return "[\(values.map(\.description).joined(separator: ","))]"
        case .object(let object): return "{\(object.keys.sorted().joined(separator: ","))}"
        }
    }
}

/// Starts a simulator for one test.
func startSimulator(
    _ mode: SignInMode, items: Int = 0, faults: FaultSpec = FaultSpec(), legacyRefused: Bool = false
) throws -> Simulator {
    try Simulator(SimulatorOptions(mode: mode, items: items, faults: faults, legacyRefused: legacyRefused))
}

/// Directory of the shared corpus (`../shared/corpus` beside the repository), if present.
func corpusDirectory() -> URL? {
    FileManager.default.fileExists(atPath: SharedCorpus.root.path) ? SharedCorpus.root : nil
}

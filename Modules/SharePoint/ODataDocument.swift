public import Foundation
public import JSON

/// A parsed REST response body: the envelope (`d`, `d.results`, `value`, `odata.nextLink`, `odata.metadata`)
/// taken apart the same way for all three flavours.
public struct ODataDocument: Sendable {
    /// The whole parsed body.
    public let root: JSONValue
    /// The payload: `d` in verbose, the root otherwise.
    public let payload: JSONValue
    /// `odata.metadata` (minimal metadata only), e.g. `…/_api/$metadata#SP.Web`.
    public var metadataURL: String? { root["odata.metadata"]?.stringValue }

    /// Wraps a parsed body.
    public init(root: JSONValue) {
        self.root = root
        if let d = root["d"], case .object = d {
            payload = d
        } else {
            payload = root
        }
    }

    /// Parses a body.
    ///
    /// - Throws: ``SharePointError`` (`unexpectedResponse`) when the bytes are not JSON.
    public init(data: Data) throws(SharePointError) {
        self.init(root: try JSONValue.parseResponse(data))
    }

    /// `true` when the body is in the verbose (`d`) envelope.
    public var isVerbose: Bool { root["d"] != nil }

    /// The single entity the body holds.
    ///
    /// - Throws: ``SharePointError`` (`unexpectedResponse`) when the body is a collection or not an object.
    public func entity() throws(SharePointError) -> ODataEntity {
        if payload["results"]?.arrayValue != nil || (!isVerbose && root["value"]?.arrayValue != nil) {
            throw SharePointError(unexpectedResponse: "expected a single entity but the response is a collection")
        }
        return try ODataEntity(json: payload)
    }

    /// The entities of a collection page and the link to the next page, if any.
    ///
    /// The next link is `d.__next` (verbose) or `odata.nextLink` (light), returned exactly as sent: absolute
    /// and already percent-encoded. Its absence means this is the last page.
    ///
    /// - Throws: ``SharePointError`` (`unexpectedResponse`) when the body is not a collection.
    public func collection() throws(SharePointError) -> (entities: [ODataEntity], nextLink: String?) {
        let elements: [JSONValue]
        let next: String?
        if isVerbose {
            guard let results = payload["results"]?.arrayValue else {
                throw SharePointError(unexpectedResponse: "expected a collection (d.results) but found none")
            }
            elements = results
            next = payload["__next"]?.stringValue
        } else {
            guard let value = root["value"]?.arrayValue else {
                throw SharePointError(unexpectedResponse: "expected a collection (value) but found none")
            }
            elements = value
            next = root["odata.nextLink"]?.stringValue
        }
        var entities: [ODataEntity] = []
        entities.reserveCapacity(elements.count)
        for element in elements { entities.append(try ODataEntity(json: element)) }
        return (entities, next)
    }

    /// The primitive result of a service function (`StartUpload`, `ContinueUpload`, …): light `{"value":…}`
    /// or verbose `{"d":{"StartUpload":…}}`.
    ///
    /// - Throws: ``SharePointError`` (`unexpectedResponse`) when there is no single primitive value.
    public func scalar() throws(SharePointError) -> JSONValue {
        if !isVerbose, let value = root["value"] {
            return value
        }
        if isVerbose, let members = payload.objectValue {
            let candidates = members.filter { $0.0 != "__metadata" }
            if candidates.count == 1 { return candidates[0].1 }
        }
        throw SharePointError(unexpectedResponse: "expected a single value (value or d.<Function>) in the response")
    }
}

extension JSONValue {
    /// A short name of the value's kind for messages.
    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a Boolean"
        case .integer, .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// SharePoint's ISO-8601 dates.
public enum ODataDate {
    /// Parses `2024-03-29T17:55:08Z`, `2021-10-04T07:41:04.663` (zone-less means UTC), offsets like
    /// `+02:00`, and verbose's legacy `/Date(1700000000000)/` (milliseconds within JavaScript's date range,
    /// ±8.64e15). Returns `nil` for anything else.
    public static func parse(_ text: String) -> Date? {
        if text.hasPrefix("/Date("), text.hasSuffix(")/") {
            let inner = text.dropFirst(6).dropLast(2).prefix { $0 == "-" || $0.isNumber }
            // Beyond JavaScript's range no date was meant, and near Int64's ends the seconds overflow where they
            // are turned back into whole milliseconds (ISO 8601 text, Int64 seconds).
            guard let milliseconds = Int64(inner), milliseconds.magnitude <= 8_640_000_000_000_000 else { return nil }
            return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        }
        let chars = Array(text.utf8)
        func number(_ from: Int, _ length: Int) -> Int? {
            guard from + length <= chars.count else { return nil }
            var v = 0
            for c in chars[from..<from + length] {
                guard c >= 0x30 && c <= 0x39 else { return nil }
                v = v * 10 + Int(c - 0x30)
            }
            return v
        }
        guard chars.count >= 19, let year = number(0, 4), chars[4] == UInt8(ascii: "-"), let month = number(5, 2),
            chars[7] == UInt8(ascii: "-"), let day = number(8, 2), chars[10] == UInt8(ascii: "T") || chars[10] == 0x20,
            let hour = number(11, 2), chars[13] == UInt8(ascii: ":"), let minute = number(14, 2),
            chars[16] == UInt8(ascii: ":"), let second = number(17, 2)
        else { return nil }
        var i = 19
        var fraction = 0.0
        if i < chars.count, chars[i] == UInt8(ascii: ".") {
            i += 1
            var scale = 0.1
            while i < chars.count, chars[i] >= 0x30, chars[i] <= 0x39 {
                fraction += Double(chars[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
        }
        var offsetSeconds = 0
        if i < chars.count {
            if chars[i] == UInt8(ascii: "Z") && i + 1 == chars.count {
                offsetSeconds = 0
            } else if chars[i] == UInt8(ascii: "+") || chars[i] == UInt8(ascii: "-"), i + 6 == chars.count,
                let oh = number(i + 1, 2), chars[i + 3] == UInt8(ascii: ":"), let om = number(i + 4, 2)
            {
                offsetSeconds = (oh * 3600 + om * 60) * (chars[i] == UInt8(ascii: "-") ? -1 : 1)
            } else {
                return nil
            }
        }
        var components = DateComponents()
        components.year = year
        components.month = month
        components.day = day
        components.hour = hour
        components.minute = minute
        components.second = second
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61,
            let base = calendar.date(from: components)
        else { return nil }
        return base.addingTimeInterval(fraction - Double(offsetSeconds))
    }
}

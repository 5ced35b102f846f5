public import Foundation
public import JSON

/// The JSON flavour a SharePoint REST response (or request) uses, chosen by the `Accept` header's `odata=`.
public enum ODataFlavor: String, Sendable, CaseIterable {
    /// `odata=verbose`: everything under `d`, collections in `d.results`, `__metadata`, `__deferred`, `d.__next`.
    case verbose
    /// `odata=minimalmetadata` (what SharePoint Online sends for plain `application/json`): `odata.*` keys.
    case minimalMetadata = "minimalmetadata"
    /// `odata=nometadata`: bare properties, collections in `value`, `odata.nextLink` for paging.
    case noMetadata = "nometadata"

    /// The media type to send in `Accept`, e.g. `application/json;odata=nometadata`.
    public var mediaType: String { "application/json;odata=\(rawValue)" }

    /// The flavour named by a response `Content-Type` such as
    /// `application/json;odata=minimalmetadata;streaming=true;charset=utf-8`; `nil` when it has no `odata=`.
    public init?(contentType: String) {
        let parameters = contentType.lowercased().split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let odata = parameters.first(where: { $0.hasPrefix("odata=") }) else { return nil }
        self.init(rawValue: String(odata.dropFirst("odata=".count)))
    }
}

/// The OData metadata of one entity, read from `__metadata` (verbose) or the `odata.*` keys (minimal
/// metadata). Every field is `nil` in nometadata responses.
public struct EntityMetadata: Sendable, Equatable {
    /// The entity type, e.g. `SP.Web` or `SP.Data.TasksListItem` (`__metadata.type` / `odata.type`).
    public var type: String?
    /// The entity id (`__metadata.id` / `odata.id`).
    public var id: String?
    /// The absolute entity URI (`__metadata.uri`; verbose only).
    public var uri: String?
    /// The edit link relative to `_api/` (`odata.editLink`; minimal metadata only).
    public var editLink: String?
    /// The entity tag (`__metadata.etag` / `odata.etag`), exactly as sent, e.g. `"\"4\""`.
    public var etag: String?

    /// Creates metadata from its parts (all optional).
    public init(
        type: String? = nil, id: String? = nil, uri: String? = nil, editLink: String? = nil, etag: String? = nil
    ) {
        self.type = type
        self.id = id
        self.uri = uri
        self.editLink = editLink
        self.etag = etag
    }
}

/// One OData entity, the same whatever the flavour it arrived in.
///
/// ``properties`` holds the entity's own values in server order, without metadata (`__metadata`, `odata.*`,
/// `…@odata.*` annotations) and without unexpanded navigation properties (verbose `__deferred` links, which
/// are in ``deferred``). Verbose multi-value wrappers (`{"__metadata":{"type":"Collection(…)"},"results":[…]}`)
/// are unwrapped to plain arrays at every depth, so a value reads the same in every flavour.
public struct ODataEntity: Sendable, Equatable {
    /// Type, id, edit link and etag, when the flavour carries them.
    public var metadata: EntityMetadata
    /// The entity's values in server order.
    public var properties: [(String, JSONValue)]
    /// Verbose `__deferred` navigation links: property name → absolute URI, in server order.
    public var deferred: [(String, String)]

    /// Creates an entity from already-normalised parts.
    public init(
        metadata: EntityMetadata = EntityMetadata(), properties: [(String, JSONValue)],
        deferred: [(String, String)] = []
    ) {
        self.metadata = metadata
        self.properties = properties
        self.deferred = deferred
    }

    public static func == (lhs: ODataEntity, rhs: ODataEntity) -> Bool {
        lhs.metadata == rhs.metadata && JSONValue.object(lhs.properties) == JSONValue.object(rhs.properties)
            && lhs.deferred.map { $0.0 + "\u{0}" + $0.1 } == rhs.deferred.map { $0.0 + "\u{0}" + $0.1 }
    }

    /// Reads an entity from a JSON object in any flavour (the object itself, not the `d` wrapper).
    ///
    /// - Throws: ``SharePointError`` (`unexpectedResponse`) when `json` is not an object.
    public init(json: JSONValue) throws(SharePointError) {
        guard case .object(let members) = json else {
            throw SharePointError(unexpectedResponse: "expected a JSON object for an entity, found \(json.kindName)")
        }
        var metadata = EntityMetadata()
        var properties: [(String, JSONValue)] = []
        var deferred: [(String, String)] = []
        for (name, value) in members {
            // Only names starting `_` or `o` can be metadata: the others skip the comparisons.
            let first = name.utf8.first
            switch first == UInt8(ascii: "_") || first == UInt8(ascii: "o") ? name : "" {
            case "__metadata":
                metadata.type = metadata.type ?? value["type"]?.stringValue
                metadata.id = metadata.id ?? value["id"]?.stringValue
                metadata.uri = metadata.uri ?? value["uri"]?.stringValue
                metadata.etag = metadata.etag ?? value["etag"]?.stringValue
            case "odata.type": metadata.type = value.stringValue
            case "odata.id": metadata.id = value.stringValue
            case "odata.editLink": metadata.editLink = value.stringValue
            case "odata.etag": metadata.etag = value.stringValue
            default:
                if name.hasPrefix("odata.") || ODataEntity.isAnnotation(name) { continue }
                if let uri = value["__deferred"]?["uri"]?.stringValue, value.objectValue?.count == 1 {
                    deferred.append((name, uri))
                    continue
                }
                properties.append((name, ODataEntity.normalise(value)))
            }
        }
        self.init(metadata: metadata, properties: properties, deferred: deferred)
    }

    /// Whether `name` is a property annotation such as `Author@odata.navigationLinkUrl`.
    ///
    /// Checked on the UTF-8 bytes: called for every property of every item, where Foundation's `contains` (through
    /// `NSString` on Linux) cost a fifth of a big listing's CPU.
    static func isAnnotation(_ name: String) -> Bool {
        func contains(_ bytes: some Collection<UInt8>) -> Bool {
            var rest = bytes[...]
            while let at = rest.firstIndex(of: UInt8(ascii: "@")) {
                if rest[at...].starts(with: "@odata.".utf8) { return true }
                rest = rest[rest.index(after: at)...]
            }
            return false
        }
        return name.utf8.withContiguousStorageIfAvailable(contains) ?? contains(name.utf8)
    }

    /// Unwraps verbose collection wrappers and drops deferred links below the top level.
    static func normalise(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let elements):
            return .array(elements.map(normalise))
        case .object(let members):
            if let results = value["results"], case .array = results,
                members.allSatisfy({ $0.0 == "results" || $0.0 == "__metadata" || $0.0 == "__next" })
            {
                return normalise(results)
            }
            return .object(
                members.compactMap { name, member in
                    if member["__deferred"] != nil, member.objectValue?.count == 1 { return nil }
                    return (name, normalise(member))
                })
        default:
            return value
        }
    }

    // MARK: Reading properties

    /// The value of property `name` (exact, case-sensitive), or `nil` when absent.
    public subscript(name: String) -> JSONValue? {
        properties.first { $0.0 == name }?.1
    }

    /// The property as a non-null string; `nil` when absent or null.
    public func string(_ name: String) -> String? { self[name]?.stringValue }

    /// The property as `Int` (numbers, or digit strings); `nil` when absent, null or not a number.
    public func int(_ name: String) -> Int? { self[name]?.intValue }

    /// The property as `Int64`, accepting SharePoint's Int64-as-string convention (`"Length":"19817"`).
    public func int64(_ name: String) -> Int64? { self[name]?.int64Value }

    /// The property as `Bool`.
    public func bool(_ name: String) -> Bool? { self[name]?.boolValue }

    /// The property parsed as an ISO-8601 date (see ``ODataDate/parse(_:)``; zone-less values are UTC).
    public func date(_ name: String) -> Date? { string(name).flatMap(ODataDate.parse) }

    /// The property parsed as a GUID (with or without braces).
    public func uuid(_ name: String) -> UUID? {
        guard var text = string(name) else { return nil }
        if text.hasPrefix("{") && text.hasSuffix("}") { text = String(text.dropFirst().dropLast()) }
        return UUID(uuidString: text)
    }

    /// The required string property `name`.
    ///
    /// - Throws: ``SharePointError`` (`unexpectedResponse`) naming the property and the entity type.
    public func requiredString(_ name: String) throws(SharePointError) -> String {
        guard let value = string(name) else { throw missing(name) }
        return value
    }

    /// The required integer property `name` (numbers or digit strings).
    public func requiredInt(_ name: String) throws(SharePointError) -> Int {
        guard let value = int(name) else { throw missing(name) }
        return value
    }

    /// An expanded single navigation property (`$expand=CurrentUser`), as an entity.
    public func entity(_ name: String) -> ODataEntity? {
        guard let raw = rawObject(name) else { return nil }
        return try? ODataEntity(json: raw)
    }

    /// An expanded collection navigation property (`$expand=Fields`): verbose `{"results":[…]}` or a light
    /// array. `nil` when absent or deferred.
    public func collection(_ name: String) -> [ODataEntity]? {
        guard let array = self[name]?.arrayValue else { return nil }
        return array.compactMap { try? ODataEntity(json: $0) }
    }

    /// The URI of a verbose deferred navigation property, e.g. `deferredURI("Lists")`.
    public func deferredURI(_ name: String) -> String? {
        deferred.first { $0.0 == name }?.1
    }

    private func rawObject(_ name: String) -> JSONValue? {
        guard let value = self[name], case .object = value else { return nil }
        return value
    }

    func missing(_ name: String) -> SharePointError {
        SharePointError(
            unexpectedResponse: "the \(metadata.type ?? "entity") has no usable '\(name)' property"
                + " (was it left out of $select?)")
    }
}

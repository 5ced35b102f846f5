import Foundation
public import JSON

extension JSONValue {
    /// The OData type name carried by an object in any flavour: `__metadata.type` (verbose) or `odata.type`
    /// (minimal metadata), e.g. `"SP.FieldGeolocationValue"`. `nil` when absent (always so in nometadata).
    public var odataType: String? {
        self["__metadata"]?["type"]?.stringValue ?? self["odata.type"]?.stringValue
    }

    /// Parses a response body as JSON (the JSON module's parser).
    ///
    /// - Throws: ``SharePointError`` with kind ``SharePointError/Kind/unexpectedResponse`` naming the byte
    ///   offset of the first syntax error.
    static func parseResponse(_ data: Data) throws(SharePointError) -> JSONValue {
        do {
            return try JSONValue.parse(data)
        } catch {
            throw SharePointError(unexpectedResponse: "The response is not valid JSON: \(error)")
        }
    }
}

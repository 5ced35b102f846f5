import Foundation

/// A plain Atom/XML rendering for clients that do not ask for JSON (SharePoint's default without `Accept`).
enum AtomRenderer {
    static func render(_ json: JSON) -> String {
        var out =
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><entry xmlns=\"http://www.w3.org/2005/Atom\" xmlns:d=\"http://schemas.microsoft.com/ado/2007/08/dataservices\" xmlns:m=\"http://schemas.microsoft.com/ado/2007/08/dataservices/metadata\"><content type=\"application/xml\"><m:properties>"
        if case .object(let members) = json {
            for (key, value) in members where !key.hasPrefix("odata.") {
                out += property(key, value)
            }
        }
        return out + "</m:properties></content></entry>"
    }

    static func property(_ key: String, _ value: JSON) -> String {
        let name = "d:" + key
        switch value {
        case .string(let text): return "<\(name)>\(xmlEscape(text))</\(name)>"
        case .int(let number): return "<\(name) m:type=\"Edm.Int32\">\(number)</\(name)>"
        case .double(let number): return "<\(name) m:type=\"Edm.Double\">\(number)</\(name)>"
        case .bool(let flag): return "<\(name) m:type=\"Edm.Boolean\">\(flag)</\(name)>"
        case .null: return "<\(name) m:null=\"true\" />"
        case .object(let members):
            return "<\(name)>" + members.map { property($0.0, $0.1) }.joined() + "</\(name)>"
        case .array(let elements):
            return "<\(name)>" + elements.map { property("element", $0) }.joined() + "</\(name)>"
        }
    }
}

internal import CLibXML2

/// Facts about the libxml2 this process runs on.
public enum HTMLLibraryInfo {
    /// libxml2's version as a number, e.g. `20914`.
    public static var libxml2Version: String { String(cString: __xmlParserVersion().pointee!) }
}

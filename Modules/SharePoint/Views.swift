/// The columns of a list view: `GET …/DefaultView/ViewFields`. `Items` holds the fields' internal names in the
/// view's order, including the computed link columns SharePoint shows in place of a field (`LinkTitle` for
/// `Title`, `LinkFilename` for `FileLeafRef`, `DocIcon`).
public struct ViewFields: ODataDecodable, Equatable {
    /// Internal names of the view's columns, in order.
    public var items: [String]
    /// Every property as sent (normalised).
    public var entity: ODataEntity

    /// Reads the value from an entity in any flavour (`Items` as a light array or verbose `{"results":[…]}`).
    public init(entity: ODataEntity) throws(SharePointError) {
        self.entity = entity
        guard let array = entity["Items"]?.arrayValue else {
            throw SharePointError(unexpectedResponse: "the view's fields have no 'Items' array")
        }
        items = array.compactMap(\.stringValue)
    }
}

extension SharePointSite {
    /// The columns of a list's default view, in order: `GET …/DefaultView/ViewFields` (internal names).
    public func defaultViewFields(of list: ListPath) async throws(SharePointError) -> [String] {
        let fields: ViewFields = try await getEntity(list.path.appending("DefaultView").appending("ViewFields"))
        return fields.items
    }
}

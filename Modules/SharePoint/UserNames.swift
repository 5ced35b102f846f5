extension User {
    /// Whether `name` is this user's e-mail, user principal name or login name (claims or bare), ignoring case.
    public func isNamed(_ name: String) -> Bool {
        let wanted = name.lowercased()
        let bareLogin = loginName.split(separator: "|").last.map(String.init) ?? loginName
        return [email, userPrincipalName ?? "", loginName, bareLogin].contains { $0.lowercased() == wanted }
    }
}

import CommandLineKit

/// spconnect's option names: one static member per name; the same name in two commands is the same key.
extension OptionKey {
    /// `--algorithm`.
    static let algorithm = OptionKey(named: "algorithm")
    /// `--all`.
    static let all = OptionKey(named: "all")
    /// `--all-including-hidden`.
    static let allIncludingHidden = OptionKey(named: "all-including-hidden")
    /// `--allow-host`.
    static let allowHost = OptionKey(named: "allow-host")
    /// `--allow-http-loopback`.
    static let allowHttpLoopback = OptionKey(named: "allow-http-loopback")
    /// `--allow-remote`.
    static let allowRemote = OptionKey(named: "allow-remote")
    /// `--anonymous`.
    static let anonymous = OptionKey(named: "anonymous")
    /// `--app-id`.
    static let appId = OptionKey(named: "app-id")
    /// `--as`.
    static let asOption = OptionKey(named: "as")
    /// `--as-text`.
    static let asText = OptionKey(named: "as-text")
    /// `--authority`.
    static let authority = OptionKey(named: "authority")
    /// `--basic`.
    static let basic = OptionKey(named: "basic")
    /// `--bind`.
    static let bind = OptionKey(named: "bind")
    /// `--cacert`.
    static let cacert = OptionKey(named: "cacert")
    /// `--certificate`.
    static let certificate = OptionKey(named: "certificate")
    /// `--charset`.
    static let charset = OptionKey(named: "charset")
    /// `--client-secret-file`.
    static let clientSecretFile = OptionKey(named: "client-secret-file")
    /// `--client-secret-stdin`.
    static let clientSecretStdin = OptionKey(named: "client-secret-stdin")
    /// `--cookie`.
    static let cookie = OptionKey(named: "cookie")
    /// `--data`.
    static let data = OptionKey(named: "data")
    /// `--delete`.
    static let delete = OptionKey(named: "delete")
    /// `--device-code`.
    static let deviceCode = OptionKey(named: "device-code")
    /// `--download`.
    static let download = OptionKey(named: "download")
    /// `--dry-run`.
    static let dryRun = OptionKey(named: "dry-run")
    /// `--dump-pages`.
    static let dumpPages = OptionKey(named: "dump-pages")
    /// `--ensure`.
    static let ensure = OptionKey(named: "ensure")
    /// `--etag`.
    static let etag = OptionKey(named: "etag")
    /// `--fetch-limit`.
    static let fetchLimit = OptionKey(named: "fetch-limit")
    /// `--filter`.
    static let filter = OptionKey(named: "filter")
    /// `--flow`.
    static let flow = OptionKey(named: "flow")
    /// `--forget-password`.
    static let forgetPassword = OptionKey(named: "forget-password")
    /// `--format`.
    static let format = OptionKey(named: "format")
    /// `--from`.
    static let from = OptionKey(named: "from")
    /// `--groups`.
    static let groups = OptionKey(named: "groups")
    /// `--header`.
    static let header = OptionKey(named: "header")
    /// `--incremental`.
    static let incremental = OptionKey(named: "incremental")
    /// `--insecure`.
    static let insecure = OptionKey(named: "insecure")
    /// `--key`.
    static let key = OptionKey(named: "key")
    /// `--key-password-file`.
    static let keyPasswordFile = OptionKey(named: "key-password-file")
    /// `--listen`.
    static let listen = OptionKey(named: "listen")
    /// `--login-url`.
    static let loginUrl = OptionKey(named: "login-url")
    /// `--mfa-method`.
    static let mfaMethod = OptionKey(named: "mfa-method")
    /// `--no-color`.
    static let noColor = OptionKey(named: "no-color")
    /// `--odata`.
    static let odata = OptionKey(named: "odata")
    /// `--orderby`.
    static let orderby = OptionKey(named: "orderby")
    /// `--otp-command`.
    static let otpCommand = OptionKey(named: "otp-command")
    /// `--out`.
    static let out = OptionKey(named: "out")
    /// `--output`.
    static let output = OptionKey(named: "output")
    /// `--overwrite`.
    static let overwrite = OptionKey(named: "overwrite")
    /// `--page-size`.
    static let pageSize = OptionKey(named: "page-size")
    /// `--parallel`.
    static let parallel = OptionKey(named: "parallel")
    /// `--password-command`.
    static let passwordCommand = OptionKey(named: "password-command")
    /// `--password-file`.
    static let passwordFile = OptionKey(named: "password-file")
    /// `--password-stdin`.
    static let passwordStdin = OptionKey(named: "password-stdin")
    /// `--port`.
    static let port = OptionKey(named: "port")
    /// `--profile`.
    static let profile = OptionKey(named: "profile")
    /// `--proof-url`.
    static let proofUrl = OptionKey(named: "proof-url")
    /// `--quiet`.
    static let quiet = OptionKey(named: "quiet")
    /// `--raw`.
    static let raw = OptionKey(named: "raw")
    /// `--recursive`.
    static let recursive = OptionKey(named: "recursive")
    /// `--retries`.
    static let retries = OptionKey(named: "retries")
    /// `--save-password`.
    static let savePassword = OptionKey(named: "save-password")
    /// `--secret-file`.
    static let secretFile = OptionKey(named: "secret-file")
    /// `--select`.
    static let select = OptionKey(named: "select")
    /// `--serve`.
    static let serve = OptionKey(named: "serve")
    /// `--since-token`.
    static let sinceToken = OptionKey(named: "since-token")
    /// `--site`.
    static let site = OptionKey(named: "site")
    /// `--stay-signed-in`.
    static let staySignedIn = OptionKey(named: "stay-signed-in")
    /// `--tenant`.
    static let tenant = OptionKey(named: "tenant")
    /// `--timeout`.
    static let timeout = OptionKey(named: "timeout")
    /// `--to`.
    static let to = OptionKey(named: "to")
    /// `--top`.
    static let top = OptionKey(named: "top")
    /// `--totp-secret-file`.
    static let totpSecretFile = OptionKey(named: "totp-secret-file")
    /// `--trace`.
    static let trace = OptionKey(named: "trace")
    /// `--url`.
    static let url = OptionKey(named: "url")
    /// `--urls`.
    static let urls = OptionKey(named: "urls")
    /// `--user`.
    static let user = OptionKey(named: "user")
    /// `--user-agent`.
    static let userAgent = OptionKey(named: "user-agent")
    /// `--verbose`.
    static let verbose = OptionKey(named: "verbose")
    /// `--wait`.
    static let wait = OptionKey(named: "wait")
    /// `--web`.
    static let web = OptionKey(named: "web")
}

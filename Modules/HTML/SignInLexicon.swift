/// The words sign-in pages use for what they ask, in several languages: a small, closed list per concept,
/// matched against field names, ids, labels and headings. Words are compared whole (after splitting an
/// identifier at punctuation and camelCase boundaries); words of scripts written without spaces (Japanese,
/// Chinese) are matched inside the text.
///
/// Two sources: the short hand-made lists below (English, German, French, Spanish, Italian, Portuguese, Dutch,
/// Polish, Russian, Japanese), and the words, stems and phrases `Tools/lexicon/build-lexicon.py` takes from the
/// identity providers' own message catalogs in many more languages (``catalogTable``, ``catalog``). A language is
/// learned by running that tool again over more catalogs; never from a page's ids or wording.
public enum SignInLexicon {
    /// What a field is called.
    public enum Concept: CaseIterable, Sendable {
        case user, password, code, newPassword, error, expired, verify, approve, device, `continue`
        /// A second factor by name (MFA, two-factor, 2-step verification, authenticator).
        case secondFactor
        /// Setting something up: enrol, register, configure.
        case enroll
        /// Staying signed in: remember me, keep me signed in, a persistent session.
        case staySignedIn
        /// Agreeing to go on: accept, allow, agree, consent, grant.
        case accept
        /// Declining: no, cancel, deny, reject.
        case decline
        /// Not right: wrong, incorrect, invalid, bad (what a page says of credentials it refused).
        case wrong
        /// The credentials as a whole: credentials, sign-in details.
        case credentials
        /// A second factor's method by its standard name: TOTP, U2F, WebAuthn, FIDO, passkey, SMS, a security key.
        case secondFactorMethod
        /// The button that signs in: sign in, log in, log on, submit.
        case signIn
        /// The account cannot be used now: locked, disabled, suspended, blocked.
        case locked
        /// Picking one of several ways or devices: choose, select, another way.
        case choose
        /// A passkey or security key by its standard names: passkey, WebAuthn, FIDO2, U2F, security key.
        case passkey
    }

    /// The whole words of each concept (lower case).
    static let words: [Concept: Set<String>] = [
        .user: [
            "user", "username", "userid", "login", "loginname", "logon", "email", "mail", "upn", "account",
            "identifier", "subject", "benutzer", "benutzername", "kennung", "nutzer", "utilisateur", "identifiant",
            "courriel", "usuario", "correo", "utente", "usuário", "gebruiker", "gebruikersnaam", "użytkownik",
            "użytkownika", "пользователь", "логин", "почта",
        ],
        .password: [
            "password", "passwd", "pwd", "pass", "passphrase", "kennwort", "passwort", "motdepasse", "mdp",
            "contraseña", "contrasena", "clave", "senha", "wachtwoord", "hasło", "haslo", "пароль",
        ],
        .code: [
            "otp", "totp", "hotp", "passcode", "code", "pin", "otc", "mfa", "tfa", "2fa", "token", "oathcode",
            "verificationcode", "smscode", "securid", "authenticator", "tan", "einmalcode", "einmalpasswort",
            "bestätigungscode", "sicherheitscode", "código", "codigo", "kod", "код",
        ],
        .newPassword: [
            "new", "newpassword", "confirm", "confirmation", "repeat", "repeated", "retype", "again", "verify",
            "neu", "neues", "wiederholen", "bestätigen", "nouveau", "nouvel", "confirmer", "nuevo", "nueva",
            "confirmar", "repetir", "nuovo", "nowe", "nowy", "powtórz", "новый", "подтвердите",
        ],
        .error: [
            "error", "errors", "exception", "failed", "failure", "problem", "fehler", "fehlgeschlagen", "erreur",
            "échec", "fallo", "errore", "erro", "fout", "błąd", "ошибка",
        ],
        .expired: [
            "expired", "expires", "expire", "expiring", "abgelaufen", "läuft", "expiré", "expirera", "caducado",
            "caduca", "expirado", "scaduta", "verlopen", "wygasło", "wygaśnie", "истек", "истёк", "истекает",
        ],
        .signIn: [
            "signin", "login", "logon", "submit", "anmelden", "einloggen", "connexion", "connecter", "iniciar",
            "entrar", "acceder", "accedi", "accedere", "inloggen", "aanmelden", "zaloguj", "войти", "вход",
        ],
        .verify: ["verify", "verification", "confirm", "prüfen", "bestätigen", "vérifier", "verificar", "weryfikacja"],
        .approve: [
            "approve", "approval", "push", "notification", "prompt", "tap", "genehmigen", "bestätigen", "approuver",
            "aprobar", "zatwierdź", "подтвердите",
        ],
        .device: [
            "device", "phone", "gerät", "telefon", "appareil", "téléphone", "dispositivo", "teléfono", "urządzenie",
        ],
        .continue: [
            "continue", "next", "proceed", "ok", "skip", "later", "weiter", "fortfahren", "später", "continuer",
            "suivant", "ignorer", "continuar", "siguiente", "omitir", "dalej", "pomiń", "продолжить", "далее",
        ],
        .secondFactor: [
            "mfa", "2fa", "tfa", "twofactor", "multifactor", "2step", "twostep", "authenticator", "zweifaktor",
            "zweistufige", "doublefacteur", "doubleauthentification", "dosfactores", "dwuetapowa", "dwuskładnikowe",
            "двухфакторная",
        ],
        .enroll: [
            "enroll", "enrol", "enrolment", "enrollment", "register", "registration", "setup", "configure", "activate",
            "einrichten", "registrieren", "aktivieren", "configurer", "enregistrer", "activer", "configurar",
            "registrar", "activar", "skonfiguruj", "zarejestruj", "włącz", "настроить", "зарегистрировать",
        ],
        .accept: [
            "accept", "allow", "agree", "consent", "grant", "akzeptieren", "zustimmen", "erlauben", "accepter",
            "autoriser", "aceptar", "permitir", "accettare", "consenti", "aceitar", "accepteren", "toestaan",
            "akceptuj", "zezwól", "принять", "разрешить", "согласен",
        ],
        .decline: [
            "no", "cancel", "deny", "decline", "reject", "abort", "nein", "abbrechen", "ablehnen", "non", "annuler",
            "refuser", "cancelar", "rechazar", "annulla", "rifiuta", "não", "recusar", "nee", "annuleren", "weigeren",
            "nie", "anuluj", "odrzuć", "нет", "отмена", "отклонить",
        ],
        .wrong: [
            "wrong", "incorrect", "invalid", "bad", "mismatch", "falsch", "ungültig", "ungueltig", "fehlerhaft",
            "incorrecte", "invalide", "erroné", "erronée", "incorrecto", "incorrecta", "inválido", "inválida",
            "invalido", "errato", "errata", "sbagliato", "sbagliata", "incorretto", "incorreta", "incorreto",
            "onjuist", "ongeldig", "verkeerd", "nieprawidłowy", "nieprawidłowe", "nieprawidłowa", "błędny", "błędne",
            "błędna", "niepoprawny", "niepoprawne", "неверный", "неверное", "неверно", "неправильный", "неправильное",
        ],
        .credentials: [
            "credentials", "credential", "anmeldedaten", "zugangsdaten", "identifiants", "credenciales",
            "credenziali", "credenciais", "inloggegevens", "poświadczenia", "учетные",
        ],
        .secondFactorMethod: [
            "totp", "hotp", "otp", "u2f", "webauthn", "fido", "fido2", "passkey", "passkeys", "yubikey", "sms",
            "securitykey", "authenticator", "oath", "push",
        ],
        .passkey: [
            "passkey", "passkeys", "webauthn", "fido", "fido2", "u2f", "securitykey", "yubikey",
        ],
        .staySignedIn: [
            "remember", "rememberme", "persistent", "persist", "kmsi", "keepme", "staysigned", "keepsigned", "signedin",
            "staylogged", "keeplogged", "loggedin", "angemeldet", "eingeloggt", "merken", "souvenir", "connecté",
            "recordar", "recordarme", "recuérdame", "ricordami", "lembrar", "onthouden", "zapamiętaj", "запомнить",
        ],
    ]

    /// Phrases of scripts without spaces, matched inside the text.
    static let embedded: [Concept: [String]] = [
        .user: ["ユーザー", "ユーザ名", "メールアドレス", "用户名", "帳號"],
        .password: ["パスワード", "密码", "密碼"],
        .code: ["確認コード", "認証コード", "ワンタイム", "验证码", "驗證碼"],
        .newPassword: ["新しいパスワード", "確認用", "新密码"],
        .error: ["エラー", "错误", "錯誤"],
        .expired: ["有効期限", "期限切れ", "过期"],
        .approve: ["承認"],
        .device: ["デバイス", "端末"],
        .continue: ["続行", "次へ", "继续"],
        .signIn: ["ログイン", "サインイン", "登录", "登入"],
        .secondFactor: ["二段階認証", "多要素認証", "双重验证"],
        .enroll: ["登録", "設定", "注册"],
        .accept: ["同意", "許可", "承諾", "允许", "接受"],
        .decline: ["キャンセル", "拒否", "いいえ", "取消", "拒绝"],
        .wrong: ["正しくありません", "間違って", "不正确", "不正確", "无效", "無效"],
        .staySignedIn: ["ログインしたまま", "ログイン状態を保持", "サインインしたまま", "保持登录", "记住我"],
    ]

    /// Stems found inside a word of an identifier (`loginfmt`, `txtUsername1`, `j_password`, `otpcode`).
    static let stems: [Concept: [String]] = [
        .user: ["user", "login", "logon", "email"],
        .signIn: ["signin", "login", "logon", "submit"],
        .password: ["passw", "kennw", "passwd"],
        .enroll: ["regist", "enrol"],
        .code: [
            "passcode", "totp", "otpcode", "onetimecode", "verificationcode", "securitycode", "authcode", "smscode",
        ],
    ]

    /// Whether `text` (a message) says that the credentials are wrong: a word for wrong beside a word for the
    /// password or the credentials ("Incorrect username or password", "Invalid credentials", "Falsches Kennwort",
    /// "Nieprawidłowe hasło"), and not about a code ("Invalid one-time password" is a refused code). A user name
    /// alone is not enough ("Invalid account state", "Invalid Subject in assertion" are not about what was typed).
    public static func saysCredentialsWrong(_ text: String) -> Bool {
        saysCredentialsWrong(Reading(text))
    }

    /// ``saysCredentialsWrong(_:)`` of a text already split.
    static func saysCredentialsWrong(_ reading: Reading) -> Bool {
        says(.wrong, in: reading) && (says(.password, in: reading) || says(.credentials, in: reading))
            && !says(.code, in: reading) && !ASCIIText.containsIgnoringCase(reading.text, "one-time")
    }

    /// Whether `text` (an identifier or a label) says `concept`.
    public static func says(_ concept: Concept, in text: String) -> Bool {
        says(concept, in: Reading(text))
    }

    /// A text and its words (``tokens(of:)``), split once for several questions.
    struct Reading {
        let text: String
        let words: [String]

        init(_ text: String) {
            self.text = text
            words = text.isEmpty ? [] : SignInLexicon.tokens(of: text)
        }
    }

    /// ``says(_:in:)`` of a text already split: one of its words says `concept` (``wordTest(for:)``: a whole word, a
    /// word holding one of its stems, or starting with one of the catalogs' stems, which are prefixes of inflected
    /// forms), or the text holds one of its phrases of scripts written without spaces.
    static func says(_ concept: Concept, in reading: Reading) -> Bool {
        guard !reading.text.isEmpty else { return false }
        if let test = wordTests[concept], reading.words.contains(where: test) { return true }
        return saysInEmbeddedPhrase(concept, in: reading.text)
    }

    /// ``wordTest(for:)`` of every concept, made once.
    private static let wordTests: [Concept: @Sendable (String) -> Bool] = Dictionary(
        uniqueKeysWithValues: Concept.allCases.map { ($0, wordTest(for: $0)) })

    /// A test whether one word of ``tokens(of:)`` says `concept` by itself (the concept's lists looked up once, for
    /// many words): one of its whole words, a word holding one of its stems, or a word starting with one of the
    /// catalogs' stems. ``says(_:in:)`` of a text is true exactly when one of
    /// its words does, or when it holds a phrase of a script written without spaces (only text with a byte beyond
    /// ASCII can).
    static func wordTest(for concept: Concept) -> @Sendable (String) -> Bool {
        let set = allWords[concept] ?? []
        let stems = stems[concept] ?? []
        let startsWithStem = catalog.stemTest(for: concept)
        let openings = stems.isEmpty ? ASCIIOpenings(words: set, stems: catalog.asciiStems[concept] ?? []) : nil
        return { word in
            if let openings, !openings.mayStart(word) { return false }
            return set.contains(word) || stems.contains(where: { word.contains($0) }) || startsWithStem(word)
        }
    }

    /// The first two bytes of a concept's ASCII words and ASCII catalog stems: an ASCII word of two bytes or more that
    /// opens with none of them is neither one of those words nor starts with one of those stems, and (the lexicon's
    /// text being NFC, none of it beyond ASCII canonically equal to ASCII text) cannot be any other word or stem.
    struct ASCIIOpenings: Sendable {
        /// One bit per pair of ASCII bytes.
        private var bits = [UInt64](repeating: 0, count: 128 * 128 / 64)

        init(words: Set<String>, stems: [[UInt8]]) {
            for word in words { mark(Array(word.utf8)) }
            for stem in stems { mark(stem) }
        }

        private mutating func mark(_ bytes: [UInt8]) {
            guard let first = bytes.first, first < 0x80 else { return }
            guard bytes.count > 1 else {
                for second in 0..<128 { set(Int(first) << 7 | second) }  // a one-byte entry opens with any pair
                return
            }
            if bytes[1] < 0x80 { set(Int(first) << 7 | Int(bytes[1])) }
        }

        private mutating func set(_ pair: Int) { bits[pair >> 6] |= 1 << UInt64(pair & 63) }

        /// False only for an ASCII word of two bytes or more whose opening pair no entry has.
        func mayStart(_ word: String) -> Bool {
            let bytes = word.utf8
            guard bytes.count >= 2 else { return true }
            var iterator = bytes.makeIterator()
            guard let first = iterator.next(), let second = iterator.next(), first < 0x80, second < 0x80 else {
                return true
            }
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return true }
            let pair = Int(first) << 7 | Int(second)
            return bits[pair >> 6] & (1 << UInt64(pair & 63)) != 0
        }
    }

    /// Whether `text` holds one of `concept`'s phrases of scripts written without spaces.
    private static func saysInEmbeddedPhrase(_ concept: Concept, in text: String) -> Bool {
        // Phrases of scripts without spaces: only text with a non-ASCII byte can hold one.
        guard let phrases = embeddedPhrases[concept], text.utf8.contains(where: { $0 >= 0x80 }) else { return false }
        var text = text
        return text.withUTF8 { bytes in phrases.contains { UTF8Phrase.occurs($0, in: bytes) } }
    }

    /// Each concept's phrases of scripts written without spaces, the list above and the catalogs', as UTF-8 bytes.
    static let embeddedPhrases: [Concept: [[UInt8]]] = embedded.merging(catalog.embedded) { $0 + $1 }
        .mapValues { phrases in phrases.filter { !$0.isEmpty }.map { Array($0.utf8) } }

    /// Each concept's whole words: the list above and the catalogs' (``catalog``), joined once.
    static let allWords: [Concept: Set<String>] = words.merging(catalog.words) { $0.union($1) }

    /// Lower-case words of `text`, split at anything not a letter or digit and at camelCase boundaries
    /// (`UserNameInput` → user, name, input; `passcodeField` → passcode, field), plus the joined form of
    /// adjacent pairs (`user`,`name` → `username`), so both spellings match.
    package static func tokens(of text: String) -> [String] {
        var words: [String] = []
        appendTokens(of: text, to: &words)
        return words
    }

    /// Appends ``tokens(of:)`` of `text` to `words` (the words of several names gathered in one array).
    package static func appendTokens(of text: String, to words: inout [String]) {
        if appendASCIITokens(of: text, to: &words) { return }
        words += unicodeTokens(of: text)
    }

    /// ``tokens(of:)`` of text with a character beyond ASCII, asking Unicode for each character's properties.
    private static func unicodeTokens(of text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousLower = false
        for character in text {
            if !(character.isLetter || character.isNumber) {
                if !current.isEmpty { words.append(current.lowercased()) }
                current = ""
                previousLower = false
                continue
            }
            if character.isUppercase && previousLower {
                words.append(current.lowercased())
                current = ""
            }
            current.append(character)
            previousLower = character.isLowercase || character.isNumber
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        return withJoinedPairs(words)
    }

    /// ``appendTokens(of:to:)`` for ASCII text, on bytes (most ids, names and classes): the same words without asking
    /// Unicode for each character's properties. False, with nothing appended, when the text has a non-ASCII byte.
    private static func appendASCIITokens(of text: String, to words: inout [String]) -> Bool {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return false }
        var text = text
        text.withUTF8 { bytes in
            /// The word `bytes[start..<end]`, lower-cased as it is copied.
            func word(from start: Int, to end: Int) -> String {
                String(unsafeUninitializedCapacity: end - start) { buffer in
                    for offset in 0..<(end - start) {
                        let byte = bytes[start + offset]
                        buffer[offset] = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
                    }
                    return end - start
                }
            }
            let first = words.count
            forEachASCIIWord(in: bytes) { words.append(word(from: $0.lowerBound, to: $0.upperBound)) }
            appendJoinedPairs(of: first..<words.count, in: &words)
        }
        return true
    }

    /// Calls `body` with each word of ASCII `bytes`, in order: the runs of letters and digits, split again where a
    /// capital follows a small letter or a digit (`UserNameInput` → `User`, `Name`, `Input`). The words of
    /// ``tokens(of:)`` before they are lower-cased and their neighbours joined.
    static func forEachASCIIWord(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>) -> Void) {
        var start = 0
        var previousLower = false
        for index in 0..<bytes.count {
            let byte = bytes[index]
            let isUpper = byte >= 0x41 && byte <= 0x5A
            let isLower = byte >= 0x61 && byte <= 0x7A
            let isDigit = byte >= 0x30 && byte <= 0x39
            guard isUpper || isLower || isDigit else {
                if start < index { body(start..<index) }
                start = index + 1
                previousLower = false
                continue
            }
            if isUpper && previousLower {
                body(start..<index)
                start = index
            }
            previousLower = isLower || isDigit
        }
        if start < bytes.count { body(start..<bytes.count) }
    }

    /// Appends each adjacent pair of `words[range]` joined (`user`, `name` → `username`).
    private static func appendJoinedPairs(of range: Range<Int>, in words: inout [String]) {
        guard range.count > 1 else { return }
        for index in range.dropLast() { words.append(words[index] + words[index + 1]) }
    }

    /// `words` followed by each adjacent pair joined (`user`, `name` → `username`).
    private static func withJoinedPairs(_ words: [String]) -> [String] {
        guard words.count > 1 else { return words }
        return words + zip(words, words.dropFirst()).map { $0 + $1 }
    }
}

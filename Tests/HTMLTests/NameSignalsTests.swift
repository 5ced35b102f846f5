import Testing

@testable import HTML

/// ``NameSignals`` reads names on their bytes and through a table; it must say what the lexicon's words of each name
/// say, looked up in the documented sets one by one.
@Suite("What an element's id and classes say")
struct NameSignalsTests {
    /// The signals of `name` the slow way: ``SignInLexicon/tokens(of:)``, each word looked up in each set.
    func reference(_ name: String) -> NameSignals {
        guard !name.isEmpty else { return [] }
        let words = SignInLexicon.tokens(of: name)
        let saysWrong = SignInLexicon.wordTest(for: .wrong)
        var signals: NameSignals = []
        if words.contains(where: ErrorTextReader.errorNames.contains) { signals.insert(.errorWord) }
        if words.contains(where: ErrorTextReader.messageBoxNames.contains) { signals.insert(.messageBoxWord) }
        if words.contains(where: TextBlocks.headingNames.contains) { signals.insert(.headingWord) }
        if words.contains(where: ErrorTextReader.severeWords.contains) { signals.insert(.severeWord) }
        if words.contains(where: saysWrong) { signals.insert(.wrongWord) }
        if words.contains(where: { $0 == "tooltip" || $0 == "popover" }) { signals.insert(.tooltipWord) }
        if ErrorTextReader.namesAnError(name) { signals.insert(.errorName) }
        if SignInLexicon.saysCredentialsWrong(name) { signals.insert(.credentialsWrongName) }
        return signals
    }

    /// The signals of a class the slow way: its name's, and whether it hides or names a tooltip by itself.
    func referenceForClass(_ name: String) -> NameSignals {
        var signals = reference(name)
        if Visibility.hidingClasses.contains(name.lowercased()) { signals.insert(.hidingClass) }
        if SignInLexicon.tokens(of: name).contains(where: { $0 == "tooltip" || $0 == "popover" }) {
            signals.insert(.tooltipClass)
        }
        return signals
    }

    @Test(
        "names of each kind, in any case and spelling",
        arguments: [
            "", "x", "wrongPasswordMsg", "invalid-credentials", "ErrorTextLabel", "errorlist", "alert-danger",
            "alert alert-info", "HeaderTitle", "page_heading", "pf-m-error", "input-error-user", "contactAdminMessage",
            "flash-messages", "toastContainer", "errorText", "ERRORTEXT", "loginErrorMsg", "msgBox2", "status-bar",
            "UngueltigesKennwort", "falscheAnmeldedaten", "ongeldigWachtwoord", "niepoprawnehaslo", "ogiltig",
            "fehlerhaftes-passwort", "Błędne-hasło", "パスワードが正しくありません", "error\u{301}", "a1B2c3", "--", "x-y-z",
            "wrongpassword", "badCredentials", "incorrect_user_or_password", "errorsummary", "dangerzone",
        ])
    func names(_ name: String) {
        #expect(NameSignals.of(name: name) == reference(name), "\(name)")
        #expect(NameSignals.of(className: name) == referenceForClass(name), "class \(name)")
    }

    @Test(
        "classes that hide or name a tooltip",
        arguments: [
            "hidden", "HIDDEN", "d-none", "visually-hidden", "sr-only", "is-hidden", "ng-hide", "show-for-sr", "hide",
            "invisible", "hiddenish", "tooltip", "toolTip", "popover-body", "my_popover", "tool-tip", "tooltipster",
            "HİDDEN",
        ])
    func classes(_ name: String) {
        #expect(NameSignals.of(className: name) == referenceForClass(name), "\(name)")
    }

    @Test("every id and class of the corpus pages")
    func corpusNames() throws {
        guard Corpus.isAvailable else {
            print("skipped: \(Corpus.skipMessage)")
            return
        }
        var seen = Set<String>()
        for file in Corpus.fileNames {
            let bytes = try #require(readFile(Corpus.directory + "/" + file))
            let root = try #require(DOMParser.parse(bytes: bytes, url: "https://x.test/", charset: nil))
            var memo = NameSignals.Memo()
            for element in root.descendants where element.kind == .element {
                #expect(memo.signals(of: element) == NameSignals.of(element), "\(file): \(element.attributes)")
                let names = [element.attribute("id") ?? ""] + element.classTokens
                for name in names where seen.insert(name).inserted {
                    #expect(NameSignals.of(name: name) == reference(name), "\(file): \(name)")
                    #expect(NameSignals.of(className: name) == referenceForClass(name), "\(file): class \(name)")
                }
            }
        }
        #expect(seen.count > 500)
    }
}

import AuthFlowCore
import Foundation
import SPSim
import Testing

/// Step-by-step sign-in drivers, as a headless engine would walk the documented flows.
enum Drivers {
    /// Follows 302s from `url` (at most `limit`), returning the last answer and its URL.
    static func follow(_ browser: Browser, _ url: String, limit: Int = 8) async throws -> (answer: Answer, url: String)
    {
        var current = url
        for _ in 0..<limit {
            let answer = try await browser.request(current)
            guard answer.status == 302, let location = answer.header("Location") else { return (answer, current) }
            current = resolve(location, against: current)
        }
        return (try await browser.request(current), current)
    }

    /// Posts a minimally parsed form.
    static func submit(_ browser: Browser, _ form: SimpleForm, pageURL: String) async throws -> (
        answer: Answer, url: String
    ) {
        let url = resolve(form.action, against: pageURL)
        return (try await browser.request(url, form: form.fields), url)
    }

    struct EntraPage {
        var answer: Answer
        var url: String
        var config: [String: JSONValue]
        var pgid: String { config["pgid"]?.string ?? "" }
    }

    /// GET authenticate.aspx → … → the ConvergedSignIn page.
    static func entraSignInPage(_ simulator: Simulator, _ browser: Browser) async throws -> EntraPage {
        let (answer, url) = try await follow(browser, simulator.siteURL + "/_layouts/15/authenticate.aspx?Source=/")
        let config = try #require(entraConfig(answer.body), "no $Config on \(url): \(answer.body.prefix(300))")
        return EntraPage(answer: answer, url: url, config: config)
    }

    /// Posts credentials from a ConvergedSignIn page.
    static func entraPostCredentials(_ browser: Browser, _ page: EntraPage, user: String, password: String) async throws
        -> EntraPage
    {
        let config = page.config
        let url = resolve(config["urlPost"]?.string ?? "", against: page.url)
        let answer = try await browser.request(
            url,
            form: [
                ("login", user), ("loginfmt", user), ("passwd", password), ("ctx", config["sCtx"]?.string ?? ""),
                (config["sFTName"]?.string ?? "flowToken", config["sFT"]?.string ?? ""),
                ("canary", config["canary"]?.string ?? ""),
            ])
        let next = try #require(entraConfig(answer.body), "no $Config after credentials: \(answer.body.prefix(300))")
        return EntraPage(answer: answer, url: url, config: next)
    }

    /// The whole Entra flow; returns the final answer of `/_api/web` (verbose).
    @discardableResult
    static func entraSignIn(_ simulator: Simulator, _ browser: Browser, user: String = "alice@contoso.test")
        async throws
        -> Answer
    {
        let page = try await entraSignInPage(simulator, browser)
        let kmsi = try await entraPostCredentials(browser, page, user: user, password: "Spring2026!")
        return try await entraFinish(simulator, browser, after: kmsi)
    }

    /// The end of any Entra sign-in: "stay signed in?" answered yes, the `form_post` page posted to the site, then
    /// the site's `/_api/web` (verbose), whose answer is returned.
    static func entraFinish(_ simulator: Simulator, _ browser: Browser, after kmsi: EntraPage) async throws -> Answer {
        #expect(kmsi.pgid == "KmsiInterrupt", "\(kmsi.config)")
        let config = kmsi.config
        let kmsiURL = resolve(config["urlPost"]?.string ?? "", against: kmsi.url)
        let working = try await browser.request(
            kmsiURL,
            form: [
                ("LoginOptions", "1"), ("type", "28"), ("ctx", config["sCtx"]?.string ?? ""),
                (config["sFTName"]?.string ?? "flowToken", config["sFT"]?.string ?? ""),
                (config["sCanaryTokenName"]?.string ?? "canary", config["canary"]?.string ?? ""),
            ])
        let form = try #require(SimpleForm(html: working.body), "no form_post page: \(working.body.prefix(300))")
        let posted = try await submit(browser, form, pageURL: kmsiURL)
        #expect(posted.answer.status == 302)
        return try await browser.request(
            simulator.siteURL + "/_api/web", headers: ["Accept: application/json;odata=verbose"])
    }

    /// ADFS: authenticate.aspx → /_trust/ → /adfs/ls/ form → auto-post to /_trust/ → FedAuth.
    static func adfsLoginPage(_ simulator: Simulator, _ browser: Browser) async throws -> (answer: Answer, url: String)
    {
        try await follow(browser, simulator.siteURL + "/_layouts/15/authenticate.aspx?Source=/")
    }

    static func adfsSignIn(_ simulator: Simulator, _ browser: Browser, password: String = "Spring2026!") async throws
        -> Answer
    {
        let (page, url) = try await adfsLoginPage(simulator, browser)
        var form = try #require(SimpleForm(html: page.body, selector: "id=\"loginForm\""))
        form.set("UserName", "alice@contoso.test")
        form.set("Password", password)
        let (autoPost, postURL) = try await submit(browser, form, pageURL: url)
        return autoPost.status == 200 && autoPost.body.contains("hiddenform")
            ? try await finishAutoPost(simulator, browser, autoPost, postURL) : autoPost
    }

    static func finishAutoPost(_ simulator: Simulator, _ browser: Browser, _ page: Answer, _ url: String) async throws
        -> Answer
    {
        let form = try #require(SimpleForm(html: page.body))
        let (answer, postedTo) = try await submit(browser, form, pageURL: url)
        #expect(answer.status == 302)
        if let location = answer.header("Location") {
            _ = try await follow(browser, resolve(location, against: postedTo))
        }
        return try await browser.request(
            simulator.siteURL + "/_api/web", headers: ["Accept: application/json;odata=verbose"])
    }

    /// FBA page flow.
    static func fbaSignIn(
        _ simulator: Simulator, _ browser: Browser, user: String = "alice", password: String = "Spring2026!",
        clickButton: Bool = true
    ) async throws -> (answer: Answer, url: String) {
        let (page, url) = try await follow(browser, simulator.siteURL + "/_layouts/15/authenticate.aspx?Source=/")
        var form = try #require(
            SimpleForm(html: page.body, selector: "aspnetForm"), "no FBA form: \(page.body.prefix(200))")
        form.set("ctl00$PlaceHolderMain$signInControl$UserName", user)
        form.set("ctl00$PlaceHolderMain$signInControl$password", password)
        if clickButton { form.set("ctl00$PlaceHolderMain$signInControl$login", "Sign In") }
        return try await submit(browser, form, pageURL: url)
    }
}

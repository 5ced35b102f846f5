import Testing

@testable import HTML

/// A page with no form whose script fills an empty element with another URL's content on load is read as a
/// navigation to that URL, and nothing less specific is.
@Suite("Script reading: content loads")
struct ContentLoadTests {
    static let url = "https://idp.example.test/portal/start"

    static func target(_ markup: String) throws -> String? {
        try HTMLPage(bytes: Array(markup.utf8), url: url).scriptRedirect
    }

    @Test(
        "a load into an empty element on load is a navigation",
        arguments: [
            #"<div id="c"></div><script>$(document).ready(function(){ loadInto('/login?id=k&x=1', "c"); });</script>"#,
            #"<div id="c"></div><script>window.addEventListener('load', () => fill("c", '/login?id=k&x=1'));</script>"#,
            #"<div id="c"> </div><script>$(function(){ $('#c').load('/login?id=k&x=1'); });</script>"#,
            #"<div id="c"></div><script>jQuery('#c').load('https://idp.example.test/login?id=k&x=1');</script>"#,
        ])
    func loadsIntoAnEmptyElement(_ markup: String) throws {
        #expect(try Self.target(markup) == "https://idp.example.test/login?id=k&x=1")
    }

    @Test(
        "no navigation without every signal",
        arguments: [
            // The element already shows something.
            #"<div id="c"><p>Welcome</p></div><script>loadInto('/login?id=k', 'c');</script>"#,
            // No element of that id.
            #"<div id="d"></div><script>loadInto('/login?id=k', 'c');</script>"#,
            // A message, not a URL.
            #"<div id="c"></div><script>show('Please wait while we sign you in', 'c');</script>"#,
            // Another origin.
            #"<div id="c"></div><script>loadInto('https://other.example.test/login?id=k', 'c');</script>"#,
            // Code that does not run on load.
            #"<div id="c"></div><script>function later(){ loadInto('/login?id=k', 'c'); }</script>"#,
            // A page with a form is read by its form.
            #"<form action="/go"><input name="u"></form><div id="c"></div><script>loadInto('/login?id=k', 'c');</script>"#,
            // A selector that is not an id.
            #"<div class="c"></div><script>$('.c').load('/login?id=k');</script>"#,
        ])
    func missingSignals(_ markup: String) throws {
        #expect(try Self.target(markup) == nil)
    }
}

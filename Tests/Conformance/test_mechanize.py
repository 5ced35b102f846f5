"""python mechanize, a plain form browser without JavaScript, must complete the ADFS and FBA sign-ins
(design.md: if it cannot, the simulator's pages are not real enough). On the Entra page (no HTML form) it is
stuck, and it does not follow the <noscript> jsdisabled refresh (its http-equiv scanner stops at <noscript>)."""
import json

import mechanize


def browser():
    br = mechanize.Browser()
    br.set_handle_robots(False)
    br.set_handle_refresh(True, max_time=1)
    return br


def cookie_names(br):
    return {cookie.name for cookie in br._ua_handlers["_cookies"].cookiejar}


def web_title(br, site):
    request = mechanize.Request(site + "/_api/web", headers={"Accept": "application/json;odata=nometadata"})
    return json.loads(br.open(request).read())["Title"]


def test_adfs_sign_in(spsim):
    sim = spsim("adfs")
    br = browser()
    br.open(sim.site + "/_layouts/15/authenticate.aspx?Source=/")
    br.select_form(predicate=lambda form: form.attrs.get("id") == "loginForm")
    br["UserName"] = "alice@contoso.test"
    br["Password"] = "Spring2026!"
    br.submit()  # no submit control: the span "button" is script-only
    br.select_form(name="hiddenform")
    br.submit()  # the noscript Submit
    assert "FedAuth" in cookie_names(br)
    assert web_title(br, sim.site) == "SPSim Team"


def test_adfs_wrong_password_shows_error_text(spsim):
    sim = spsim("adfs")
    br = browser()
    br.open(sim.site + "/_layouts/15/authenticate.aspx?Source=/")
    br.select_form(predicate=lambda form: form.attrs.get("id") == "loginForm")
    br["UserName"] = "alice@contoso.test"
    br["Password"] = "nope"
    page = br.submit().read().decode()
    assert "Incorrect user ID or password." in page


def test_fba_sign_in(spsim):
    sim = spsim("fba")
    br = browser()
    br.open(sim.site + "/_layouts/15/authenticate.aspx?Source=/")
    br.select_form(predicate=lambda form: form.attrs.get("id") == "aspnetForm")
    br["ctl00$PlaceHolderMain$signInControl$UserName"] = "alice"
    br["ctl00$PlaceHolderMain$signInControl$password"] = "Spring2026!"
    br.submit(name="ctl00$PlaceHolderMain$signInControl$login")
    assert "FedAuth" in cookie_names(br)
    assert web_title(br, sim.site) == "SPSim Team"


def test_entra_page_has_no_form_and_mechanize_does_not_follow_the_noscript_refresh(spsim):
    # mechanize's http-equiv scanner stops at the first non-head element (<noscript>), so the
    # jsdisabled refresh is never seen; the page has no HTML form, so a plain form browser is stuck here.
    sim = spsim("entra")
    br = browser()
    response = br.open(sim.site + "/_layouts/15/authenticate.aspx?Source=/")
    assert "/oauth2/authorize?" in response.geturl()
    assert '<meta name="PageID" content="ConvergedSignIn" />' in response.read().decode()
    assert list(br.forms()) == []

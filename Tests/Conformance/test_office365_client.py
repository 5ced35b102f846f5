"""Office365-REST-Python-Client 3.x with cookies (design.md: ClientContext(site).with_cookies(...)).
It asks for odata=verbose and calls /_api/contextinfo before writes."""
import re
import html
import json

import requests
from office365.sharepoint.client_context import ClientContext


def entra_cookies(site):
    """Walks the Entra browser flow with requests (regex-level parsing, like the Swift tests)."""
    session = requests.Session()
    response = session.get(site + "/_layouts/15/authenticate.aspx?Source=/")
    config = json.loads(re.search(r"\$Config=(\{.*?\});\n", response.text).group(1))
    login_url = requests.compat.urljoin(response.url, config["urlPost"])
    response = session.post(login_url, data={
        "login": "alice@contoso.test", "loginfmt": "alice@contoso.test", "passwd": "Spring2026!",
        "ctx": config["sCtx"], config["sFTName"]: config["sFT"], "canary": config["canary"]})
    config = json.loads(re.search(r"\$Config=(\{.*?\});\n", response.text).group(1))
    assert config["pgid"] == "KmsiInterrupt"
    response = session.post(requests.compat.urljoin(login_url, config["urlPost"]), data={
        "LoginOptions": "1", "type": "28", "ctx": config["sCtx"], config["sFTName"]: config["sFT"],
        config["sCanaryTokenName"]: config["canary"]})
    action = html.unescape(re.search(r'action="([^"]+)"', response.text).group(1))
    fields = {html.unescape(n): html.unescape(v) for n, v in re.findall(r'name="([^"]+)" value="([^"]*)"', response.text)}
    session.post(action, data=fields)
    jar = session.cookies.get_dict()
    return {"FedAuth": jar["FedAuth"], "rtFa": jar["rtFa"]}


def test_read_and_write_with_cookies(spsim):
    sim = spsim("entra", "--items", "250")
    cookies = entra_cookies(sim.site)
    ctx = ClientContext(sim.site).with_cookies(lambda: cookies)
    web = ctx.web.get().execute_query()
    assert web.properties["Title"] == "SPSim Team"

    big = ctx.web.lists.get_by_title("Big")
    items = big.items.get_all(100).execute_query()
    assert [item.id for item in items] == list(range(1, 251))

    tasks = ctx.web.lists.get_by_title("Tasks")
    item = tasks.add_item({"Title": "From Python"}).execute_query()
    assert item.properties["Title"] == "From Python"
    item.set_property("Title", "Renamed from Python").update().execute_query()
    again = tasks.get_item_by_id(item.id).get().execute_query()
    assert again.properties["Title"] == "Renamed from Python"

    folder = ctx.web.get_folder_by_server_relative_url("/Shared Documents")
    uploaded = folder.upload_file("python.txt", b"hello from python").execute_query()
    assert uploaded.properties["Name"] == "python.txt"
    content = ctx.web.get_file_by_server_relative_url("/Shared Documents/python.txt").get_content().execute_query()
    assert content.value == b"hello from python"

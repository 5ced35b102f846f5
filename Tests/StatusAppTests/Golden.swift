/// Golden copies of the pages against the simulator's content, normalised by `StatusFixture.normalised(_:)`:
/// ports, latencies, durations and the sign-in time replaced, the stylesheet left out, one tag per line.
/// A failing comparison writes the actual page to `$TMPDIR/spconnect-status-golden/NAME.html`.
enum Golden {
    static let session = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;; img-src &#39;self&#39;; form-action &#39;self&#39;; base-uri &#39;none&#39;">
        <meta name="referrer" content="no-referrer">
        <title>SPConnect status</title>
        <style>…</style>
        </head>
        <body>
        <main>
        <nav>
        <a href="/" aria-current="page">Session</a>
        <a href="/lists">Lists</a>
        <a href="/status.json">JSON</a>
        </nav>
        <h1>SharePoint session</h1>
        <div class="state ok" role="status">
        <strong>Signed in as Alice Example</strong>The proof request succeeded.</div>
        <dl class="facts">
        <dt>Profile</dt>
        <dd>test</dd>
        <dt>Site</dt>
        <dd>
        <a href="http://127.0.0.1:PORT">http://127.0.0.1:PORT</a>
        </dd>
        <dt>User</dt>
        <dd>alice@contoso.test</dd>
        <dt>Name</dt>
        <dd>Alice Example</dd>
        <dt>Sign-in flow</dt>
        <dd>adfs</dd>
        <dt>Signed in</dt>
        <dd>
        <proved-at> (<duration>)</dd>
        </dl>
        <h2>Last proof request</h2>
        <p>
        <code>GET /_api/web/currentuser</code> succeeded in N ms, sent just now.</p>
        <h2>Cookies</h2>
        <div class="table-wrap">
        <table>
        <thead>
        <tr>
        <th>Cookie</th>
        <th>Expires</th>
        </tr>
        </thead>
        <tbody>
        <tr>
        <td>FedAuth</td>
        <td>
        <duration>
        </td>
        </tr>
        </tbody>
        </table>
        </div>
        <p class="muted">Checked 2026-11-29 12:00 UTC. Reload to check again.</p>
        </main>
        </body>
        </html>
        """#

    static let lists = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;; img-src &#39;self&#39;; form-action &#39;self&#39;; base-uri &#39;none&#39;">
        <meta name="referrer" content="no-referrer">
        <title>Lists · SPConnect status</title>
        <style>…</style>
        </head>
        <body>
        <main>
        <nav>
        <a href="/">Session</a>
        <a href="/lists" aria-current="page">Lists</a>
        <a href="/photos/Photos">Photos</a>
        <a href="/status.json">JSON</a>
        </nav>
        <h1>Lists</h1>
        <p class="muted summary">6 lists</p>
        <div class="table-wrap">
        <table>
        <thead>
        <tr>
        <th>List</th>
        <th class="num">Items</th>
        <th>Last modified</th>
        </tr>
        </thead>
        <tbody>
        <tr>
        <td>
        <a href="/lists/Documents">Documents</a>
        </td>
        <td class="num">5</td>
        <td>2026-01-05 09:00 UTC<span class="muted when">
        <duration>
        </span>
        </td>
        </tr>
        <tr>
        <td>
        <a href="/lists/Photos">Photos</a> · <a href="/photos/Photos">gallery</a>
        </td>
        <td class="num">4</td>
        <td>2026-01-05 09:00 UTC<span class="muted when">
        <duration>
        </span>
        </td>
        </tr>
        <tr>
        <td>
        <a href="/lists/Tasks">Tasks</a>
        </td>
        <td class="num">20</td>
        <td>2026-01-05 09:00 UTC<span class="muted when">
        <duration>
        </span>
        </td>
        </tr>
        <tr>
        <td>
        <a href="/lists/Projects">Projects</a>
        </td>
        <td class="num">3</td>
        <td>2026-01-05 09:00 UTC<span class="muted when">
        <duration>
        </span>
        </td>
        </tr>
        <tr>
        <td>
        <a href="/lists/Asset_Register">Asset_Register</a>
        </td>
        <td class="num">2</td>
        <td>2026-01-05 09:00 UTC<span class="muted when">
        <duration>
        </span>
        </td>
        </tr>
        <tr>
        <td>
        <a href="/lists/Big">Big</a>
        </td>
        <td class="num">0</td>
        <td>2026-01-05 09:00 UTC<span class="muted when">
        <duration>
        </span>
        </td>
        </tr>
        </tbody>
        </table>
        </div>
        </main>
        </body>
        </html>
        """#

    static let tasks = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;; img-src &#39;self&#39;; form-action &#39;self&#39;; base-uri &#39;none&#39;">
        <meta name="referrer" content="no-referrer">
        <title>Tasks · SPConnect status</title>
        <style>…</style>
        </head>
        <body>
        <main>
        <nav>
        <a href="/">Session</a>
        <a href="/lists">Lists</a>
        <a href="/status.json">JSON</a>
        </nav>
        <h1>Tasks</h1>
        <p class="muted summary">20 items · showing 1–5</p>
        <div class="table-wrap">
        <table>
        <thead>
        <tr>
        <th class="num" scope="col">ID</th>
        <th class="text" scope="col">Title</th>
        <th class="num" scope="col">Priority</th>
        <th scope="col">Status</th>
        <th scope="col">Due Date</th>
        <th scope="col">Completed</th>
        <th scope="col">Assigned To</th>
        <th scope="col">Modified</th>
        <th scope="col">Modified By</th>
        </tr>
        </thead>
        <tbody>
        <tr>
        <td class="num">1</td>
        <td class="text">Plan the kickoff</td>
        <td class="num">3</td>
        <td>Deferred</td>
        <td>1/12/2026 9:00 AM</td>
        <td>No</td>
        <td>Carol Conditional</td>
        <td>1/5/2026 10:00 AM</td>
        <td>Alice Example</td>
        </tr>
        <tr>
        <td class="num">2</td>
        <td class="text">Review budget</td>
        <td class="num">1</td>
        <td>Completed</td>
        <td>1/13/2026 9:00 AM</td>
        <td>Yes</td>
        <td>Dave Expired</td>
        <td>1/6/2026 10:00 AM</td>
        <td>Alice Example</td>
        </tr>
        <tr>
        <td class="num">3</td>
        <td class="text">Order new laptops</td>
        <td class="num">2</td>
        <td>Completed</td>
        <td>1/14/2026 9:00 AM</td>
        <td>Yes</td>
        <td>Alice Example</td>
        <td>1/7/2026 10:00 AM</td>
        <td>Alice Example</td>
        </tr>
        <tr>
        <td class="num">4</td>
        <td class="text">Update the wiki</td>
        <td class="num">2</td>
        <td>Completed</td>
        <td>1/15/2026 9:00 AM</td>
        <td>Yes</td>
        <td>Alice Example</td>
        <td>1/8/2026 10:00 AM</td>
        <td>Alice Example</td>
        </tr>
        <tr>
        <td class="num">5</td>
        <td class="text">Fix the printer</td>
        <td class="num">2</td>
        <td>Not Started</td>
        <td>1/16/2026 9:00 AM</td>
        <td>No</td>
        <td>Bob Mfa</td>
        <td>1/9/2026 10:00 AM</td>
        <td>Alice Example</td>
        </tr>
        </tbody>
        </table>
        </div>
        <nav class="pager" aria-label="pages">
        <span class="muted">Page 1 of 4</span>
        <a href="/lists/Tasks?after=5&amp;page=2" rel="next">Next page →</a>
        </nav>
        </main>
        </body>
        </html>
        """#

    static let photos = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;; img-src &#39;self&#39;; form-action &#39;self&#39;; base-uri &#39;none&#39;">
        <meta name="referrer" content="no-referrer">
        <title>Photos · SPConnect status</title>
        <style>…</style>
        </head>
        <body>
        <main>
        <nav>
        <a href="/">Session</a>
        <a href="/lists">Lists</a>
        <a href="/photos/Photos" aria-current="page">Photos</a>
        <a href="/status.json">JSON</a>
        </nav>
        <h1>Photos</h1>
        <p class="muted summary">4 pictures · <a href="/lists/Photos">as a list</a>
        </p>
        <ul class="gallery">
        <li>
        <figure>
        <a href="/thumb?url=%2FPhotos%2Fsunset.png" title="Open the full picture">
        <img src="/thumb?url=%2FPhotos%2Fsunset.png" alt="sunset.png" loading="lazy" width="32" height="24">
        </a>
        <figcaption>
        <strong>sunset.png</strong>
        <br>
        <span class="muted">32 × 24 px · 2.4 KB · 2026-01-05 11:00 UTC</span>
        </figcaption>
        </figure>
        </li>
        <li>
        <figure>
        <a href="/thumb?url=%2FPhotos%2Fsea.png" title="Open the full picture">
        <img src="/thumb?url=%2FPhotos%2Fsea.png" alt="sea.png" loading="lazy" width="24" height="24">
        </a>
        <figcaption>
        <strong>sea.png</strong>
        <br>
        <span class="muted">24 × 24 px · 1.8 KB · 2026-01-05 13:00 UTC</span>
        </figcaption>
        </figure>
        </li>
        <li>
        <figure>
        <a href="/thumb?url=%2FPhotos%2Fchecker.png" title="Open the full picture">
        <img src="/thumb?url=%2FPhotos%2Fchecker.png" alt="checker.png" loading="lazy" width="16" height="16">
        </a>
        <figcaption>
        <strong>checker.png</strong>
        <br>
        <span class="muted">16 × 16 px · 852 B · 2026-01-05 15:00 UTC</span>
        </figcaption>
        </figure>
        </li>
        <li>
        <figure>
        <a href="/thumb?url=%2FPhotos%2Flogo.svg" title="Open the full picture">
        <img src="/thumb?url=%2FPhotos%2Flogo.svg" alt="logo.svg" loading="lazy" width="64" height="64">
        </a>
        <figcaption>
        <strong>logo.svg</strong>
        <br>
        <span class="muted">64 × 64 px · 245 B · 2026-01-05 17:00 UTC</span>
        </figcaption>
        </figure>
        </li>
        </ul>
        </main>
        </body>
        </html>
        """#

    static let sessionSignInFailed = #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;; img-src &#39;self&#39;; form-action &#39;self&#39;; base-uri &#39;none&#39;">
        <meta name="referrer" content="no-referrer">
        <title>SPConnect status</title>
        <style>…</style>
        </head>
        <body>
        <main>
        <nav>
        <a href="/" aria-current="page">Session</a>
        <a href="/lists">Lists</a>
        <a href="/status.json">JSON</a>
        </nav>
        <h1>SharePoint session</h1>
        <div class="state bad" role="status">
        <strong>Signing in again failed</strong>The session has ended and signing in again failed: the sign-in was rejected: Incorrect user ID or password. Type the correct user ID and password, and try again. Check the user name and password.<span class="muted"> (sign-in-failed)</span>
        </div>
        <dl class="facts">
        <dt>Profile</dt>
        <dd>test</dd>
        <dt>Site</dt>
        <dd>
        <a href="http://127.0.0.1:PORT">http://127.0.0.1:PORT</a>
        </dd>
        <dt>User</dt>
        <dd>alice@contoso.test</dd>
        <dt>Name</dt>
        <dd>Alice Example</dd>
        <dt>Sign-in flow</dt>
        <dd>adfs</dd>
        <dt>Signed in</dt>
        <dd>
        <proved-at> (<duration>)</dd>
        </dl>
        <h2>Last proof request</h2>
        <p>
        <code>GET /_api/web/currentuser</code> failed in N ms, sent just now: The session has ended (HTTP 403 · -2147024891, System.UnauthorizedAccessException)</p>
        <h2>Cookies</h2>
        <div class="table-wrap">
        <table>
        <thead>
        <tr>
        <th>Cookie</th>
        <th>Expires</th>
        </tr>
        </thead>
        <tbody>
        <tr>
        <td>FedAuth</td>
        <td>
        <duration>
        </td>
        </tr>
        </tbody>
        </table>
        </div>
        <h2>Last sign-in</h2>
        <p>Failed just now, by status app: the sign-in was rejected: Incorrect user ID or password. Type the correct user ID and password, and try again. Check the user name and password.</p>
        <ol class="trace" start="0">
        <li>GET 127.0.0.1:PORT (start at the adfs entry point) → HTTP 302</li>
        <li>GET 127.0.0.1:PORT (HTTP 302 redirect) → HTTP 302</li>
        <li>GET 127.0.0.2:PORT (HTTP 302 redirect) → HTTP 200, credential-form</li>
        <li>POST 127.0.0.2:PORT (filled UserName and Password in form #loginForm) → HTTP 200, error, forms: stop</li>
        </ol>
        <form method="post" action="/signin">
        <input type="hidden" name="csrf" value="csrf-token-1">
        <button type="submit">Sign in again</button>
        </form>
        <p class="muted">Checked 2026-11-29 12:00 UTC. Reload to check again.</p>
        </main>
        </body>
        </html>
        """#
}

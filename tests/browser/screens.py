"""The screens in a real browser: headless Chromium through Selenium against
a running demo. A person signs in, creates a customer (after a refusal that
keeps what was typed), finds it in the list, switches the language; the
owner creates an API key in Developers and uses it against /v1/me, and
registers a webhook that receives the event of a bill; a bill is recorded
and paid; a month is closed and the profit and loss and the balance sheet
read final; a job moves a stage and gets a note; an invoice's PDF is
downloaded, the invoice paid in two parts and another cancelled; the owner
changes the payment days in Settings and invites an accountant, who opens
the link in a browser of their own, sets a password and signs in; the owner
adds a bank account, uploads a statement, confirms a suggestion, splits a
line, books a fee and undoes a settlement; a viewer
is refused each act; a form posted from another site is refused; the
owner configures mail and sends a test mail, an invoice is sent by e-mail
to a customer whose invoice address and language were set on its page,
the reminders of the day are run and sent, and the invoice's page shows
the sends and the reminder (the mail reaching a local aiosmtpd); a desk is
recorded as a fixed asset from its bill's line, the year's depreciation
posted and the register read in English and German, and the desk disposed
of; a freelancer's company beside the demo's (made with the console on the
same data file) reads its cash-basis profit statement (EÜR) in English and
German; signing out ends the session; a person turns on an authenticator app
(codes from pyotp), signs in with a code once and a recovery code once,
another registers a passkey on Chromium's virtual authenticator and signs
in with it, and the owner requires two factors of everyone, which leads a
person without to set one up. axe-core checks every page for serious or critical WCAG
2.1 A/AA violations. Prints 'N passed, N failed' and exits non-zero on any
failure."""

import argparse
import base64
import datetime
import http.server
import json
import re
import shutil
import subprocess
import tempfile
import sys
import threading
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.support.ui import WebDriverWait
from selenium.webdriver.common.virtual_authenticator import VirtualAuthenticatorOptions

import pyotp

import language


def read_demo(path):
    """The screens' address and the people (role -> (email, password)) the demo printed."""
    text = Path(path).read_text()
    base = re.search(r"screens:\s+(http://\S+?)/?\s", text).group(1)
    people = {}
    for role, email, password in re.findall(r"^\s+(owner|accountant|viewer)\s+(\S+)\s+password (\S+)$", text, re.M):
        people[role] = (email, password)
    return base, people


class Run:
    def __init__(self, args):
        self.base, self.people = read_demo(args.demo_output)
        self.data = args.data
        self.kontor_binary = args.kontor
        self.smtp_port = args.smtp_port
        self.smtp_out = Path(args.smtp_out)
        self.axe_source = Path(args.axe).read_text()
        self.shots = Path(args.screenshots)
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for flag in [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--window-size=1280,900",
            "--lang=en-GB",
            f"--user-data-dir={args.profile}",
        ]:
            options.add_argument(flag)
        options.add_experimental_option("prefs", {"intl.accept_languages": "en-GB,en"})
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.driver.set_page_load_timeout(30)
        self.checked = set()
        # The form a click posted (its action, encoding and entries), for
        # reading its answer again in the other language; None after a link.
        self.posted = None
        # What a page said in the other language, by page: reported at the end.
        self.foreign = []
        self.spoken = set()
        # Texts of the records the test makes that a page shows as they
        # are (a bank's remittance text), in whatever language they were written.
        self.written = set()
        self.passed = 0
        self.failed = 0

    # --- helpers -------------------------------------------------------

    def open(self, path):
        self.posted = None
        self.driver.get(self.base + path)

    def path(self):
        url = self.driver.current_url
        return url[len(self.base):] if url.startswith(self.base) else url

    def text(self):
        return self.driver.find_element(By.TAG_NAME, "body").text

    def field(self, name):
        return self.driver.find_element(By.NAME, name)

    def type_into(self, name, value):
        element = self.field(name)
        element.clear()
        element.send_keys(value)

    def follow(self, element):
        """Clicks a link or button and waits until the next page has replaced this one."""
        old = self.driver.find_element(By.TAG_NAME, "html")
        self.posted = self.form_of(element)
        element.click()

        def replaced(_driver):
            # Chromium may answer a question about the old page's node, asked
            # while the new page loads, with "Node with given id does not
            # belong to the document" instead of a stale-element error: that
            # too means the page was replaced.
            try:
                return expected_conditions.staleness_of(old)(_driver)
            except WebDriverException as e:
                if "does not belong to the document" in str(e):
                    return True
                raise

        WebDriverWait(self.driver, 15).until(replaced)
        WebDriverWait(self.driver, 15).until(
            lambda d: d.execute_script("return document.readyState") == "complete"
        )

    def submit(self, label):
        self.follow(self.driver.find_element(By.XPATH, f"//main//button[normalize-space()='{label}']"))

    def press(self, xpath):
        self.follow(self.driver.find_element(By.XPATH, xpath))

    def set_value(self, name, value):
        """Sets a field a person would pick from a widget (a date)."""
        self.driver.execute_script("arguments[0].value = arguments[1]", self.field(name), value)

    def link(self, text):
        self.follow(self.driver.find_element(By.LINK_TEXT, text))

    def axe(self, name):
        """Injects axe-core and fails on serious or critical violations."""
        self.driver.execute_script(self.axe_source)
        result = self.driver.execute_async_script(
            """
            const done = arguments[arguments.length - 1];
            axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})
               .then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                                        nodes: v.nodes.map(n => n.target.join(' '))}))))
               .catch(e => done([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}]));
            """
        )
        bad = [v for v in result if v["impact"] in ("serious", "critical")]
        self.checked.add(name)
        self.speaks(name)
        assert not bad, f"axe on {name}: {bad}"
        for v in result:
            print(f"  axe note on {name}: {v['impact']} {v['id']} ({v['help']})")

    def ask_again(self, asked, lang):
        """Asks `asked` (method, address, encoding, entries) again with this
        browser's cookies and `Accept-Language: lang`, outside the page (its
        content security policy allows no script to fetch): the status, the
        answer's language and its text."""
        method, url, enctype, entries = asked
        cookie = "; ".join(f"{c['name']}={c['value']}" for c in self.driver.get_cookies())
        parts_of = urllib.parse.urlsplit(url)
        headers = {"Cookie": cookie, "Accept-Language": lang, "Origin": f"{parts_of.scheme}://{parts_of.netloc}"}
        body = None
        if method == "POST":
            if enctype == "multipart/form-data":
                boundary = "----language-check-boundary"
                parts = []
                for e in entries:
                    if "filename" in e:
                        parts.append(
                            f'--{boundary}\r\nContent-Disposition: form-data; name="{e["name"]}"; filename="{e["filename"]}"\r\n'
                            f'Content-Type: {e["type"] or "application/octet-stream"}\r\n\r\n'.encode()
                            + base64.b64decode(e["b64"]) + b"\r\n"
                        )
                    else:
                        parts.append(
                            f'--{boundary}\r\nContent-Disposition: form-data; name="{e["name"]}"\r\n\r\n{e["value"]}\r\n'.encode()
                        )
                body = b"".join(parts) + f"--{boundary}--\r\n".encode()
                headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
            else:
                body = urllib.parse.urlencode([(e["name"], e["value"]) for e in entries]).encode()
                headers["Content-Type"] = "application/x-www-form-urlencoded"

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None

        opener = urllib.request.build_opener(NoRedirect)
        request = urllib.request.Request(url, data=body, headers=headers, method=method)
        try:
            with opener.open(request, timeout=30) as answer:
                status, html = answer.status, answer.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as e:
            status, html = e.code, e.read().decode("utf-8", "replace")
        page_lang, text = language.text_of_html(html)
        return {"status": status, "lang": page_lang, "text": text}

    def form_of(self, element):
        """The form a click on `element` posts: its action, encoding and
        entries (files as base64), or None when it posts none."""
        return self.driver.execute_async_script(
            """
            const [el, done] = arguments;
            const form = el.form || null;
            if (!form || (form.getAttribute('method') || 'get').toLowerCase() !== 'post') { done(null); return; }
            const data = new FormData(form, el.type === 'submit' ? el : undefined);
            const entries = [];
            const reads = [];
            for (const [name, value] of data.entries()) {
                if (value instanceof File) {
                    const entry = {name, filename: value.name, type: value.type, b64: ''};
                    entries.push(entry);
                    reads.push(value.arrayBuffer().then(b => {
                        let s = ''; const bytes = new Uint8Array(b);
                        for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
                        entry.b64 = btoa(s);
                    }));
                } else {
                    entries.push({name, value});
                }
            }
            Promise.all(reads).then(() => done({action: form.action, enctype: form.enctype, entries}));
            """,
            element,
        )

    def speaks(self, name):
        """The page says everything in its own language; read again in the
        other (the same address asked with the other Accept-Language, or a
        refused form posted again with its figures in the other notation,
        which is refused alike and changes nothing), it says everything in
        that one. A page of a person who chose a language,
        and the answer of a post that was not refused, are read in their
        own language only."""
        driver = self.driver
        lang = driver.execute_script("return document.documentElement.lang")
        text = driver.execute_script(language.TEXT_OF_PAGE)
        for o in language.offences(text, lang, self.written):
            self.foreign.append(f"{name} [{lang}]: {o}")
        self.spoken.add(f"{name} [{lang}]")
        follows_browser = driver.execute_script(
            "const s = document.getElementById('switch-language'); return !s || s.value === 'browser';"
        )
        if not follows_browser:
            return
        status = driver.execute_script(
            "const n = performance.getEntriesByType('navigation')[0]; return n ? n.responseStatus : 0;"
        )
        here = driver.current_url
        posted = self.posted
        if posted and posted["action"].split("#")[0] == here.split("#")[0]:
            if status < 400:
                return
            entries = [
                e if "filename" in e else {"name": e["name"], "value": language.in_other_notation(e["value"])}
                for e in posted["entries"]
            ]
            asked = ("POST", posted["action"], posted["enctype"], entries)
        else:
            asked = ("GET", here, "", [])
        other = "de" if lang == "en" else "en"
        answer = self.ask_again(asked, other)
        if answer["lang"] != other:
            self.foreign.append(f"{name} [{other}]: asked in {other}, answered {answer['status']} in {answer['lang']!r}: {answer['text'][:200]}")
            return
        if asked[0] == "POST" and answer["status"] != status:
            self.foreign.append(f"{name} [{other}]: posted again, answered {answer['status']}, not {status}")
        for o in language.offences(answer["text"], other, self.written):
            self.foreign.append(f"{name} [{other}]: {o}")
        self.spoken.add(f"{name} [{other}]")

    def shot(self, name):
        """The whole page (up to 2,400 pixels tall), not only the window."""
        size = self.driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 2400), "scale": 1}
        shot = self.driver.execute_cdp_cmd("Page.captureScreenshot", {"captureBeyondViewport": True, "clip": clip})
        (self.shots / f"{name}.png").write_bytes(base64.b64decode(shot["data"]))

    def sign_in(self, role):
        email, password = self.people[role]
        self.driver.delete_all_cookies()
        self.open("/login")
        self.type_into("email", email)
        self.type_into("password", password)
        self.follow(self.driver.find_element(By.XPATH, "//main//button[@type='submit']"))
        assert self.path() == "/dashboard", self.path()

    def check(self, name, test):
        try:
            test()
            self.passed += 1
            print(f"ok   {name}")
        except Exception:
            self.failed += 1
            print(f"FAIL {name}")
            traceback.print_exc()
            try:
                self.shot(f"failed-{name}")
            except Exception:
                pass

    # --- the flows -----------------------------------------------------

    def sign_in_page(self):
        self.driver.delete_all_cookies()
        self.open("/dashboard")
        assert self.path() == "/login", self.path()
        assert self.driver.title == "Sign in · kontor", self.driver.title
        self.axe("login")
        # Keyboard: the first Tab reaches the skip link.
        self.driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
        active = self.driver.switch_to.active_element
        assert active.get_attribute("class") == "skip", active.get_attribute("outerHTML")
        self.type_into("email", self.people["owner"][0])
        self.type_into("password", "not the password")
        self.submit("Sign in")
        assert "The e-mail address or the password is wrong." in self.text()
        assert self.field("email").get_attribute("value") == self.people["owner"][0]
        self.axe("login-refused")

    def owner_creates_a_customer(self):
        self.sign_in("owner")
        assert self.driver.title == "Dashboard · kontor"
        assert "Receivables" in self.text() and "Overdue invoices" in self.text()
        self.axe("dashboard")
        self.shot("dashboard")
        self.link("Customers")
        assert self.path() == "/customers"
        self.axe("customers")
        self.link("New customer")
        self.axe("customer-new")
        self.type_into("name", "Browser Test GmbH")
        self.type_into("postalCode", "20457")
        self.type_into("city", "Hamburg")
        self.type_into("email", "not an address")
        self.submit("Save")
        # Refused: what was typed stays, and the problems stand beside their fields.
        assert "Nothing was saved." in self.text()
        assert self.field("name").get_attribute("value") == "Browser Test GmbH"
        assert self.field("street").get_attribute("aria-invalid") == "true"
        assert "is missing" in self.driver.find_element(By.ID, "field-street-error").text
        assert "is not an e-mail address" in self.driver.find_element(By.ID, "field-email-error").text
        self.axe("customer-refused")
        self.shot("customer-refused")
        self.type_into("street", "Kai 1")
        self.type_into("email", "info@browser-test.example")
        self.submit("Save")
        assert re.fullmatch(r"/customers/cus_\w+\?saved=1", self.path()), self.path()
        assert "Saved." in self.text()
        self.axe("customer")
        self.link("Customers")
        self.type_into("search", "Browser Test")
        self.press("//form[@role='search']//button")
        assert "Browser Test GmbH" in self.text()
        self.axe("customers-search")
        self.shot("customers")

    def language(self):
        self.sign_in("accountant")
        select = self.driver.find_element(By.ID, "switch-language")
        select.find_element(By.XPATH, "option[@value='de']").click()
        self.press("//form[@action='/session/language']//button")
        assert self.driver.title == "Übersicht · kontor", self.driver.title
        assert "Forderungen" in self.text()
        self.axe("dashboard-de")
        self.link("Kunden")
        assert self.driver.title == "Kunden · kontor"
        select = self.driver.find_element(By.ID, "switch-language")
        select.find_element(By.XPATH, "option[@value='browser']").click()
        self.press("//form[@action='/session/language']//button")
        assert self.driver.title == "Dashboard · kontor"

    def test_data(self):
        self.sign_in("accountant")
        self.press("//button[normalize-space()='Show test data']")
        assert "Test data" in self.text()
        self.axe("dashboard-test-data")
        self.press("//button[normalize-space()='Show live data']")
        assert "Test data" not in self.text()

    def developers_key_works(self):
        self.sign_in("owner")
        self.link("Developers")
        assert self.driver.title == "Developers · kontor", self.driver.title
        self.axe("developers")
        self.type_into("name", "Browser key")
        self.driver.find_element(By.ID, "scope-customers-read").click()
        self.driver.find_element(By.ID, "field-environment").find_element(By.XPATH, "option[@value='live']").click()
        self.submit("Create key")
        assert "shown only this once" in self.text(), self.text()
        secret = self.driver.find_element(By.ID, "secret").get_attribute("value")
        assert secret.startswith("svc_live_"), secret
        self.axe("developers-key-created")
        # Used as a developer would: with curl.
        me = json.loads(subprocess.run(
            ["curl", "--silent", "--show-error", "--fail", "--max-time", "10",
             "--header", f"Authorization: Bearer {secret}", self.base + "/v1/me"],
            check=True, capture_output=True, text=True).stdout)
        assert me["name"] == "Browser key", me
        assert me["scopes"] == ["customers:read"], me
        self.link("Back to the developer settings")
        assert "Browser key" in self.text()
        assert secret not in self.driver.page_source
        # A refused registration keeps what was typed.
        self.type_into("url", "ftp://example.com/hook")
        self.driver.find_element(By.ID, "event-purchase-recorded").click()
        self.submit("Register")
        assert self.field("url").get_attribute("value") == "ftp://example.com/hook"
        assert self.driver.find_element(By.ID, "field-url-error").text
        self.axe("developers-refused")
        self.shot("developers")

    def webhook_receives_a_bill(self):
        received = []

        class Receiver(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                received.append(json.loads(self.rfile.read(length)))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        receiver = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=receiver.serve_forever, daemon=True).start()
        try:
            self.sign_in("owner")
            self.link("Developers")
            self.type_into("url", f"http://127.0.0.1:{receiver.server_address[1]}/hook")
            self.driver.find_element(By.ID, "event-purchase-recorded").click()
            self.type_into("description", "Browser receiver")
            self.submit("Register")
            assert self.driver.find_element(By.ID, "secret").get_attribute("value").startswith("whsec_")
            self.axe("webhook-registered")
            self.link("To the endpoint and its deliveries")
            endpoint = self.path()
            self.record_and_pay_a_bill()
            self.sign_in("owner")
            for _ in range(100):
                if received:
                    break
                time.sleep(0.1)
            assert received and received[0]["event"] == "purchase.recorded", received
            self.open(endpoint)
            for _ in range(50):
                if "delivered" in self.text():
                    break
                time.sleep(0.1)
                self.open(endpoint)
            assert "purchase.recorded" in self.text() and "delivered" in self.text(), self.text()
            self.axe("webhook-deliveries")
            self.press("//main//button[normalize-space()='Redeliver']")
            assert "The event will be sent again." in self.text()
            for _ in range(100):
                if len(received) >= 2:
                    break
                time.sleep(0.1)
            assert len(received) == 2 and received[1]["id"] == received[0]["id"], received
        finally:
            receiver.shutdown()

    def record_and_pay_a_bill(self):
        self.sign_in("accountant")
        today = datetime.date.today()
        self.link("Bills")
        assert self.driver.title == "Bills · kontor", self.driver.title
        self.axe("bills")
        self.link("Record a bill")
        self.axe("bill-new")
        self.type_into("supplierName", "Browser Papier AG")
        self.type_into("documentNumber", "BR-1")
        self.set_value("documentDate", today.isoformat())
        self.set_value("dueDate", (today + datetime.timedelta(days=14)).isoformat())
        self.type_into("net", "1.234,56")
        self.type_into("tax", "234.57")
        self.submit("Record bill")
        # The German notation on an English page is refused beside the field, kept as typed.
        assert self.field("net").get_attribute("value") == "1.234,56"
        assert "is not an amount" in self.driver.find_element(By.ID, "field-net-error").text
        self.axe("bill-refused")
        self.type_into("net", "1,234.56")
        self.submit("Record bill")
        assert re.fullmatch(r"/bills/pur_\w+\?done=recorded", self.path()), self.path()
        assert "€1,469.13" in self.text(), self.text()
        self.axe("bill")
        self.type_into("amount", "500.00")
        self.submit("Record payment")
        assert "The payment is recorded." in self.text()
        assert "€969.13" in self.text()
        self.type_into("amount", "969.13")
        self.submit("Record payment")
        assert "Paid in full on" in self.text(), self.text()
        self.shot("bill")

    def receive_read_book_and_refuse_e_invoices(self):
        self.sign_in("accountant")
        fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "einvoices-in" / "zugferd-corpus" / "XML-Rechnung"
        files = [fixtures / "CII" / "EN16931_Rabatte.cii.xml", fixtures / "FX" / "EN16931_Elektron.pdf"]
        self.link("Bills")
        self.axe("bills-with-received")
        # One upload, two files.
        self.field("files").send_keys("\n".join(str(f) for f in files))
        self.submit("Receive")
        assert "EN16931_Rabatte.cii.xml" in self.text() and "EN16931_Elektron.pdf" in self.text(), self.text()
        self.axe("received-upload")
        links = self.driver.find_elements(By.XPATH, "//main//a[starts-with(@href, '/bills/received/pur_')]")
        assert len(links) == 2, self.text()
        second = links[1].get_attribute("href")
        self.follow(links[0])
        text = self.text()
        assert "VAT breakdown" in text and "Amount due" in text and "Allowance" in text, text
        self.axe("received-invoice")
        self.shot("received-invoice")
        # The corpus's invoice is old and addressed to its own buyer: booked
        # only once the person accepts the warnings.
        self.submit("Book this bill")
        assert self.driver.find_elements(By.ID, "field-acceptWarnings-error"), self.text()
        self.axe("received-warnings-refused")
        self.driver.find_element(By.ID, "field-acceptWarnings").click()
        self.submit("Book this bill")
        assert "The bill is booked." in self.text(), self.text()
        self.axe("received-booked")
        self.driver.get(second)
        self.submit("Refuse this bill")
        assert "Reason" in self.text()
        self.axe("received-refuse-refused")
        self.type_into("reason", "Die Bestellnummer fehlt")
        self.submit("Refuse this bill")
        assert "The bill is refused." in self.text() and "Die Bestellnummer fehlt" in self.text(), self.text()
        self.axe("received-refused")

    def draft_is_filled_previewed_and_issued(self):
        self.sign_in("accountant")
        self.link("Drafts")
        assert self.driver.title == "Drafts · kontor", self.driver.title
        self.axe("drafts")
        self.link("New draft")
        self.axe("draft-new")
        self.type_into("search", "Café Rosa")
        self.press("//form[@role='search']//button")
        choice = self.driver.find_element(By.ID, "field-customerId")
        choice.find_element(By.XPATH, "option[starts-with(normalize-space(), 'Café Rosa')]").click()
        self.submit("Create draft")
        assert re.fullmatch(r"/drafts/drf_\w+\?done=created", self.path()), self.path()
        assert "The draft is created." in self.text()
        self.axe("draft-empty")
        draft = self.path().split("?")[0]
        # A refused line keeps what was typed: the German notation on an English page.
        self.type_into("description", "Consulting")
        self.type_into("quantity", "1,5")
        self.driver.find_element(By.ID, "field-unit").find_element(By.XPATH, "option[@value='HUR']").click()
        self.type_into("unitPrice", "1.234,56")
        self.type_into("taxRate", "19")
        self.submit("Add line")
        assert self.field("quantity").get_attribute("value") == "1,5"
        assert "decimal separator is a point" in self.driver.find_element(By.ID, "field-quantity-error").text
        self.axe("draft-line-refused")
        self.type_into("quantity", "1.5")
        self.type_into("unitPrice", "1,234.56")
        self.submit("Add line")
        assert "The line is added." in self.text(), self.text()
        self.type_into("description", "Licence")
        self.type_into("quantity", "2")
        self.type_into("unitPrice", "99.90")
        self.type_into("taxRate", "7")
        self.submit("Add line")
        assert "The line is added." in self.text(), self.text()
        # The figures: 1.5 × 1,234.56 at 19 % and 2 × 99.90 at 7 %.
        assert "€2,051.64" in self.driver.find_element(By.ID, "figure-net").text
        assert "€2,417.48" in self.driver.find_element(By.ID, "figure-gross").text
        preview = self.driver.find_element(By.CSS_SELECTOR, "object.preview")
        assert preview.get_attribute("data").endswith(draft + "/preview.pdf")
        self.axe("draft")
        self.driver.execute_script("window.scrollTo(0, 0)")
        self.shot("draft")
        # The preview is a PDF marked as a draft, served to this session only.
        session = self.driver.get_cookie("kontor_session")["value"]
        request = urllib.request.Request(self.base + draft + "/preview.pdf",
                                         headers={"Cookie": f"kontor_session={session}"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.headers["Content-Type"] == "application/pdf"
            assert answer.headers["X-Frame-Options"] == "SAMEORIGIN"
            assert answer.read().startswith(b"%PDF-")
        self.link("Issue…")
        assert self.driver.title == "Issue the invoice? · kontor", self.driver.title
        assert "cannot be undone" in self.text()
        number = self.driver.find_element(By.ID, "next-number").text
        assert number, self.text()
        self.axe("draft-issue-confirm")
        self.submit("Issue invoice")
        # Issued, the invoice's own page, saying so.
        assert self.path() == "/invoices/" + number + "?done=issued", self.path()
        assert f"The invoice is issued with the number {number}." in self.text()
        self.axe("draft-issued")
        self.open(draft)
        taken = self.driver.find_element(By.ID, "invoice-number").text
        assert taken == number, (taken, number)
        link = self.driver.find_element(By.PARTIAL_LINK_TEXT, "To the invoice")
        assert link.get_attribute("href").endswith("/invoices/" + taken)

    def close_a_month_and_read_the_statements(self):
        self.sign_in("accountant")
        last = datetime.date.today().replace(day=1) - datetime.timedelta(days=1)
        first = last.replace(day=1)
        self.link("Books")
        assert self.driver.title == "Books · kontor", self.driver.title
        self.axe("books")
        self.set_value("through", last.isoformat())
        self.submit("Continue")
        assert "cannot be undone" in self.text(), self.text()
        self.axe("books-close-confirm")
        self.submit("Close the books")
        assert "The books are closed." in self.text(), self.text()
        self.link("Profit and loss")
        self.set_value("from", first.isoformat())
        self.set_value("to", last.isoformat())
        self.submit("Show")
        assert self.driver.title == "Profit and loss · kontor"
        assert "Final" in self.text(), self.text()
        self.axe("profit-and-loss")
        self.link("Balance sheet")
        assert "Preliminary" in self.text(), "today lies in open books"
        self.set_value("asOf", last.isoformat())
        self.submit("Show")
        assert "Final" in self.text() and "Total assets" in self.text(), self.text()
        self.axe("balance-sheet")
        self.shot("balance-sheet")
        self.link("Trial balance")
        assert "Total" in self.text()
        self.axe("trial-balance")

    def switch_language(self, value):
        select = self.driver.find_element(By.ID, "switch-language")
        select.find_element(By.XPATH, f"option[@value='{value}']").click()
        self.press("//form[@action='/session/language']//button")

    def choose(self, name, value):
        self.field(name).find_element(By.XPATH, f"option[@value='{value}']").click()

    def chart_of_accounts_a_split_bill_and_the_hgb_statements(self):
        self.sign_in("accountant")
        self.switch_language("de")
        self.open("/books/accounts")
        assert self.driver.title == "Kontenplan · kontor", self.driver.title
        assert "4210" in self.text() and "Miete (unbewegliche Wirtschaftsgüter)" in self.text()
        self.axe("accounts-de")
        self.type_into("number", "4711")
        self.type_into("nameDe", "Vereinskosten")
        self.type_into("nameEn", "Club costs")
        self.choose("kind", "expense")
        self.choose("line", "pl:8")
        self.submit("Konto anlegen")
        assert "Das Konto ist angelegt." in self.text(), self.text()
        self.type_into("number", "8500")
        self.type_into("nameDe", "Falsch")
        self.type_into("nameEn", "Wrong")
        self.choose("kind", "expense")
        self.choose("line", "pl:8")
        self.submit("Konto anlegen")
        assert "8500" in self.driver.find_element(By.ID, "field-number-error").text
        self.axe("accounts-refused-de")
        today = datetime.date.today()
        self.open("/bills/new")
        self.type_into("supplierName", "Browser Vermieter GmbH")
        self.type_into("documentNumber", "M-1")
        self.set_value("documentDate", today.isoformat())
        self.set_value("dueDate", today.isoformat())
        self.choose("lines[0].account", "rent")
        self.type_into("lines[0].net", "1.000,00")
        self.choose("lines[1].account", "entertainment")
        self.type_into("lines[1].net", "200,00")
        self.choose("lines[2].account", "4711")
        self.type_into("lines[2].net", "50,00")
        self.choose("lines[2].rate", "7")
        self.axe("bill-lines-de")
        self.submit("Rechnung erfassen")
        assert re.fullmatch(r"/bills/pur_\w+\?done=recorded", self.path()), self.path()
        body = self.text()
        assert "4210 Miete" in body and "4650 Bewirtungskosten" in body and "4711 Vereinskosten" in body, body
        self.axe("bill-lines-shown-de")
        self.shot("bill-lines-de")
        self.type_into("amount", "100,00")
        self.submit("Zahlung erfassen")
        assert "Die Zahlung ist erfasst." in self.text(), self.text()
        reason = self.driver.find_element(By.XPATH, "//form[contains(@action, '/reverse')]//input[@name='reason']")
        reason.send_keys("Falsches Konto belastet")
        self.submit("Zurücknehmen")
        assert "Die Zahlung ist zurückgenommen." in self.text(), self.text()
        assert "Falsches Konto belastet" in self.text(), self.text()
        self.axe("bill-payment-taken-back-de")
        self.open("/books/profit-and-loss?compare=1")
        assert "Gesamtkostenverfahren" in self.text() and "Vorjahr" in self.text(), self.text()
        assert "sonstige betriebliche Aufwendungen" in self.text(), self.text()
        self.axe("profit-and-loss-de")
        self.shot("profit-and-loss-de")
        self.press("//main//a[@href='/books/accounts/rent']")
        assert "Buchungstext" in self.text() and "M-1" in self.text(), self.text()
        self.axe("account-sheet-de")
        self.open("/books/balance-sheet?compare=1")
        assert "Passiva" in self.text() and "Jahresüberschuss" in self.text(), self.text()
        self.axe("balance-sheet-de")
        self.open("/books/trial-balance")
        assert "EB-Wert" in self.text() and "4711" in self.text(), self.text()
        self.axe("trial-balance-de")
        self.shot("trial-balance-de")
        self.switch_language("en")
        self.open("/books/profit-and-loss")
        assert "Other operating expenses" in self.text() and "Rent of premises" in self.text(), self.text()
        self.axe("profit-and-loss-en")
        self.open("/books/accounts")
        assert "Club costs" in self.text(), self.text()
        self.axe("accounts-en")
        self.switch_language("browser")

    def fixed_assets_recorded_depreciated_and_disposed(self):
        self.sign_in("accountant")
        today = datetime.date.today()
        self.open("/books")
        assert "Post the year's depreciation" in self.text(), self.text()
        self.open("/bills/new")
        self.type_into("supplierName", "Browser Möbel GmbH")
        self.type_into("documentNumber", "AV-1")
        self.set_value("documentDate", today.isoformat())
        self.set_value("dueDate", today.isoformat())
        self.choose("lines[0].account", "office_supplies")
        self.type_into("lines[0].net", "1,300.00")
        self.submit("Record bill")
        assert re.fullmatch(r"/bills/pur_\w+\?done=recorded", self.path()), self.path()
        self.link("Record line 1 as an asset")
        assert self.driver.title == "Fixed assets · kontor", self.driver.title
        self.axe("asset-new")
        self.type_into("name", "Browser desk")
        self.choose("class", "office_furniture")
        self.submit("Record asset")
        assert re.fullmatch(r"/books/assets/ast_\w+\?done=recorded", self.path()), self.path()
        asset = self.path().split("?")[0]
        assert "The asset is recorded." in self.text() and "6.15 Office furniture" in self.text(), self.text()
        self.axe("asset")
        self.link("Fixed assets")
        self.submit(f"Post the depreciation of {today.year}")
        assert "The year's depreciation is posted." in self.text(), self.text()
        assert "Browser desk" in self.text(), self.text()
        self.axe("assets-register")
        self.shot("assets-register")
        self.switch_language("de")
        self.open(f"/books/assets?year={today.year}")
        assert self.driver.title == "Anlagevermögen · kontor", self.driver.title
        assert "Buchwert am Ende" in self.text(), self.text()
        self.axe("assets-register-de")
        self.open(asset)
        self.set_value("on", today.isoformat())
        self.axe("asset-de")
        self.submit("Abgang buchen")
        assert "Das Anlagegut ist abgegangen." in self.text(), self.text()
        self.axe("asset-disposed-de")
        self.switch_language("browser")

    def kontor(self, *args, stdin=None):
        """Runs the console on the demo's data file; its JSON."""
        out = subprocess.run([self.kontor_binary, *args, "--data", self.data],
                             input=stdin, capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, (args, out.stderr)
        return json.loads(out.stdout)

    def cash_basis_profit_statement(self):
        """A freelancer's company (EÜR from 2025): a bill paid in 2026, its EÜR of 2026 in English and German."""
        company = self.kontor(
            "company", "create", "--name", "Anna Berger Design", "--country", "DE", "--currency", "EUR",
            "--plan", "ENTERPRISE", "--legal-name", "Anna Berger", "--street", "Lange Reihe 12",
            "--postal-code", "20099", "--city", "Hamburg", "--tax-number", "43/123/45678")["id"]
        self.kontor("company", "set", company, "--legal-form", "sole-proprietor", "--profit-method", "euer",
                    "--from", "2025-01-01")
        bill = self.kontor("purchase", "record", "--company", company, "--supplier", "Papier AG",
                           "--document-number", "P-1", "--date", "2026-03-02", "--due", "2026-03-02",
                           "--currency", "EUR", "--line", "office_supplies=10000:19")["id"]
        self.kontor("purchase", "pay", bill, "--amount", "11900", "--on", "2026-03-05")
        email, password = "anna@berger-design.example", "Anna's own long password"
        self.kontor("user", "create", "--company", company, "--email", email, "--name", "Anna Berger",
                    "--role", "owner", "--password-stdin", stdin=password + "\n")
        self.password_step(email, password)
        assert self.path() == "/dashboard", self.path()
        self.open("/books")
        self.link("EÜR")
        assert self.driver.title == "Cash-basis profit statement (EÜR) · kontor", self.driver.title
        self.open("/books/euer?year=2026")
        text = self.text()
        assert "Working materials" in text and "100.00" in text and "Input VAT paid" in text and "19.00" in text, text
        assert "Preliminary" in text, text
        self.driver.find_element(By.XPATH, "//main//details/summary").click()
        assert bill in self.text(), self.text()
        self.axe("euer")
        self.shot("euer")
        pdf = self.driver.find_element(By.LINK_TEXT, "PDF to hand over").get_attribute("href")
        assert pdf.endswith("/books/euer/pdf?year=2026"), pdf
        self.open("/books/euer?year=2027")
        assert "kontor knows the Anlage EÜR of 2025 and 2026 only" in self.text(), self.text()
        self.axe("euer-refused")
        self.switch_language("de")
        self.open("/books/euer?year=2026")
        assert self.driver.title == "Einnahmenüberschussrechnung (EÜR) · kontor", self.driver.title
        text = self.text()
        assert "Arbeitsmittel" in text and "100,00" in text and "Gezahlte Vorsteuerbeträge" in text, text
        self.axe("euer-de")
        self.shot("euer-de")
        self.open("/settings/tax")
        assert self.driver.title == "Steuerliche Angaben · kontor", self.driver.title
        assert "Einnahmenüberschussrechnung" in self.text(), self.text()
        self.axe("tax-methods-de")
        self.switch_language("browser")
        # Settings → Tax methods: read in English and again in German; VAT on
        # payments without its ground of § 20 UStG is refused, in both.
        self.open("/settings/tax")
        assert self.driver.title == "Tax methods · kontor", self.driver.title
        self.axe("tax-methods")
        self.shot("tax-methods")
        self.choose("vatMethod", "ist")
        self.submit("Save tax methods")
        assert "VAT on payments received needs the ground of § 20 sentence 1 UStG" in self.text(), self.text()
        self.axe("tax-methods-refused")
        self.choose("istReason", "freelance")
        self.submit("Save tax methods")
        assert "The tax methods are saved." in self.text(), self.text()
        changes = self.kontor("company", "show", company)["taxMethods"]["changes"]
        assert any(c["vatMethod"] == "IST" and c["istReason"] == "FREELANCE" for c in changes), changes
        self.sign_out()

    def a_job_moves_and_gets_a_note(self):
        self.sign_in("accountant")
        self.link("Jobs")
        assert self.driver.title == "Jobs · kontor", self.driver.title
        self.axe("jobs")
        self.follow(self.driver.find_element(By.XPATH, "//main//tbody//a"))
        self.axe("job")
        select = self.driver.find_element(By.ID, "field-stage")
        options = select.find_elements(By.TAG_NAME, "option")
        target = [o for o in options if not o.is_selected()][-1]
        stage = target.text
        target.click()
        self.submit("Move")
        assert "The stage is changed." in self.text(), self.text()
        self.submit("Add note")
        assert "is missing" in self.driver.find_element(By.ID, "field-text-error").text
        self.axe("job-refused")
        self.type_into("text", "Spoke with the customer.")
        self.submit("Add note")
        assert "The note is added." in self.text()
        assert "Spoke with the customer." in self.text()
        assert stage in self.text()

    def open_invoice_owing_its_gross(self):
        """Opens the newest open invoice that nothing was paid on yet."""
        self.open("/invoices?status=OPEN")
        for row in self.driver.find_elements(By.XPATH, "//main//tbody/tr"):
            cells = row.find_elements(By.TAG_NAME, "td")
            if cells[4].text == cells[5].text:
                self.follow(cells[0].find_element(By.TAG_NAME, "a"))
                return
        raise AssertionError("no open invoice without payments: " + self.text())

    def invoice_paid_in_parts_and_another_cancelled(self):
        self.sign_in("accountant")
        self.link("Invoices")
        assert self.driver.title == "Invoices · kontor", self.driver.title
        self.axe("invoices")
        self.link("Paid")
        assert "Stadtwerke Lüneburg" in self.text() and "Müller Bau GmbH" not in self.text()
        self.type_into("search", "Müller")
        self.press("//form[@role='search']//button")
        assert "No invoice found." in self.text(), "nothing of Müller is paid"
        self.link("All")
        assert "Müller Bau GmbH" in self.text() and "Stadtwerke" not in self.text(), self.text()
        self.axe("invoices-search")
        self.open_invoice_owing_its_gross()
        number = self.driver.find_element(By.TAG_NAME, "h1").text.removeprefix("Invoice ")
        self.axe("invoice")
        # The PDF, fetched with the person's session as the browser would download it.
        link = self.driver.find_element(By.LINK_TEXT, "PDF (Factur-X)").get_attribute("href")
        session = self.driver.get_cookie("kontor_session")["value"]
        request = urllib.request.Request(link, headers={"Cookie": f"kontor_session={session}"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.headers["Content-Type"] == "application/pdf", answer.headers
            assert "attachment" in answer.headers["Content-Disposition"], answer.headers
            assert answer.read(5) == b"%PDF-"
        owed = self.driver.find_element(By.ID, "outstanding").text.removeprefix("€")
        # More than is owed: refused beside the field, kept as typed.
        self.type_into("amount", "99,999,999.00")
        self.submit("Record payment")
        assert self.field("amount").get_attribute("value") == "99,999,999.00"
        assert "more than" in self.driver.find_element(By.ID, "field-amount-error").text
        self.axe("invoice-payment-refused")
        self.type_into("amount", "1,000.00")
        self.field("reference").send_keys("Abschlag")
        self.submit("Record payment")
        assert "The payment is recorded." in self.text(), self.text()
        rest = self.driver.find_element(By.ID, "outstanding").text.removeprefix("€")
        assert rest != owed, (owed, rest)
        assert "payment recorded" in self.text()
        self.shot("invoice")
        self.type_into("amount", rest)
        self.submit("Record payment")
        assert "Paid in full on" in self.text(), self.text()
        assert self.driver.find_element(By.ID, "outstanding").text == "€0.00"
        self.axe("invoice-paid")
        # Another invoice is cancelled, after a page naming its credit note.
        self.open_invoice_owing_its_gross()
        other = self.driver.find_element(By.TAG_NAME, "h1").text.removeprefix("Invoice ")
        assert other != number
        self.link("Cancel invoice")
        assert "cannot be undone" in self.text(), self.text()
        credit_note = self.driver.find_element(By.ID, "next-number").text
        self.axe("invoice-cancel-confirm")
        self.type_into("reason", "Doppelt berechnet")
        self.submit("Cancel the invoice")
        assert self.driver.title == f"Credit note {credit_note} · kontor", self.driver.title
        assert f"{other} is cancelled; this credit note {credit_note} reverses it." in self.text()
        self.axe("credit-note")
        self.link(other)
        assert "cancelled" in self.text() and "Doppelt berechnet" in self.text()
        # A viewer reads the invoices and is refused each act.
        self.sign_in("viewer")
        self.link("Invoices")
        self.link("Open")
        self.follow(self.driver.find_element(By.XPATH, "//main//tbody//a"))
        assert "Record payment" not in self.text() and "Cancel invoice" not in self.text()
        assert not self.driver.find_elements(By.NAME, "amount")
        assert not self.driver.find_elements(By.LINK_TEXT, "Cancel invoice")
        self.open(self.path().split("?")[0] + "/cancel")
        assert "does not allow this; nothing was done" in self.text(), self.text()

    def viewer_is_refused(self):
        self.sign_in("viewer")
        self.link("Customers")
        assert "New customer" not in self.text()
        self.open("/customers/new")
        assert "does not allow this; nothing was done" in self.text(), self.text()
        self.axe("refused")
        assert "Developers" not in self.driver.find_element(By.TAG_NAME, "nav").text
        for path in ["/developers", "/bills/new"]:
            self.open(path)
            assert "does not allow this; nothing was done" in self.text(), path
        self.link("Bills")
        assert "Record a bill" not in self.text()
        self.link("Books")
        assert not self.driver.find_elements(By.NAME, "through")
        self.link("Jobs")
        self.follow(self.driver.find_element(By.XPATH, "//main//tbody//a"))
        assert not self.driver.find_elements(By.NAME, "text")

    def forged_post_is_refused(self):
        self.sign_in("owner")
        before = self.customers_named("Forged GmbH")
        # A page of another origin that posts a customer to kontor.
        form = (
            f"<!DOCTYPE html><html lang='en'><title>elsewhere</title><body>"
            f"<form id='f' method='post' action='{self.base}/customers'>"
            "<input name='name' value='Forged GmbH'><input name='street' value='X 1'>"
            "<input name='postalCode' value='1'><input name='city' value='Y'>"
            "<button>go</button></form></body></html>"
        )

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = form.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        elsewhere = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=elsewhere.serve_forever, daemon=True).start()
        try:
            self.driver.get(f"http://127.0.0.1:{elsewhere.server_address[1]}/")
            self.follow(self.driver.find_element(By.TAG_NAME, "button"))
            assert "sent from another site; nothing was done" in self.text(), self.text()
        finally:
            elsewhere.shutdown()
        assert self.customers_named("Forged GmbH") == before

    def customers_named(self, name):
        self.open("/customers?search=" + name.replace(" ", "+"))
        return self.text().count(name)

    def settings_and_an_invitation(self):
        self.sign_in("owner")
        self.link("Settings")
        assert self.driver.title == "Settings · kontor", self.driver.title
        self.axe("settings")
        self.type_into("paymentDays", "3w")
        self.submit("Save payment days")
        assert self.field("paymentDays").get_attribute("value") == "3w"
        assert "whole number" in self.driver.find_element(By.ID, "field-paymentDays-error").text
        self.axe("settings-refused")
        self.type_into("paymentDays", "21")
        self.submit("Save payment days")
        assert "The payment days are saved." in self.text(), self.text()
        assert self.field("paymentDays").get_attribute("value") == "21"
        self.link("People of this company")
        assert self.driver.title == "People · kontor", self.driver.title
        self.axe("people")
        email = f"invited-{int(time.time())}@example.com"
        self.type_into("email", email)
        self.type_into("name", "Ines Invited")
        self.driver.find_element(By.ID, "field-role").find_element(By.XPATH, "option[@value='accountant']").click()
        self.submit("Invite")
        assert "shown only this once" in self.text(), self.text()
        link = self.driver.find_element(By.ID, "link").get_attribute("value")
        assert link.startswith(self.base + "/invite?token="), link
        self.axe("invitation-made")
        # The invited person opens the link in a browser of their own.
        self.driver.delete_all_cookies()
        self.driver.get(link)
        assert self.driver.title == "Invitation · kontor", self.driver.title
        assert "as accountant" in self.text(), self.text()
        self.axe("invitation")
        password = "a long enough passphrase"
        self.type_into("password", password)
        self.type_into("passwordRepeat", "something else entirely")
        self.submit("Join")
        assert "differs from the password" in self.driver.find_element(By.ID, "field-passwordRepeat-error").text
        assert self.field("name").get_attribute("value") == "Ines Invited"
        self.axe("invitation-refused")
        self.type_into("password", password)
        self.type_into("passwordRepeat", password)
        self.submit("Join")
        assert "Welcome" in self.text(), self.text()
        self.axe("invitation-accepted")
        self.link("To the sign-in")
        self.type_into("email", email)
        self.type_into("password", password)
        self.follow(self.driver.find_element(By.XPATH, "//main//button[@type='submit']"))
        assert self.path() == "/dashboard", self.path()
        assert "Ines Invited (accountant)" in self.text(), self.text()
        self.link("Settings")
        assert "People of this company" not in self.text()
        # The link worked once.
        self.driver.delete_all_cookies()
        self.driver.get(link)
        assert "This link was used already" in self.text(), self.text()
        self.axe("link-used")

    def bank_statement_is_imported_and_its_lines_settled(self):
        self.sign_in("owner")
        self.open("/settings/bank")
        self.axe("bank-accounts")
        self.type_into("iban", "DE36 7602 6000 0123 4567 89")
        self.type_into("name", "Geschäftskonto")
        self.submit("Add account")
        assert "Saved." in self.text() and "DE36 7602 6000 0123 4567 89" in self.text(), self.text()
        # Two open invoices: the first paid 10.00 short by its number (a
        # suggestion, confirmed, the 10.00 left open), then a stranger pays
        # the second and those 10.00 together (both ticked by a person).
        self.open("/invoices?status=OPEN")
        owed = []
        for row in self.driver.find_elements(By.XPATH, "//main//tbody/tr"):
            cells = row.find_elements(By.TAG_NAME, "td")
            minor = int(re.sub(r"[^0-9]", "", cells[5].text))
            if minor > 1000 and len(owed) < 2:
                owed.append((cells[0].text, minor))
        assert len(owed) == 2, self.text()
        (first, first_owed), (second, second_owed) = owed
        day = datetime.date.today().isoformat()

        def entry(ref, minor, name, remittance):
            credit = "CRDT" if minor > 0 else "DBIT"
            amount = f"{abs(minor) // 100}.{abs(minor) % 100:02d}"
            role = "Dbtr" if minor > 0 else "Cdtr"
            self.written.update(t for t in (name, remittance) if t)
            return (f"<Ntry><Amt Ccy=\"EUR\">{amount}</Amt><CdtDbtInd>{credit}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>"
                    f"<BookgDt><Dt>{day}</Dt></BookgDt><ValDt><Dt>{day}</Dt></ValDt><AcctSvcrRef>{ref}</AcctSvcrRef>"
                    f"<NtryDtls><TxDtls><RltdPties><{role}><Pty><Nm>{name}</Nm></Pty></{role}></RltdPties>"
                    f"<RmtInf><Ustrd>{remittance}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>")

        stamp = int(time.time())
        entries = [
            entry(f"B1-{stamp}", first_owed - 1000, "Müller Bau GmbH", f"Rechnung {first}"),
            entry(f"B2-{stamp}", second_owed + 1000, "Unbekannt", "Sammelzahlung"),
            entry(f"B3-{stamp}", -1290, "", "Kontofuehrung"),
        ]
        camt = ('<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">'
                f"<BkToCstmrStmt><GrpHdr><MsgId>M-{stamp}</MsgId></GrpHdr><Stmt><Id>S-{stamp}</Id>"
                "<Acct><Id><IBAN>DE36760260000123456789</IBAN></Id><Ccy>EUR</Ccy></Acct>"
                + "".join(entries) + "</Stmt></BkToCstmrStmt></Document>")
        path = self.shots / f"statement-{stamp}.xml"
        path.write_text(camt, encoding="utf-8")
        self.link("Bank")
        assert self.driver.title == "Bank · kontor", self.driver.title
        self.axe("bank")
        self.field("files").send_keys(str(path.resolve()))
        self.submit("Import")
        assert self.driver.title == "Statements imported · kontor", self.driver.title
        assert path.name in self.text(), self.text()
        self.axe("bank-imported")
        # The suggestion: the number named, 10.00 less than open.
        self.link("Lines with suggestions")
        self.follow(self.driver.find_element(By.XPATH, "//main//tbody//a"))
        assert first in self.text() and "partial payment" in self.text(), self.text()
        self.axe("bank-line")
        self.submit(f"Confirm {first}")
        assert "The suggestion is settled." in self.text(), self.text()
        assert "Settled" in self.text()
        # The stranger's line pays two invoices: both ticked among the open
        # ones (the first owing the 10.00 left), the split filled by the
        # server, settled.
        self.open("/bank?state=unmatched")
        rows = self.driver.find_elements(By.XPATH, "//main//tbody/tr[td[contains(., 'Unbekannt')]]")
        self.follow(rows[0].find_element(By.TAG_NAME, "a"))
        assert "Open invoices that could fit" in self.text(), self.text()
        self.axe("bank-line-pick")
        for number in (second, first):
            self.driver.find_element(
                By.XPATH, f"//table[@id='candidates']//tr[td[normalize-space()='{number}']]//input[@type='checkbox']"
            ).click()
        self.submit("Fill the split with the ticked")
        total = second_owed + 1000
        assert f"the ticked documents owe €{total // 100:,}.{total % 100:02d}." in self.text(), self.text()
        self.axe("bank-line-filled")
        self.submit("Split")
        assert "The line is split." in self.text(), self.text()
        assert "Settled" in self.text(), self.text()
        assert second in self.text() and first in self.text(), self.text()
        self.axe("bank-line-split")
        split_line = self.path().split("?")[0]
        self.open("/invoices?status=OPEN")
        for number in (second, first):
            still = self.driver.find_elements(By.XPATH, f"//main//tbody/tr[td[1][normalize-space()='{number}']]")
            assert not still, f"{number} is still open: {self.text()}"
        # The bank's fee, booked to fees.
        self.open("/bank?state=unmatched")
        rows = self.driver.find_elements(By.XPATH, "//main//tbody/tr[td[contains(., 'Kontofuehrung')]]")
        self.follow(rows[0].find_element(By.TAG_NAME, "a"))
        self.submit("Book")
        assert "The line is booked." in self.text(), self.text()
        # The split undone: the invoices owe their gross again.
        self.open(split_line)
        self.submit("Undo (by counter-postings)")
        assert "Undone by counter-postings." in self.text(), self.text()
        assert "undone" in self.text()
        self.axe("bank-line-undone")
        self.shot("bank")

    def reload_until(self, element_id, word, seconds=15):
        """Reloads the page until the element's text holds `word` (the mail
        worker of the running demo sends within a second)."""
        deadline = time.time() + seconds
        while True:
            if word in self.driver.find_element(By.ID, element_id).text:
                return
            assert time.time() < deadline, self.driver.find_element(By.ID, element_id).text
            time.sleep(0.3)
            self.driver.refresh()

    def taken(self):
        """The messages the SMTP server took, as it read them."""
        return [json.loads(p.read_text()) for p in sorted(self.smtp_out.glob("*.json"), key=lambda p: int(p.stem))]

    def mail_invoice_and_reminders(self):
        self.sign_in("owner")
        self.link("Settings")
        self.link("Mail settings")
        assert self.driver.title == "Mail settings · kontor", self.driver.title
        self.axe("mail-settings")
        self.driver.find_element(By.ID, "field-security").find_element(By.XPATH, "option[@value='none']").click()
        self.type_into("host", "mail.example.org")
        self.type_into("port", str(self.smtp_port))
        self.type_into("from", "rechnung@nordlicht.example")
        self.type_into("fromName", "Nordlicht Werkstatt")
        self.type_into("bcc", "archiv@nordlicht.example")
        self.submit("Save mail settings")
        # No encryption only on this machine: refused beside the field, what was typed kept.
        assert "only for a relay on this machine" in self.text(), self.text()
        assert self.field("from").get_attribute("value") == "rechnung@nordlicht.example"
        self.axe("mail-settings-refused")
        self.type_into("host", "127.0.0.1")
        self.submit("Save mail settings")
        assert "The mail settings are saved." in self.text(), self.text()
        self.type_into("to", "owner@nordlicht.example")
        self.submit("Send a test mail")
        assert "The test mail is on its way" in self.text(), self.text()
        self.reload_until("test-state", "sent")
        self.axe("mail-settings-tested")
        # The reminders of the day: the oldest overdue invoice is due for its first.
        self.link("Reminders")
        assert self.driver.title == "Reminders · kontor", self.driver.title
        self.axe("reminders")
        first = self.driver.find_element(By.XPATH, "//table[@id='proposals']//tbody/tr[1]")
        number = first.find_element(By.XPATH, "td[2]//a").text
        customer = first.find_element(By.XPATH, "td[3]").text.split(" (")[0]
        # Its customer gets an invoice address and English on its page.
        self.link("Customers")
        self.link(customer)
        self.type_into("invoiceEmail", "invoices@customer.example")
        self.driver.find_element(By.ID, "field-language").find_element(By.XPATH, "option[@value='en']").click()
        self.submit("Save")
        assert "Saved." in self.text(), self.text()
        assert self.field("invoiceEmail").get_attribute("value") == "invoices@customer.example"
        self.axe("customer-mail-fields")
        # The invoice by e-mail.
        self.open("/invoices/" + number)
        self.link("Send by e-mail")
        assert self.field("to").get_attribute("value") == "invoices@customer.example"
        self.axe("invoice-send")
        self.submit("Send")
        assert "on its way by e-mail" in self.text(), self.text()
        self.reload_until("sends", "sent")
        self.axe("invoice-sent")
        # The reminders: only this invoice's goes.
        self.link("Reminders")
        for box in self.driver.find_elements(By.XPATH, "//table[@id='proposals']//input[@type='checkbox']"):
            if box.get_attribute("value") != number and box.is_selected():
                box.click()
        self.submit("Send the ticked reminders")
        assert "1 reminder is recorded" in self.text(), self.text()
        self.open("/invoices/" + number)
        deadline = time.time() + 15
        state = "//table[@id='sends']//tr[td[2][normalize-space()='reminder']]/td[4]"
        while not any("sent" in e.text for e in self.driver.find_elements(By.XPATH, state)):
            assert time.time() < deadline, self.text()
            time.sleep(0.3)
            self.driver.refresh()
        level = self.driver.find_element(By.XPATH, "//table[@id='reminders']//tbody/tr[1]/td[1]").text
        assert level == "1", level
        self.axe("invoice-reminded")
        self.shot("invoice-sent")
        taken = self.taken()
        subjects = [t["subject"] for t in taken]
        # The test mail is in the seller's language (German for a German company).
        assert any(s.startswith("Testnachricht von kontor") for s in subjects), subjects
        invoice_mail = next(t for t in taken if t["subject"].startswith(f"Invoice {number}"))
        assert invoice_mail["rcpt_tos"] == ["invoices@customer.example", "archiv@nordlicht.example"], invoice_mail
        assert [p["contentType"] for p in invoice_mail["parts"]] == ["text/plain", "application/pdf"], invoice_mail
        reminder = next(t for t in taken if "Payment reminder" in t["subject"])
        assert reminder["parts"][1]["fileName"].endswith("-reminder-1.pdf"), reminder

    def tax_adviser_settings_export_and_vat_return(self):
        self.sign_in("owner")
        self.link("Settings")
        self.link("DATEV: chart of accounts, adviser and client numbers, fiscal year, account numbers")
        assert self.driver.title == "DATEV settings · kontor", self.driver.title
        self.axe("datev-settings")
        self.type_into("datevAdviser", "29098")
        self.type_into("datevClient", "5500x")
        self.submit("Save DATEV settings")
        assert self.field("datevClient").get_attribute("value") == "5500x"
        assert "1 to 99999" in self.driver.find_element(By.ID, "field-datevClient-error").text
        self.axe("datev-settings-refused")
        self.type_into("datevClient", "55003")
        self.submit("Save DATEV settings")
        assert "The DATEV settings are saved." in self.text(), self.text()
        # The VAT return: last month was closed by the flow before, this
        # month is open.
        today = datetime.date.today()
        last = today.replace(day=1) - datetime.timedelta(days=1)
        self.link("Books")
        self.link("VAT return")
        assert self.driver.title == "VAT return · kontor", self.driver.title
        self.type_into("period", last.strftime("%Y-%m"))
        self.submit("Show")
        assert "Final" in self.text() and "ELSTER" in self.text(), self.text()
        self.axe("vat-return")
        self.shot("vat-return")
        self.type_into("period", today.strftime("%Y-%m"))
        self.submit("Show")
        assert "Preliminary" in self.text(), self.text()
        self.type_into("period", "last month")
        self.submit("Show")
        assert "is a month" in self.driver.find_element(By.ID, "field-period-error").text
        self.axe("vat-return-refused")
        # The export: refused beside its field, then downloaded.
        self.link("Export")
        assert self.driver.title == "Export · kontor", self.driver.title
        assert "preliminary" in self.text(), self.text()
        self.axe("export")
        self.set_value("from", today.isoformat())
        self.set_value("to", last.isoformat())
        self.submit("Download the DATEV export")
        assert "lies after the last day" in self.driver.find_element(By.ID, "field-from-error").text
        self.axe("export-refused")
        # The download: Chromium saves the ZIP into a folder of its own.
        downloads = Path(tempfile.mkdtemp(prefix="kontor-datev-"))
        self.driver.execute_cdp_cmd(
            "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
        )
        self.set_value("from", last.replace(day=1).isoformat())
        self.set_value("to", last.isoformat())
        self.driver.find_element(By.XPATH, "//main//button[normalize-space()='Download the DATEV export']").click()
        deadline = time.time() + 20
        zips = []
        while time.time() < deadline:
            zips = [f for f in downloads.iterdir() if f.suffix == ".zip"]
            if zips:
                break
            time.sleep(0.2)
        assert zips, f"no ZIP downloaded: {list(downloads.iterdir())}"
        assert zips[0].name.startswith("DATEV_55003_") and not zips[0].name.endswith("_vorlaeufig.zip"), zips[0].name
        with zipfile.ZipFile(zips[0]) as archive:
            names = archive.namelist()
        assert any(n.startswith("EXTF_Buchungsstapel_") for n in names), names
        assert any(n.startswith("EXTF_Debitoren_Kreditoren_") for n in names), names
        shutil.rmtree(downloads, ignore_errors=True)
        self.open("/books/export")
        assert "final" in self.text(), "the closed month's export is listed final: " + self.text()
        self.shot("export")

    def sign_out_ends_the_session(self):
        self.sign_in("owner")
        self.press("//button[normalize-space()='Sign out']")
        assert self.path() == "/login", self.path()
        self.open("/dashboard")
        assert self.path() == "/login", self.path()

    # --- two-factor sign-in, at http://localhost:PORT (WebAuthn refuses IP addresses) ---

    def at_localhost(self):
        """Moves the run to http://localhost:PORT; returns the address it had."""
        earlier = self.base
        self.base = self.base.replace("127.0.0.1", "localhost")
        return earlier

    def invited(self, role, name):
        """A person the owner invites with `role`, who joins with a password: (email, password)."""
        self.sign_in("owner")
        self.open("/settings/users")
        email = f"{name.split()[0].lower()}-{int(time.time() * 1000)}@example.com"
        self.type_into("email", email)
        self.type_into("name", name)
        self.driver.find_element(By.ID, "field-role").find_element(By.XPATH, f"option[@value='{role}']").click()
        self.submit("Invite")
        link = self.driver.find_element(By.ID, "link").get_attribute("value")
        path = link[link.index("/invite?"):]
        self.driver.delete_all_cookies()
        self.open(path)
        password = "a long enough passphrase"
        self.type_into("password", password)
        self.type_into("passwordRepeat", password)
        self.submit("Join")
        assert "Welcome" in self.text(), self.text()
        return email, password

    def password_step(self, email, password):
        """Signs in with the password; a person with a second factor is asked for it."""
        self.driver.delete_all_cookies()
        self.open("/login")
        self.type_into("email", email)
        self.type_into("password", password)
        self.follow(self.driver.find_element(By.XPATH, "//main//button[@type='submit']"))

    def sign_out(self):
        self.press("//button[normalize-space()='Sign out']")
        assert self.path() == "/login", self.path()

    def turn_on_app(self, axe_names=True):
        """On the account page: sets up an app; returns (pyotp's TOTP, recovery codes)."""
        self.submit("Set up an authenticator app")
        assert self.driver.title == "Set up the authenticator app · kontor", self.driver.title
        secret = self.driver.find_element(By.ID, "secret").get_attribute("value")
        uri = self.driver.find_element(By.ID, "otpauth").get_attribute("value")
        assert uri.startswith("otpauth://totp/kontor:") and "issuer=kontor" in uri, uri
        assert pyotp.parse_uri(uri).secret == secret, uri
        assert self.driver.find_element(By.CSS_SELECTOR, "img.qr").get_attribute("alt")
        if axe_names:
            self.axe("totp-set-up")
            self.shot("totp-set-up")
        app = pyotp.TOTP(secret)
        self.type_into("code", app.now())
        self.submit("Confirm and turn on")
        assert "The authenticator app is on" in self.text(), self.text()
        codes = [c.text for c in self.driver.find_elements(By.CSS_SELECTOR, "#recovery-codes code")]
        assert len(codes) == 10, codes
        assert secret not in self.driver.page_source
        if axe_names:
            self.axe("recovery-codes")
        return app, codes, secret

    def app_code_step(self, code):
        self.type_into("code", code)
        self.submit("Confirm")

    def two_factor_app(self):
        earlier = self.at_localhost()
        try:
            email, password = self.invited("accountant", "Tilo Totp")
            self.password_step(email, password)
            assert self.path() == "/dashboard", self.path()
            self.link("My account")
            assert self.driver.title == "My account · kontor", self.driver.title
            self.axe("account")
            app, codes, secret = self.turn_on_app()
            self.link("Back to my account")
            assert "An authenticator app is on" in self.text(), self.text()
            assert "10 of your recovery codes are unused" in self.text(), self.text()
            assert secret not in self.driver.page_source
            assert not any(c in self.driver.page_source for c in codes)
            self.axe("account-with-app")
            self.sign_out()
            # Password, then the code of the next step (within the one step of drift allowed).
            self.password_step(email, password)
            assert self.path() == "/login/second-factor", self.path()
            assert self.driver.title == "Second factor · kontor", self.driver.title
            self.axe("second-factor")
            self.shot("second-factor")
            self.open("/dashboard")
            assert self.path() == "/login", "the step is no session: " + self.path()
            self.open("/login/second-factor")
            code = app.at(time.time() + 30)
            self.app_code_step(code)
            assert self.path() == "/dashboard", self.path()
            self.sign_out()
            # The same code again is refused, and so is a wrong one.
            self.password_step(email, password)
            self.app_code_step(code)
            assert self.path() == "/login/code", self.path()
            assert "The code is wrong or was used already." in self.text(), self.text()
            self.axe("second-factor-refused")
            wrong = next(c for c in (f"{n:06d}" for n in range(1000000))
                         if all(c != app.at(time.time() + 30 * k) for k in range(-2, 3)))
            self.app_code_step(wrong)
            assert "The code is wrong or was used already." in self.text(), self.text()
            # A recovery code signs in once.
            self.type_into("recoveryCode", codes[0])
            self.submit("Sign in with the recovery code")
            assert self.path() == "/dashboard", self.path()
            self.sign_out()
            self.password_step(email, password)
            self.type_into("recoveryCode", codes[0])
            self.submit("Sign in with the recovery code")
            assert "This recovery code is wrong or was used already." in self.text(), self.text()
            assert self.path() == "/login/recovery", self.path()
        finally:
            self.base = earlier

    def passkey(self):
        earlier = self.at_localhost()
        options = VirtualAuthenticatorOptions(
            protocol=VirtualAuthenticatorOptions.Protocol.CTAP2,
            transport=VirtualAuthenticatorOptions.Transport.INTERNAL,
            has_resident_key=True,
            has_user_verification=True,
            is_user_consenting=True,
            is_user_verified=True,
        )
        try:
            email, password = self.invited("viewer", "Petra Passkey")
            self.password_step(email, password)
            self.driver.add_virtual_authenticator(options)
            self.link("My account")
            self.type_into("name", "Virtual key")
            self.submit("Register a passkey")
            assert "The passkey “Virtual key” is registered" in self.text(), self.text()
            codes = [c.text for c in self.driver.find_elements(By.CSS_SELECTOR, "#recovery-codes code")]
            assert len(codes) == 10, codes
            self.axe("passkey-registered")
            assert len(self.driver.get_credentials()) == 1
            self.link("Back to my account")
            assert "Virtual key" in self.driver.find_element(By.ID, "passkeys").text
            assert not any(c in self.driver.page_source for c in codes)
            self.axe("account-with-passkey")
            self.shot("account-with-passkey")
            self.sign_out()
            # Password, then the passkey instead of a code.
            self.password_step(email, password)
            assert self.path() == "/login/second-factor", self.path()
            assert "Use a passkey" in self.text()
            self.axe("second-factor-passkey")
            self.submit("Use a passkey")
            assert self.path() == "/dashboard", self.path()
            self.link("My account")
            assert "never" not in self.driver.find_element(By.ID, "passkeys").text
            # Removed on the same page: the next sign-in asks for no second factor.
            self.submit("Remove Virtual key")
            assert "The passkey is removed." in self.text(), self.text()
            self.sign_out()
            self.password_step(email, password)
            assert self.path() == "/dashboard", self.path()
        finally:
            try:
                self.driver.remove_virtual_authenticator()
            except Exception:
                pass
            self.base = earlier

    def owner_requires_two_factors(self):
        """Last of the run: from here on nobody of the demo company acts without a second factor."""
        earlier = self.at_localhost()
        try:
            self.sign_in("owner")
            self.link("Settings")
            self.link("People of this company")
            self.driver.find_element(By.ID, "field-required").click()
            self.submit("Save")
            # The owner has no second factor either: led to set one up.
            assert self.path() == "/account", self.path()
            assert "This company requires two-factor sign-in" in self.text(), self.text()
            self.axe("account-required")
            self.shot("account-required")
            self.open("/customers")
            assert self.path() == "/account", self.path()
            # A person without is led to set one up at their next sign-in.
            email, password = self.people["viewer"]
            self.password_step(email, password)
            assert self.path() == "/account", self.path()
            assert "This company requires two-factor sign-in" in self.text(), self.text()
            self.open("/invoices")
            assert self.path() == "/account", self.path()
            app, _, _ = self.turn_on_app(axe_names=False)
            self.open("/dashboard")
            assert self.path() == "/dashboard", self.path()
            self.sign_out()
            self.password_step(email, password)
            assert self.path() == "/login/second-factor", self.path()
            self.app_code_step(app.at(time.time() + 30))
            assert self.path() == "/dashboard", self.path()
        finally:
            self.base = earlier

    def run(self):
        try:
            self.check("sign-in page", self.sign_in_page)
            self.check("owner creates a customer", self.owner_creates_a_customer)
            self.check("language", self.language)
            self.check("test data", self.test_data)
            self.check("an API key made in Developers works", self.developers_key_works)
            self.check("a webhook receives a bill recorded and paid", self.webhook_receives_a_bill)
            self.check("e-invoices are received, read, booked and refused", self.receive_read_book_and_refuse_e_invoices)
            self.check("a draft is filled, previewed and issued", self.draft_is_filled_previewed_and_issued)
            self.check("mail configured, an invoice sent, the reminders run", self.mail_invoice_and_reminders)
            self.check("a month is closed and the statements read", self.close_a_month_and_read_the_statements)
            self.check("the chart of accounts, a split bill and the HGB statements in German and English", self.chart_of_accounts_a_split_bill_and_the_hgb_statements)
            self.check("fixed assets recorded from a bill, depreciated and disposed of", self.fixed_assets_recorded_depreciated_and_disposed)
            self.check("a freelancer's cash-basis profit statement in English and German", self.cash_basis_profit_statement)
            self.check("a job moves a stage and gets a note", self.a_job_moves_and_gets_a_note)
            self.check("an invoice is paid in parts and another cancelled", self.invoice_paid_in_parts_and_another_cancelled)
            self.check("viewer is refused an act", self.viewer_is_refused)
            self.check("forged cross-site post is refused", self.forged_post_is_refused)
            self.check("settings and an invitation", self.settings_and_an_invitation)
            self.check("a statement is imported and its lines settled", self.bank_statement_is_imported_and_its_lines_settled)
            self.check("the tax adviser's settings, the VAT return and the DATEV export", self.tax_adviser_settings_export_and_vat_return)
            self.check("signing out ends the session", self.sign_out_ends_the_session)
            self.check("an authenticator app: a code once, a recovery code once", self.two_factor_app)
            self.check("a passkey registered, used and removed", self.passkey)
            self.check("an owner requires two factors of everyone", self.owner_requires_two_factors)
        finally:
            self.driver.quit()
        print(f"axe checked {len(self.checked)} pages: {', '.join(sorted(self.checked))}")
        print(f"read in their language: {len(self.spoken)} pages: {', '.join(sorted(self.spoken))}")
        if self.foreign:
            self.failed += 1
            print(f"FAIL one language per page: {len(self.foreign)} lines in the other language")
            for line in self.foreign:
                print(f"  {line}")
        else:
            self.passed += 1
            print("ok   one language per page")
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--demo-output", required=True)
    parser.add_argument("--data", required=True)
    parser.add_argument("--kontor", required=True)
    parser.add_argument("--smtp-port", required=True)
    parser.add_argument("--smtp-out", required=True)
    parser.add_argument("--axe", required=True)
    parser.add_argument("--screenshots", required=True)
    parser.add_argument("--profile", required=True)
    sys.exit(Run(parser.parse_args()).run())


if __name__ == "__main__":
    main()

"""An SMTP server for kontor's mail tests: aiosmtpd (Debian's
python3-aiosmtpd, run by /usr/bin/python3) on a loopback port of its own
choosing, printed as `listening PORT` once it accepts connections.

  server.py --out DIR [--security starttls|tls|none] [--cert PEM --key PEM]
            [--user U --password P] [--hang]

Every message taken is written to DIR as N.eml (the bytes as received) and
N.json: the envelope (mail_from, rcpt_tos) and the message as Python's
email package reads it (subject and headers decoded; each leaf part with
its content type, file name, the SHA-256 of its decoded bytes, and the
text of a text part). With --user, AUTH is required (after TLS)
and only that login is accepted. Recipients steer the answers: a local
part starting with `busy-once` is answered 451 the first time it is seen
and taken after that; `busy` always 451; `reject` 550. With --hang the
server accepts connections and never says a word. Runs until killed.
"""

import argparse
import asyncio
import email
import email.policy
import hashlib
import json
import os
import socket
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--security", default="starttls", choices=["starttls", "tls", "none"])
    p.add_argument("--cert")
    p.add_argument("--key")
    p.add_argument("--user")
    p.add_argument("--password")
    p.add_argument("--hang", action="store_true")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    port = sock.getsockname()[1]

    context = None
    if a.security != "none":
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(a.cert, a.key)

    seen = set()
    counter = [0]

    class Handler:
        async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
            local = address.split("@", 1)[0].lower()
            if local.startswith("busy-once"):
                if address not in seen:
                    seen.add(address)
                    return "451 4.3.0 busy, try again later"
            elif local.startswith("busy"):
                return "451 4.3.0 busy, try again later"
            elif local.startswith("reject"):
                return "550 5.1.1 no such mailbox here"
            envelope.rcpt_tos.append(address)
            return "250 OK"

        async def handle_DATA(self, server, session, envelope):
            counter[0] += 1
            n = counter[0]
            # Each file is written under a passing name and renamed whole,
            # the envelope last: a reader that finds N.json finds both complete.
            eml = os.path.join(a.out, f"{n}.eml")
            with open(eml + ".part", "wb") as f:
                f.write(envelope.original_content)
            os.replace(eml + ".part", eml)
            message = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
            parts = []
            for part in message.walk():
                if part.is_multipart():
                    continue
                data = part.get_payload(decode=True) or b""
                parts.append({
                    "contentType": part.get_content_type(),
                    "fileName": part.get_filename(),
                    "disposition": part.get_content_disposition(),
                    "sha256": hashlib.sha256(data).hexdigest(),
                    "size": len(data),
                    "text": part.get_content() if part.get_content_maintype() == "text" else None,
                })
            headers = {k.lower(): str(v) for k, v in message.items()}
            envelope_file = os.path.join(a.out, f"{n}.json")
            with open(envelope_file + ".part", "w") as f:
                json.dump({
                    "mail_from": envelope.mail_from,
                    "rcpt_tos": envelope.rcpt_tos,
                    "subject": str(message["subject"]),
                    "headers": headers,
                    "contentType": message.get_content_type(),
                    "parts": parts,
                }, f)
            os.replace(envelope_file + ".part", envelope_file)
            return f"250 2.0.0 Ok: queued as TEST{n}"

    def authenticator(server, session, envelope, mechanism, auth_data):
        ok = (
            isinstance(auth_data, LoginPassword)
            and auth_data.login.decode() == a.user
            and auth_data.password.decode() == a.password
        )
        # Not handled here: aiosmtpd answers 235 or 535 itself.
        return AuthResult(success=ok, handled=False)

    def factory():
        kwargs = dict(hostname="localhost", timeout=60)
        if a.user:
            kwargs.update(authenticator=authenticator, auth_required=True, auth_require_tls=True)
        if a.security == "starttls":
            kwargs.update(tls_context=context, require_starttls=True)
        else:
            # Implicit TLS: the whole connection is encrypted, though
            # aiosmtpd only counts STARTTLS as TLS for AUTH.
            kwargs.update(auth_require_tls=False)
        return SMTP(Handler(), **kwargs)

    async def hang(reader, writer):
        await asyncio.sleep(3600)

    async def run():
        loop = asyncio.get_running_loop()
        if a.hang:
            await asyncio.start_server(hang, sock=sock)
        else:
            await loop.create_server(
                factory, sock=sock, ssl=context if a.security == "tls" else None
            )
        print(f"listening {port}", flush=True)
        await asyncio.Event().wait()

    asyncio.run(run())


if __name__ == "__main__":
    sys.exit(main())

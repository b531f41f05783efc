"""A loopback proxy that adds `Authorization: Bearer KEY` to every request it
forwards to UPSTREAM (the conformance suite has no option for a header).

Usage: bearer_proxy.py UPSTREAM_BASE KEY PORT_FILE

It listens on 127.0.0.1 at a free port, writes the port to PORT_FILE once it
accepts, and forwards method, path, headers (Host and Origin as sent, so the
server judges them) and body unchanged; the answer comes back as the server
gave it. A request that already carries Authorization keeps its own.
"""

import http.client
import http.server
import os
import sys
import urllib.parse

HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "proxy-connection",
    "transfer-encoding",
    "te",
    "trailer",
    "upgrade",
}


def main() -> None:
    upstream = urllib.parse.urlsplit(sys.argv[1])
    key = sys.argv[2]
    port_file = sys.argv[3]

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            pass

        def forward(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            conn = http.client.HTTPConnection(
                upstream.hostname, upstream.port, timeout=60
            )
            try:
                conn.putrequest(
                    self.command, self.path, skip_host=True, skip_accept_encoding=True
                )
                for name, value in self.headers.items():
                    if name.lower() not in HOP_BY_HOP and name.lower() != "content-length":
                        conn.putheader(name, value)
                if "Authorization" not in self.headers:
                    conn.putheader("Authorization", f"Bearer {key}")
                if body is not None:
                    conn.putheader("Content-Length", str(len(body)))
                conn.endheaders(body)
                reply = conn.getresponse()
                data = reply.read()
            except OSError as e:
                self.send_error(502, f"upstream: {e}")
                return
            finally:
                conn.close()
            self.send_response_only(reply.status, reply.reason)
            for name, value in reply.getheaders():
                if name.lower() not in HOP_BY_HOP and name.lower() != "content-length":
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

        do_GET = do_POST = do_DELETE = do_PUT = do_PATCH = do_HEAD = do_OPTIONS = forward

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(port_file + ".tmp", port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()

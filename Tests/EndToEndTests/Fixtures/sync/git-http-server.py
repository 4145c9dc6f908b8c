#!/usr/bin/env python3
"""A loopback smart-HTTP git server for the sync and git-credential tests:
every request runs `git http-backend` as CGI over the repositories under
ROOT. Prints the port it listens on (127.0.0.1, chosen by the system), then
serves until killed.

Usage: git-http-server.py ROOT [USER PASSWORD LOG_FILE]
With USER and PASSWORD, a request must name them in basic authentication,
as a forge wants; any other gets 401 with a Basic challenge. Each request
is then logged to LOG_FILE as one JSON line: method, path, the user it
named (or none) and the status."""
import base64
import http.server
import json
import os
import subprocess
import sys

ROOT = sys.argv[1]
USER, PASSWORD, LOG = (sys.argv[2:5] + [None, None, None])[:3]


class GitHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_request_line(self, named, status):
        with open(LOG, "a") as f:
            f.write(json.dumps({"method": self.command, "path": self.path, "user": named, "status": status}) + "\n")

    def authorized(self):
        """The user named with the right password, or None (401 sent)."""
        named, given = None, None
        header = self.headers.get("Authorization", "")
        if header.startswith("Basic "):
            try:
                named, _, given = base64.b64decode(header[6:]).decode().partition(":")
            except ValueError:
                named = None
        if named == USER and given == PASSWORD:
            return named
        self.log_request_line(named, 401)
        self.send_response(401)
        self.send_header("WWW-Authenticate", 'Basic realm="git"')
        self.send_header("Content-Length", "0")
        self.end_headers()
        return None

    def handle_any(self):
        remote_user = "tester"
        if USER is not None:
            remote_user = self.authorized()
            if remote_user is None:
                return
        path, _, query = self.path.partition("?")
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "GIT_PROJECT_ROOT": ROOT,
            "GIT_HTTP_EXPORT_ALL": "1",
            "REQUEST_METHOD": self.command,
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(length),
            "REMOTE_ADDR": "127.0.0.1",
            "REMOTE_USER": remote_user,
            "GATEWAY_INTERFACE": "CGI/1.1",
            "SERVER_PROTOCOL": "HTTP/1.0",
        }
        if self.headers.get("Content-Encoding"):
            env["HTTP_CONTENT_ENCODING"] = self.headers["Content-Encoding"]
        result = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True)
        head, _, payload = result.stdout.partition(b"\r\n\r\n")
        status = 200
        headers = []
        for line in head.split(b"\r\n"):
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "status":
                status = int(value.strip().split()[0])
            elif name:
                headers.append((name, value.strip()))
        if USER is not None:
            self.log_request_line(remote_user, status)
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = handle_any
    do_POST = handle_any

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), GitHandler)
print(server.server_address[1], flush=True)
server.serve_forever()

#!/usr/bin/env python3
"""A Pwned Passwords range API on loopback, for the online breach tests.

Usage: range-server.py LOG_FILE SCRIPT_FILE (the port is printed once ready)
SCRIPT_FILE is JSON: {"PREFIX": [answer, ...]}; each request for PREFIX
takes the next answer (the last one repeats). An answer is
{"status": 200, "body": "...", "headers": {...}, "delay": seconds}, or a
hostile one: {"stream": BYTES, "chunk": BYTES, "interval": seconds} sends
BYTES with no length, a chunk at a time (at most 256 MiB and 120 s, then
it stops), and {"gzip": BYTES} sends BYTES of "0" gzip-compressed.
Every request is logged as one JSON line: method, path, Add-Padding, the
request's Content-Length (none is expected), the client port and the time.
"""
import gzip
import json
import select
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

log_file, script_file = sys.argv[1:3]
with open(script_file) as f:
    script = json.load(f)
served = {}
lock = threading.Lock()
# Each gzip answer compressed before the server prints its port: made at the
# request, 64 MiB at level 9 took past the client's 3 s on a busy machine,
# and the answer was cut off for its time instead of its size.
compressed = {size: gzip.compress(b"0" * size, compresslevel=9)
              for answers in script.values() for answer in answers for size in [answer.get("gzip")] if size}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        prefix = self.path.rsplit("/", 1)[-1]
        with lock:
            with open(log_file, "a") as log:
                log.write(json.dumps({"method": "GET", "path": self.path,
                                      "padding": self.headers.get("Add-Padding"),
                                      "length": self.headers.get("Content-Length"),
                                      "client": self.client_address[1], "time": time.time()}) + "\n")
            answers = script.get(prefix, [{"status": 200, "body": ""}])
            index = served.get(prefix, 0)
            served[prefix] = index + 1
            answer = answers[min(index, len(answers) - 1)]
        if answer.get("delay"):
            time.sleep(answer["delay"])
        if answer.get("stream"):
            total, chunk = min(answer["stream"], 256 << 20), answer.get("chunk", 65536)
            interval, started, sent = answer.get("interval", 0), time.time(), 0
            try:
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Connection", "close")
                self.end_headers()
                while sent < total and time.time() - started < 120:
                    self.wfile.write(b"0" * chunk)
                    sent += chunk
                    # Between chunks, wait for the client to go away (its cut-off ends the
                    # wait at once), no longer than `interval`: a trickle, not a fixed sleep.
                    if interval and select.select([self.connection], [], [], interval)[0]:
                        break
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
            return
        if answer.get("gzip"):
            body = compressed[answer["gzip"]]
            try:
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        body = answer.get("body", "").encode()
        try:
            self.send_response(answer.get("status", 200))
            for name, value in answer.get("headers", {}).items():
                self.send_header(name, value)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
